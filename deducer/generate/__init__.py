"""The generate layer: new puzzles, unique by construction.

May import: ``deducer.explain``, ``deducer.solve``, ``deducer.puzzle`` and ``deducer.errors``.
"""
