"""The ladder's ``order:`` section (issue 38, point 3): the simplest rules work in rounds, as
a person does, within the ladder's tiers; a ladder without the section keeps the plain
ladder order; the section is validated when the files are loaded."""

from pathlib import Path

import pytest

from deducer.engine import kernel, registry
from deducer.engine.walk import SOLVED, Engine, WalkOptions, explain
from deducer.errors import RuleError
from deducer.proofcheck.checker import check_walkthrough
from deducer.puzzle import formats

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
RULES = registry.load()


def _puzzles():
    out = []
    for p in sorted(PUZZLES.iterdir()):
        if p.suffix in (".txt", ".kakuro", ".j") and "trial" not in p.name:
            try:
                out.append(formats.load(p))
            except Exception:  # a file the examples keep for a bad-input demonstration
                continue
    return out


def _plain(rules) -> registry.Ladder:
    out = rules.part(list(rules))
    out.order = None
    return out


def test_core_file_has_an_order_section_of_easy_run_rules():
    order = RULES.order
    assert order is not None and order["round"]
    by_id = {r.id: r for r in RULES}
    for rid in order["round"] + order["first"]:
        assert by_id[rid].scope == "run" and by_id[rid].tier == 1


@pytest.mark.parametrize("puzzle", _puzzles(), ids=lambda p: f"{p.rows}x{p.cols}")
def test_rounds_walk_is_proved_and_ends_where_the_ladder_does(puzzle):
    exp = explain(puzzle, RULES)
    plain = explain(puzzle, _plain(RULES))
    assert exp.status == plain.status
    if exp.status == SOLVED:
        assert exp.solution == plain.solution
    assert check_walkthrough(puzzle, [s.to_json() for s in exp.steps]) == []
    # the tiers stay the law: no step of a harder rule while a round's deduction is open
    eng = Engine(puzzle, RULES)
    # the round's rules, the first ones and those placed below them (asked before a round)
    easy = eng.before_rules + eng.first_rules + eng.round_rules
    assert {r.id for r in easy} >= {"naked-single", "lone-cell", *RULES.order["round"]}
    while eng.open_count and eng._broken is None:
        found = eng.next_deduction()
        if found is None:
            break
        if found[0] not in easy:
            for rule in easy:
                assert next(eng.deductions(rule), None) is None, (len(eng.steps), rule.id)
        eng.step()


def test_a_round_makes_what_was_open_on_its_board_before_the_next_round():
    """Every step of round k but the harder ones was open when round k was collected."""
    puzzle = max(_puzzles(), key=lambda p: len(p.whites))
    eng = Engine(puzzle, RULES)
    round_ids = set(RULES.order["round"])
    open_at: dict[int, set] = {}
    while eng.open_count and eng._broken is None:
        before = eng.rounds
        found = eng.next_deduction()
        if found is None:
            break
        if eng.rounds != before:  # a round was collected just now: what it holds
            open_at[eng.rounds] = {id(ded) for _rule, ded in eng.queue}
        rule, ded, _effect = found
        step = eng.step()
        if rule.id in round_ids:
            assert id(ded) in open_at[step.round]
    assert eng.rounds >= 2


def test_a_queued_deduction_made_moot_is_dropped_not_made():
    puzzle = max(_puzzles(), key=lambda p: len(p.whites))
    eng = Engine(puzzle, RULES)
    eng.next_deduction()  # collects the first round
    assert len(eng.queue) >= 2
    rule, ded = eng.queue[1]
    effect = kernel.effect(eng.state, rule, ded)
    kernel.apply(eng.state, effect, [])  # made from outside: the queued one changes nothing
    eng.touched([], [])
    n = len(eng.queue)
    eng.step()
    eng.step()
    assert len(eng.queue) <= n - 3 or eng.rounds > 1
    assert all(s.rule for s in eng.steps)


def test_a_ladder_without_the_section_keeps_the_ladder_order(tmp_path):
    """A rule file with no ``order:`` (loaded without the core file) walks as before: the
    first rule with a deduction, runs by id."""
    core = registry.CORE.read_text(encoding="utf-8")
    start = core.index("\norder:\n")
    end = core.index("\nrating:\n")
    path = tmp_path / "no-order.yaml"
    path.write_text(core[:start] + core[end:], encoding="utf-8")
    rules = registry.load([path], core=False)
    assert rules.order is None
    puzzle = _puzzles()[0]
    eng = Engine(puzzle, rules, WalkOptions())
    assert eng.round_rules == []
    steps = []
    while eng.open_count and eng._broken is None:
        firing = [r for r in rules if r.walk and next(eng.deductions(r), None) is not None]
        step = eng.step()
        if step is None:
            break
        if firing[0].kind == "chain":
            # at a chain step the walk takes the shortest chain any chain rule offers
            # (engine/chainpick.py): the first chain rule's, or a later one's
            assert step.rule in [r.id for r in firing if r.kind == "chain"]
        else:
            assert step.rule == firing[0].id
        steps.append(step)
    assert steps


