""""What if": write a digit in a cell on a copy of the player's grid and see what follows.

The play page's branch tool. From the grid as the player has it (clues, givens and
entries; pencil marks are not used, as for hints), the digit is written in the cell and the
ladder's link rules (the simple rules chains are made of, docs/rule-contract.md "Chains")
are followed on a private copy of the board, simplest first, as a forcing chain follows its
assumption (:func:`deducer.rules.chains.follow`). The answer reads like a chain: each link
with its sentence, its effect and its proof, and where the branch ends:

* ``contradiction``: a link breaks a rule (a cell with no digit left, a run no set of
  digits makes); the links are those the contradiction rests on, so the digit cannot go
  there, and the answer is a proof by assumption the proof checker accepts;
* ``solved``: every cell is written and nothing broke;
* ``open``: the link rules say nothing more; ``budget``: the links allowed (or the time)
  ran out first. For these three the links are those that rest on the digit written,
  with the earlier links they rest on.

Nothing here changes the puzzle: the page keeps the player's grid and comes back to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..clock import NO_LIMITS, Limits
from ..engine import registry
from ..engine.record import link_json
from ..engine.walk import Engine, WalkOptions
from ..errors import PuzzleError
from ..puzzle.combos import BIT
from ..puzzle.model import Puzzle, cell_arg, cell_name
from ..rules import chains

CONTRADICTION, SOLVED, OPEN, BUDGET, BROKEN = (
    "contradiction", "solved", "open", "budget", "broken")
#: links followed at most (a branch of a 990-cell grid can go on for hundreds)
MAX_LINKS = 60


@dataclass
class WhatIf:
    """What follows from a digit written in a cell. ``status``: ``contradiction``,
    ``solved``, ``open``, ``budget``, or ``broken`` (the grid broke a rule before the digit
    was written: no links). ``links`` are in the JSON shape of a proof's links
    (docs/json-contract.md, "Proofs"), 0-based coordinates; ``proof`` is the whole as a
    proof by assumption, ``{"assume": [row, col, digit], "links": [...]}``."""

    cell: tuple[int, int]
    digit: int
    status: str
    message: str
    links: list[dict] = field(default_factory=list)

    @property
    def proof(self) -> dict:
        return {"assume": [*self.cell, self.digit], "links": self.links}

    @property
    def text(self) -> str:
        """The answer as lines: the message, then each link with its number."""
        lines = [self.message]
        for n, link in enumerate(self.links, 1):
            lines.append(f"({n}) {link['text']}" + (": a contradiction."
                                                   if link.get("contradiction") else "."))
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"cell": list(self.cell), "digit": self.digit, "status": self.status,
                "message": self.message, "proof": self.proof}


def what_if(puzzle: Puzzle, cell: tuple[int, int], digit: int, rules=None, *,
            max_links: int = MAX_LINKS, limits: Limits = NO_LIMITS) -> WhatIf:
    """What follows from ``digit`` in ``cell`` on the grid of ``puzzle`` (its entries; an
    entry in ``cell`` itself is replaced). ``rules``: the ladder (default the core one),
    whose ``kind: link`` rules are followed. Raises :class:`PuzzleError` for a cell that is
    not white or holds a given, or a digit not 1-9."""

    if isinstance(digit, bool) or not isinstance(digit, int) or not 1 <= digit <= 9:
        raise PuzzleError(f"{digit!r} is not a digit 1-9")
    cell = cell_arg(cell)
    i = puzzle.index.get(cell)
    name = cell_name(cell)
    if i is None:
        raise PuzzleError(f"{name} is not a white cell of the puzzle")
    if cell in puzzle.givens:
        raise PuzzleError(f"{name} holds a given ({puzzle.givens[cell]}): it cannot change")
    if rules is None:
        rules = registry.load()
    entries = {rc: d for rc, d in puzzle.entries.items() if rc != cell}
    grid = puzzle.with_entries(entries, puzzle.pencil)
    eng = Engine(grid, rules, WalkOptions(limits=limits))
    if eng.state.broken() is not None:
        return WhatIf(cell, digit, BROKEN, "Your grid already breaks a rule before "
                      f"{digit} is written in {name}: check it first.")
    held = _holder(grid, i, digit, eng)
    links, status = chains.follow(eng.view, chains.link_rules(eng.view), i, digit, max_links)
    shown = [link_json(grid, lk) for lk in links]
    n = len(links)
    said = f"{n} link{'' if n == 1 else 's'}"
    if held is not None:  # a repeat is plain on the board: say so first
        message = (f"{digit} cannot go in {name}: {cell_name(held)}, in a run with it, "
                   f"holds {digit} already.")
    elif status == "contradiction":
        message = (f"If {name} were {digit}, the grid would break a rule in {said}: "
                   f"{digit} cannot go in {name}.")
    elif status == "solved":
        message = f"If {name} were {digit}, {said} fill in every cell, and no rule breaks."
    elif status == "open":
        message = (f"If {name} were {digit}: {said} follow, then the simple rules say "
                   "nothing more; no rule breaks so far." if n else
                   f"If {name} were {digit}: nothing follows from it at once with the simple "
                   "rules.")
    else:
        message = (f"If {name} were {digit}: the first {said} that follow (the search "
                   f"stopped there); no rule breaks so far.")
    return WhatIf(cell, digit, status, message, shown)


def _holder(puzzle: Puzzle, i: int, digit: int, eng) -> tuple[int, int] | None:
    """A cell of ``i``'s runs (not ``i``) that holds ``digit`` written in, else None."""
    lay = eng.state.layout
    for rid in lay.cell_runs[i]:
        for j in lay.run_cells[rid]:
            if j != i and eng.state.placed[j] and eng.state.masks[j] == BIT[digit]:
                return puzzle.whites[j]
    return None
