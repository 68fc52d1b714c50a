"""What the even half's records allow: the ceilings behind issue 38's unmet gates.

    python scripts/human_ceiling.py [--jobs N]     (prints Markdown; needs numpy)

Used by ``scripts/human.py`` for the "What the data allows" section of reports/human.md.
Only the even-numbered puzzles' records are read (:func:`scripts.human.load`).

- **Order**: the rounds order ranks the cells of one round alike. However the cells of a
  round are ordered among themselves, median rho cannot pass the figure reached when they are
  put in the person's own order (the *oracle*); tie-breaks a model could use (small runs,
  few combinations, reading order, nearest to the last cell) are measured against it.
- **Pencil marks**: how far the path's features go without the publishers' labels (a
  ridge fit on her records alone, 5-fold cross-validated, each fold's predictions centred
  on its training records), what an "in the head" solver adds (only written digits are
  remembered, every deduction of the combinations and crossings made round by round), and
  how much her drift across puzzle numbers alone explains.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from scripts.stats import auc, fmt, median, spearman, within_auc, within_spearman  # noqa: E402


# ---------------------------------------------------------------------------- in the head
def _fits(cands: list[int], combo: int) -> bool:
    """Can the combination's digits be laid on cells with these candidates (a matching)?"""
    from deducer.puzzle.combos import BIT, DIGITS

    digits = DIGITS[combo]
    if len(digits) != len(cands):
        return False
    match: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for d in digits:
            if cands[i] & BIT[d] and d not in seen:
                seen.add(d)
                if d not in match or place(match[d], seen):
                    match[d] = i
                    return True
        return False

    return all(place(i, set()) for i in range(len(cands)))


def _head_round(pz, val: dict[int, int], passes: int) -> tuple[dict[int, int], int]:
    """One round on a board remembered by its written digits only: each run's combinations
    that hold its digits, narrowed ``passes`` times by what its cells can take; the cells
    left with one digit and the digits with one place in a run. Returns the placements and
    the candidates a person would have to hold in mind."""
    from deducer.puzzle.combos import BIT, DIGITS, POP, SINGLE, combos

    allowed, cand = {}, {}
    for run in pz.runs:
        pm = 0
        for i in run.cells:
            if i in val:
                pm |= BIT[val[i]]
        allowed[run.id] = ([c for c in combos(run.total, run.length) if c & pm == pm], pm)
    for i in range(len(pz.whites)):
        if i not in val:
            m = 0x1FF
            for rid in pz.cell_runs[i]:
                cs, pm = allowed[rid]
                u = 0
                for c in cs:
                    u |= c
                m &= u & ~pm
            cand[i] = m
    for _ in range(passes):
        for run in pz.runs:
            cs, pm = allowed[run.id]
            opn = [i for i in run.cells if i not in val]
            if not opn:
                continue
            good = [c for c in cs if _fits([cand[i] for i in opn], c & ~pm)]
            u = 0
            for c in good:
                u |= c
            for i in opn:
                cand[i] &= u
            allowed[run.id] = (good, pm)
    new = {i: SINGLE[m] for i, m in cand.items() if POP[m] == 1}
    for run in pz.runs:
        cs, pm = allowed[run.id]
        if not cs:
            continue
        req = 0x1FF
        for c in cs:
            req &= c
        opn = [i for i in run.cells if i not in val]
        for d in DIGITS[req & ~pm]:
            where = [i for i in opn if cand[i] & BIT[d]]
            if len(where) == 1:
                new.setdefault(where[0], d)
    return new, sum(POP[m] for m in cand.values())


def head_features(pz, passes: int = 3) -> dict[str, float]:
    """The in-the-head solver's rounds and the candidates held per cell placed."""
    from deducer.puzzle.combos import POP, SINGLE

    val = {i: SINGLE[m] for i, m in enumerate(pz.initial_masks()) if POP[m] == 1}
    rounds, held = 0, 0.0
    while True:
        new, ncand = _head_round(pz, val, passes)
        if not new:
            break
        rounds += 1
        held += ncand / len(new)
        val.update(new)
    return {"head_rounds": math.log1p(rounds), "head_held": math.log1p(held),
            "head_share": len(val) / len(pz.whites)}


# ---------------------------------------------------------------------------- order
def order_bounds(humans, walks) -> dict[str, float]:
    """Median rho of the rounds order with its ties broken in several ways, and by the
    person's own order (the oracle: the most any ordering within rounds can reach)."""
    from deducer.puzzle.combos import combos
    from scripts import human

    res: dict[str, list[float]] = {}
    for h in humans:
        if not h.fits or h.id not in walks:
            continue
        o = human.orders(h, walks[h.id])
        person, rnd, pz = o["person"], o["rounds"], h.puzzle
        info = {}
        for rc, i in pz.index.items():
            rs = [pz.runs[r] for r in pz.cell_runs[i]]
            info[rc] = (min(r.length for r in rs), min(len(combos(r.total, r.length)) for r in rs))
        nn, last, pos = {}, None, 0
        for k in sorted(set(rnd.values())):
            rest = {c for c, v in rnd.items() if v == k}
            while rest:
                ref = last
                c = (min(rest) if ref is None else
                     min(rest, key=lambda x: (abs(x[0] - ref[0]) + abs(x[1] - ref[1]), x)))
                rest.discard(c)
                nn[c], last, pos = pos, c, pos + 1
        models = {
            "rounds (ties kept)": rnd,
            "small runs first": {c: (rnd[c], info[c][0]) for c in rnd},
            "fewest combinations first": {c: (rnd[c], info[c][1]) for c in rnd},
            "reading order": {c: (rnd[c], c) for c in rnd},
            "nearest the last cell": nn,
            "oracle (the person's own order within each round)":
                {c: (rnd[c], person.get(c, 0)) for c in rnd},
        }
        for name, m in models.items():
            r = human.order_rho(_tied(m), person)
            if r is not None:
                res.setdefault(name, []).append(r)
    return {k: median(v) for k, v in res.items()}


