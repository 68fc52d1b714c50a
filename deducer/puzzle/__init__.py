"""The puzzle layer: what a Kakuro puzzle is and how it is read and written.

``model`` (geometry, runs, clues, givens), ``combos`` (the (sum, length) combination tables
and 9-bit mask helpers), ``formats/`` (one reader/writer per file format behind one
interface), ``fileio`` (safe reads and atomic writes) and ``records`` (solving records: the
moves a person made, in janko.at's notation).

May import: ``deducer.errors`` and the standard library only. Everything else builds on it.
"""

