"""The generate layer: new puzzles, unique by construction.

``core.generate_one(request, index)`` makes one (request.py, layout.py, draft.py, unique.py,
level.py);
``generator.py`` is the small seeded generator ``deducer rules test`` audits rules with.

May import: ``deducer.explain``, ``deducer.solve``, ``deducer.puzzle`` and ``deducer.errors``.

Calling the package calls the API's function of its name: ``deducer.generate(...)`` is
:func:`deducer.api.generate`.
"""

from .. import _callable_package

_callable_package(__name__)

