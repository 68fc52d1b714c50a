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


def test_the_notes_fit_recovers_a_known_logistic_model():
    """scripts/notes_fit.logistic: on records drawn from a known logistic model (a fixed
    generator), the intercept and slope come back; and the shipped model's folded form
    (offset + coefficient x (feature - centre)) is the ridge's prediction put through that
    calibration, so the rule file's figure is the fitted one."""
    import math
    import random

    pytest.importorskip("numpy")
    from scripts import notes_fit

    rng = random.Random(7)
    z = [rng.uniform(-3, 3) for _ in range(4000)]
    y = [rng.random() < 1 / (1 + math.exp(-(0.4 + 1.5 * v))) for v in z]
    a, b = notes_fit.logistic(z, y)
    assert a == pytest.approx(0.4, abs=0.15) and b == pytest.approx(1.5, abs=0.2)
    # records whose share marked grows with one feature (the other is noise)
    rows = []
    for _ in range(200):
        t = rng.random()
        rows.append({"share": t if t > 0.4 else 0.0, "pencil": t > 0.4,
                     "f": {"held": 3 * t + rng.gauss(0, 0.3), "scan": rng.random()}})
    names = ("held", "scan")
    model = notes_fit.fit(rows, names)
    assert model["coefficients"]["held"] > 0
    assert abs(model["coefficients"]["scan"]) < model["coefficients"]["held"] / 3
    probs = [notes_fit.probability(model, r["f"]) for r in rows]
    assert all(0 < p < 1 for p in probs)
    # marked records get the higher figures (the cross-validated AUC of the procedure)
    held = notes_fit.calibrated_cv(rows, names)
    assert auc(held, [r["pencil"] for r in rows]) > 0.9
    # calibrated: the mean figure is near the marking rate
    assert sum(held) / len(held) == pytest.approx(sum(r["pencil"] for r in rows) / len(rows),
                                                  abs=0.05)


def test_the_level_change_table_names_the_moves_and_their_reasons(tmp_path):
    """scripts/level_changes: two raters' saved ratings give how many puzzles changed level,
    between which levels, and the step that set the level before and after."""
    from scripts import level_changes

    def rated(level, rule, weight, score, notes="-"):
        return {"level": level, "level_rule": rule, "level_weight": weight, "score": score,
                "notes": notes, "cells": "9"}

    before = {"001": rated("Expert", "permutation-check", "5.8", "9.1"),
              "002": rated("Easy", "lone-cell", "1.1", "2"),
              "003": rated("Expert", "permutation-check", "5.8", "8.5")}
    after = {"001": rated("Medium", "sum-bounds", "2", "7.7", "0.6"),
             "002": rated("Easy", "lone-cell", "1.1", "2.1", "0.1"),
             "003": rated("Medium", "sum-bounds", "2", "7", "0.7")}
    for name, table in (("7", before), ("8", after)):
        level_changes.save([{"id": k, **v} for k, v in sorted(table.items())], name, tmp_path)
    assert level_changes.saved_versions(tmp_path) == ["7", "8"]
    back = level_changes.load(tmp_path / "janko-rater8.tsv")
    assert back["001"]["level_rule"] == "sum-bounds"
    text = "\n".join(level_changes.markdown(before, after, "7", "8"))
    assert "**2 changed level** (0 harder, 2 easier); 1 kept it" in text
    assert "| Expert | Medium | 2 |" in text
    assert ("| Expert -> Medium | permutation-check (5.8) | sum-bounds (2) | 2 | 001, 003 |"
            in text)
    assert "1 of 3 puzzles at 0.5" not in text and "2 of 3 puzzles at 0.5" in text
    report = tmp_path / "ratings.md"
    report.write_text("# R\n\n## A\n\ntext\n", encoding="utf-8")
    level_changes.put_section(level_changes.markdown(before, after, "7", "8"), report)
    level_changes.put_section(level_changes.markdown(before, after, "7", "8"), report)
    got = report.read_text(encoding="utf-8")
    assert got.count(level_changes.TITLE) == 1 and got.startswith("# R\n\n## A\n\ntext\n")
