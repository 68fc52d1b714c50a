"""The puzzle layer: what a Kakuro puzzle is and how it is read and written.

``model`` (geometry, runs, clues, givens), ``combos`` (the (sum, length) combination tables
and 9-bit mask helpers), ``formats/`` (one reader/writer per file format behind one
interface), ``fileio`` (safe reads and atomic writes) and ``records`` (solving records: the
moves a person made, in janko.at's notation).

May import: ``deducer.errors`` and the standard library only. Everything else builds on it.
"""


def _import_dataclasses() -> None:
    """Import :mod:`dataclasses` (the model's classes need it) without loading
    :mod:`inspect`: 8 ms, a third of a small puzzle's first solve (issue 40). dataclasses
    uses inspect once, for the docstring of a class that has none (deducer's have theirs):
    it gets a stand-in that loads inspect on first use, and no other module sees it."""
    import sys

    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        return
    import types

    stand_in = types.ModuleType("inspect", "loads inspect when dataclasses first needs it")

    def load(name: str):
        import importlib

        return getattr(importlib.import_module("inspect"), name)

    stand_in.__getattr__ = load  # type: ignore[method-assign]  # PEP 562
    sys.modules["inspect"] = stand_in
    try:
        import dataclasses  # noqa: F401
    finally:
        if sys.modules.get("inspect") is stand_in:
            del sys.modules["inspect"]


_import_dataclasses()  # here: the package runs before any of its modules
