"""What the even half's records allow: the ceilings behind issue 38's unmet gates.

    python scripts/make_reports.py --only human     (its "What the data allows" section)

A library of ``scripts/human.py`` (which hands it the records' orders and pencil rows; it
imports no other report script). Only the even-numbered puzzles' records exist here
(:func:`scripts.human.load`). The pencil-mark figures need numpy.

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
def _rho(model: dict, person: dict) -> float | None:
    cells = sorted(set(model) & set(person))
    return spearman([model[c] for c in cells], [person[c] for c in cells])


def order_bounds(cases) -> dict[str, float | None]:
    """Median rho of the rounds order with its ties broken in several ways, and by the
    person's own order (the oracle: the most any ordering within rounds can reach).
    ``cases``: (puzzle, orders) per record, orders as :func:`scripts.human.orders` gives."""
    from deducer.puzzle.combos import combos

    res: dict[str, list[float]] = {}
    for pz, o in cases:
        person, rnd = o["person"], o["rounds"]
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
            r = _rho(_tied(m), person)
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


def her_rows(pen: list[dict], walks: dict, puzzles: dict) -> list[dict]:
    """The main solver's rated records (``pen``: :func:`scripts.human.pencil_rows`) as
    scripts/fit_rating.py's labelled rows, with their walks' steps and puzzles."""
    return [{"id": p["id"], "rank": p["share"], "pencil": p["pencil"],
             "hundred": p["hundred"], "cells": walks[p["id"]]["cells"],
             "steps": walks[p["id"]]["steps"], "puzzle": puzzles[p["id"]]}
            for p in pen if walks[p["id"]]["status"] == "solved"]


#: fewer records than this: no cross-validated figures (a fold would be a handful)
MIN_RECORDS = 50


def pencil_ceiling(pen: list[dict], walks: dict, puzzles: dict
                   ) -> list[tuple[str, float | None, float | None, float | None,
                                   float | None]]:
    """(what, AUC, AUC within periods, rho, rho within periods) on the main solver's records
    ([] with fewer than :data:`MIN_RECORDS`)."""
    from deducer.engine.rating import FEATURES, score_features
    from scripts.cached_paths import path_steps

    hum = her_rows(pen, walks, puzzles)
    if len(hum) < MIN_RECORDS:
        return []
    feats = [score_features(path_steps(r), r["cells"]) for r in hum]
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


def markdown(cases, pen: list[dict], walks: dict, puzzles: dict) -> list[str]:
    """The two tables (order: :func:`order_bounds`; pencil marks: :func:`pencil_ceiling`),
    as Markdown lines."""
    lines = ["| order within the rounds | median rho |", "|---|---|"]
    lines += [f"| {k} | {fmt(v, '+.3f')} |" for k, v in order_bounds(cases).items()]
    try:
        rows = pencil_ceiling(pen, walks, puzzles)
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
