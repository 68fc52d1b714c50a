"""The explain layer: the step-by-step engine a person can follow.

``engine`` (simplest rule first, to fixpoint, each deduction logged as a step), ``state``
(candidates and live combos, the read-only view rules see), ``registry`` (rule YAML loading),
``sentences`` (step text from templates), ``rating`` (difficulty from the path),
``regions`` (sum regions), ``hints`` and ``checking`` (a player's grid).

May import: ``deducer.solve``, ``deducer.puzzle`` and ``deducer.errors``. It never imports a
renderer, the rule implementations (they are loaded by name from YAML) or the applications.

Calling the package calls the API's function of its name: ``deducer.explain(...)`` is
:func:`deducer.api.explain`.
"""

from .. import _callable_package

_callable_package(__name__)

