"""The small Python API (deducer.api)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deducer import api
from deducer.errors import DeducerError

ROOT = Path(__file__).resolve().parents[1]
FOUR = "\\|5\\|16\\\n\\| | \n\\12| | \n"
MULTI = "\\|4\\|16\\|6\\\n\\12| | | \n\\14| | | \n"


def test_load_text_and_path(tmp_path):
    p = api.load(FOUR)
    assert isinstance(p, api.Puzzle) and len(p.whites) == 4
    f = tmp_path / "four.txt"
    f.write_text(FOUR, encoding="utf-8")
    assert api.load(str(f)).squares == p.squares
    assert api.load(f, format="pipe").squares == p.squares
    with pytest.raises(DeducerError):
        api.load(str(tmp_path / "missing.txt"))
    with pytest.raises(DeducerError):
        api.load("\\|5\\\n\\|x\n")


@pytest.mark.smoke
def test_solve_explain_rate():
    p = api.load(FOUR)
    res = api.solve(p)
    assert isinstance(res, api.SolveResult) and res.status == "unique"
    exp = api.explain(p)
    assert isinstance(exp, api.Explanation) and exp.status == "solved"
    assert exp.solution == res.solutions[0]
    assert all(isinstance(s, api.Step) for s in exp.steps)
    r = api.rate(p)
    assert isinstance(r, api.Rating) and r.level == exp.rating.level


def test_explain_with_rule_files_and_loaded_rules():
    fixture = api.load(ROOT / "docs" / "example-rule" / "sum-parity-fixture.txt")
    yaml = str(ROOT / "docs" / "example-rule" / "sum_parity.yaml")
    exp = api.explain(fixture, [yaml])
    assert "sum-parity" in {s.rule for s in exp.steps}
    ladder = api.ladder([yaml])
    assert api.explain(fixture, ladder).rating == exp.rating
    exp2 = api.explain(fixture, [yaml], disable=["sum-parity"])
    assert "sum-parity" not in {s.rule for s in exp2.steps}


def test_a_loaded_ladder_keeps_its_rating_section(tmp_path, capsys):
    """A ladder loaded once and passed on (as every command does) rates with its files'
    ``rating:`` section: ``explain --rules`` once rated with the core thresholds while
    ``rate --rules`` used the file's, so the two disagreed on the level."""
    import json

    from deducer.app.cli import main

    p = api.load(ROOT / "puzzles" / "seed000-k2.j")
    stricter = tmp_path / "stricter.yaml"
    stricter.write_text("rules: []\nrating:\n  levels: {Easy: 1.0, Medium: 2.4, Hard: 4.2, "
                        "Expert: 6.0}\n", encoding="utf-8")
    assert api.explain(p).rating.level == "Easy"
    assert api.explain(p, [str(stricter)]).rating.level == "Medium"
    rules = api.ladder([str(stricter)])
    assert api.ladder(rules) is rules  # already the ladder: passed on as it is
    assert api.explain(p, rules).rating.level == "Medium"
    assert api.explain(p, rules, disable=["lone-cell"]).rating.level == "Medium"
    path = str(ROOT / "puzzles" / "seed000-k2.j")
    main(["explain", path, "--rules", str(stricter), "--json"])
    assert json.loads(capsys.readouterr().out)["rating"]["level"] == "Medium"
    main(["rate", path, "--rules", str(stricter), "--json"])
    assert json.loads(capsys.readouterr().out)["puzzles"][0]["level"] == "Medium"


def test_every_result_prints_its_own_json():
    """The JSON renderer prints each result's ``to_json()``: one way to build the JSON."""
    import json

    from deducer.render import get

    p = api.load(FOUR)
    out = get("json")
    res = api.solve(p)
    assert json.loads(out.solve(p, res)) == res.to_json(p)
    exp = api.explain(p)
    assert json.loads(out.walkthrough(p, exp)) == exp.to_json()
    h = api.hint(p, "full")
    assert json.loads(out.hint(p, h)) == h.to_json()
    w = api.why(p, (1, 1), 9)
    assert json.loads(out.why(p, w)) == w.to_json()
    c = api.check(p)
    assert json.loads(out.check(p, c)) == c.to_json()
    chunks: list[str] = []
    out.write_solve(p, res, chunks.append)  # streamed, the same text
    assert "".join(chunks) == out.solve(p, res)


