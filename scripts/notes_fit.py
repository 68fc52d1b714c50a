"""Fit the rating's ``notes`` figure: the chance a solver needs pencil marks.

A library of ``scripts/fit_rating.py`` (``python scripts/fit_rating.py --write`` refits the
score and this figure in one run; docs/rating.md, "Pencil marks"). Needs numpy.

What it fits on: the janko.at test-solvers' records of the **even-numbered** puzzles only
(the corpus holds no other; the odd half is held back to evaluate against). The model is
fitted on Angela Janko's records (the main solver, about 390 of the 478 that fit their
puzzle); the other solvers' records are never fitted on and measure how far it carries.

How: a ridge regression (features standardised, lambda :data:`LAMBDA`) of the ranks of the
share of white cells she marked, cross-validated over :data:`FOLDS` folds of puzzles
(record ``i`` in fold ``i % FOLDS``); then a one-feature logistic regression of whether she
marked at all on the cross-validated predictions, so that the figure reads as a
probability. The two fold into one linear model, ``logit = offset + sum of coefficient x
(feature - centre)``, which ``rules/core.yaml``'s ``rating: notes:`` section holds.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from scripts.stats import auc, fmt, spearman, within_auc, within_spearman  # noqa: E402

#: the main solver, whose records are fitted on
MAIN_SOLVER = "Angela Janko"
FOLDS = 5
LAMBDA = 0.1
#: the features the shipped figure weighs (docs/rating.md, "Pencil marks"): all of them
#: (the score's, the no-notes solver's, the mean step weight, the eliminating steps)
CHOSEN = "all"
#: subsets reported beside it
SUBSETS = {
    "held, round_scan, scan": ("held", "round_scan", "scan"),
    "the score's features alone": None,  # FEATURES
}


def record_rows(paths: list[dict], humans) -> list[dict]:
    """One row per fitting record whose puzzle's walk is solved: solver, whether any white
    cell was marked, the share marked, the period of a hundred puzzles, the features."""
    from deducer.engine.rating import notes_features
    from deducer.puzzle import records
    from scripts.cached_paths import path_steps

    by_id = {r["id"]: r for r in paths if r["source"] == "janko" and r["status"] == "solved"}
    out = []
    for h in humans:
        r = by_id.get(h.id)
        if not h.fits or r is None:
            continue
        marked = records.marked_cells(h.record) & set(h.solution)
        out.append({"id": h.id, "solver": h.solver, "pencil": bool(marked),
                    "share": len(marked) / len(h.solution), "hundred": (h.number - 1) // 100,
                    "cells": r["cells"],
                    "f": notes_features(path_steps(r), r["cells"], tuple(r["head"]))})
    return out


def _ridge(x, t, lam: float):
    """Weights on standardised features of a ridge fit of ``t`` (standardised), with the
    features' means and SDs."""
    import numpy as np

    mu, sd = x.mean(0), x.std(0) + 1e-9
    xs = (x - mu) / sd
    tt = (t - t.mean()) / (t.std() or 1.0)
    w = np.linalg.solve(xs.T @ xs / len(t) + lam * np.eye(x.shape[1]), xs.T @ tt / len(t))
    return w, mu, sd


def _matrix(rows: list[dict], names: tuple[str, ...]):
    import numpy as np

    return np.array([[r["f"][k] for k in names] for r in rows], float)


def cv_predict(rows: list[dict], names: tuple[str, ...], folds: int = FOLDS,
               lam: float = LAMBDA) -> list[float]:
    """Each record's prediction by a ridge model fitted on the other folds."""
    import numpy as np

    from scripts.stats import ranks

    x = _matrix(rows, names)
    t = np.array(ranks([r["share"] for r in rows]), float)
    held = np.zeros(len(rows))
    idx = np.arange(len(rows))
    for f in range(folds):
        tr, te = idx % folds != f, idx % folds == f
        w, mu, sd = _ridge(x[tr], t[tr], lam)
        held[te] = ((x[te] - mu) / sd) @ w
    return [float(v) for v in held]


def logistic(z: list[float], y: list[bool], iters: int = 50) -> tuple[float, float]:
    """Intercept and slope of a logistic regression of ``y`` on one variable (Newton)."""
    a = b = 0.0
    for _ in range(iters):
        ga = gb = haa = hab = hbb = 0.0
        for zi, yi in zip(z, y, strict=True):
            p = 1.0 / (1.0 + math.exp(-(a + b * zi)))
            e = p - (1.0 if yi else 0.0)
            v = p * (1 - p)
            ga += e
            gb += e * zi
            haa += v
            hab += v * zi
            hbb += v * zi * zi
        det = haa * hbb - hab * hab
        if abs(det) < 1e-12:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) + abs(db) < 1e-10:
            break
    return a, b


def fit(rows: list[dict], names: tuple[str, ...], lam: float = LAMBDA) -> dict:
    """The shipped model on ``rows`` (all of them): the ridge on every record, calibrated
    on the cross-validated predictions; as the rule file holds it."""
    import numpy as np

    from scripts.stats import ranks

    x = _matrix(rows, names)
    t = np.array(ranks([r["share"] for r in rows]), float)
    w, mu, sd = _ridge(x, t, lam)
    a, b = logistic(cv_predict(rows, names, lam=lam), [r["pencil"] for r in rows])
    return {"offset": round(a, 4),
            "coefficients": {k: round(float(b * w[j] / sd[j]), 4) for j, k in enumerate(names)},
            "centre": {k: round(float(mu[j]), 4) for j, k in enumerate(names)}}


