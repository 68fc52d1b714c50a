"""The proof checker: a layer of its own, so that it judges steps independently.

It reads a walkthrough's steps as JSON (docs/json-contract.md, "Proofs") and replays them
on the puzzle with its own small code: it never imports the engine, the rules or the
solver, whose results it checks. ``check_walkthrough`` lists the problems of a whole
walkthrough, ``check_step`` those of one step on a :class:`Replay`'s board, ``surplus``
the facts a proof could do without, ``unnamed`` the facts a sentence leaves out.
``checker.py`` is the judge; docs/architecture.md names the modules it hands each kind of
proof to.

May import: ``deducer.puzzle`` and ``deducer.errors``.
"""

from .audit import surplus, surplus_step, unnamed
from .checker import Problem, Replay, check_step, check_walkthrough, states
from .grid import Board

__all__ = ["Board", "Problem", "Replay", "check_step", "check_walkthrough", "states",
           "surplus", "surplus_step", "unnamed"]
