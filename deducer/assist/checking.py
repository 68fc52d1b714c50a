"""Checking a player's progress against every solution of the puzzle.

An entry is wrong only when *no* solution of the puzzle has that digit in that cell, so a
player who follows one of several solutions is never told off. Pencil marks are wrong when
they leave out every digit any solution puts in the cell. The enumeration of solutions
is capped; when the cap is hit, any entry not matched by the solutions found is settled
exactly by a second search with that one entry fixed, so the verdict never depends on
the cap (only the time does).

Kept free of argparse and printing so the CLI and a web play mode can share it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..clock import NO_LIMITS, Limits
from ..puzzle.combos import BIT, DIGITS
from ..puzzle.model import Coord, Puzzle, cell_name
from ..solver.search import solve
from ..solver.status import CheckStatus

DEFAULT_CAP = 50

OK, WRONG, CONFLICT, UNSOLVABLE, UNKNOWN = CheckStatus


@dataclass
class Mistake:
    """One entry (or one cell's pencil marks) that no solution agrees with."""

    cell: Coord  # 0-based (row, col)
    kind: str  # "entry" | "pencil"
    digits: list[int]  # the entry (one digit) or the pencil marks
    possible: list[int]  # digits the solutions found put in this cell (may be partial)
    #: why, when it breaks a run's rule rather than disagreeing with every solution
    reason: str | None = None

    @property
    def name(self) -> str:
        return cell_name(self.cell)

    def sentence(self) -> str:
        if self.reason is not None:
            return f"{self.name} holds {self.digits[0]}, but {self.reason}"
        seen = "/".join(map(str, self.possible)) if self.possible else "?"
        if self.kind == "entry":
            if len(self.possible) == 1:
                return f"{self.name} holds {self.digits[0]}, but every solution found " \
                       f"has {self.possible[0]} there"
            return f"{self.name} holds {self.digits[0]}, but no solution has it there " \
                   f"({seen} in the solutions found)"
        marks = ",".join(map(str, self.digits))
        return f"the pencil marks ({marks}) in {self.name} leave out every digit a solution " \
               f"puts there ({seen})"

    def to_json(self) -> dict:
        return {"cell": list(self.cell), "name": self.name, "kind": self.kind,
                "digits": list(self.digits), "possible": list(self.possible),
                **({"reason": self.reason} if self.reason is not None else {})}


@dataclass
class CheckResult:
    """The verdict on a player's grid.

    ``status``: ``ok`` (every entry and mark fits some solution, and the entries fit one
    solution together), ``wrong`` (some entry or mark fits no solution), ``conflict``
    (each entry fits some solution, but no one solution holds them all: only possible
    when the puzzle has several solutions), ``unsolvable`` (the bare puzzle has no
    solution), ``unknown`` (the time limit stopped the check).
    """

    status: CheckStatus
    mistakes: list[Mistake] = field(default_factory=list)
    entries_checked: int = 0
    pencil_checked: int = 0
    solutions_found: int = 0
    cap: int = DEFAULT_CAP
    cap_hit: bool = False  # the puzzle has at least `solutions_found` solutions
    complete: bool = True  # False: the time limit cut the check short
    message: str = ""
    solutions: list[list[int]] = field(default_factory=list, repr=False)

    @property
    def ok(self) -> bool:
        return self.status == OK

    @property
    def wrong_entries(self) -> list[Mistake]:
        return [m for m in self.mistakes if m.kind == "entry"]

    @property
    def wrong_pencil(self) -> list[Mistake]:
        return [m for m in self.mistakes if m.kind == "pencil"]

    def to_json(self) -> dict:
        return {
            "status": self.status,
            "ok": self.ok,
            "mistakes": [m.to_json() for m in self.mistakes],
            "entries_checked": self.entries_checked,
            "pencil_checked": self.pencil_checked,
            "solutions_found": self.solutions_found,
            "cap": self.cap,
            "cap_hit": self.cap_hit,
            "complete": self.complete,
            "message": self.message,
        }


def _fits_exactly(puzzle: Puzzle, i: int, mask: int, limits: Limits) -> bool | None:
    """Does some solution of the bare puzzle put a digit of ``mask`` in cell ``i``? (None:
    the search's ``limits`` stopped it first.)"""

    bare = puzzle.without_progress()
    masks = bare.initial_masks()
    masks[i] &= mask
    if not masks[i]:
        return False
    res = solve(bare, max_solutions=1, masks=masks, limits=limits)
    if res.solutions:
        return True
    return None if res.timed_out else False


def check(puzzle: Puzzle, *, max_solutions: int = DEFAULT_CAP,
          limits: Limits = NO_LIMITS, pencil: bool = True) -> CheckResult:
    """Check every entry (and, with ``pencil``, every cell's pencil marks)."""

    # one deadline for the whole check: each entry's own search and the look at the
    # entries together get what is left (each once had the whole time limit), and at
    # least a hundredth of a second (limits.at_least)
    cap = max(1, max_solutions)
    bare = puzzle.without_progress()
    res = solve(bare, max_solutions=cap, limits=limits.with_work(None))
    n_entries = len(puzzle.entries)
    n_pencil = sum(1 for rc in puzzle.pencil if rc not in puzzle.entries) if pencil else 0
    base = CheckResult(OK, entries_checked=n_entries, pencil_checked=n_pencil,
                       solutions_found=len(res.solutions), cap=cap,
                       cap_hit=bool(res.solutions) and not res.complete and not res.timed_out,
                       solutions=res.solutions)
    if not res.solutions:
        if res.timed_out:
            base.status, base.complete = UNKNOWN, False
            base.message = "the time limit stopped the search before any solution was found"
        else:
            base.status = UNSOLVABLE
            base.message = f"the puzzle itself has no solution: {res.reason}"
        return base
    idx = puzzle.index
    seen: list[int] = [0] * len(puzzle.whites)
    for sol in res.solutions:
        for i, d in enumerate(sol):
            seen[i] |= BIT[d]
    exhaustive = res.complete
    undecided = 0
    for rc, kind, m in _to_check(puzzle, pencil):
        i = idx[rc]
        if seen[i] & m:
            continue
        if exhaustive:
            fits: bool | None = False
        elif limits.past():
            fits = None  # out of time: not even a search set up for it
        else:
            fits = _fits_exactly(puzzle, i, m, limits.at_least(0.01))
        if fits is None:
            undecided += 1
            continue
        if not fits:
            base.mistakes.append(Mistake(rc, kind, list(DIGITS[m]), list(DIGITS[seen[i]])))
    if undecided:
        base.complete = False
    if base.mistakes:
        # a repeated digit or a run filled to the wrong sum is named by the rule it
        # breaks, which the player can see, not by a solution they cannot
        by_cell = {m.cell: m for m in run_breaks(puzzle)}
        base.mistakes = [by_cell.get(m.cell, m) if m.kind == "entry" else m
                         for m in base.mistakes]
        base.status = WRONG
        base.message = _wrong_message(base)
        return base
    if puzzle.entries and not _together(puzzle, base, limits.at_least(0.01)):
        return base
    if undecided:
        base.status = UNKNOWN
        base.message = f"the time limit left {undecided} entries or marks unchecked"
        return base
    base.message = ("every entry and pencil mark fits a solution" if puzzle.entries and n_pencil
                    else "every entry fits a solution" if puzzle.entries
                    else "every cell's pencil marks fit a solution" if n_pencil
                    else "no entries to check")
    return base


def _together(puzzle: Puzzle, base: CheckResult, limits: Limits) -> bool:
    """Do the entries, each fitting some solution, fit one together? If not, ``base``
    says why (a run's rule they break together, entries of different solutions, or the
    time limit: ``limits`` stopped the search)."""
    together = solve(puzzle, max_solutions=1, limits=limits)
    if together.solutions:
        return True
    if not together.timed_out:
        # on a puzzle with several solutions each entry may fit one, yet two of them
        # break a run's rule together: that is still a located mistake
        broken = run_breaks(puzzle)
        if broken:
            base.mistakes = broken
            base.status = WRONG
            n = len({m.cell for m in broken})
            base.message = f"{n} entr{'y breaks' if n == 1 else 'ies break'} a run's rule"
            return False
    if together.timed_out:
        base.status, base.complete = UNKNOWN, False
        base.message = "the time limit stopped the check of the entries together"
    else:
        base.status = CONFLICT
        base.message = ("each entry fits some solution, but no single solution holds "
                        "them all (the entries follow different solutions)")
    return False


def _to_check(puzzle: Puzzle, pencil: bool) -> list[tuple[Coord, str, int]]:
    """``(cell, "entry" or "pencil", mask)`` of every entry (and, with ``pencil``, every
    cell's marks where it holds no entry or given), by cell."""
    todo: list[tuple[Coord, str, int]] = []
    for rc, d in sorted(puzzle.entries.items()):
        todo.append((rc, "entry", BIT[d]))
    if pencil:
        for rc, m in sorted(puzzle.pencil.items()):
            if rc not in puzzle.entries and rc not in puzzle.givens and m:
                todo.append((rc, "pencil", m))
    todo.sort(key=lambda t: (t[0], t[1]))
    return todo


def _wrong_message(base: CheckResult) -> str:
    """``2 wrong entries and 1 cell with wrong pencil marks``."""
    ne, npn = len(base.wrong_entries), len(base.wrong_pencil)
    parts = []
    if ne:
        parts.append(f"{ne} wrong entr{'y' if ne == 1 else 'ies'}")
    if npn:
        parts.append(f"{npn} cell{'s' if npn != 1 else ''} with wrong pencil marks")
    return " and ".join(parts)


def run_breaks(puzzle: Puzzle) -> list[Mistake]:
    """Entries that break a run's rule whatever the solution: a digit the run already holds,
    or the digits that fill a run to the wrong sum (givens are never blamed)."""
    fixed = {**puzzle.entries, **puzzle.givens}
    out: dict[Coord, Mistake] = {}
    for run in puzzle.runs:
        held = {rc: fixed[rc] for rc in run.coords if rc in fixed}
        for rc, d in held.items():
            if rc in puzzle.givens:
                continue
            others = [o for o, e in held.items() if e == d and o != rc]
            if others and rc not in out:
                out[rc] = Mistake(rc, "entry", [d], [], reason=f"{cell_name(others[0])} "
                                  f"holds {d} too, in run {run.name}")
        if run.total is not None and len(held) == run.length \
                and len(set(held.values())) == run.length and sum(held.values()) != run.total:
            for rc, d in held.items():
                if rc not in puzzle.givens and rc not in out:
                    out[rc] = Mistake(rc, "entry", [d], [], reason=f"run {run.name} is filled "
                                      f"with digits summing to {sum(held.values())}, not "
                                      f"{run.total}")
    return [out[rc] for rc in sorted(out)]
