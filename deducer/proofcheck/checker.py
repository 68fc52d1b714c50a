"""An independent checker of step proofs (docs/json-contract.md, "Proofs").

It replays a walkthrough in its JSON shape (``Step.to_json()``) and checks, step by step,
that every fact of a proof is true in the state the earlier steps left, and that every
placement, elimination and ruled-out combination holds in every filling of the proof's
local problem. Proofs by assumption and by cases are checked link by link.

It deliberately shares no code with the rules or the solver: combinations come from
``itertools``, fillings from a small backtracking search of its own, and the state is
rebuilt from the steps' JSON alone. Only the puzzle geometry (``deducer.puzzle.model``) is
shared. A checker that reused the rules' tables would bless their mistakes.

This module is the judge: it replays the steps (:class:`Replay`) and hands each proof to
the check of its kind: ``simple.py`` (facts and a local problem), ``bound.py`` (a stated
sum bound), ``assume.py`` (proofs by assumption and by cases), on the board of
``grid.py``; ``audit.py`` goes beyond soundness (surplus facts, cells a sentence leaves
unnamed).

Problems are returned (never raised), each located by step (and link / case) with a
short message; ``kind`` is one of :data:`KINDS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..puzzle.model import Puzzle
from .assume import check_assumption, check_cases
from .bound import check_bound
from .grid import Board, Grid, Malformed, as_json, effects_of, peer_elims
from .simple import check_simple

#: what can be wrong with a step's proof
KINDS = {
    "no-proof": "the step carries no proof",
    "malformed": "the proof names a cell or run the puzzle does not have",
    "false-fact": "a fact is not true in the state the earlier steps left",
    "outside": "an effect is on a cell (or run) outside the local problem",
    "unproved": "an effect does not hold in every filling of the local problem",
    "no-contradiction": "a proof by assumption does not end in a contradiction",
    "missing-case": "a proof by cases leaves out a candidate of its cell",
    "too-big": "the local problem is too large to check",
    "surplus": "a fact or run can be dropped with the step still proved",
}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one step's proof."""

    step: int
    rule: str
    kind: str
    message: str
    where: str = ""  # "link 2", "case 3 link 1": inside a proof by assumption / cases

    def __str__(self) -> str:
        at = f" ({self.where})" if self.where else ""
        return f"step {self.step} [{self.rule}]{at}: {self.kind}: {self.message}"


class Replay(Grid):
    """A walkthrough replayed on the checker's board, each step judged as it is fed."""

    def feed(self, step) -> list[Problem]:
        """Check one step (a ``Step`` or its JSON) on the current board, then apply it
        whether or not its proof held, so one bad step does not hide the next."""
        js = as_json(step)
        out = check_step(self, self.board, js)
        try:
            self.apply(self.board, effects_of(self, js))
        except (Malformed, TypeError, ValueError):
            pass  # already reported by check_step
        return out


def check_step(rp: Replay, board: Board, step: dict) -> list[Problem]:
    """Problems of one step's proof on ``board`` (the state before the step)."""
    n, rule = step.get("n", 0), step.get("rule", "?")
    proof = step.get("proof")
    try:
        eff = effects_of(rp, step)
        if proof is None:
            return [Problem(n, rule, "no-proof", "the step carries no proof")]
        exempt = peer_elims(rp, eff.places)
        if "cases" in proof:
            found = check_cases(rp, board, proof, eff, exempt)
        elif "assume" in proof:
            found = check_assumption(rp, board, proof, eff, exempt)
        else:
            found = [("", k, m) for k, m in check_simple(rp, board, proof, eff, exempt)]
            if "bound" in proof:
                found += [("", "bound", m) for m in check_bound(rp, board, proof, eff)]
    except Malformed as e:
        return [Problem(n, rule, "malformed", str(e))]
    except (TypeError, ValueError, KeyError, IndexError) as e:
        return [Problem(n, rule, "malformed", f"unreadable proof ({type(e).__name__}: {e})")]
    return [Problem(n, rule, kind, msg, where) for where, kind, msg in found]


def check_walkthrough(puzzle: Puzzle, steps) -> list[Problem]:
    """Check every step of a walkthrough (``Step`` objects or their JSON) in order.

    Each step is checked in the state the earlier steps left, and then applied whether or
    not its proof held, so one bad step does not hide the next."""
    rp = Replay(puzzle)
    out: list[Problem] = []
    for step in steps:
        out += rp.feed(step)
    return out


def states(puzzle: Puzzle, steps):
    """Yield (replay, board before the step, step JSON) along a walkthrough."""
    rp = Replay(puzzle)
    for step in steps:
        js = as_json(step)
        yield rp, rp.board.copy(), js
        try:
            rp.apply(rp.board, effects_of(rp, js))
        except (Malformed, TypeError, ValueError):
            pass
