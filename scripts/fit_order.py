"""Fit the explain engine's step order (the ladder's ``order:`` section) on the janko.at
test-solvers' records, cross-validated, and measure how often a step is the cheapest open.

    python scripts/fit_order.py [--jobs N] [--folds 5] [--write] [--cheapest N]

Only the even-numbered puzzles' records are in the corpus (the odd half is held back to
evaluate against; :func:`scripts.human.load` refuses an odd one). Each candidate setting
(:data:`CANDIDATES`: which rules form a round, which are made as soon as they open, how a
round's steps are ordered) walks every fitting record's puzzle with the engine itself (lean
walks, ``.cache/order-walks.json``); a cell's rank is the step that places it. The score of
a setting on a set of puzzles is the median Spearman rho between that order and the order in
which the test-solver entered the cells' right digits.

Cross-validation: the puzzles are cut into ``--folds`` folds (by puzzle number); for each
fold the setting with the best median rho on the other folds is chosen and its rho on the
fold's puzzles kept; the figure printed is the median of those held-out rhos. ``--write``
puts the setting chosen on all the puzzles into ``rules/core.yaml``'s ``order:`` section.

``--cheapest N``: on N puzzles (every 7th fitting record), at every state of the walk where
a step of the easy rules is open, whether the step taken has the fewest facts and runs in
its proof of all those open (OCUS-style cost). ``--gate SHARE``: the setting is chosen (in
each fold too) only among those that take the cheapest step in at least SHARE of those
states (issue 38 asks for 90%).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from scripts.stats import fmt, median, spearman  # noqa: E402

CACHE = ROOT / ".cache" / "order-walks.json"
COMMAND = "python scripts/fit_order.py --jobs 2"
EASY = ["naked-single", "lone-cell", "unique-combination", "unique-intersection"]
#: the settings tried: name -> order section (None: no section, the plain ladder order)
CANDIDATES: dict[str, dict | None] = {
    "ladder": None,
    "round/found": {"round": EASY, "first": [], "within": "found"},
    "round/run": {"round": EASY, "first": [], "within": "run"},
    "round/cost": {"round": EASY, "first": [], "within": "cost"},
    "single-first/found": {"round": EASY[1:], "first": EASY[:1], "within": "found"},
    "single-first/cost": {"round": EASY[1:], "first": EASY[:1], "within": "cost"},
    # a digit known is written at once: the two rules that write one from a single fact
    "singles-first/found": {"round": EASY[2:], "first": EASY[:2], "within": "found"},
}
TIMEOUT = 120


def _ladder(order: dict | None):
    from deducer.engine import registry

    ladder = registry.load()
    out = ladder.part(list(ladder))
    out.order = order
    return out


def walk(job) -> dict:
    """One puzzle under one setting: the step (and the round) that places each cell."""
    name, pid, puzzle = job
    from deducer.clock import Limits
    from deducer.engine.walk import Engine, WalkOptions

    t = time.perf_counter()
    eng = Engine(puzzle, _ladder(CANDIDATES[name]),
                 WalkOptions(lean=True, limits=Limits.within(TIMEOUT)))
    status = eng.run()
    step_of, round_of = {}, {}
    for st in eng.steps:
        for r, c, _d in st.placements:
            step_of.setdefault((r, c), st.n)
            round_of.setdefault((r, c), st.round)
    return {"name": name, "id": pid, "status": str(status),
            "seconds": round(time.perf_counter() - t, 3),
            "step": [[r, c, k] for (r, c), k in sorted(step_of.items())],
            "round": [[r, c, k] for (r, c), k in sorted(round_of.items())]}


def source_key(name: str) -> str:
    """A digest of what a setting's walks depend on: the engine's and the rules' code, the
    rule file without its ``order:`` section (each setting brings its own), the setting."""
    import hashlib

    h = hashlib.sha256()
    core = (ROOT / "rules" / "core.yaml").read_text(encoding="utf-8")
    h.update(re.sub(r"^order:\n(?:  .*\n)+", "", core, flags=re.M).encode())
    for f in [*sorted((ROOT / "deducer" / "engine").glob("*.py")),
              *sorted((ROOT / "deducer" / "rules").glob("*.py"))]:
        h.update(f.read_bytes())
    h.update(json.dumps([name, CANDIDATES[name]], sort_keys=True).encode())
    return h.hexdigest()[:16]


def collect(humans, jobs: int) -> dict[tuple[str, str], dict]:
    keys = {name: source_key(name) for name in CANDIDATES}
    old: dict = {}
    if CACHE.exists():
        try:
            data = json.loads(CACHE.read_text(encoding="utf-8"))
        except ValueError:
            data = {}
        old = {(w["name"], w["id"]): w for w in data.get("walks", ())
               if keys.get(w["name"]) == w.get("key")}
    todo = [(name, h.id, h.puzzle) for name in CANDIDATES for h in humans
            if (name, h.id) not in old]
    if todo:
        print(f"walking {len(todo)} (setting, puzzle) pairs with {jobs} job(s) ...",
              file=sys.stderr)
        t0 = time.perf_counter()
        pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
        results = pool.map(walk, todo, chunksize=4) if pool else map(walk, todo)
        for k, w in enumerate(results, 1):
            w["key"] = keys[w["name"]]
            old[(w["name"], w["id"])] = w
            if k % 200 == 0:
                print(f"  {k}/{len(todo)} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        if pool:
            pool.shutdown()
        CACHE.parent.mkdir(exist_ok=True)
        CACHE.write_text(json.dumps({"walks": list(old.values())}),
                         encoding="utf-8")
    return old


def rhos(humans, walks) -> dict[str, dict[str, float]]:
    """setting (and setting + " by round") -> puzzle id -> rho with the person's order."""
    from deducer.puzzle import records

    out: dict[str, dict[str, float]] = {}
    for h in humans:
        person = records.entry_order(h.record, h.solution)
        for name in CANDIDATES:
            w = walks[(name, h.id)]
            for what, label in (("step", name), ("round", name + " (by round)")):
                model = {(r, c): k for r, c, k in w[what]}
                cells = sorted(set(model) & set(person))
                rho = spearman([model[c] for c in cells], [person[c] for c in cells])
                if rho is not None:
                    out.setdefault(label, {})[h.id] = rho
    return out


