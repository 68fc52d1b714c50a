"""End-to-end tests of explain, rate, hint, check and rules through ``deducer.cli.main``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deducer.app.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "example-rule"

# seed 002 §1.1: unique solution 2 7 / 3 9
FOUR = "\\|5\\|16\\\n\\| | \n\\12| | \n"
# three solutions: 1 7 4 / 3 9 2, 1 9 2 / 3 7 4, 3 7 2 / 1 9 4
MULTI = "\\|4\\|16\\|6\\\n\\12| | | \n\\14| | | \n"
# no solution: the across 3 needs 1+2 and the across 4 needs 1+3, but the downs need 1+2
NONE = "\\|3\\|3\\\n\\3| | \n\\4| | \n"


def put(tmp_path: Path, text: str, name: str = "p.txt") -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------- explain
@pytest.mark.smoke
def test_explain_text_numbered_steps_and_rating(tmp_path, capsys):
    code, out, _ = run(capsys, "explain", put(tmp_path, FOUR))
    assert code == 0
    assert "\n1. " in out and "rating: " in out
    assert "solved" in out


def test_explain_json_shape_and_solution_matches_solve(tmp_path, capsys):
    path = put(tmp_path, FOUR)
    code, out, _ = run(capsys, "explain", path, "--json")
    assert code == 0
    obj = json.loads(out)
    assert list(obj)[:4] == ["status", "steps", "rating", "solution"]
    assert obj["status"] == "solved"
    for key in ("level", "max_weight", "score", "rules", "version"):
        assert key in obj["rating"]
    step = obj["steps"][0]
    for key in ("n", "rule", "text", "placements", "eliminations", "cells", "weight"):
        assert key in step
    assert [s["n"] for s in obj["steps"]] == list(range(1, len(obj["steps"]) + 1))
    code, out, _ = run(capsys, "solve", path, "--json")
    assert code == 0
    assert obj["solution"] == json.loads(out)["solutions"][0]
    assert obj["solution"] == [[None, None, None], [None, 2, 7], [None, 3, 9]]


def test_explain_bundled_puzzle_matches_solve(capsys):
    path = ROOT / "puzzles" / "seed000-k2.j"
    if not path.exists():
        pytest.skip("bundled puzzles absent")
    _, out, _ = run(capsys, "explain", path, "--json")
    _, sol, _ = run(capsys, "solve", path, "--json")
    assert json.loads(out)["solution"] == json.loads(sol)["solutions"][0]


@pytest.mark.smoke
def test_explain_multiple_solutions_says_where(tmp_path, capsys):
    code, out, _ = run(capsys, "explain", put(tmp_path, MULTI), "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["status"] == "multiple"
    assert obj["solution"] is None
    assert "differ at" in obj["message"]
    assert len(obj["solutions"]) >= 2
    code, out, _ = run(capsys, "explain", put(tmp_path, MULTI))
    assert "several solutions" in out and "differ at" in out


def test_explain_no_solution_exit_1(tmp_path, capsys):
    code, out, _ = run(capsys, "explain", put(tmp_path, NONE))
    assert code == 1
    assert "no solution" in out
    assert "r3c3" in out or "r3c1" in out  # the cell or run with no possibility left
    code, out, _ = run(capsys, "explain", put(tmp_path, NONE), "--json")
    assert code == 1 and json.loads(out)["status"] == "none"


@pytest.mark.smoke
def test_bad_input_one_line_exit_2(tmp_path, capsys):
    code, out, err = run(capsys, "explain", put(tmp_path, "\\|5\\\n\\|x\n"))
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("deducer: error:")
    code, _, err = run(capsys, "explain", tmp_path / "missing.txt")
    assert code == 2 and "no such file" in err
    code, _, err = run(capsys, "explain", put(tmp_path, FOUR), "--rules",
                       tmp_path / "nope.yaml")
    assert code == 2 and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "explain", put(tmp_path, FOUR), "--disable", "no-such-rule")
    assert code == 2 and "no-such-rule" in err


def test_explain_markdown_never_overwrites(tmp_path, capsys):
    md = tmp_path / "walk.md"
    code, out, _ = run(capsys, "explain", put(tmp_path, FOUR), "--markdown", md)
    # a file asked for: one line naming it, not the walkthrough again on the terminal
    assert code == 0 and "rating: " not in out and len(out.splitlines()) == 1
    assert out.startswith(f"wrote {md} (markdown): ") and "score " in out
    text = md.read_text(encoding="utf-8")
    assert text.startswith("# Walkthrough") and "## Steps" in text and "1. **" in text
    code, _, err = run(capsys, "explain", put(tmp_path, FOUR), "--markdown", md)
    assert code == 2 and "--force" in err
    code, _, _ = run(capsys, "explain", put(tmp_path, FOUR), "--markdown", md, "--force")
    assert code == 0


def test_explain_files_print_one_line_unless_print(tmp_path, capsys):
    src = put(tmp_path, FOUR)
    md, page = tmp_path / "w.md", tmp_path / "w.html"
    code, out, _ = run(capsys, "explain", src, "--markdown", md, "--html", page)
    assert code == 0 and out.splitlines() == [out.strip()]
    assert f"{md} (markdown) and {page} (html)" in out
    _, plain, _ = run(capsys, "explain", src)
    code, printed, _ = run(capsys, "explain", src, "--markdown", md, "--html", page, "--force",
                           "--print")
    # --print: the walkthrough as without files (the files are written all the same)
    assert code == 0 and printed == plain and "rating: " in printed
    assert md.read_text(encoding="utf-8").startswith("# Walkthrough")


def test_explain_with_user_rule_and_disable(tmp_path, capsys):
    fixture = EXAMPLE / "sum-parity-fixture.txt"
    code, out, _ = run(capsys, "explain", fixture, "--json", "--rules",
                       EXAMPLE / "sum_parity.yaml")
    assert code == 0
    rules = [s["rule"] for s in json.loads(out)["steps"]]
    assert "sum-parity" in rules
    code, out, _ = run(capsys, "explain", fixture, "--json", "--rules",
                       EXAMPLE / "sum_parity.yaml", "--disable", "sum-parity")
    assert "sum-parity" not in [s["rule"] for s in json.loads(out)["steps"]]


# ---------------------------------------------------------------------------- rate
def test_rate_jobs_byte_identical_and_bad_file_row(tmp_path, capsys):
    files = [put(tmp_path, FOUR, "a.txt"), put(tmp_path, MULTI, "b.txt"),
             put(tmp_path, "garbage|x\n", "bad.txt"), put(tmp_path, FOUR, "c.txt")]
    outs = {}
    for fmt in ((), ("--csv",), ("--json",)):
        for jobs in ("1", "2"):
            code, out, _ = run(capsys, "rate", *files, "--jobs", jobs, *fmt)
            assert code == 2  # one file failed to parse
            outs[(fmt, jobs)] = out
        assert outs[(fmt, "1")] == outs[(fmt, "2")]
    table = outs[((), "1")].splitlines()
    assert table[0].split()[:3] == ["file", "size", "status"]
    assert [ln.split()[0] for ln in table[1:]] == files  # input order
    assert "unreadable" in table[3] and "bad.txt:1:" in table[3]
    rows = json.loads(outs[(("--json",), "1")])["puzzles"]
    assert [r["file"] for r in rows] == files
    assert rows[0]["level"] and rows[0]["steps"] > 0 and "error" in rows[2]


def test_rate_all_good_exit_0(tmp_path, capsys):
    code, out, err = run(capsys, "rate", put(tmp_path, FOUR), "--csv")
    assert code == 0
    assert out.splitlines()[0].startswith("file,rows,cols")
    assert err == ""  # no progress bar when stderr is not a terminal


# ---------------------------------------------------------------------------- hint
@pytest.mark.smoke
def test_hint_tiers(tmp_path, capsys):
    path = put(tmp_path, FOUR)
    _, vague, _ = run(capsys, "hint", path)
    _, concrete, _ = run(capsys, "hint", path, "--level", "concrete")
    code, full, _ = run(capsys, "hint", path, "--level", "full")
    assert code == 0
    assert vague.startswith("Look for") and "r1c3" not in vague
    assert "r1c3" in concrete
    assert "7+9" in full
    code, out, _ = run(capsys, "hint", path, "--level", "full", "--json")
    obj = json.loads(out)
    # no pencil marks: the hint is the next digit (r3c2 = 3), after the steps it rests on
    assert obj["kind"] == "deduction" and obj["step"]["placements"] == [[2, 1, 3], [2, 2, 9]]
    assert obj["reasoning"][0]["rule"] == "unique-combination"
    assert full.count("\n") == len(obj["reasoning"]) + 1  # one numbered line per step
    _, out, _ = run(capsys, "hint", path, "--json")
    assert "cells" not in json.loads(out)  # vague gives no cell away


def test_hint_reports_wrong_entry(tmp_path, capsys):
    path = put(tmp_path, "\\|5\\|16\\\n\\|1| \n\\12| | \n")
    code, out, _ = run(capsys, "hint", path, "--level", "full")
    assert code == 1
    assert "r2c2 holds 1, but every solution found has 2 there" in out
    code, out, _ = run(capsys, "hint", path, "--json")
    assert json.loads(out)["kind"] == "mistake"


# ---------------------------------------------------------------------------- check
def test_check_multi_solution_entry_matching_one_solution_is_fine(tmp_path, capsys):
    # 7 at r2c3 and 2 at r3c4 are solution 1's; 9 at r2c3 would be solution 2's
    ok = put(tmp_path, "\\|4\\|16\\|6\\\n\\12| |7| \n\\14| | |2\n", "ok.txt")
    code, out, _ = run(capsys, "check", ok, "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["status"] == "ok" and obj["mistakes"] == []
    assert obj["solutions_found"] == 3 and obj["cap_hit"] is False
    bad = put(tmp_path, "\\|4\\|16\\|6\\\n\\12| |8| \n\\14| | | \n", "bad.txt")
    code, out, _ = run(capsys, "check", bad)
    assert code == 1 and "r2c3 holds 8" in out


def test_check_cap_hit_still_exact(tmp_path, capsys):
    ok = put(tmp_path, "\\|4\\|16\\|6\\\n\\12|3| | \n\\14| | | \n")
    code, out, _ = run(capsys, "check", ok, "--max-solutions", "1", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["cap_hit"] is True and obj["status"] == "ok"
    code, out, _ = run(capsys, "check", ok, "--max-solutions", "1")
    assert "at least 1 solutions" in out


def test_check_entries_from_different_solutions(tmp_path, capsys):
    path = put(tmp_path, "\\|4\\|16\\|6\\\n\\12|3|9| \n\\14| | | \n")
    code, out, _ = run(capsys, "check", path, "--json")
    assert code == 1 and json.loads(out)["status"] == "conflict"


@pytest.mark.parametrize("text, cell", [
    ("\\|5\\|16\\\n\\|2|2\n\\12| | \n", "r2c3 holds 2"),  # a digit twice in a run
    ("\\|5\\|16\\\n\\|2|7\n\\12|3|8\n", "r3c3 holds 8"),  # 3+8 fills 12/2 with 11
])
def test_run_breaking_entries_are_located_mistakes_not_bad_input(tmp_path, capsys, text,
                                                                 cell):
    path = put(tmp_path, text)
    code, out, err = run(capsys, "check", path)
    assert (code, err) == (1, "") and cell in out
    code, out, err = run(capsys, "hint", path, "--level", "full", "--json")
    assert code == 1 and err == ""
    assert json.loads(out)["kind"] == "mistake" and cell in json.loads(out)["text"]
    code, out, _ = run(capsys, "explain", path)
    assert code == 1 and "an entry is wrong" in out


def test_repeated_entries_on_a_multi_solution_puzzle_are_located(tmp_path, capsys):
    # every digit fits r2c2 or r2c3 in some solution, but not 3 in both
    path = put(tmp_path, "\\|10\\|10\\\n\\10|3|3\n\\10| | \n")
    code, out, _ = run(capsys, "check", path, "--json")
    obj = json.loads(out)
    assert code == 1 and obj["status"] == "wrong"
    assert [m["cell"] for m in obj["mistakes"]] == [[1, 1], [1, 2]]
    assert "holds 3 too" in obj["mistakes"][0]["reason"]


def test_repeated_givens_are_still_bad_input(tmp_path, capsys):
    code, _, err = run(capsys, "check", put(tmp_path, "\\|4\\|5\\\n\\9|!4|!4\n"))
    assert code == 2 and "appears twice" in err


# ---------------------------------------------------------------------------- rules
def test_rules_lists_ladder(capsys):
    code, out, _ = run(capsys, "rules")
    assert code == 0
    head = out.splitlines()[0].split()
    assert head == ["id", "priority", "weight", "score", "name", "enabled", "source"]
    assert "lone-cell" in out
    code, out, _ = run(capsys, "rules", "--rules", EXAMPLE / "sum_parity.yaml",
                       "--disable", "lone-cell", "--json")
    rules = {r["id"]: r for r in json.loads(out)["rules"]}
    assert rules["sum-parity"]["enabled"] and not rules["lone-cell"]["enabled"]
    assert rules["sum-parity"]["source"].endswith("sum_parity.yaml")


def test_rules_show_the_weight_steps_carry(capsys):
    """One number for a rule in the ladder and in a walkthrough: a crossing-run step that
    tries a long crossing run's arrangements weighs 5.8 (the search floor), and the ladder
    says so; growth shows as a range too; a rule whose steps all weigh the same, one number."""
    code, out, _ = run(capsys, "rules")
    rows = {line.split()[0]: line.split() for line in out.splitlines()[1:] if line.strip()}
    assert rows["crossing-run-interaction"][2] == "4.2-5.8"
    assert rows["region-sum-one"][2] == "4.5-4.8"
    assert rows["sum-bounds"][2] == "2" and rows["permutation-check"][2] == "5.8"
    assert "the search floor" in out
    code, out, _ = run(capsys, "rules", "--json")
    rules = {r["id"]: r for r in json.loads(out)["rules"]}
    assert rules["crossing-run-interaction"]["weights"] == [4.2, 5.8]
    assert rules["crossing-run-interaction"]["weight"] == 4.2  # the key keeps its meaning
    assert rules["lone-cell"]["weights"] == [1.0, 1.0]


def test_a_crossing_step_weighs_within_what_the_ladder_lists():
    from deducer.engine import registry
    from deducer.engine.rating import carried
    from deducer.engine.walk import explain
    from deducer.puzzle.formats import load

    ladder = registry.load()
    lists = {r.id: carried(r, ladder) for r in ladder}
    for s in explain(load(ROOT / "puzzles" / "deducer-trial.txt")).steps:
        low, high = lists[s.rule]
        assert low <= s.weight <= high, (s.n, s.rule, s.weight)


def test_rules_test_passes_sound_rule(capsys):
    code, out, _ = run(capsys, "rules", "test", EXAMPLE / "sum_parity.yaml",
                       EXAMPLE / "sum-parity-fixture.txt", "--count", "2")
    assert code == 0, out
    assert "no false deductions" in out and "sum-parity x" in out


def test_rules_test_catches_unsound_rule(capsys):
    code, out, _ = run(capsys, "rules", "test", EXAMPLE / "sum_parity_unsound.yaml",
                       "--json")
    assert code == 1
    obj = json.loads(out)
    assert obj["false"] >= 1
    f = obj["findings"][0]
    assert f["rule"] == "sum-parity-unsound" and f["step"] >= 1 and f["problems"]


def test_rules_test_is_deterministic(capsys):
    args = ("rules", "test", EXAMPLE / "sum_parity.yaml", "--count", "3", "--seed", "7",
            "--json")
    _, a, _ = run(capsys, *args)
    _, b, _ = run(capsys, *args)
    assert a == b


def test_rules_test_skips_non_unique_puzzle(tmp_path, capsys):
    code, out, _ = run(capsys, "rules", "test", EXAMPLE / "sum_parity.yaml",
                       put(tmp_path, MULTI), "-v")
    assert code == 0 and "skipped" in out and "not a unique puzzle" in out


def test_rule_authors_guide_fixture_snippet(monkeypatch):
    """The unit-test snippet of docs/rule-authors-guide.md §4 runs as printed."""
    import re

    guide = (ROOT / "docs" / "rule-authors-guide.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(from pathlib import Path\n\nfrom deducer.rules.fixture .*?)```",
                     guide, re.S).group(1)
    monkeypatch.chdir(ROOT)
    exec(compile(code, "guide-snippet", "exec"), {})


def test_explain_says_a_wrong_entry_is_to_blame(tmp_path, capsys):
    # seed 002's four cells; r2c2 holds 3 but the only solution has 2 there
    f = tmp_path / "wrong.txt"
    f.write_text("\\|5\\|16\\\n\\|3|\n\\12||\n", encoding="utf-8")
    from deducer.app.cli import main as cli_main

    assert cli_main(["explain", str(f)]) == 1
    out = capsys.readouterr().out
    assert "an entry is wrong" in out
    assert cli_main(["explain", str(f), "--ignore-entries"]) == 0
