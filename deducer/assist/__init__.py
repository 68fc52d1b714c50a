"""The assist layer: what players and learners ask of a position, built on the engine.

``hints`` (the next thing to do, in three tiers), ``why`` (the steps that rule a digit
out of a cell, or force it), ``checking`` (a player's entries against the solutions) and
``audit`` (a rule author's ladder against known solutions: ``deducer rules test``).

May import: ``deducer.rules``, ``deducer.engine``, ``deducer.proofcheck``,
``deducer.solver``, ``deducer.puzzle`` and ``deducer.errors``.
"""
