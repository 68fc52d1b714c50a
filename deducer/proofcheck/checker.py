"""An independent checker of step proofs (docs/json-contract.md, "Proofs").

It replays a walkthrough in its JSON shape (``Step.to_json()``) and checks, step by step,
that every fact of a proof is true in the state the earlier steps left, and that every
placement, elimination and ruled-out combination holds in every filling of the proof's
local problem. Proofs by assumption and by cases are checked link by link.

It deliberately shares no code with the rules or the solver: combinations come from
``itertools``, fillings from a small backtracking search of its own, and the state is
rebuilt from the steps' JSON alone. Only the puzzle geometry (``deducer.puzzle.model``) is
shared. A checker that reused the rules' tables would bless their mistakes.

Problems are returned (never raised), each located by step (and link / case) with a
short message; ``kind`` is one of :data:`KINDS`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

from ..puzzle.model import Puzzle, cell_name

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

#: search nodes allowed per question about one local problem; real local problems need
#: a few dozen, so hitting this means the "local" problem is not one a person can check
NODE_CAP = 20_000

_ALL = 0x1FF


def _bit(d: int) -> int:
    return 1 << (d - 1)


def _digits(mask: int) -> list[int]:
    return [d for d in range(1, 10) if mask >> (d - 1) & 1]


def _mask(ds) -> int:
    m = 0
    for d in ds:
        m |= _bit(d)
    return m


@cache
def _sets(total: int | None, length: int) -> tuple[int, ...]:
    """Every set of ``length`` distinct digits summing to ``total`` (any total: None)."""
    return tuple(_mask(c) for c in combinations(range(1, 10), length)
                 if total is None or sum(c) == total)


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


# ---------------------------------------------------------------------------- the state
@dataclass
class Board:
    """What the logged steps so far imply: candidates per cell, written digits, and the
    combinations each run has had ruled out."""

    masks: list[int]
    written: list[bool]
    removed: dict[int, set[int]] = field(default_factory=dict)

    def copy(self) -> Board:
        return Board(self.masks.copy(), self.written.copy(),
                     {r: set(s) for r, s in self.removed.items()})


class Replay:
    """The puzzle's geometry in the shapes the checker needs, and the replayed board."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.runs = puzzle.runs
        self.cell_runs = puzzle.cell_runs
        self.by_ref = {(r.ref[0], r.ref[1], r.ref[2]): r.id for r in self.runs}
        self.by_name = {r.name: r.id for r in self.runs}
        self.index = puzzle.index
        # the player's entries are written in as the walk wrote them (a walk of the bare
        # puzzle was of ``puzzle.without_progress()``, which has none)
        masks = puzzle.initial_masks(with_entries=True)
        board = Board(masks, [False] * len(masks))
        written = {**puzzle.givens, **puzzle.entries}
        for rc, d in written.items():
            self.write(board, self.index[rc], d)
        self.board = board

    # ---- changes ----------------------------------------------------------------
    def write(self, board: Board, i: int, d: int) -> None:
        """Digit ``d`` written in cell ``i``: every reader sees it leave the cell's runs."""
        board.masks[i] = _bit(d)
        board.written[i] = True
        for rid in self.cell_runs[i]:
            for j in self.runs[rid].cells:
                if j != i:
                    board.masks[j] &= ~_bit(d)

    def feed(self, step) -> list[Problem]:
        """Check one step (a ``Step`` or its JSON) on the current board, then apply it
        whether or not its proof held, so one bad step does not hide the next."""
        js = _as_json(step)
        out = check_step(self, self.board, js)
        try:
            self.apply(self.board, _effects(self, js))
        except (Malformed, TypeError, ValueError):
            pass  # already reported by check_step
        return out

    def apply(self, board: Board, eff: Effects) -> None:
        for i, m in eff.elims.items():
            board.masks[i] &= ~m
        for i, d in eff.places.items():
            self.write(board, i, d)
        for rid, cs in eff.combos.items():
            board.removed.setdefault(rid, set()).update(cs)

    # ---- facts ------------------------------------------------------------------
    def possible_combos(self, board: Board, rid: int) -> list[int]:
        """Combinations of run ``rid`` not ruled out that its cells' candidates can hold
        (some arrangement puts each digit in a cell that has it)."""
        run = self.runs[rid]
        cells = [board.masks[i] for i in run.cells]
        gone = board.removed.get(rid, ())
        return [c for c in _sets(run.total, run.length)
                if c not in gone and _arranges(c, cells)]


