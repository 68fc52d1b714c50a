"""A clause-learning oracle for one island: "is there a solution under these assumptions?"

The depth-first search in :mod:`.search` settles most puzzles in a few nodes. When it
starts wasting nodes it asks this oracle, a CDCL SAT solver (CaDiCaL through PySAT) over a
plain CNF of the island, seeded with the candidates propagation left:

- one variable per (open cell, candidate digit), exactly one per cell;
- each digit at most once per run;
- for a clued run with several live combinations, one selector per combination: some
  selector holds, a selected combination's digits all appear, and a digit that appears
  selects a combination containing it.

The solver keeps its learned clauses between calls, so every question it answers makes the
next one cheaper; an UNSAT answer's core lets the search jump back past every decision that
played no part. Why a SAT library rather than nogood learning of our own: the hard question
on marcelgarus ``huge`` takes CaDiCaL about 2 s (Glucose 4 and MiniSat are within noise of
it, MapleChrono 30 s), while the plain MRV search found nothing in 120 s; a learning search
written in Python would pay the interpreter on every propagation of every conflict.
CaDiCaL 1.9.5 is the default, being the best kept of the bundled solvers.

PySAT is a core dependency; if it is not installed, :func:`available` is False and the
search runs without an oracle (complete, but with no learning).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..clock import NO_LIMITS, Limits, past
from ..puzzle.combos import BIT, DIGITS, SUM, combos

_AVAILABLE: bool | None = None
#: conflicts per solve_limited call between deadline (and budget) checks (CaDiCaL cannot be
#: interrupted)
CONFLICT_SLICE = 4000


class OracleTimeout(Exception):
    """The deadline passed (or the conflict budget ran out) inside a SAT call."""


def available() -> bool:
    """Is the SAT library installed here? Found, not imported: every island of nine cells
    or more asks, most never hand over, and the import costs more than a small puzzle's
    whole solve (it happens when an :class:`Oracle` is built)."""
    global _AVAILABLE
    if _AVAILABLE is None:
        import importlib.util

        try:
            _AVAILABLE = importlib.util.find_spec("pysat.solvers") is not None
        except Exception:  # noqa: BLE001 - any failure to find it means: search without it
            _AVAILABLE = False
    return _AVAILABLE


class Oracle:
    """CNF of one island (cells ``cells`` with candidates ``masks``) in a CaDiCaL solver."""

    def __init__(self, run_cells, run_total, cell_runs,
                 masks: Sequence[int] | Mapping[int, int], cells: tuple[int, ...]):
        from pysat.solvers import Solver

        self.cells = cells
        self.local = {c: k for k, c in enumerate(cells)}
        self.conflicts = 0  # in all the calls so far
        nvar = 9 * len(cells)
        # the CNF is built as a list and handed over in one call (a large island has
        # a hundred thousand clauses: one solver call each cost more than building them)
        cnf: list[list[int]] = []
        add = cnf.append
        for k, c in enumerate(cells):
            m = masks[c]
            lits = [9 * k + d for d in DIGITS[m]]
            add(lits)
            for d in DIGITS[0x1FF & ~m]:  # pin the unused variables: models read cleanly
                add([-(9 * k + d)])
            for a in range(len(lits)):
                for b in range(a + 1, len(lits)):
                    add([-lits[a], -lits[b]])
        runs = sorted({r for c in cells for r in cell_runs[c]})
        for r in runs:
            open_cells = [c for c in run_cells[r] if c in self.local]
            fixed = 0
            for c in run_cells[r]:
                if c not in self.local:
                    fixed |= masks[c]
            by_digit: dict[int, list[int]] = {}
            union = 0
            for c in open_cells:
                union |= masks[c]
                for d in DIGITS[masks[c]]:
                    by_digit.setdefault(d, []).append(9 * self.local[c] + d)
            for lits in by_digit.values():  # all different
                for a in range(len(lits)):
                    for b in range(a + 1, len(lits)):
                        add([-lits[a], -lits[b]])
            total = run_total[r]
            if total is None:
                continue
            live = [cm for cm in combos(total - SUM[fixed], len(open_cells))
                    if cm & union == cm and not cm & fixed]
            if not live:
                add([])  # propagation would have caught this; stay sound regardless
                continue
            common = 0x1FF
            for cm in live:
                common &= cm
            for d in DIGITS[common]:  # digits every live combination needs
                add(by_digit.get(d, []))
            if len(live) == 1:
                continue
            sel = []
            for cm in live:
                nvar += 1
                sel.append((nvar, cm))
            add([s for s, _ in sel])
            for a in range(len(sel)):  # exactly one combination
                for b in range(a + 1, len(sel)):
                    add([-sel[a][0], -sel[b][0]])
            for s, cm in sel:
                for d in DIGITS[cm & ~common]:
                    add([-s] + by_digit.get(d, []))
                for d in DIGITS[union & ~cm]:  # a chosen combination shuts out the rest
                    for lit in by_digit[d]:
                        add([-s, -lit])
            for d, lits in by_digit.items():
                if common & BIT[d]:
                    continue
                having = [s for s, cm in sel if cm & BIT[d]]
                for lit in lits:
                    add([-lit] + having)
        self.solver = Solver(name="cadical195")
        self.solver.append_formula(cnf)

    def add(self, clause: list[int]) -> None:
        self.solver.add_clause(clause)

    def lit(self, cell: int, digit: int) -> int:
        """The variable 'cell holds digit'."""
        return 9 * self.local[cell] + digit

    def ask(self, assumptions: list[int], limits: Limits = NO_LIMITS):
        """A model as {cell: digit} when satisfiable, else the failed core (a set of literals).

        ``limits.work``: conflicts the call may spend (None: no limit); :attr:`conflicts`
        counts them all. Raises :class:`OracleTimeout` when the deadline passes or the budget
        runs out first. With a budget the solver runs in the same slices whatever the deadline,
        so on the same questions it gives the same answers at the same counts (CaDiCaL is
        deterministic: a run depends on its clauses, calls and limits, not on the clock).
        """
        s = self.solver
        deadline, budget = limits.deadline, limits.work
        # before each call, not only when one runs out of conflicts: a caller asking for
        # model after quick model would otherwise never hear of the deadline
        if past(deadline):
            raise OracleTimeout
        if deadline is None and budget is None:
            ok = s.solve(assumptions=assumptions)
            self._count()
        else:
            used = 0
            while True:
                if budget is not None and used >= budget:
                    raise OracleTimeout
                step = CONFLICT_SLICE if budget is None else min(CONFLICT_SLICE, budget - used)
                s.conf_budget(step)
                ok = s.solve_limited(assumptions=assumptions)
                used += self._count()
                if ok is not None:
                    break
                if past(deadline):
                    raise OracleTimeout
        if ok:
            model = s.get_model()
            out = {}
            for k, c in enumerate(self.cells):
                base = 9 * k
                for d in range(1, 10):
                    v = base + d
                    if v - 1 < len(model) and model[v - 1] > 0:
                        out[c] = d
                        break
            return out
        return set(s.get_core() or assumptions)

    def _count(self) -> int:
        """Add the last call's conflicts to :attr:`conflicts`; return them."""
        total = self.solver.accum_stats().get("conflicts", 0)
        new = total - self.conflicts
        self.conflicts = total
        return new

    def close(self) -> None:
        self.solver.delete()
