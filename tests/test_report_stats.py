"""The report scripts' statistics (scripts/stats.py) and how the scripts import each other."""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path

import pytest

from scripts import stats
from scripts.stats import auc, median, ranks, spearman, within_auc, within_spearman

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def test_ranks_average_ties():
    assert ranks([10, 30, 20]) == [1.0, 3.0, 2.0]
    assert ranks([5, 5, 1, 5]) == [3.0, 3.0, 1.0, 3.0]


def test_spearman_known_values():
    assert spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # ties: ranks 1..4 against 1.5, 1.5, 3.5, 3.5 -> 4 / sqrt(5 * 4)
    assert spearman([1, 2, 3, 4], [1, 1, 2, 2]) == pytest.approx(4 / 20 ** 0.5)
    # monotone, not linear: still 1
    assert spearman([1, 2, 3, 4, 5], [1, 4, 9, 100, 1000]) == pytest.approx(1.0)


def test_spearman_undefined_cases():
    assert spearman([1, 2], [2, 1]) is None  # fewer than 3 pairs
    assert spearman([1, 2, 3], [7, 7, 7]) is None  # one side constant
    with pytest.raises(ValueError):
        spearman([1, 2, 3], [1, 2])


def _auc_by_pairs(scores, labels):
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0
               for p, n in itertools.product(pos, neg))
    return wins / (len(pos) * len(neg))


def test_auc_known_values():
    assert auc([1, 2, 3, 4], [False, False, True, True]) == 1.0
    assert auc([1, 2, 3, 4], [True, True, False, False]) == 0.0
    assert auc([1, 1], [True, False]) == 0.5
    assert auc([1, 2, 3], [True, True, True]) is None
    assert auc([], []) is None


def test_auc_is_the_share_of_pairs_ordered_right():
    rng = random.Random(38)
    for _ in range(50):
        n = rng.randint(2, 30)
        scores = [rng.randint(0, 6) for _ in range(n)]  # many ties
        labels = [rng.random() < 0.4 for _ in range(n)]
        if all(labels) or not any(labels):
            continue
        assert auc(scores, labels) == pytest.approx(_auc_by_pairs(scores, labels))


def test_within_auc_counts_only_pairs_of_one_group():
    # pooled, the groups' levels mix the classes up (0.75); within each, they separate fully
    scores = [10, 11, 0, 1]
    labels = [False, True, False, True]
    groups = ["a", "a", "b", "b"]
    assert auc(scores, labels) == 0.75
    assert within_auc(scores, labels, groups) == (1.0, 2)
    # a group with one class only adds no pair
    assert within_auc(scores + [5], labels + [True], groups + ["c"]) == (1.0, 2)
    assert within_auc([1, 2], [True, True], ["a", "a"]) == (None, 0)


def test_within_spearman_weights_groups_by_size():
    xs = [1, 2, 3, 1, 2, 3, 4, 5, 6]
    ys = [1, 2, 3, 6, 5, 4, 3, 2, 1]
    groups = ["a"] * 3 + ["b"] * 6
    rho, n = within_spearman(xs, ys, groups)
    assert n == 9
    assert rho == pytest.approx((3 * 1.0 + 6 * -1.0) / 9)
    assert within_spearman([1, 2], [1, 2], ["a", "a"]) == (None, 0)


def test_median_and_fmt():
    assert median([]) is None
    assert median([3, 1, 2]) == 2
    assert median([4, 1, 3, 2]) == 2.5
    assert stats.fmt(None) == "n/a"
    assert stats.fmt(0.6666) == "+0.67"
    assert stats.fmt(0.8125, ".3f") == "0.812"


def _script_imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "scripts":
                out.update(a.name for a in node.names)
            elif node.module.startswith("scripts."):
                out.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[1] for a in node.names
                       if a.name.startswith("scripts."))
    return out


def test_the_report_scripts_import_no_circle():
    graph = {p.stem: _script_imports(p) for p in SCRIPTS.glob("*.py")}
    assert graph["fit_rating"] >= {"stats"}  # the checker sees an import

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    circles = sorted(name for name in graph if name in reach(name))
    assert circles == []


def test_held_out_records_are_scored_on_the_scores_scale():
    """scripts/fit_rating.held_out: each fold's model is scaled on the publishers' puzzles
    before the folds' records are pooled (raw sums have a different offset in each fold,
    and pooling them mixed those offsets into the cross-validated AUC). Every feature here
    grows with one hidden difficulty ``t``, so every fold's model ranks the publishers'
    puzzles alike: a record copying the puzzle at their 5th percentile scores 1 in any
    fold, one copying the 95th scores 9."""
    from scripts.fit_rating import features, held_out

    def row(t: int, **extra) -> dict:
        steps = [["unique-combination", 1.0 + 0.1 * t, 1 + t, max(1, 20 - t // 2), 0, 1, k]
                 for k in range(3)]
        return {"status": "solved", "cells": 10 + t, "steps": steps, **extra}

    pub = [row(t, group="gecode", rank=t // 14, source="gecode", id=str(t))
           for t in range(40)]
    hum = [row(t, group=f"janko {t % 2}", rank=t / 40, weight=0.5)
           for t in (2, 38, 5, 2, 38, 20, 2, 38, 30, 2, 38)]
    held = held_out(pub, [features(r) for r in pub], hum, [features(r) for r in hum], 5)
    for r, s in zip(hum, held, strict=True):
        if r["cells"] == 12:
            assert s == pytest.approx(1.0, abs=0.05)
        if r["cells"] == 48:
            assert s == pytest.approx(9.0, abs=0.05)
