"""Issue 52's figures on the held-out odd half, for whoever holds it (fits nothing).

    python scripts/held_out.py --corpus ROOT [--jobs N]

``ROOT`` is a corpus root whose ``janko-at-tkoz0/Kakuro.jsonl.bz2`` carries the test-solvers'
records of the **odd-numbered** puzzles (the project's corpus holds the even half's only:
the odd half is held back to evaluate against). Only odd-numbered records are read; the
puzzles are rated with the rule file as it is (nothing is fitted or written), and printed:

- Angela Janko's records: AUC of ``notes`` separating the puzzles she marked, and rho of
  ``notes`` with the share of white cells she marked (gates 0.87 and 0.67);
- the other solvers' records: AUC (gate 0.85);
- every rated puzzle's ``notes`` in [0, 1];
- the walkthrough's order: median Spearman rho between the order the walkthrough places
  the cells in and the order the solver entered them (gate: not below 0.69).
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from scripts.stats import auc, fmt, median, spearman  # noqa: E402

MAIN_SOLVER = "Angela Janko"


def odd_records(root: Path) -> list:
    """The odd-numbered puzzles' records that fit their puzzle (scripts/human.Human)."""
    from deducer.puzzle import records
    from scripts.human import Human
    from tests.support import corpus

    out = []
    for cp in corpus.janko(root):
        moves = cp.meta.get("moves")
        if not moves or int(cp.id) % 2 == 0 or cp.expected != "unique":
            continue
        rec = records.parse(moves, path=f"janko {cp.id} moves")
        solution = {rc: d for rc, d in zip(cp.puzzle.whites, cp.solution, strict=True)}
        final = records.final_digits(rec)
        wrong = sum(1 for rc, d in solution.items() if final.get(rc) != d)
        h = Human(cp.id, cp.meta.get("author") or "?", cp.meta.get("solver") or "?",
                  cp.puzzle, solution, rec, wrong, 0)
        if h.fits:
            out.append(h)
    return out


def rate(job) -> dict:
    """One puzzle: its rating's notes and score, and the step that places each cell."""
    pid, puzzle = job
    from deducer.clock import Limits
    from deducer.engine.walk import explain
    from scripts.human import engine_orders

    exp = explain(puzzle, limits=Limits.within(120))
    placed, _by, _single = engine_orders(puzzle, exp.steps)
    return {"id": pid, "status": str(exp.status), "notes": exp.rating.notes,
            "score": exp.rating.score, "placed": placed}


def figures(humans: list, rated: dict[str, dict]) -> list[str]:
    """The figures as lines of text."""
    from deducer.puzzle import records

    rows = []
    for h in humans:
        r = rated.get(h.id)
        if r is None or r["notes"] is None:
            continue
        marked = records.marked_cells(h.record) & set(h.solution)
        person = records.entry_order(h.record, h.solution)
        cells = sorted(set(person) & set(r["placed"]))
        rows.append({"solver": h.solver, "notes": r["notes"], "pencil": bool(marked),
                     "share": len(marked) / len(h.solution),
                     "rho": spearman([r["placed"][c] for c in cells],
                                     [person[c] for c in cells])})
    hers = [r for r in rows if r["solver"] == MAIN_SOLVER]
    others = [r for r in rows if r["solver"] != MAIN_SOLVER]
    notes = [r["notes"] for r in rated.values() if r["notes"] is not None]
    unrated = sum(1 for r in rated.values() if r["notes"] is None)

    def gate(v, lim) -> str:
        return "n/a" if v is None else ("met" if v >= lim else "NOT MET")

    a = auc([r["notes"] for r in hers], [r["pencil"] for r in hers])
    rho = spearman([r["notes"] for r in hers], [r["share"] for r in hers])
    ao = auc([r["notes"] for r in others], [r["pencil"] for r in others])
    order = median([r["rho"] for r in rows if r["rho"] is not None])
    return [
        f"held-out records: {len(hers)} of {MAIN_SOLVER}'s, {len(others)} of the others'",
        f"{MAIN_SOLVER}: notes AUC {fmt(a, '.3f')} (>= 0.87: {gate(a, 0.87)}), rho with the "
        f"share marked {fmt(rho, '.3f')} (>= 0.67: {gate(rho, 0.67)})",
        f"other solvers: notes AUC {fmt(ao, '.3f')} (>= 0.85: {gate(ao, 0.85)})",
        f"notes of {len(notes)} rated puzzles within [0, 1]: "
        f"{all(0 <= x <= 1 for x in notes)}; {unrated} not rated",
        f"walkthrough order: median rho {fmt(order, '.3f')} over {len(rows)} records "
        f"(>= 0.69: {gate(order, 0.69)})",
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, required=True,
                    help="a corpus root with the odd half's janko.at records")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    humans = odd_records(args.corpus)
    if not humans:
        raise SystemExit(f"{args.corpus}: no odd-numbered janko.at records")
    jobs = [(h.id, h.puzzle) for h in humans]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        rated = {r["id"]: r for r in pool.map(rate, jobs, chunksize=2)}
    print("\n".join(figures(humans, rated)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
