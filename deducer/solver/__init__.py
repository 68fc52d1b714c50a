"""The solver layer: the complete solver, with no sentences.

``propagate`` (exact per-run propagation over bitmasks), ``search`` (solution enumeration
with a cap, uniqueness, time limits), ``oracle`` (the SAT solver for hard searches) and
``graph`` (the run/cell graph, islands, regions). This is the engine that trial,
backtracking, hints, checks and the generator call when they need an answer rather than an
explanation.

May import: ``deducer.puzzle`` and ``deducer.errors``.
"""