def probability(model: dict, f: dict[str, float]) -> float:
    z = model["offset"] + sum(c * (f[k] - model["centre"][k])
                              for k, c in model["coefficients"].items())
    return 1.0 / (1.0 + math.exp(-z))


def calibrated_cv(rows: list[dict], names: tuple[str, ...], folds: int = FOLDS) -> list[float]:
    """Each record's probability by the whole procedure (ridge and calibration) fitted on
    the other folds: the honest figure for calibration."""
    out = [0.0] * len(rows)
    for f in range(folds):
        train = [r for i, r in enumerate(rows) if i % folds != f]
        m = fit(train, names)
        for i in range(f, len(rows), folds):
            out[i] = probability(m, rows[i]["f"])
    return out


def report(rows: list[dict], scores: dict[str, float] | None = None
           ) -> tuple[list[str], dict]:
    """Markdown lines of the figures (cross-validated on her records; the other solvers'
    records never fitted on) and the shipped model."""
    from deducer.engine.rating import FEATURES, NOTES_FEATURES

    hers = [r for r in rows if r["solver"] == MAIN_SOLVER]
    others = [r for r in rows if r["solver"] != MAIN_SOLVER]
    live = tuple(k for k in NOTES_FEATURES if len({r["f"][k] for r in hers}) > 1)
    chosen = live if CHOSEN == "all" else CHOSEN
    y = [r["pencil"] for r in hers]
    share = [r["share"] for r in hers]
    g = [r["hundred"] for r in hers]
    model = fit(hers, chosen)
    prob = calibrated_cv(hers, chosen)
    yo = [r["pencil"] for r in others]
    po = [probability(model, r["f"]) for r in others]

    def f3(v):
        return fmt(v, ".3f")

    lines = [
        f"Records: {len(hers)} of {MAIN_SOLVER}'s ({sum(y)} with pencil marks), "
        f"{len(others)} of the other solvers' ({sum(yo)} with pencil marks); even-numbered "
        "puzzles only.",
        "",
        "| figure | value | gate (on the odd half) |",
        "|---|---|---|",
        f"| her records: AUC, pencil marks or not, {FOLDS}-fold cross-validated | "
        f"{f3(auc(prob, y))} | >= 0.87 |",
        f"| her records: rho with the share of cells marked, cross-validated | "
        f"{f3(spearman(prob, share))} | >= 0.67 |",
        f"| her records: the same within periods of a hundred puzzles (AUC / rho) | "
        f"{f3(within_auc(prob, y, g)[0])} / {f3(within_spearman(prob, share, g)[0])} | "
        "(reported) |",
        f"| the other solvers' records (never fitted on): AUC | {f3(auc(po, yo))} | >= 0.85 |",
        f"| her records: mean figure / share marked, cross-validated | "
        f"{sum(prob) / len(prob):.2f} / {sum(y) / len(y):.2f} | (calibration) |",
        f"| her records: Brier score, cross-validated (marking rate alone: "
        f"{_brier([sum(y) / len(y)] * len(y), y):.3f}) | {_brier(prob, y):.3f} | (reported) |",
    ]
    if scores:
        mine = [probability(model, r["f"]) for r in hers]
        lines.append(f"| rho of the figure with the score, her puzzles | "
                     f"{f3(spearman(mine, [scores[r['id']] for r in hers]))} | (reported) |")
    lines += ["", "Calibration (cross-validated, her records in fifths by the figure):", "",
              "| figure | records | mean figure | share marked |", "|---|---|---|---|"]
    order = sorted(range(len(hers)), key=lambda i: prob[i])
    for q in range(5):
        part = order[q * len(order) // 5:(q + 1) * len(order) // 5]
        lines.append(f"| fifth {q + 1} | {len(part)} | "
                     f"{sum(prob[i] for i in part) / len(part):.2f} | "
                     f"{sum(y[i] for i in part) / len(part):.2f} |")
    lines += ["", "Feature sets (ridge, cross-validated on her records; AUC / rho):", "",
              "| features | AUC | rho | other solvers' AUC |", "|---|---|---|---|"]
    sets = {"shipped: every feature": chosen}
    for title, names in SUBSETS.items():
        sets[title] = tuple(k for k in FEATURES if k in live) if names is None else names
    for k in ("held", "scan", "round_scan", "head_rounds"):
        sets[f"`{k}` alone (no fitting)"] = (k,)
    for title, names in sets.items():
        if len(names) == 1:
            s = [r["f"][names[0]] for r in hers]
            so = [r["f"][names[0]] for r in others]
        else:
            s = cv_predict(hers, names)
            m = fit(hers, names)
            so = [probability(m, r["f"]) for r in others]
        lines.append(f"| {title} | {f3(auc(s, y))} | {f3(spearman(s, share))} | "
                     f"{f3(auc(so, yo))} |")
    return lines, model


def _brier(p: list[float], y: list[bool]) -> float:
    return sum((pi - (1.0 if yi else 0.0)) ** 2 for pi, yi in zip(p, y, strict=True)) / len(y)
