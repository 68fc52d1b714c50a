"""The regression library of the rules: a fixture file for every core rule
(rules/fixtures/<id>.fixtures.yaml, written by scripts/rule_fixtures.py), each a position
where the rule must make a deduction (its effect: never the sentence) and runs where it must
not fire; and the fixture runner itself, which must fail on a claim that does not hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from deducer.engine.registry import all_rules
from deducer.rules.fixture import FIXTURE_SUFFIX, load_rule, read_fixtures, run_fixtures

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "rules" / "fixtures"
CORE = [r.id for r in all_rules()]


@pytest.mark.parametrize("rid", CORE)
def test_every_core_rule_makes_its_fixture_deductions(rid):
    path = FOLDER / f"{rid}{FIXTURE_SUFFIX}"
    assert path.is_file(), f"{rid} has no fixture (python scripts/rule_fixtures.py {rid})"
    cases = read_fixtures(path)
    assert {c["rule"] for c in cases} == {rid}
    assert all(c.get("makes") for c in cases)  # every case claims a deduction
    res = run_fixtures(path)
    assert res.problems == []
    assert res.checked >= 1 and res.rules == {rid}


def _changed(path: Path, tmp_path: Path, old: str, new: str) -> Path:
    text = path.read_text(encoding="utf-8")
    assert old in text
    out = tmp_path / path.name
    out.write_text(text.replace(old, new, 1), encoding="utf-8")
    return out


def test_a_claim_the_rule_does_not_make_fails(tmp_path):
    # naked single writes r2c2 = 1 on its board: a claim of another digit must fail
    path = FOLDER / f"unique-combination{FIXTURE_SUFFIX}"
    case = read_fixtures(path)[0]
    cell, digits = next(iter(case["makes"][0]["eliminations"].items()))
    wrong = _changed(path, tmp_path, f"{cell}: {digits}", f"{cell}: {digits[:-1]}")
    res = run_fixtures(wrong)
    assert len(res.problems) == 1 and "must make" in res.problems[0], res.problems


def test_a_run_where_the_rule_fires_cannot_be_silent(tmp_path):
    path = FOLDER / f"naked-single{FIXTURE_SUFFIX}"
    case = read_fixtures(path)[0]
    run = case["makes"][0]["run"]
    loud = _changed(path, tmp_path, "    silent: [", f"    silent: [{run}, ")
    res = run_fixtures(loud)
    assert any("must not fire" in p for p in res.problems), res.problems


def test_the_example_rule_fixture_holds_and_a_broken_one_fails_rules_test(tmp_path, capsys):
    from deducer.app.cli import main

    example = ROOT / "docs" / "example-rule"
    rule = load_rule(example / "sum_parity.yaml", "sum-parity")
    assert run_fixtures(example / f"sum_parity{FIXTURE_SUFFIX}", {rule.id: rule}).problems == []
    bad = _changed(example / f"sum_parity{FIXTURE_SUFFIX}", tmp_path, "[1, 5]", "[1, 3]")
    code = main(["rules", "test", str(example / "sum_parity.yaml"), "--fixtures", str(bad),
                 "--count", "0", str(ROOT / "puzzles" / "seed002-four.txt"), "--no-impact"])
    out = capsys.readouterr().out
    assert code == 1 and "FIXTURE" in out and "must make 1, 3 leave r2c4" in out, out