def cross_validate(by: dict[str, dict[str, float]], ids: list[str], folds: int,
                   names: list[str]) -> tuple[float | None, list[str]]:
    """The median held-out rho of the setting chosen on the other folds, and the choices."""
    held, chosen = [], []
    for f in range(folds):
        test = [i for k, i in enumerate(ids) if k % folds == f]
        train = [i for k, i in enumerate(ids) if k % folds != f]
        best = max(names, key=lambda n: median([by[n][i] for i in train if i in by[n]]) or -9)
        chosen.append(best)
        held += [by[best][i] for i in test if i in by[best]]
    return median(held), chosen


def cheapest(humans, order: dict | None, n: int) -> tuple[int, int, list[str]]:
    """(states where the step taken is the cheapest open round step, states, examples)."""
    from deducer.engine.walk import Engine, WalkOptions, _proof_cost

    ladder = _ladder(order)
    easy = [r for r in ladder if r.id in EASY]
    sample = humans[::7][:n]
    ok = total = 0
    bad: list[str] = []
    for h in sample:
        eng = Engine(h.puzzle, ladder, WalkOptions())
        while eng.open_count and eng._broken is None:
            found = eng.next_deduction()
            if found is None:
                break
            rule, ded, effect = found
            if rule.id in EASY:
                costs = [_proof_cost(d) for r in easy for d, _e in eng.deductions(r)]
                mine = _proof_cost(ded)
                total += 1
                if mine <= min(costs):
                    ok += 1
                elif len(bad) < 5:
                    bad.append(f"janko {h.id} step {len(eng.steps) + 1}: {rule.id} cost {mine}"
                               f" over {min(costs)}")
            eng.step()
    return ok, total, bad


def write(order: dict, fitted: str) -> None:
    path = ROOT / "rules" / "core.yaml"
    text = path.read_text(encoding="utf-8")
    block = ("order:\n"
             f"  fitted: \"{fitted}\"\n"
             f"  round: [{', '.join(order['round'])}]\n"
             f"  first: [{', '.join(order['first'])}]\n"
             f"  within: {order['within']}\n")
    new, k = re.subn(r"^order:\n(?:  .*\n)+", block, text, flags=re.M)
    if k != 1:
        raise SystemExit(f"{path}: no single 'order:' section to replace")
    path.write_text(new, encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--cheapest", type=int, default=0, metavar="N")
    ap.add_argument("--gate", type=float, default=None, metavar="SHARE",
                    help="choose only among settings that take the cheapest step open in "
                         "at least this share of the states of --cheapest N puzzles "
                         "(default N: 12)")
    args = ap.parse_args(argv)
    from scripts import human

    humans = [h for h in human.load() if h.fits]
    if not humans:
        print("janko.at corpus records not found", file=sys.stderr)
        return 2
    walks = collect(humans, args.jobs)
    by = rhos(humans, walks)
    ids = [h.id for h in humans]
    print(f"{len(ids)} even-numbered puzzles; median Spearman rho with the test-solver's order")
    print(f"{'setting':40s} {'in sample':>10s}")
    for name, vals in by.items():
        print(f"{name:40s} {fmt(median(list(vals.values()))):>10s}")
    names = list(CANDIDATES)
    if args.gate is not None:
        keep = []
        for n in names:
            ok, total, _bad = cheapest(humans, CANDIDATES[n], args.cheapest or 12)
            share = ok / max(1, total)
            print(f"  {n}: cheapest step open taken in {ok} of {total} states ({share:.1%})")
            if share >= args.gate:
                keep.append(n)
        if not keep:
            print(f"no setting takes the cheapest step in {args.gate:.0%} of the states")
            return 1
        names = keep
    cv, chosen = cross_validate(by, ids, args.folds, names)
    print(f"\n{args.folds}-fold cross-validated (setting chosen on the other folds): "
          f"median rho {fmt(cv)}; chosen per fold: {', '.join(chosen)}")
    for n in CANDIDATES:
        cvn, _ = cross_validate(by, ids, args.folds, [n])
        print(f"  {n}: held-out median {fmt(cvn)}")
    best = max(names, key=lambda n: median(list(by[n].values())) or -9)
    print(f"chosen on all: {best}")
    if args.cheapest and args.gate is None:
        ok, total, bad = cheapest(humans, CANDIDATES[best], args.cheapest)
        print(f"cheapest open step taken ({best}): {ok} of {total} states "
              f"({ok / max(1, total):.1%}); e.g. {'; '.join(bad)}")
    if args.write and CANDIDATES[best] is not None:
        gate = f" --gate {args.gate:g}" if args.gate is not None else ""
        write(CANDIDATES[best], f"{COMMAND}{gate} on {len(ids)} even-numbered janko records: "
              f"{args.folds}-fold cross-validated median rho {fmt(cv)}")
        print("rules/core.yaml: order section written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