def _arranges(combo: int, cells: list[int]) -> bool:
    """Can the digits of ``combo`` go one per cell, each cell holding one of its own?"""
    order = sorted(range(len(cells)), key=lambda k: bin(cells[k] & combo).count("1"))

    def place(k: int, left: int) -> bool:
        if k == len(order):
            return True
        m = cells[order[k]] & left
        while m:
            b = m & -m
            if place(k + 1, left & ~b):
                return True
            m &= ~b
        return False

    return place(0, combo)


# ---------------------------------------------------------------------------- effects
@dataclass
class Effects:
    """A step's (or link's) claims in internal ids."""

    places: dict[int, int] = field(default_factory=dict)
    elims: dict[int, int] = field(default_factory=dict)
    combos: dict[int, set[int]] = field(default_factory=dict)


class Malformed(Exception):
    """The JSON names something the puzzle does not have."""


def _cell(rp: Replay, r, c) -> int:
    i = rp.index.get((r, c)) if isinstance(r, int) and isinstance(c, int) else None
    if i is None:
        raise Malformed(f"({r}, {c}) is not a white cell")
    return i


def _run_ref(rp: Replay, ref) -> int:
    try:
        rid = rp.by_ref.get((ref[0], ref[1], ref[2]))
    except (TypeError, IndexError, KeyError):
        rid = None
    if rid is None:
        raise Malformed(f"{ref!r} is not a run")
    return rid


def _digit_mask(ds) -> int:
    if not isinstance(ds, list) or not all(isinstance(d, int) and 1 <= d <= 9 for d in ds):
        raise Malformed(f"{ds!r} is not a list of digits")
    return _mask(ds)


def _effects(rp: Replay, obj: dict) -> Effects:
    eff = Effects()
    for r, c, d in obj.get("placements", ()):
        eff.places[_cell(rp, r, c)] = d
    for r, c, ds in obj.get("eliminations", ()):
        i = _cell(rp, r, c)
        eff.elims[i] = eff.elims.get(i, 0) | _digit_mask(ds)
    for name, cs in obj.get("combos_removed", ()):
        rid = rp.by_name.get(name)
        if rid is None:
            raise Malformed(f"{name!r} is not a run")
        try:
            masks = {_mask(int(x) for x in c.split("+")) for c in cs}
        except ValueError:
            raise Malformed(f"{cs!r} are not combinations like 1+2+4") from None
        eff.combos.setdefault(rid, set()).update(masks)
    return eff


# ---------------------------------------------------------------------------- local problem
@dataclass
class Local:
    """A proof's local problem: cells with their domains, runs with their allowed sets."""

    cells: list[int]  # white-cell ids
    domains: list[int]
    runs: list[tuple[list[int], list[int]]]  # (positions into cells, allowed digit sets)
    pos: dict[int, int]  # white-cell id -> position
    run_ids: list[int]


def _proof_parts(rp: Replay, proof: dict):
    """(cell facts, run facts, listed runs) of a simple proof, in internal ids."""
    cell_facts: dict[int, int] = {}
    run_facts: dict[int, set[int]] = {}
    for f in proof.get("facts", ()):
        if "cell" in f:
            r, c = f["cell"]
            i = _cell(rp, r, c)
            cell_facts[i] = cell_facts.get(i, _ALL) & _digit_mask(f.get("candidates"))
        elif "run" in f:
            rid = _run_ref(rp, f["run"])
            cs = {_digit_mask(c) for c in f.get("combos", ())}
            run_facts[rid] = run_facts[rid] & cs if rid in run_facts else cs
        else:
            raise Malformed(f"{f!r} is neither a cell fact nor a run fact")
    runs = []
    for ref in proof.get("runs", ()):
        rid = _run_ref(rp, ref)
        if rid not in runs:
            runs.append(rid)
    return cell_facts, run_facts, runs