ORDER_CASES = {
    "not-a-mapping": ("order: [1]\n", "order: must be a mapping"),
    "unknown-key": ("order: {round: [lone-cell], speed: 3}\n", "unknown key(s) speed"),
    "unknown-rule": ("order: {round: [no-such-rule]}\n", "no rule has the id 'no-such-rule'"),
    "not-a-run-rule": ("order: {round: [backtracking]}\n", "not a run rule"),
    "bad-within": ("order: {within: sideways}\n", "within: 'sideways' is not one of"),
    "not-a-list": ("order: {round: lone-cell}\n", "must be a list of rule ids"),
    "both": ("order: {round: [lone-cell], first: [lone-cell]}\n", "both in round and in first"),
}


@pytest.mark.parametrize("case", sorted(ORDER_CASES))
def test_bad_order_sections_are_refused_at_load(case, tmp_path):
    text, words = ORDER_CASES[case]
    path = tmp_path / "order.yaml"
    path.write_text("rules: []\n" + text, encoding="utf-8")
    with pytest.raises(RuleError) as err:
        registry.load([path])
    assert words in str(err.value)
    assert str(path) in str(err.value)


def test_a_user_file_overrides_one_key(tmp_path):
    path = tmp_path / "order.yaml"
    path.write_text("rules: []\norder: {within: cost}\n", encoding="utf-8")
    rules = registry.load([path])
    assert rules.order["within"] == "cost"
    assert rules.order["round"] == RULES.order["round"]
    puzzle = _puzzles()[0]
    exp = explain(puzzle, rules)
    assert check_walkthrough(puzzle, [s.to_json() for s in exp.steps]) == []


def _steps(puzzle, rules):
    return [(s.rule, s.placements, s.eliminations) for s in explain(puzzle, rules).steps]


def test_first_makes_a_later_rule_as_soon_as_it_opens(tmp_path):
    """``first: [combination-filter]`` (a rule placed above the round's): its deductions
    are made the moment they open, inside a round too; the walk changes and stays proved."""
    extra = tmp_path / "first.yaml"
    extra.write_text("rules: []\norder:\n  first: [combination-filter]\n", encoding="utf-8")
    lad = registry.load([str(extra)])
    puzzle = formats.load(PUZZLES / "seed000-k2.j")
    assert _steps(puzzle, lad) != _steps(puzzle, RULES)
    rule = next(r for r in lad if r.id == "combination-filter")
    eng = Engine(puzzle, lad)
    while eng.open_count and eng._broken is None:
        found = eng.next_deduction()
        if found is None:
            break
        if next(eng.deductions(rule), None) is not None:  # open: it is the next step
            assert found[0] in (rule, *eng.before_rules), len(eng.steps)
        eng.step()
    assert check_walkthrough(puzzle, [s.to_json() for s in eng.steps]) == []


def test_the_core_first_list_keeps_a_rule_among_the_singles_behind_the_round(tmp_path):
    """core.yaml's ``first: [naked-single, lone-cell]`` (issue 53: it looked as if it changed
    nothing, and on the core ladder alone it does not): the lowest priority of the listed
    rules is the line below which a rule is asked before every round. A user's rule at
    priority 10 thus waits for the round; without the list it would be asked first, and
    the walk changes."""
    from tests.test_rule_authoring import rule_file

    extra = rule_file(tmp_path)  # no-half, at priority 10: a sound two-cell-run rule
    lad = registry.load([str(extra)])
    assert lad.order["first"] == ["naked-single", "lone-cell"]
    unlisted = lad.part(list(lad))
    unlisted.order = {**lad.order, "first": []}
    eng = Engine(formats.load(PUZZLES / "seed000-k2.j"), lad)
    assert [r.id for r in eng.before_rules] == []  # below the singles: none
    assert "no-half" in [r.id for r in Engine(formats.load(PUZZLES / "seed000-k2.j"),
                                              unlisted).before_rules]
    differ = [p for p in _puzzles() if _steps(p, lad) != _steps(p, unlisted)]
    assert differ
