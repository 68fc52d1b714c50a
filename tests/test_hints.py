"""Hints and checks against every solution (deducer.hints, deducer.checking)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deducer.assist.checking import check
from deducer.assist.hints import hint, look_for
from deducer.engine import registry
from deducer.puzzle.formats import loads
from deducer.solver.search import solve

ROOT = Path(__file__).resolve().parents[1]
FOUR = "\\|5\\|16\\\n\\| | \n\\12| | \n"
MULTI = "\\|4\\|16\\|6\\\n\\12| | | \n\\14| | | \n"


def pz(text):
    return loads(text, "pipe")


def test_three_tiers_describe_one_deduction():
    # every cell carries marks, so each step is one the player sees: no reasoning chain
    marked = pz("\\|5\\|16\\\n\\|(1,2,3,4,5,6,7,8,9)|(1,2,3,4,5,6,7,8,9)\n"
                "\\12|(1,2,3,4,5,6,7,8,9)|(1,2,3,4,5,6,7,8,9)\n")
    h = hint(marked, "vague")
    assert h.kind == "deduction" and h.rule == "unique-combination" and not h.reasoning
    unique = next(r for r in registry.load() if r.id == "unique-combination")
    assert h.text == h.vague == unique.hint
    assert "r1c3" in h.concrete and h.rule_name in h.concrete
    assert h.full == h.step.text
    assert hint(marked, "full").text == h.full


def replay(p, hnt):
    """The engine state after only the hint's reasoning steps: does its rule then find
    the hinted placement? (the reasoning given is enough to reach the digit)"""
    from deducer.engine.state import Context, State, View
    from deducer.puzzle.combos import BIT

    rules = {r.id: r for r in registry.load()}
    masks = p.initial_masks(with_entries=True)
    state = State(p, masks)
    for i, rc in enumerate(p.whites):
        state.placed[i] = rc in p.entries or rc in p.givens
    for step in hnt.reasoning:
        for r, c, ds in step.eliminations:
            for d in ds:
                masks[p.index[(r, c)]] &= ~BIT[d]
        for name, combos_ in step.combos_removed:
            rid = next(r.id for r in p.runs if r.name == name)
            state.live[rid] = tuple(c for c in state.live[rid]
                                    if "+".join(str(d) for d in range(1, 10) if c & BIT[d])
                                    not in combos_)
    rule = rules[hnt.rule]
    view = View(state, Context(p))
    found = []
    for rid in range(len(p.runs)) if rule.scope == "run" else [None]:
        for ded in (rule.call(view, rid) if rid is not None else rule.call(view)) or ():
            found += [(*p.whites[i], d) for i, d in ded.placements.items()]
            # a cell the deduction's eliminations leave one digit is written by its step
            # (one deduction, one step)
            for i, m in ded.eliminations.items():
                left = masks[i] & ~m
                if left and not left & (left - 1) and not state.placed[i]:
                    found.append((*p.whites[i], left.bit_length()))
    return found


@pytest.mark.parametrize("name", ["seed002-four.txt", "seed000-k2.j"])
def test_without_pencil_marks_a_hint_leads_to_a_digit_with_its_reasoning(name):
    from deducer.puzzle.formats import load

    p = load(ROOT / "puzzles" / name)
    h = hint(p, "full")
    assert h.kind == "deduction" and h.step.placements  # a digit to write, not bookkeeping
    assert h.reasoning and all(not s.placements for s in h.reasoning)
    lines = h.full.splitlines()
    assert len(lines) == len(h.reasoning) + 1
    assert [ln.split(". ", 1)[1] for ln in lines[:-1]] == [s.text for s in h.reasoning]
    assert h.step.placements[0] in replay(p, h)
    # the vague tier points at the first step to take, and says where it leads
    first = next(r for r in registry.load() if r.id == h.reasoning[0].rule)
    assert hint(p, "vague").text.startswith(look_for(first))
    assert "digit you can write" in hint(p, "vague").text
    assert [list(c) for c in h.cells]  # the page highlights the whole path


def test_a_cell_holding_only_a_pencil_mark_is_not_called_filled():
    # r2c2 = 2 written, r3c2 marked (3) alone: still empty, so r3c1→ 12/2 has two empty
    # cells; the hint is to write the 3, not that the run "has one empty cell left"
    h = hint(pz(open(ROOT / "puzzles" / "seed002-progress.txt").read()), "full")
    assert h.kind == "deduction" and h.step.placements == [(2, 1, 3)]
    assert "one empty cell left, r3c3" not in h.full
    assert h.already_marked == [(2, 1)]


def test_hint_on_a_real_puzzle_without_marks_is_one_digit_away():
    from tests.support import corpus

    if corpus.corpus_root() is None:
        pytest.skip("no corpus")
    for cp in corpus.janko(ids=["16"]):
        h = hint(cp.puzzle, "full")
        assert h.step.placements and h.step.placements[0] in replay(cp.puzzle, h)


def test_full_hint_carries_the_steps_proof():
    full = hint(pz(FOUR), "full").to_json()
    # the hint is the first step that writes digits: the pair complement of r3c1→ 12/2,
    # which leaves r3c2 only 3 and r3c3 only 9 and so writes both (one deduction, one step)
    assert full["step"]["placements"] == [[2, 1, 3], [2, 2, 9]]
    assert full["step"]["rule"] == "pair-complement"
    assert full["proof"] == full["step"]["proof"] and full["proof"]["facts"]
    # and each step of the reasoning carries its own (the first: r1c3↓ 16/2 alone)
    assert full["reasoning"][0]["proof"] == {"facts": [], "runs": [[0, 2, "down"]]}
    assert all("proof" in s for s in full["reasoning"])
    assert "proof" not in hint(pz(FOUR), "concrete").to_json()


def test_bad_level():
    with pytest.raises(ValueError):
        hint(pz(FOUR), "loud")


def test_wrong_entry_reported_before_any_hint():
    h = hint(pz("\\|5\\|16\\\n\\|1| \n\\12| | \n"), "full")
    assert h.kind == "mistake" and h.cells == [(1, 1)]
    assert "r2c2 holds 1" in h.full


def test_wrong_pencil_marks_reported():
    # r2c2 must be 2; marks (1,3) leave it out
    h = hint(pz("\\|5\\|16\\\n\\|(1,3)| \n\\12| | \n"), "concrete")
    assert h.kind == "mistake" and h.mistakes[0].kind == "pencil"


def test_pencil_marks_skip_what_the_player_knows():
    plain = hint(pz(FOUR), "full")
    marked = hint(pz("\\|5\\|16\\\n\\|(1,2,3,4)|(7,9)\n\\12|(3,4,8,9)|(7,9)\n"), "full")
    assert marked.kind == "deduction"
    assert marked.skipped >= 1 and marked.rule != plain.rule
    assert "already in your pencil marks" in marked.text


def test_pencil_marks_do_not_drive_reasoning():
    # marks wider than the truth change nothing: the first deduction is the same
    from deducer.engine.walk import explain

    wide = hint(pz("\\|5\\|16\\\n\\|(1,2,3,4,5)| \n\\12| | \n"), "full")
    walk = explain(pz(FOUR)).steps
    # the same deductions as without marks, up to the first that rubs out a mark (the 5):
    # a step of the walk's first three, by the same rule, taking at least what it took
    # (made again on the board of the hint's own steps, it may take more)
    assert wide.skipped == 0 and 5 in dict(((r, c), ds) for r, c, ds in
                                           wide.step.eliminations)[(1, 1)]
    took = {(r, c): set(ds) for r, c, ds in wide.step.eliminations}
    assert any(s.rule == wide.step.rule and all(set(ds) <= took.get((r, c), set())
                                                for r, c, ds in s.eliminations)
               for s in walk[:3])
    for s in [*wide.reasoning, wide.step]:
        assert any(w.rule == s.rule for w in walk), s.text


def test_solved_grid():
    h = hint(pz("\\|5\\|16\\\n\\|2|7\n\\12|3|9\n"))
    assert h.kind == "solved"


def test_multi_solution_entry_of_any_solution_is_fine_and_stuck_says_where():
    # entries of solutions 1 and 2 (r2c2 = 1, r3c2 = 3); marks show every deduction left
    p = pz("\\|4\\|16\\|6\\\n\\12|1|(7,9)|(2,4)\n\\14|3|(7,9)|(2,4)\n")
    assert check(p).ok
    h = hint(p, "full")
    assert h.kind == "stuck" and "more than one solution" in h.text and "r2c3" in h.text


def test_check_every_solution_not_just_one():
    p = pz(MULTI)
    sols = solve(p, max_solutions=10).solutions
    for sol in sols:  # any solution's digit anywhere is never reported wrong
        for i, rc in enumerate(p.whites):
            assert check(p.with_entries({rc: sol[i]}), max_solutions=1).ok
    seen = {(rc, s[i]) for s in sols for i, rc in enumerate(p.whites)}
    for rc in p.whites:
        for d in range(1, 10):
            if (rc, d) not in seen:
                res = check(p.with_entries({rc: d}), max_solutions=1)
                assert res.status == "wrong" and res.mistakes[0].cell == rc


def test_check_conflict_and_unsolvable():
    assert check(pz("\\|4\\|16\\|6\\\n\\12|3|9| \n\\14| | | \n")).status == "conflict"
    assert check(pz("\\|3\\|3\\\n\\3| | \n\\4| | \n")).status == "unsolvable"


def test_every_core_rule_has_a_vague_hint_written_for_players():
    for rule in registry.all_rules():
        assert rule.hint, f"{rule.id} has no hint:"
        text = look_for(rule)
        assert text == rule.hint
        # never the YAML description, which speaks to rule authors
        assert not rule.description or rule.description not in text
        for word in ("max_len", "Weight", "weight", "param", "{", "seed 00", "DESIGN"):
            assert word not in text, (rule.id, word)


def test_a_rule_without_a_hint_is_named_not_described():
    from dataclasses import replace

    rule = next(r for r in registry.load() if r.id == "forcing-chain")
    bare = replace(rule, hint="", description="up to max_len links. Weight grows.")
    assert look_for(bare) == "Look for a place to use the technique “Forcing chain”."


@pytest.mark.parametrize("value, fragment", [
    ("5", "hint must be non-empty text"),
    ('""', "hint must be non-empty text"),
    ('"Look at {cell}"', "no {fields}"),
    ('"' + "x" * 301 + '"', "at most 300"),
])
def test_the_hint_key_is_validated(tmp_path, value, fragment):
    from deducer.errors import RuleError

    path = tmp_path / "r.yaml"
    path.write_text(
        "rules:\n  - id: my-rule\n    name: Mine\n    priority: 1\n    weight: 1\n"
        "    score: 1\n    implementation: deducer.rules.basic:naked_single\n"
        f"    explain: \"{{effect}}\"\n    hint: {value}\n", encoding="utf-8")
    with pytest.raises(RuleError, match=fragment.replace("{", "\\{").replace("}", "\\}")):
        registry.load_file(path)


def test_a_full_hint_shows_only_the_steps_its_target_needs():
    """r3c3 = 4 on seed000-k2 without marks: the two unique combinations that leave r3c3
    only 4, and nothing else; each step shown is needed (dropped, the rest no longer
    proves the digit)."""
    from deducer import proofcheck
    from deducer.puzzle.formats import load

    p = load(ROOT / "puzzles" / "seed000-k2.j")
    h = hint(p, "full")
    assert h.step.placements == [(2, 2, 4)]
    steps = [*h.reasoning, h.step]
    assert proofcheck.check_walkthrough(p, steps) == []
    # r1c3↓ 34/5's unique combination writes r3c3 = 4 itself, after r3c1→ 7/3's
    assert [s.runs for s in h.reasoning] == [["r3c1→ 7/3"]]
    assert h.step.runs == ["r1c3↓ 34/5"]
    for k in range(len(h.reasoning)):
        assert proofcheck.check_walkthrough(p, steps[:k] + steps[k + 1:]), k
    assert len(h.full.splitlines()) == 2


def test_check_and_hint_name_a_repeated_digit_by_the_rule_it_breaks():
    text = "\\|5\\|16\\\n\\|7|7\n\\12| | \n"  # 7 twice in r2c1→; r2c2 is 2
    verdict = check(pz(text))
    assert [m.cell for m in verdict.mistakes] == [(1, 1)]
    assert verdict.mistakes[0].sentence() == "r2c2 holds 7, but r2c3 holds 7 too, in run r2c1→ ?/2"
    full = hint(pz(text), "full").text
    assert "holds 7 too" in full and "no solution has it" not in full
    assert "breaks the rule of a run" in hint(pz(text), "concrete").text
    assert "holds a digit twice" in hint(pz(text), "vague").text


def test_a_run_filled_to_the_wrong_sum_is_named_by_its_sum():
    text = "\\|5\\|16\\\n\\| | \n\\12|1|9\n"  # 1+9 = 10 in r3c1→ 12/2; r3c2 is 3
    verdict = check(pz(text))
    assert [m.cell for m in verdict.mistakes] == [(2, 1)]
    sentence = verdict.mistakes[0].sentence()
    assert "summing to 10, not 12" in sentence and "solutions have" not in sentence


def test_several_solutions_are_said_before_any_hint():
    # the 3x3 block has three solutions; the lone cell r3c6 still gives a deduction
    several = "\\|4\\|16\\|6\\|\\|4\\\n\\12| | | |\\|\n\\14| | | |\\3| \n"
    for level in ("vague", "concrete", "full"):
        h = hint(pz(several), level)
        assert h.kind == "deduction" and h.several
        assert h.text.startswith("This puzzle has 3 solutions (they differ at r2c2 (1/3)")
        assert h.to_json()["several_solutions"] is True
    assert hint(pz(FOUR), "vague").to_json()["several_solutions"] is False
    # a mistake is reported after the same warning
    wrong = several.replace("\\3| \n", "\\3|5\n")
    h = hint(pz(wrong), "full")
    assert h.kind == "mistake" and h.text.startswith("This puzzle has 3 solutions")