def _local(rp: Replay, board: Board, cell_facts: dict[int, int],
           run_facts: dict[int, set[int]], runs: list[int]) -> Local:
    """The cells of the listed runs (and of the cell facts), each limited by its fact or
    its written digit (else the puzzle's own marks: 1-9, or its parity); each listed run
    all different, summing to its clue, one of its listed combos if it has a run fact."""
    cells: list[int] = []
    pos: dict[int, int] = {}
    for rid in runs:
        for i in rp.runs[rid].cells:
            if i not in pos:
                pos[i] = len(cells)
                cells.append(i)
    for i in cell_facts:
        if i not in pos:
            pos[i] = len(cells)
            cells.append(i)
    domains = []
    for i in cells:
        if board.written[i]:
            domains.append(board.masks[i])
        elif i in cell_facts:
            domains.append(cell_facts[i] & rp.puzzle.initial_mask(i))
        else:
            domains.append(rp.puzzle.initial_mask(i))
    local_runs = []
    for rid in runs:
        run = rp.runs[rid]
        allowed = _sets(run.total, run.length)
        if rid in run_facts:
            allowed = tuple(c for c in allowed if c in run_facts[rid])
        local_runs.append(([pos[i] for i in run.cells], list(allowed)))
    return Local(cells, domains, local_runs, pos, list(runs))


class TooBig(Exception):
    """The search went past :data:`NODE_CAP`."""


def _satisfiable(local: Local, domains: list[int],
                 extra: tuple[list[int], list[int]] | None = None) -> bool:
    """Has the local problem (with these domains, and one extra set constraint) a filling?"""
    runs = local.runs if extra is None else [*local.runs, extra]
    of_cell: list[list[int]] = [[] for _ in domains]
    for k, (ps, _) in enumerate(runs):
        for p in ps:
            of_cell[p].append(k)
    nodes = [0]

    def search(doms: list[int]) -> bool:
        nodes[0] += 1
        if nodes[0] > NODE_CAP:
            raise TooBig
        best, best_n = -1, 10
        for p, m in enumerate(doms):
            n = bin(m).count("1")
            if n == 0:
                return False
            if 1 < n < best_n:
                best, best_n = p, n
        if best < 0:
            return True  # every cell decided and every run checked by narrow()
        m = doms[best]
        while m:
            b = m & -m
            m &= ~b
            trial = doms.copy()
            trial[best] = b
            if _narrow(runs, of_cell, trial, set(of_cell[best])) and search(trial):
                return True
        return False

    doms = domains.copy()
    if not _narrow(runs, of_cell, doms, set(range(len(runs)))):
        return False
    return search(doms)


# ---------------------------------------------------------------------------- one simple proof


def _narrow(runs: list, of_cell: list[list[int]], doms: list[int], todo: set[int]) -> bool:
    """Forward checking to a fixpoint over the runs in ``todo`` (indices into ``runs``,
    ``of_cell``: each cell's runs); False on a wipe-out."""
    while todo:
        k = todo.pop()
        ps, allowed = runs[k]
        fixed = 0
        open_ps = []
        for p in ps:
            m = doms[p]
            if m & (m - 1) == 0:
                if m == 0 or fixed & m:
                    return False  # an empty cell, or a digit twice in the run
                fixed |= m
            else:
                open_ps.append(p)
        union_open = 0
        for p in open_ps:
            union_open |= doms[p]
        reach = 0
        for c in allowed:
            if c & fixed != fixed:
                continue
            rest = c & ~fixed
            if rest & ~union_open:
                continue
            if any(not doms[p] & rest for p in open_ps):
                continue
            reach |= rest
            if not open_ps:
                break
        if not reach and open_ps:
            return False
        if not open_ps:
            if not any(c == fixed for c in allowed):
                return False
            continue
        for p in open_ps:
            m = doms[p] & reach
            if m != doms[p]:
                if not m:
                    return False
                doms[p] = m
                todo.update(of_cell[p])
    return True


