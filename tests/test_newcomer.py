"""What a new user meets first (issue 30): a puzzle with several solutions found out before
any step, conversions that say what they leave out, `generate` saying what it made, the
walkthrough's legend, "an Easy puzzle", `rules test` counts that add up."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from deducer.app.cli import main
from deducer.engine import walk as engine
from deducer.engine.sentences import a_or_an
from deducer.puzzle import formats

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
EXAMPLE = ROOT / "docs" / "example-rule"


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# ---- several solutions: the solver first, no walk ----------------------------------------
def test_several_solutions_are_found_before_any_step(monkeypatch):
    puzzle = formats.load(PUZZLES / "seed000-k.j", name="k3")  # 40 solutions
    walked = []
    real = engine.Engine.run
    monkeypatch.setattr(engine.Engine, "run", lambda self: walked.append(1) or real(self))
    exp = engine.explain(puzzle)
    assert exp.status == engine.MULTIPLE and not walked and exp.steps == []
    assert len(exp.solutions) == 2 and exp.solutions[0] != exp.solutions[1]
    assert "more than one solution" in exp.message and "differ at" in exp.message
    # a unique puzzle is still walked in full
    exp = engine.explain(formats.load(PUZZLES / "seed000-k2.j"))
    assert exp.status == engine.SOLVED and walked and exp.steps


def test_explain_command_says_several_solutions_with_the_cells(capsys):
    code, out, _ = run(capsys, "explain", PUZZLES / "seed003-example.txt")
    assert code == 0
    assert re.search(r"several solutions: .*differ at \d+ cells: r\d+c\d+", out)


# ---- conversions say what they leave out --------------------------------------------------
@pytest.mark.parametrize("fmt", ["backslash", "janko", "dzn"])
def test_a_conversion_that_drops_progress_warns(fmt, capsys, tmp_path):
    progress = PUZZLES / "seed002-progress.txt"
    p = formats.load(progress)
    assert p.entries and p.pencil
    code, out, err = run(capsys, "convert", progress, "--to", fmt)
    if fmt == "dzn":  # seed 002's runs are unclued: refused, never changed
        assert code == 2 and "has no clue" in err
        return
    assert code == 0 and out
    assert err.count("\n") == 1 and "warning" in err
    assert f"{len(p.entries)} entr" in err and f"{len(p.pencil)} cells of pencil marks" in err


@pytest.mark.parametrize("fmt", ["pipe", "json", "puzzlink"])
def test_a_conversion_that_keeps_progress_is_quiet(fmt, capsys):
    code, out, err = run(capsys, "convert", PUZZLES / "seed002-progress.txt", "--to", fmt)
    assert code == 0 and out and err == ""
    code, out, err = run(capsys, "convert", PUZZLES / "seed000-k2.j", "--to", "puzzlink")
    assert code == 0 and err == ""  # nothing to lose


# ---- generate says what it made -----------------------------------------------------------
def test_generate_says_how_many_which_levels_and_where(capsys, tmp_path):
    out_dir = tmp_path / "new"
    code, out, err = run(capsys, "generate", "--size", "8x8", "--count", "2", "--seed", "7",
                         "--out", out_dir, "--no-progress")
    assert code == 0
    made = sorted(p for p in out_dir.iterdir() if not p.name.startswith("."))  # no manifest
    line = err.strip().splitlines()[-1]
    assert line.startswith("deducer: made 2 puzzles, 8x8, ")
    counted = sum(int(n) for n in re.findall(r"(?:Easy|Medium|Hard|Expert|Extreme|"
                                             r"Unreasonable) (\d+)", line))
    assert counted == 2
    assert str(made[0]) in line and str(made[-1]) in line


# ---- the legend under the text walkthrough ------------------------------------------------
def test_the_text_walkthrough_explains_its_names(capsys):
    code, out, _ = run(capsys, "explain", PUZZLES / "seed002-four.txt", "--color", "never")
    assert code == 0
    legend = next(line for line in out.splitlines() if line.startswith("How to read"))
    # its examples are runs of this puzzle, so a reader finds them on the board
    runs = {run.name: run for run in formats.load(PUZZLES / "seed002-four.txt").runs}
    across, down = re.findall(r"r\d+c\d+[→↓] \d+/\d+", legend)
    assert across in runs and down in runs
    assert f"{runs[across].length} cells adding up to {runs[across].total}" in legend
    assert out.index(legend) < out.index("1. ")  # before the steps that use the names


# ---- articles -----------------------------------------------------------------------------
@pytest.mark.parametrize("word,said", [
    ("Easy", "an Easy"), ("Expert", "an Expert"), ("Extreme", "an Extreme"),
    ("Unreasonable", "an Unreasonable"), ("Hard", "a Hard"), ("Medium", "a Medium"),
    ("8x8", "an 8x8"), ("11x11", "an 11x11"), ("18x18", "an 18x18"), ("12x12", "a 12x12"),
    ("80x80", "an 80x80"), ("1x8", "a 1x8")])
def test_a_or_an(word, said):
    assert a_or_an(word) == said


def test_generate_refusal_says_an_easy_puzzle(capsys):
    code, _, err = run(capsys, "generate", "--size", "8x8", "--level", "Easy", "--needs",
                       "forcing-chain")
    assert code == 2 and "an Easy puzzle" in err and "a Easy" not in err


# ---- rules test counts add up -------------------------------------------------------------
def test_rules_test_counts_add_up(capsys):
    code, out, _ = run(capsys, "rules", "test", EXAMPLE / "sum_parity_unsound.yaml",
                       "--count", "6", "--seed", "1")
    assert code == 1
    fired = re.search(r"user rules fired: sum-parity-unsound x(\d+) \((\d+) true, (\d+) false\)",
                      out)
    assert fired, out
    total, true, false = map(int, fired.groups())
    assert total == true + false and false >= 1
    summary = re.search(r"(\d+) false deduction\(s\), in (\d+) of (\d+) puzzles", out)
    assert summary, out
    assert int(summary.group(1)) == false == int(summary.group(2))
    assert int(summary.group(3)) == int(re.search(r"(\d+) puzzles, \d+ steps", out).group(1))
    code, js, _ = run(capsys, "rules", "test", EXAMPLE / "sum_parity_unsound.yaml",
                      "--count", "6", "--seed", "1", "--json")
    obj = json.loads(js)
    assert obj["false"] == false and obj["fired"]["sum-parity-unsound"] == true
