"""The generator layer: new puzzles, unique by construction.

``core.generate_one(request, index)`` makes one (request.py, layout.py, draft.py, unique.py,
level.py); ``seeded.py`` is the small seeded generator ``deducer rules test`` audits rules
with.

May import: ``deducer.assist``, ``deducer.rules``, ``deducer.engine``, ``deducer.solver``,
``deducer.puzzle`` and ``deducer.errors``.
"""