def _peer_elims(rp: Replay, places: dict[int, int]) -> dict[int, int]:
    """Eliminations a placement makes on its own: its digit leaves its runs' other cells."""
    out: dict[int, int] = {}
    for i, d in places.items():
        for rid in rp.cell_runs[i]:
            for j in rp.runs[rid].cells:
                if j != i:
                    out[j] = out.get(j, 0) | _bit(d)
    return out


def _false_facts(rp: Replay, board: Board, cell_facts, run_facts) -> list[str]:
    out = []
    names = rp.puzzle.whites
    for i, m in cell_facts.items():
        extra = board.masks[i] & ~m
        if extra:
            out.append(f"{cell_name(names[i])} can still hold "
                       f"{','.join(map(str, _digits(extra)))}, which its fact leaves out")
    for rid, cs in run_facts.items():
        missing = [c for c in rp.possible_combos(board, rid) if c not in cs]
        if missing:
            shown = " or ".join("+".join(map(str, _digits(c))) for c in missing[:3])
            out.append(f"{rp.runs[rid].name} can still be {shown}, which its fact leaves out")
    return out


def _unproved(rp: Replay, local: Local, eff: Effects, exempt: dict[int, int]
              ) -> list[tuple[str, str]]:
    """(kind, message) for each claim of ``eff`` some filling of ``local`` breaks."""
    out: list[tuple[str, str]] = []
    names = rp.puzzle.whites
    doms = local.domains
    for i, d in sorted(eff.places.items()):
        p = local.pos.get(i)
        if p is None:
            out.append(("outside", f"{cell_name(names[i])} = {d}: the cell is outside the "
                        "local problem"))
            continue
        other = doms.copy()
        other[p] &= ~_bit(d)
        if _satisfiable(local, other):
            out.append(("unproved", f"{cell_name(names[i])} = {d} does not follow: the local "
                        "problem can be filled with another digit there"))
    for i, m in sorted(eff.elims.items()):
        m &= ~exempt.get(i, 0)
        if not m:
            continue
        p = local.pos.get(i)
        if p is None:
            out.append(("outside", f"{','.join(map(str, _digits(m)))} leaving "
                        f"{cell_name(names[i])}: the cell is outside the local problem"))
            continue
        other = doms.copy()
        other[p] &= m
        if other[p] and _satisfiable(local, other):
            out.append(("unproved", f"{','.join(map(str, _digits(m)))} leaving "
                        f"{cell_name(names[i])} does not follow: some filling of the local "
                        "problem puts one there"))
    for rid, cs in sorted(eff.combos.items()):
        run = rp.runs[rid]
        if any(i not in local.pos for i in run.cells):
            out.append(("outside", f"ruling out combinations of {run.name}: the run is "
                        "outside the local problem"))
            continue
        ps = [local.pos[i] for i in run.cells]
        for c in sorted(cs):
            other = doms.copy()
            for p in ps:
                other[p] &= c
            if _satisfiable(local, other, (ps, [c])):
                out.append(("unproved", f"ruling out {'+'.join(map(str, _digits(c)))} for "
                            f"{run.name} does not follow: some filling uses it"))
    return out


def _sum_range(domains: list[int]) -> tuple[int, int] | None:
    """Least and most sum of different digits, one from each domain (None: none fit): the
    sets of digits the cells so far can take, one cell at a time."""
    sets = {0}
    for dom in domains:
        sets = {s | _bit(d) for s in sets for d in _digits(dom) if not s & _bit(d)}
        if not sets:
            return None
    sums = [sum(_digits(s)) for s in sets]
    return min(sums), max(sums)


