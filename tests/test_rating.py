"""The rating (docs/rating.md): a level that names the hardest technique, a fitted score,
everything read from the rule file, and no rating for a walkthrough that did not finish."""

from __future__ import annotations

import html
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from deducer.app.cli import main
from deducer.engine import registry
from deducer.engine.rating import LEVELS, model_for, rate_steps, step_level
from deducer.engine.walk import explain
from deducer.errors import RuleError
from deducer.puzzle import formats
from deducer.puzzle.formats import loads
from deducer.render import get

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
FOUR = "\\|5\\|16\\\n\\| | \n\\12| | \n"
# three solutions
MULTI = "\\|4\\|16\\|6\\\n\\12| | | \n\\14| | | \n"
# no solution
NONE = "\\|3\\|3\\\n\\3| | \n\\4| | \n"


@dataclass
class FakeStep:
    n: int
    rule: str
    weight: float
    score: int = 10
    available: int = 3
    chain: int = 0
    placements: tuple = ()
    proof: None = None


def _cli(capsys, *argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().out


# ---------------------------------------------------------------------------- unrated
@pytest.fixture(scope="module", params=["multiple", "none", "timeout"])
def unfinished(request):
    if request.param == "timeout":
        p = formats.load(PUZZLES / "seed000-k2.j")
        exp = explain(p, max_steps=5)  # stopped after five steps: stalled, not solved
        if exp.status == "solved":
            pytest.fail("five steps solved seed000-k2")
        return p, exp
    p = loads(MULTI if request.param == "multiple" else NONE, "pipe")
    return p, explain(p)


def test_an_unfinished_walkthrough_has_no_level_or_score(unfinished):
    p, exp = unfinished
    assert exp.status != "solved"
    r = exp.rating
    assert r.level is None and r.score is None and not r.solved
    assert r.level_step is None and r.narrowest_step is None
    assert r.to_json()["level"] is None
    # every output says so and names no level
    from deducer.render.pdf import _summary

    assert exp.to_json()["rating"]["level"] is None
    outs = {name: get(name).walkthrough(p, exp) for name in ("text", "markdown", "html")}
    outs["pdf"] = _summary(exp)
    for name, out in outs.items():
        plain = html.unescape(out)
        assert "not rated" in plain.lower(), name
        for level in LEVELS:
            assert f"Level {level}" not in plain and f"{level}, score" not in plain, name
            assert f"<dd>{level}" not in out, name


def test_explain_json_and_rate_leave_the_level_out(tmp_path, capsys):
    path = tmp_path / "multi.txt"
    path.write_text(MULTI, encoding="utf-8")
    code, out = _cli(capsys, "explain", path, "--json")
    data = json.loads(out)
    assert data["status"] == "multiple" and data["rating"]["level"] is None
    assert data["rating"]["score"] is None
    code, out = _cli(capsys, "rate", path, "--json")
    row = json.loads(out)["puzzles"][0]
    assert row["level"] is None and row["score"] is None
    assert row["rating"]["level"] is None


# ---------------------------------------------------------------------------- level
def test_the_level_is_the_hardest_steps_tier_never_raised_for_length():
    rules = registry.load()
    m = model_for(rules)
    for name in ("seed000-k2.j", "deducer-trial.txt"):
        exp = explain(formats.load(PUZZLES / name), rules)
        tiers = [step_level(s, m) for s in exp.steps]
        assert exp.rating.level == LEVELS[max(tiers)]
        first = tiers.index(max(tiers))
        assert exp.rating.level_step == exp.steps[first].n
        narrow = min(exp.steps, key=lambda s: s.available)
        assert exp.rating.narrowest_open == narrow.available
    # a thousand easy steps stay Easy (the old rater bumped this to Medium)
    steps = [FakeStep(k, "naked-single", 1.3, score=50) for k in range(1, 1001)]
    r = rate_steps(steps, "solved", rules, cells=1000)
    assert r.level == "Easy" and not r.bumped and r.effort == 50_000


def test_kinds_and_the_chain_cut_off_come_from_the_rule_file(tmp_path):
    rules = registry.load()
    chain = FakeStep(1, "forcing-chain", 5.6, chain=13)
    assert rate_steps([chain], "solved", rules, 10).level == "Extreme"  # over max_len 12
    assert rate_steps([FakeStep(1, "forcing-chain", 5.6, chain=12)], "solved", rules,
                      10).level == "Expert"
    assert rate_steps([FakeStep(1, "trial", 5.0)], "solved", rules, 10).level == "Extreme"
    assert rate_steps([FakeStep(1, "backtracking", 5.0)], "solved", rules,
                      10).level == "Unreasonable"
    core = (ROOT / "rules" / "core.yaml").read_text(encoding="utf-8")
    longer = tmp_path / "longer.yaml"
    longer.write_text(core.replace("max_len: 12", "max_len: 20"),
                      encoding="utf-8")
    ladder = registry.load([longer])
    assert rate_steps([chain], "solved", ladder, 10).level == "Expert"
    # a user rule of kind guess makes a walkthrough Unreasonable
    rest = core.split("\nrules:\n", 1)[1].split("\nrating:", 1)[0]
    guessy = tmp_path / "guessy.yaml"
    guessy.write_text("rules:\n" + rest.replace("kind: trial", "kind: guess"),
                      encoding="utf-8")
    assert rate_steps([FakeStep(1, "trial", 5.0)], "solved", registry.load([guessy]),
                      10).level == "Unreasonable"


def test_a_bad_kind_or_rating_section_is_one_clear_error(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("rules:\n  - id: x\n    name: X\n    priority: 1\n    weight: 1\n"
                   "    score: 1\n    kind: magic\n    implementation: m.py:f\n"
                   "    explain: x\n", encoding="utf-8")
    with pytest.raises(RuleError, match="kind must be one of simple, link, chain"):
        registry.load_file(bad)
    for section, words in (("rating: {levels: {Easy: 3.0, Medium: 2.0}}", "must rise"),
                           ("rating: {score: {coefficients: {luck: 1}}}", "features"),
                           ("rating: {colour: red}", "must be a mapping of")):
        f = tmp_path / "r.yaml"
        f.write_text("rules: []\n" + section + "\n", encoding="utf-8")
        with pytest.raises(RuleError, match=words):
            registry.load([f])


def test_the_thresholds_come_from_the_rule_file(tmp_path):
    p = formats.load(PUZZLES / "seed000-k2.j")
    assert explain(p).rating.level == "Easy"
    stricter = tmp_path / "stricter.yaml"
    stricter.write_text("rules: []\nrating:\n  levels: {Easy: 1.0, Medium: 2.4, Hard: 4.2, "
                        "Expert: 6.0}\n", encoding="utf-8")
    assert explain(p, registry.load([stricter])).rating.level == "Medium"


def test_a_chain_within_its_cut_off_is_expert_and_a_braid_weighs_above_a_whip():
    """Extreme means trial or a chain past the cut-off (docs/rating.md): the ladder's
    chain rules' growth must not carry a chain of max_len links past Expert, and a braid
    weighs above a whip of the same length at every length (a 10-link braid once
    weighed 6.03 and rated its puzzle Extreme)."""
    from deducer.engine.state import Deduction

    m = model_for(None)
    rules = {r.id: r for r in registry.load()}
    chains = [r for r in rules.values() if m.kind(r.id) == "chain"]
    assert {"forcing-chain", "forcing-braid", "bivalue-chain"} <= {r.id for r in chains}
    for r in chains:
        top = r.params["max_len"]
        for n in range(1, top + 1):
            step = FakeStep(1, r.id, r.weight_of(Deduction(size=n)), chain=n)
            assert step_level(step, m) == LEVELS.index("Expert"), (r.id, n, step.weight)
        over = FakeStep(1, r.id, r.weight_of(Deduction(size=top + 1)), chain=top + 1)
        assert step_level(over, m) == LEVELS.index("Extreme")
    whip, braid = rules["forcing-chain"], rules["forcing-braid"]
    for n in range(1, braid.params["max_len"] + 1):
        assert braid.weight_of(Deduction(size=n)) > whip.weight_of(Deduction(size=n)), n


# ---------------------------------------------------------------------------- score
def test_changing_the_scores_coefficients_in_a_rule_file_changes_the_score(tmp_path,
                                                                            capsys):
    path = PUZZLES / "seed000-k2.j"
    p = formats.load(path)
    base = explain(p).rating
    assert base.score is not None
    heavier = tmp_path / "heavier.yaml"
    heavier.write_text("rules: []\nrating:\n  score:\n    coefficients: {effort: 5.0}\n",
                       encoding="utf-8")
    other = explain(p, registry.load([heavier])).rating
    assert other.score > base.score
    assert other.level == base.level and other.effort == base.effort
    # and through the command line
    code, out = _cli(capsys, "rate", path, "--json", "--rules", heavier)
    assert json.loads(out)["puzzles"][0]["score"] == other.score
    code, out = _cli(capsys, "rate", path, "--json")
    assert json.loads(out)["puzzles"][0]["score"] == base.score


def test_the_score_is_never_negative_and_keeps_the_models_order():
    """The linear model would give the three-cell puzzle a negative score; it scores 0,
    and a puzzle the model scores above 0 keeps the model's figure."""
    from deducer.engine.rating import model_for, score_features

    m = model_for(None)
    raw = {}
    for name in ("seed002-progress.txt", "deducer-trial.txt"):
        exp = explain(formats.load(PUZZLES / name))
        f = score_features(exp.steps, len(exp.puzzle.whites))
        raw[name] = (m.offset + sum(m.coefficients[k] * f[k] for k in f), exp.rating.score)
    tiny, trial = raw["seed002-progress.txt"], raw["deducer-trial.txt"]
    assert tiny[0] < 0 and tiny[1] == 0.0
    assert trial[0] > 0 and trial[1] == round(trial[0], 1)


def test_rate_why_names_the_level_step_and_the_narrowest(capsys):
    code, out = _cli(capsys, "rate", PUZZLES / "deducer-trial.txt", "--why")
    assert code == 0
    exp = explain(formats.load(PUZZLES / "deducer-trial.txt"))
    r = exp.rating
    assert f"{r.level} from step {r.level_step} ({r.level_rule}" in out
    assert f"narrowest at step {r.narrowest_step}" in out
    text = get("text").walkthrough(exp.puzzle, exp)
    assert f"from step {r.level_step}" in text and f"narrowest at step {r.narrowest_step}" in text


def test_an_unrated_walkthrough_says_why_it_stopped(capsys):
    """--max-steps is not 'the rules stalled'; a false step of a user's rule is named, and
    the puzzle, which has a solution, is not called unsolvable."""
    k = PUZZLES / "seed000-k.j"
    code, out = _cli(capsys, "explain", k, "--name", "k6", "--max-steps", "10")
    assert "rating: not rated: stopped after 10 steps (the most steps asked for)" in out
    assert "stalled before the solution" not in out
    # a user rule's false step is named the same way however many steps are asked for
    # (it said "no solution: no solution" with --max-steps, and went on past the step)
    # The step is the one a first full walk names (pinning its number broke this test
    # whenever a rung was added below the unsound rule)
    unsound = ROOT / "docs" / "example-rule" / "sum_parity_unsound.yaml"
    assert main(["explain", str(k), "--name", "k6", "--rules", str(unsound)]) == 2
    false = re.search(r"rule 'sum-parity-unsound' made a false deduction at step (\d+)",
                      capsys.readouterr().err)
    assert false is not None
    n = int(false.group(1))
    for extra in (["--max-steps", str(n)], ["--max-steps", str(n + 5)], []):
        code = main(["explain", str(k), "--name", "k6", "--rules", str(unsound), *extra])
        got = capsys.readouterr()
        assert code == 2 and got.out == "", extra
        assert f"rule 'sum-parity-unsound' made a false deduction at step {n}" in got.err
        assert "no solution" not in got.err
    code, out = _cli(capsys, "explain", k, "--name", "k6", "--max-steps", "10",
                     "--markdown", "-")
    assert "not rated: stopped after 10 steps" in out


def test_rate_keeps_entries_unless_asked_to_leave_them_out(capsys):
    """rate, as solve and explain, rates what is left of a half-filled grid; with
    --ignore-entries it rates the bare puzzle (the same as the file without entries)."""
    progress, bare = PUZZLES / "seed002-progress.txt", PUZZLES / "seed002-four.txt"
    rows = {}
    for name, argv in (("kept", [progress]), ("left out", [progress, "--ignore-entries"]),
                       ("bare", [bare])):
        code, out = _cli(capsys, "rate", *argv, "--json")
        rows[name] = json.loads(out)["puzzles"][0]
    assert rows["kept"]["steps"] < rows["bare"]["steps"]
    for key in ("level", "score", "steps", "effort"):
        assert rows["left out"][key] == rows["bare"][key], key


def test_rate_resume_refuses_rows_made_with_other_options(tmp_path, capsys):
    """Rows rated with entries kept and rows rated without them do not compare: --resume
    with other options is refused (with the same, it goes on)."""
    out = tmp_path / "rows.jsonl"
    progress = PUZZLES / "seed002-progress.txt"
    code, _ = _cli(capsys, "rate", progress, "--out", out)
    code = main(["rate", str(progress), "--out", str(out), "--resume", "--ignore-entries"])
    err = capsys.readouterr().err
    assert code == 2 and "rated with no options, this run with --ignore-entries" in err
    out2 = tmp_path / "rows2.jsonl"
    for extra in ([], ["--resume"]):
        code = main(["rate", str(progress), "--out", str(out2), "--ignore-entries", *extra])
        assert code == 0, capsys.readouterr().err
    rows = [json.loads(line) for line in out2.read_text().splitlines()]
    assert [r["options"] for r in rows] == ["--ignore-entries"]


def test_a_refused_resume_leaves_the_rows_file_as_it_was(tmp_path, capsys, monkeypatch):
    """A half-written last row is cut off only when the run goes on; options given by
    another spelling of the same rule file, or disabled rules in another order, are the
    same options."""
    monkeypatch.chdir(tmp_path)
    rules = ROOT / "docs" / "example-rule" / "sum_parity.yaml"
    files = [str(PUZZLES / n) for n in ("seed002-four.txt", "seed000-k2.j")]
    whole = tmp_path / "whole.jsonl"
    opts = ["--rules", str(rules), "--disable", "naked-pair", "--disable", "lone-cell"]
    assert main(["rate", *files, "--out", str(whole), "--no-timing", *opts]) in (0, 1)
    part = tmp_path / "part.jsonl"
    data = whole.read_bytes()
    part.write_bytes(data[:data.index(b"\n") + 20])  # one row and a half
    before = part.read_bytes()
    assert main(["rate", *files, "--out", str(part), "--resume", "--no-timing"]) == 2
    assert part.read_bytes() == before
    other = ["--rules", os.path.relpath(rules, tmp_path), "--disable", "lone-cell",
             "--disable", "naked-pair"]
    assert main(["rate", *files, "--out", str(part), "--resume", "--no-timing", *other]) \
        in (0, 1), capsys.readouterr().err
    assert part.read_bytes() == data


def test_the_score_weighs_the_rounds_a_walk_works_in():
    """``rounds`` counts the rounds of the ladder's order the steps fall in, and
    ``round_scan`` adds each round's open cells at its start over the cells it places
    (plus one): a path that needs more rounds for the same cells scores the rounds higher."""
    import math

    from deducer.engine.rating import score_features
    from scripts.cached_paths import PathStep

    def path(rounds: list[int]) -> list[PathStep]:
        return [PathStep("naked-single", 1.0, 1, 1, 0, n=k, placements=(None,), round=r)
                for k, r in enumerate(rounds, 1)]

    broad = score_features(path([1, 1, 1, 1]), 4)
    assert broad["rounds"] == math.log1p(1)
    assert broad["round_scan"] == math.log1p(4 / 5)
    deep = score_features(path([1, 2, 3, 4]), 4)
    assert deep["rounds"] == math.log1p(4)
    assert deep["round_scan"] == math.log1p(4 / 2 + 3 / 2 + 2 / 2 + 1 / 2)
    # the explain engine's own steps carry their round: a real walk has several
    exp = explain(formats.load(PUZZLES / "deducer-trial.txt"))
    f = score_features(exp.steps, len(exp.puzzle.whites))
    assert f["rounds"] == math.log1p(len({s.round for s in exp.steps})) > math.log1p(1)


# ---------------------------------------------------------------------------- notes
def test_notes_is_a_probability_in_every_output(capsys):
    """The chance of pencil marks (docs/rating.md, "Pencil marks"): in the rating, its JSON,
    the text, Markdown, HTML and PDF headers, and `rate`'s table, rows and --why."""
    from deducer.render.pdf import _summary

    p = formats.load(PUZZLES / "deducer-trial.txt")
    exp = explain(p)
    r = exp.rating
    assert r.notes is not None and 0.0 <= r.notes <= 1.0
    assert exp.to_json()["rating"]["notes"] == r.notes
    said = r.notes_text()
    assert re.fullmatch(r"pencil marks: (likely|unlikely) \(\d+%\)", said)
    assert said.endswith(f"({round(100 * r.notes)}%)")
    assert ("unlikely" in said) == (r.notes < 0.5)
    for name in ("text", "markdown"):
        assert said in get(name).walkthrough(p, exp), name
    assert "<dt>Pencil marks</dt>" in get("html").walkthrough(p, exp)
    assert said in _summary(exp)
    code, out = _cli(capsys, "rate", PUZZLES / "deducer-trial.txt", "--json")
    row = json.loads(out)["puzzles"][0]
    assert row["notes"] == r.notes and row["rating"]["notes"] == r.notes
    code, out = _cli(capsys, "rate", PUZZLES / "deducer-trial.txt", "--why")
    assert f"{round(100 * r.notes)}%" in out and "most from the" in out


def test_an_unfinished_walkthrough_has_no_notes(unfinished):
    _p, exp = unfinished
    assert exp.rating.notes is None and exp.rating.notes_text() == ""
    assert exp.to_json()["rating"]["notes"] is None


def test_notes_reads_its_model_from_the_rule_file(tmp_path):
    """logit = offset + sum of coefficient x (feature - centre), all from the rule file; a
    feature it does not know, or passes that are not a whole number, is one clear error."""
    import math

    from deducer.engine.rating import head_of, notes_features

    p = formats.load(PUZZLES / "deducer-trial.txt")
    mine = tmp_path / "notes.yaml"
    from deducer.engine.inhead import in_head
    from deducer.engine.rating import NOTES_FEATURES

    # centred near this grid's own figure, so that the chance is not at its bounds
    centre = round(math.log1p(in_head(p, 1).held) - 0.3, 3)
    # a user file overrides the core file's coefficients one by one: the others set to 0
    zero = ", ".join(f"{k}: 0" for k in NOTES_FEATURES if k != "held")
    mine.write_text("rules: []\nrating:\n  notes:\n    offset: 0.5\n    passes: 1\n"
                    f"    coefficients: {{held: 2.0, {zero}}}\n    centre: {{held: {centre}}}\n",
                    encoding="utf-8")
    rules = registry.load([mine])
    exp = explain(p, rules)
    f = notes_features(exp.steps, len(p.whites), head_of(p, rules), rules)
    want = 1 / (1 + math.exp(-(0.5 + 2.0 * (f["held"] - centre))))
    assert 0.05 < want < 0.95
    assert exp.rating.notes == pytest.approx(want, abs=0.005)
    assert exp.rating.notes_feature == "held"
    # one pass a round holds no fewer candidates than three (it narrows less each look)
    assert head_of(p, rules)[1] >= head_of(p)[1]
    for section, words in (("rating: {notes: {coefficients: {luck: 1}}}", "features"),
                           ("rating: {notes: {passes: two}}", "passes"),
                           ("rating: {notes: {slope: 1}}", "unknown key")):
        f = tmp_path / "r.yaml"
        f.write_text("rules: []\n" + section + "\n", encoding="utf-8")
        with pytest.raises(RuleError, match=words):
            registry.load([f])


@pytest.mark.parametrize("name", ["deducer-trial.txt", "seed000-k2.j", "generated-6x6-s23.txt",
                                  "seed003-example.txt"])
def test_the_no_notes_solver_agrees_with_the_reports_own(name):
    """deducer.engine.inhead against scripts/human_ceiling.head_features, written apart
    (a matching per combination there, a memoised one here): the same rounds, the same
    candidates held, the same share reached."""
    import math

    from deducer.engine.inhead import in_head
    from scripts.human_ceiling import head_features

    p = formats.load(PUZZLES / name)
    for passes in (1, 3):
        mine, theirs = in_head(p, passes), head_features(p, passes)
        assert math.log1p(mine.rounds) == pytest.approx(theirs["head_rounds"])
        assert math.log1p(mine.held) == pytest.approx(theirs["head_held"])
        assert mine.share == pytest.approx(theirs["head_share"])
    assert 0.0 < in_head(p).share <= 1.0
