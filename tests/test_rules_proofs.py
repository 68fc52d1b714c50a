"""``deducer rules test`` checks a rule file's steps against their proofs (DESIGN.md §5b).

A rule that peeks at the solution makes only true deductions, so the solution check alone
passes it; the proof checker reports its steps as "true but unproved", with an example.
The example rule of the authors' guide carries proofs that hold.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from deducer.app.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "example-rule"
K2 = ROOT / "puzzles" / "seed000-k2.j"

PEEK = '''\
from deducer.engine.state import Deduction, Proof
from deducer.rules import rule
from deducer.solver.search import solve


def _first_open(view):
    for i in range(len(view.puzzle.whites)):
        if not view.is_placed(i):
            return i
    return None


@rule
def peek(view):
    """Writes the solution's digit in the first open cell, citing one of its runs."""
    i = _first_open(view)
    if i is None:
        return
    d = solve(view.puzzle, max_solutions=1).solutions[0][i]
    rid = view.runs_of(i)[0]
    yield Deduction(placements={i: d}, cells=(i,), runs=(rid,),
                    text=f"{view.cell_name(i)} is in {view.run_name(rid)}, so it is {d}.",
                    proof=Proof(runs=(rid,)))


@rule
def peek_no_proof(view):
    i = _first_open(view)
    if i is None:
        return
    d = solve(view.puzzle, max_solutions=1).solutions[0][i]
    yield Deduction(placements={i: d}, cells=(i,), text=f"{view.cell_name(i)} = {d}.")
'''


def rule_file(tmp_path: Path, impl: str) -> str:
    (tmp_path / "peek.py").write_text(PEEK, encoding="utf-8")
    path = tmp_path / "peek.yaml"
    path.write_text(textwrap.dedent(f"""\
        rules:
          - id: peek
            name: Peek
            priority: 1
            weight: 1.0
            score: 1
            implementation: peek.py:{impl}
            explain: "{{effect}}"
        """), encoding="utf-8")
    return str(path)


def run(capsys, *argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().out


def test_a_rule_that_peeks_is_true_but_unproved(tmp_path, capsys):
    path = rule_file(tmp_path, "peek")
    code, out = run(capsys, "rules", "test", path, K2, "--json")
    assert code == 0  # every deduction is true...
    obj = json.loads(out)
    assert obj["false"] == 0 and obj["fired"]["peek"] > 0
    # ...but its proof (the cell's run alone) proves only the steps where the rest of the
    # run is already written in: the others are true but unproved
    assert 0 < obj["unproved"] < obj["fired"]["peek"]
    (example,) = obj["unproved_examples"]
    assert example["rule"] == "peek" and example["step"] == 1
    assert example["text"].startswith("r2c")
    assert any(p.startswith("unproved") for p in example["problems"]), example
    code, out = run(capsys, "rules", "test", path, K2)
    assert "UNPROVED peek" in out and "true but unproved" in out
    assert "e.g. " in out and "step 1:" in out
    assert run(capsys, "rules", "test", path, K2, "--strict")[0] == 1


def test_a_rule_without_proofs_is_reported(tmp_path, capsys):
    code, out = run(capsys, "rules", "test", rule_file(tmp_path, "peek_no_proof"), K2)
    assert code == 0
    assert "UNPROVED peek" in out and "no-proof" in out


def test_the_example_rule_is_proved(capsys):
    code, out = run(capsys, "rules", "test", EXAMPLE / "sum_parity.yaml",
                    EXAMPLE / "sum-parity-fixture.txt", "--count", "2", "--strict")
    assert code == 0, out
    assert "sum-parity x" in out and "every true step of the tested rules is proved" in out
    assert "UNPROVED" not in out