def _check_bound(rp: Replay, board: Board, proof: dict, eff: Effects) -> list[str]:
    """A stated sum bound (docs/json-contract.md, "Proofs"): the digits it adds are
    different, one from each other open cell of its run and within that cell's fact (else
    any digit not written in the run); their sum is the least (most) such digits make,
    worked out here again; and the step takes from the cell exactly the digits the bound
    excludes (a digit written in: the one the bound leaves it)."""
    b = proof["bound"]
    i = _cell(rp, *b["cell"])
    rid = _run_ref(rp, b["run"])
    cell_facts, _run_facts, runs = _proof_parts(rp, proof)
    run = rp.runs[rid]
    name = cell_name(rp.puzzle.whites[i])
    if rid not in runs or i not in run.cells or board.written[i] or run.total is None:
        return [f"the bound on {name} is not about an open cell of a listed run"]
    written = [j for j in run.cells if board.written[j]]
    used = _mask(_digits(board.masks[j])[0] for j in written)
    need = run.total - sum(_digits(used))
    others = [j for j in run.cells if j != i and not board.written[j]]
    doms = {j: cell_facts.get(j, _ALL) & ~used for j in others}
    got = _sum_range([doms[j] for j in others])
    if got is None:
        return [f"the other cells of {run.name} cannot all be filled"]
    out = []
    lo, hi = 1, 9
    for side, best in (("least", got[0]), ("most", got[1])):
        if side not in b:
            continue
        total = b[side]["sum"]
        digits = {_cell(rp, r, c): d for r, c, d in b[side]["digits"]}
        if sorted(digits) != sorted(others) or len(b[side]["digits"]) != len(others):
            out.append(f"the {side} sum does not take one digit from each other open cell "
                       f"of {run.name}")
        elif len(set(digits.values())) != len(digits) or \
                any(not doms[j] & _bit(d) for j, d in digits.items()):
            out.append(f"the {side} sum's digits are not different digits of the cells' lists")
        elif sum(digits.values()) != total:
            out.append(f"the {side} sum's digits do not add up to {total}")
        elif total != best:
            out.append(f"the {side} sum is {total}, but the cells' lists make {best}")
        if side == "least":
            hi = need - total
        else:
            lo = need - total
    inside = _mask(d for d in _digits(board.masks[i]) if lo <= d <= hi)
    if i in eff.places:
        if inside != _bit(eff.places[i]):
            out.append(f"{name} = {eff.places[i]} is not what the bound leaves it")
    else:
        gone = eff.elims.get(i, 0) & board.masks[i]
        if gone != board.masks[i] & ~inside:
            out.append(f"the step does not take from {name} exactly the digits outside "
                       f"{lo} to {hi}")
    return out


def _check_simple(rp: Replay, board: Board, proof: dict, eff: Effects, exempt: dict[int, int],
                  contradiction: bool = False) -> list[tuple[str, str]]:
    """Facts true on ``board``; every claim (or, for a contradiction, no filling at all)."""
    cell_facts, run_facts, runs = _proof_parts(rp, proof)
    out = [("false-fact", m) for m in _false_facts(rp, board, cell_facts, run_facts)]
    local = _local(rp, board, cell_facts, run_facts, runs)
    try:
        if contradiction:
            if _satisfiable(local, local.domains):
                out.append(("no-contradiction", "the last link's local problem can still be "
                            "filled"))
        else:
            out += _unproved(rp, local, eff, exempt)
    except TooBig:
        out.append(("too-big", f"more than {NODE_CAP} search nodes over {len(local.cells)} "
                    f"cells and {len(local.runs)} runs"))
    return out


# ---------------------------------------------------------------------------- assumptions
def _check_chain(rp: Replay, board: Board, proof: dict, where: str
                 ) -> tuple[list[tuple[str, str, str]], Board | None, tuple[int, int]]:
    """Check a proof by assumption on ``board``. Returns (problems as (where, kind, msg),
    the board after the links if no contradiction was reached, (cell, digit) assumed)."""
    r, c, d = proof["assume"]
    i = _cell(rp, r, c)
    if not (isinstance(d, int) and 1 <= d <= 9):
        raise Malformed(f"assumed digit {d!r}")
    hyp = board.copy()
    rp.write(hyp, i, d)
    out: list[tuple[str, str, str]] = []
    links = proof.get("links", ())
    for k, link in enumerate(links, 1):
        at = f"{where}link {k}"
        eff = _effects(rp, link)
        last = bool(link.get("contradiction"))
        for kind, msg in _check_simple(rp, hyp, link, eff, _peer_elims(rp, eff.places), last):
            out.append((at, kind, msg))
        if last:
            if k != len(links):
                out.append((at, "malformed", "links follow the contradiction"))
            return out, None, (i, d)
        rp.apply(hyp, eff)
    return out, hyp, (i, d)


