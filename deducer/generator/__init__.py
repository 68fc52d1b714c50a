"""The generator layer: new puzzles, unique by construction.

``core.generate_one(request, index)`` makes one (request.py, layout.py, draft.py, unique.py,
level.py); ``seeded.py`` is the small seeded generator ``deducer rules test`` audits rules
with.

The numbers in these modules (work budgets, steering, density, the default level mix) say
which puzzles a request and seed give, and are part of what a seed means; none changes how a
given puzzle is walked or rated: those limits are the ladder's (the rules' ``params:`` in
rules/core.yaml), and a puzzle's level is always the ladder's rating of it.

May import: ``deducer.assist``, ``deducer.rules``, ``deducer.engine``, ``deducer.solver``,
``deducer.puzzle`` and ``deducer.errors``.
"""