def test_the_clis_hint_tiers_are_the_apis():
    """``deducer hint --level`` writes the tiers out (its --help must not load the hint
    module): they must stay the API's."""
    from deducer.app.cli import build_parser

    parser = build_parser("hint")
    hint = parser._subparsers._group_actions[0].choices["hint"]
    level = next(a for a in hint._actions if a.dest == "level")
    assert tuple(level.choices) == api.HINT_LEVELS


def test_hint_and_check():
    p = api.load(FOUR)
    h = api.hint(p, "concrete")
    assert isinstance(h, api.Hint) and h.kind == "deduction" and h.text == h.concrete
    assert h.vague.startswith("Look for") and h.full
    c = api.check(p)
    assert isinstance(c, api.CheckResult) and c.ok
    wrong = api.load("\\|5\\|16\\\n\\|1| \n\\12| | \n")
    c = api.check(wrong)
    assert not c.ok and [m.cell for m in c.wrong_entries] == [(1, 1)]


def test_multi_solution_check():
    p = api.load(MULTI)
    assert api.solve(p, max_solutions=10).solution_count == 3
    assert api.check(p.with_entries({(1, 2): 9})).ok  # solution 2 has it
    assert not api.check(p.with_entries({(1, 2): 8})).ok


def test_the_api_is_at_import_deducer_and_loads_lazily():
    """``import deducer`` offers the API (deducer.api's ``__all__``) without importing it;
    every API function is a plain function: no layer package shares its name."""
    import subprocess
    import sys

    import deducer

    assert set(deducer.__all__) == set(api.__all__)
    code = ("import sys, deducer; print(sorted(m for m in sys.modules if m.startswith('deducer')));"
            "r = deducer.solve(deducer.load('puzzles/seed000-k2.j')); print(r.status);"
            "print('deducer.engine.walk' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split("\n")
    assert out[0] == "['deducer']"  # nothing loaded until used
    assert out[1] == "unique"
    assert out[2] == "False"  # solve never loads the explain engine
    import inspect

    import deducer.solver.search as search

    for name in ("solve", "explain", "generate", "rate", "hint", "check", "load"):
        assert inspect.isfunction(getattr(deducer, name)), name
    assert deducer.solve(api.load(FOUR)).status == api.SolveStatus.UNIQUE
    assert search.solve is not deducer.solve
    assert deducer.explain(api.load(FOUR)).status == api.ExplainStatus.SOLVED



def test_docs_api_examples_run(monkeypatch):
    """Every example of docs/api.md, run as a doctest from the repository's root."""
    import doctest

    monkeypatch.chdir(ROOT)
    res = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False,
                           optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.attempted > 20 and res.failed == 0


def test_rule_authors_import_from_one_module():
    """The example rule imports only deducer.rules.api, and a real rule function fits the
    RuleFunction type's View protocol (checked by mypy; here: it runs on the engine's view)."""
    from deducer.engine.state import View as EngineView
    from deducer.rules import api as kit

    text = (ROOT / "docs" / "example-rule" / "sum_parity.py").read_text(encoding="utf-8")
    deducer_imports = [ln for ln in text.splitlines() if ln.startswith("from deducer")]
    assert [ln.split(" import ")[0] for ln in deducer_imports] == ["from deducer.rules.api"]
    for name in ("Deduction", "Proof", "View", "RuleFunction", "rule"):
        assert name in kit.__all__
    view_api = {n for n in vars(kit.View) if not n.startswith("_")}
    missing = {n for n in view_api if not hasattr(EngineView, n)} - {"puzzle", "layout", "context"}
    assert missing == set()


def test_bundled_puzzles_follow_their_list():
    """The bundled puzzles are those expected.json lists, in its order; the unique ones
    solve to one solution (the list's claim, checked by the solver)."""
    import json

    meta = ROOT / "deducer" / "data" / "puzzles" / "expected.json"
    entries = json.loads(meta.read_text(encoding="utf-8"))["puzzles"]
    every = list(api.bundled_puzzles(unique_only=False))
    assert [b.path.name for b in every] == [e["file"] for e in entries]
    unique = list(api.bundled_puzzles())
    assert [b.label for b in unique] == [b.label for b, e in zip(every, entries, strict=True)
                                         if e.get("solutions") == 1]
    assert unique and all(b.label.startswith("puzzles/") for b in unique)
    for b in unique[:3]:
        assert len(api.solve(b.puzzle, 2).solutions) == 1
