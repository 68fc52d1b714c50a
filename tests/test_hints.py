"""Hints and checks against every solution (deducer.hints, deducer.checking)."""

from __future__ import annotations

import pytest

from deducer.explain import registry
from deducer.explain.checking import check
from deducer.explain.hints import LOOK_FOR, hint, look_for
from deducer.puzzle.formats import loads
from deducer.solve.search import solve

FOUR = "\\|5\\|16\\\n\\| | \n\\12| | \n"
MULTI = "\\|4\\|16\\|6\\\n\\12| | | \n\\14| | | \n"


def pz(text):
    return loads(text, "pipe")


def test_three_tiers_describe_one_deduction():
    h = hint(pz(FOUR), "vague")
    assert h.kind == "deduction" and h.rule == "unique-combination"
    assert h.text == h.vague == LOOK_FOR["unique-combination"]
    assert "r1c3" in h.concrete and h.rule_name in h.concrete
    assert h.full == h.step.text
    assert hint(pz(FOUR), "full").text == h.full


def test_full_hint_carries_the_steps_proof():
    full = hint(pz(FOUR), "full").to_json()
    # r1c3↓ 16/2 has one combination: the run alone proves it, no fact needed
    assert full["proof"] == {"facts": [], "runs": [[0, 2, "down"]]}
    assert full["proof"] == full["step"]["proof"]
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
    wide = hint(pz("\\|5\\|16\\\n\\|(1,2,3,4,5)| \n\\12| | \n"), "full")
    assert wide.rule == hint(pz(FOUR), "full").rule and wide.skipped == 0


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


def test_every_core_rule_has_a_vague_hint():
    for rule in registry.all_rules():
        text = look_for(rule)
        assert text.startswith(("Look", "Try", "No simple", "Only"))
