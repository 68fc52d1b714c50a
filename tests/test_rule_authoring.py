"""A rule author's path (issue 56): rules test audits the walk explain makes, says what a
rule changes, reports a faulty rule per puzzle, finds and makes puzzles that show a rule,
starts a new rule that passes, and names what it replaces."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from deducer import api
from deducer.app.cli import main

ROOT = Path(__file__).resolve().parents[1]
K = ROOT / "puzzles" / "seed000-k.j"
FOUR = ROOT / "puzzles" / "seed002-four.txt"

HALF = '''from deducer.rules.api import BIT, Deduction, Proof, rule


@rule(values=("half",))
def no_half(view, rid):
    run = view.run(rid)
    if run.total is None or run.length != 2 or run.total % 2:
        return
    half = run.total // 2 + SHIFT
    for i in view.open_cells(rid):
        if 1 <= half <= 9 and view.mask(i) & BIT[half]:
            yield Deduction(eliminations={i: BIT[half]}, cells=(i,), runs=(rid,),
                            VALUES proof=Proof(runs=(rid,)))
'''


def rule_file(tmp: Path, rid: str = "no-half", *, shift: int = 0, values: bool = True,
              priority: int = 10, body: str | None = None) -> Path:
    """A two-cell-run rule: sound (shift 0: half of an even sum goes), or false."""
    code = body or HALF.replace("SHIFT", str(shift)).replace(
        "VALUES ", 'values={"half": half},\n                            ' if values else "")
    (tmp / f"{rid}.py").write_text(code, encoding="utf-8")
    path = tmp / f"{rid}.yaml"
    path.write_text(f"rules:\n  - id: {rid}\n    name: No half\n    priority: {priority}\n"
                    f"    weight: 1.0\n    score: 5\n    scope: run\n"
                    f"    implementation: {rid}.py:no_half\n"
                    '    explain: "{run} cannot hold {half} twice: {effect}."\n',
                    encoding="utf-8")
    return path


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_test_counts_the_firings_explain_makes(tmp_path, capsys):
    path = rule_file(tmp_path)
    code, out, _ = cli(capsys, "rules", "test", path, K, "--json", "--no-impact")
    assert code == 0
    report = json.loads(out)
    audited = {r["puzzle"]: r for r in report["results"] if r["status"] == "solved"}
    assert len(audited) == 7
    ladder = api.ladder([path])
    for label, row in audited.items():
        e = api.explain(api.load(K, name=label.rsplit(":", 1)[1]), ladder)
        mine = [s.n for s in e.steps if s.rule == "no-half"]
        assert row["fired"].get("no-half", 0) == len(mine), label
        assert row["fired_at"].get("no-half", []) == mine, label
        assert row["steps"] == len(e.steps), label
    assert report["fired"]["no-half"] > 0


def test_the_replay_line_reaches_the_false_step_with_every_option(tmp_path, capsys):
    path = rule_file(tmp_path, "bad-half", shift=1, priority=55)
    code, out, _ = cli(capsys, "rules", "test", path, K, "--priority", "10",
                       "--disable", "hidden-single", "--no-impact")
    assert code == 1
    finding = re.search(r"FALSE (\S+): step (\d+), rule bad-half", out)
    replay = re.search(r"replay: (deducer explain .*)", out)
    assert finding and replay, out
    argv = shlex.split(replay.group(1))[1:]
    assert "--priority" in argv and "bad-half=10" in argv and "hidden-single" in argv
    step = int(finding.group(2))
    assert argv[-2:] == ["--max-steps", str(step - 1)]
    code, _, err = cli(capsys, *argv[:-1], str(step))  # one step more: the false one
    assert code == 2 and f"'bad-half' made a false deduction at step {step}" in err


def test_explain_priority_is_checked(capsys):
    import pytest

    with pytest.raises(SystemExit) as stop:  # argparse's own exit, code 2
        main(["explain", str(FOUR), "--priority", "lone-cell=-1"])
    assert stop.value.code == 2 and "is not ID=P" in capsys.readouterr().err
    code, _, err = cli(capsys, "explain", FOUR, "--priority", "nothing=3")
    assert code == 2 and "no active rule has that id" in err


def test_impact_and_save_fired(tmp_path, capsys):
    path = rule_file(tmp_path)
    fired = tmp_path / "fired"
    code, out, _ = cli(capsys, "rules", "test", path, K, "--impact", "--save-fired", fired)
    assert code == 0
    assert re.search(r"impact \(.*\): 7 solved both ways; steps \+\d+, scores [+-]\d", out)
    assert "no level moved" in out or "levels moved (without -> with):" in out
    # an Easy rule that adds steps makes these puzzles score harder: said
    assert "weighs 1 (an Easy step) yet raised the score" in out
    commands = (fired / "fired.txt").read_text(encoding="utf-8").splitlines()
    assert len(commands) == 3
    argv = shlex.split(commands[0].split("   #")[0])[2:]  # after "deducer explain"
    n = int(argv[-1])
    e = api.explain(api.load(argv[0]), api.ladder([path]), max_steps=n)
    assert e.steps[-1].rule == "no-half" and e.steps[-1].n == n


def test_a_faulty_rule_is_an_error_per_puzzle_and_the_audit_goes_on(tmp_path, capsys):
    path = rule_file(tmp_path, "no-value", values=False)
    code, out, err = cli(capsys, "rules", "test", path, K, "--no-impact", "-v")
    assert code == 1, err
    errors = re.findall(r"ERROR (\S+): step \d+, rule no-value", out)
    assert len(errors) == 3  # k1, k5, k7: each puzzle where it fired
    assert "gave no value for {half}, which the function declares" in out
    assert out.count("solved ") >= 4  # the others were audited all the same
    behind = rule_file(tmp_path, "behind", body=(
        "from deducer.rules.api import BIT, rule\n\n\n@rule(values=(\"half\",))\n"
        "def no_half(view, rid):\n"
        "    if view.run(rid).total == 3:\n"
        "        for i in view.open_cells(rid):\n"
        "            view._s.masks[i] &= ~BIT[1]\n"
        "    yield from ()\n"))
    code, out, _ = cli(capsys, "rules", "test", behind, K, "--no-impact")
    assert code == 1
    assert "rule behind" in out and "changed the grid behind the read-only view" in out
    assert "pair-complement" not in out


def test_generate_needs_a_user_rule(tmp_path, capsys):
    path = rule_file(tmp_path)
    code, out, _ = cli(capsys, "generate", "--rules", path, "--needs", "no-half", "--count",
                       1, "--seed", 1, "--size", "8x8")
    assert code == 0
    e = api.explain(api.load(out), api.ladder([path]))
    assert any(s.rule == "no-half" for s in e.steps)
    code, _, err = cli(capsys, "generate", "--needs", "no-half", "--size", "8x8")
    assert code == 2 and "--rules FILE" in err


def test_rules_new_writes_a_rule_that_passes(tmp_path, capsys):
    code, out, _ = cli(capsys, "rules", "new", "my-rule", "--dir", tmp_path)
    assert code == 0 and "next: deducer rules test" in out
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["my_rule.fixtures.yaml", "my_rule.py", "my_rule.yaml"]
    code, out, _ = cli(capsys, "rules", "test", tmp_path / "my_rule.yaml", "--no-impact")
    assert code == 0, out
    assert "claim(s) checked, all hold" in out and "no false deductions" in out
    assert "never fired" not in out and "proved by its proof" in out
    code, _, err = cli(capsys, "rules", "new", "my-rule", "--dir", tmp_path)
    assert code == 2 and "already exists" in err  # nothing written over
    code, _, err = cli(capsys, "rules", "new", "lone-cell", "--dir", tmp_path)
    assert code == 2 and "a core rule has that id" in err


def test_replacing_a_core_rule_is_said(tmp_path, capsys):
    path = rule_file(tmp_path, "lone-cell")
    code, _, err = cli(capsys, "rules", "--rules", path)
    assert code == 0
    assert "note: rule 'lone-cell' of" in err and "replaces the rule of the same id" in err


def test_explain_reads_a_rate_row_name(capsys):
    code, out, _ = cli(capsys, "rate", K, "--csv")
    names = [line.split(",")[0] for line in out.splitlines()[1:]]
    assert f"{K}:k1" in names or "puzzles/seed000-k.j:k1" in names[1]
    code, out, _ = cli(capsys, "explain", f"{K}:k1")
    assert code == 0 and "rating: Medium" in out
    code, _, err = cli(capsys, "explain", f"{K}:k9")
    assert code == 2 and "k9" in err