def _tied(m: dict) -> dict:
    """Ranks of sortable keys, equal keys sharing a rank."""
    keys = sorted(set(m.values()))
    pos = {k: n for n, k in enumerate(keys)}
    return {c: pos[v] for c, v in m.items()}


# ---------------------------------------------------------------------------- pencil
def ridge_cv(feats: list[dict], names: tuple[str, ...], target: list[float],
             folds: int = 5, lam: float = 0.1) -> list[float]:
    """Held-out predictions of a ridge fit of the target's ranks on standardised features
    (records cut by index into ``folds``); each fold's predictions centred on its training
    records, so the folds pool on one scale."""
    import numpy as np

    from scripts.stats import ranks

    x = np.array([[f[k] for k in names] for f in feats], float)
    t = np.array(ranks(target), float)
    held = np.zeros(len(feats))
    idx = np.arange(len(feats))
    for f in range(folds):
        tr, te = idx % folds != f, idx % folds == f
        mu, sd = x[tr].mean(0), x[tr].std(0) + 1e-9
        xs = (x - mu) / sd
        tt = (t[tr] - t[tr].mean()) / t[tr].std()
        w = np.linalg.solve(xs[tr].T @ xs[tr] / tr.sum() + lam * np.eye(len(names)),
                            xs[tr].T @ tt / tr.sum())
        held[te] = xs[te] @ w
    return list(held)


def her_rows(humans, walks) -> list[dict]:
    """The main solver's rated records as scripts/fit_rating.py's labelled rows (its
    :func:`~scripts.fit_rating.human_rows`, from walks already made)."""
    from scripts import human

    pen = {r["id"]: r for r in human.pencil_rows(humans, walks)}
    return [{"id": h.id, "group": f"janko {pen[h.id]['hundred']}", "rank": pen[h.id]["share"],
             "pencil": pen[h.id]["pencil"], "hundred": pen[h.id]["hundred"],
             "status": "solved", "cells": walks[h.id]["cells"], "steps": walks[h.id]["steps"],
             "puzzle": h.puzzle}
            for h in humans if h.id in pen and walks[h.id]["status"] == "solved"]


#: fewer records than this: no cross-validated figures (a fold would be a handful)
MIN_RECORDS = 50


def pencil_ceiling(humans, walks) -> list[tuple[str, float | None, float | None,
                                                float | None, float | None]]:
    """(what, AUC, AUC within periods, rho, rho within periods) on the main solver's records
    ([] with fewer than :data:`MIN_RECORDS`)."""
    from deducer.engine.rating import FEATURES
    from scripts import fit_rating

    hum = her_rows(humans, walks)
    if len(hum) < MIN_RECORDS:
        return []
    feats = [fit_rating.features(r) for r in hum]
    for r, f in zip(hum, feats, strict=True):
        f.update(head_features(r["puzzle"]))
    y = [r["pencil"] for r in hum]
    share = [r["rank"] for r in hum]
    g = [r["hundred"] for r in hum]

    def row(what: str, s: list[float]):
        return (what, auc(s, y), within_auc(s, y, g)[0], spearman(s, share),
                within_spearman(s, share, g)[0])

    rate = {k: sum(yy for yy, gg in zip(y, g, strict=True) if gg == k)
            / sum(1 for gg in g if gg == k) for k in set(g)}
    path = tuple(k for k in FEATURES if len({f[k] for f in feats}) > 1)  # not constant
    old = tuple(k for k in path if k not in ("rounds", "round_scan"))
    head = ("head_rounds", "head_held")
    return [
        row("her period's share of marked puzzles alone (the drift; in sample)",
            [rate[k] for k in g]),
        row("grid size (white cells)", [r["cells"] for r in hum]),
        row("`scan` alone (no fitting)", [f["scan"] for f in feats]),
        row("`round_scan` alone (no fitting)", [f["round_scan"] for f in feats]),
        row("in-the-head rounds alone (no fitting)", [f["head_rounds"] for f in feats]),
        row("the path's features before rater 7, her records alone, cross-validated",
            ridge_cv(feats, old, share)),
        row("the path's features (rater 7), her records alone, cross-validated",
            ridge_cv(feats, path, share)),
        row("the same and the in-the-head solver's, her records alone, cross-validated",
            ridge_cv(feats, path + head, share)),
    ]


def markdown(humans, walks) -> list[str]:
    """The two tables (order, pencil marks), as Markdown lines."""
    lines = ["| order within the rounds | median rho |", "|---|---|"]
    lines += [f"| {k} | {fmt(v, '+.3f')} |" for k, v in order_bounds(humans, walks).items()]
    try:
        rows = pencil_ceiling(humans, walks)
    except ImportError:  # numpy (pip install deducer[fit])
        return lines + ["", "(The pencil-mark figures need numpy.)"]
    if not rows:
        return lines + ["", f"(Fewer than {MIN_RECORDS} rated records: no pencil-mark "
                        "figures.)"]
    lines += ["", "| pencil marks: predictor | AUC | AUC within periods | rho | "
              "rho within periods |", "|---|---|---|---|---|"]
    lines += [f"| {what} | " + " | ".join(fmt(v, ".3f") for v in vals) + " |"
              for what, *vals in rows]
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    from scripts import human

    humans = [h for h in human.load() if h.fits]
    print("\n".join(markdown(humans, human.collect(humans, args.jobs))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