def _holds(rp: Replay, board: Board, eff: Effects, exempt: dict[int, int]) -> list[str]:
    """Claims of ``eff`` that ``board`` (a case's end state) does not already show."""
    out = []
    names = rp.puzzle.whites
    for i, d in eff.places.items():
        if board.masks[i] != _bit(d):
            out.append(f"{cell_name(names[i])} = {d}")
    for i, m in eff.elims.items():
        m &= ~exempt.get(i, 0)
        if board.masks[i] & m:
            out.append(f"{','.join(map(str, _digits(board.masks[i] & m)))} leaving "
                       f"{cell_name(names[i])}")
    for rid, cs in eff.combos.items():
        live = rp.possible_combos(board, rid)
        for c in cs:
            if c in live:
                out.append(f"ruling out {'+'.join(map(str, _digits(c)))} for "
                           f"{rp.runs[rid].name}")
    return out


def _check_assumption(rp: Replay, board: Board, proof: dict, eff: Effects,
                      exempt: dict[int, int]) -> list[tuple[str, str, str]]:
    out, end, (i, d) = _check_chain(rp, board, proof, "")
    if end is not None:
        out.append(("", "no-contradiction", "the last link is not marked as a contradiction"))
    # what a contradiction proves: d leaves i (and, with one candidate left, i is decided)
    names = rp.puzzle.whites
    for j, m in eff.elims.items():
        m &= ~exempt.get(j, 0)
        if m and (j != i or m & ~_bit(d)):
            out.append(("", "unproved", f"{','.join(map(str, _digits(m)))} leaving "
                        f"{cell_name(names[j])} is not what the assumption refutes"))
    for j, e in eff.places.items():
        if j != i or board.masks[i] & ~_bit(d) != _bit(e):
            out.append(("", "unproved", f"{cell_name(names[j])} = {e} is not what the "
                        "assumption refutes"))
    for rid in eff.combos:
        out.append(("", "unproved", f"ruling out combinations of {rp.runs[rid].name} is not "
                    "what the assumption refutes"))
    return out


def _check_cases(rp: Replay, board: Board, proof: dict, eff: Effects,
                 exempt: dict[int, int]) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    cells = set()
    seen = 0
    for k, case in enumerate(proof["cases"], 1):
        where = f"case {k} "
        probs, end, (i, d) = _check_chain(rp, board, case, where)
        out += probs
        cells.add(i)
        seen |= _bit(d)
        if end is not None:
            out += [(where.strip(), "unproved", f"{m} does not follow in this case")
                    for m in _holds(rp, end, eff, exempt)]
    if len(cells) != 1:
        out.append(("", "missing-case", "the cases do not assume digits of one cell"))
    else:
        (i,) = cells
        left = board.masks[i] & ~seen
        if left:
            out.append(("", "missing-case", f"no case for {','.join(map(str, _digits(left)))} "
                        f"in {cell_name(rp.puzzle.whites[i])}"))
    return out


# ---------------------------------------------------------------------------- the walkthrough
def _as_json(step) -> dict:
    return step if isinstance(step, dict) else step.to_json()


def check_step(rp: Replay, board: Board, step: dict) -> list[Problem]:
    """Problems of one step's proof on ``board`` (the state before the step)."""
    n, rule = step.get("n", 0), step.get("rule", "?")
    proof = step.get("proof")
    try:
        eff = _effects(rp, step)
        if proof is None:
            return [Problem(n, rule, "no-proof", "the step carries no proof")]
        exempt = _peer_elims(rp, eff.places)
        if "cases" in proof:
            found = _check_cases(rp, board, proof, eff, exempt)
        elif "assume" in proof:
            found = _check_assumption(rp, board, proof, eff, exempt)
        else:
            found = [("", k, m) for k, m in _check_simple(rp, board, proof, eff, exempt)]
            if "bound" in proof:
                found += [("", "bound", m) for m in _check_bound(rp, board, proof, eff)]
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
        js = _as_json(step)
        yield rp, rp.board.copy(), js
        try:
            rp.apply(rp.board, _effects(rp, js))
        except (Malformed, TypeError, ValueError):
            pass


# ---------------------------------------------------------------------------- surplus
def _drops(rp: Replay, proof: dict):
    """(label, smaller proof) for each fact and each run of a simple proof."""
    facts = proof.get("facts", [])
    runs = proof.get("runs", [])
    for k, f in enumerate(facts):
        label = (f"the fact on {cell_name(tuple(f['cell']))}" if "cell" in f
                 else f"the fact on {rp.runs[_run_ref(rp, f['run'])].name}")
        yield label, {**proof, "facts": facts[:k] + facts[k + 1:]}
    for k, ref in enumerate(runs):
        yield f"run {rp.runs[_run_ref(rp, ref)].name}", {**proof, "runs": runs[:k] + runs[k + 1:]}


def surplus_step(rp: Replay, board: Board, step: dict) -> list[Problem]:
    """Facts and runs of a step's proof (or of each link) that can be dropped with the step
    (or link) still proved. Only for proofs that are sound as they stand."""
    if check_step(rp, board, step):
        return []
    n, rule = step.get("n", 0), step.get("rule", "?")
    proof = step["proof"]
    out = []
    if "facts" in proof or "runs" in proof:
        for label, smaller in _drops(rp, proof):
            if not check_step(rp, board, {**step, "proof": smaller}):
                out.append(Problem(n, rule, "surplus", f"{label} can be dropped"))
        return out
    cases = proof["cases"] if "cases" in proof else [proof]
    for ci, case in enumerate(cases):
        for li, link in enumerate(case.get("links", ())):
            for label, smaller in _drops(rp, link):
                links = [*case["links"][:li], {**link, **smaller}, *case["links"][li + 1:]]
                new_case = {**case, "links": links}
                new = ({"cases": [*cases[:ci], new_case, *cases[ci + 1:]]} if "cases" in proof
                       else new_case)
                if not check_step(rp, board, {**step, "proof": new}):
                    where = (f"case {ci + 1} " if "cases" in proof else "") + f"link {li + 1}"
                    out.append(Problem(n, rule, "surplus", f"{label} can be dropped", where))
    return out


def surplus(puzzle: Puzzle, steps, *, only=None) -> list[Problem]:
    """Surplus facts and runs in a walkthrough's proofs (the steps numbered in ``only``, or
    every step)."""
    out = []
    for rp, board, js in states(puzzle, steps):
        if js.get("proof") is not None and (only is None or js.get("n") in only):
            out += surplus_step(rp, board, js)
    return out


# ---------------------------------------------------------------------------- sentences
def _named(text: str, token: str) -> bool:
    return re.search(r"(?<![0-9A-Za-z])" + re.escape(token) + r"(?![0-9])", text) is not None


def unnamed(puzzle: Puzzle, step) -> list[str]:
    """Cells and runs of a step's proof (facts and listed runs, link by link for proofs by
    assumption) that its sentence (or its link's sentence) does not name."""
    js = _as_json(step)
    proof = js.get("proof")
    if not proof:
        return []
    by_ref = {(r.ref[0], r.ref[1], r.ref[2]): r for r in puzzle.runs}
    missing: list[str] = []

    def need(text: str, part: dict) -> None:
        refs = [f["run"] for f in part.get("facts", ()) if "run" in f] + list(part.get("runs", ()))
        for f in part.get("facts", ()):
            if "cell" in f:
                name = cell_name(tuple(f["cell"]))
                if not _named(text, name) and name not in missing:
                    missing.append(name)
        for ref in refs:
            run = by_ref.get(tuple(ref))
            if run is not None and not _named(text, run.label) and run.name not in missing:
                missing.append(run.name)

    text = js.get("text", "")
    cases = proof.get("cases") or ([proof] if "assume" in proof else [])
    if not cases:
        need(text, proof)
    for case in cases:
        r, c, _ = case["assume"]
        if not _named(text, cell_name((r, c))) and cell_name((r, c)) not in missing:
            missing.append(cell_name((r, c)))
        for link in case.get("links", ()):
            need(link.get("text", ""), link)
    return missing
