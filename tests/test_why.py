"""``deducer why``: the steps that rule a digit out of a cell, and nothing else.

Triples (puzzle, cell, digit) are taken from the bundled puzzles and a corpus sample at
several points of their walkthroughs (the digits written so far become entries, so the
question is asked of a grid in progress): digits that are still candidates there but not
the solution. Each answer's steps must pass the independent proof checker from that grid,
end with the digit out of the cell, and be no more than the walkthrough's own path to the
same elimination.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deducer import proofcheck
from deducer.app.cli import main
from deducer.assist.why import EXPLAINED, NOT_SOLUTION, SOLUTION, WRITTEN, why
from deducer.clock import Limits
from deducer.engine.walk import explain
from deducer.puzzle.combos import BIT
from deducer.puzzle.formats import load
from deducer.puzzle.model import cell_name

ROOT = Path(__file__).resolve().parents[1]
K2 = ROOT / "puzzles" / "seed000-k2.j"
#: (file, name in the file) of bundled puzzles with one solution
BUNDLED = [("seed000-k2.j", None), ("deducer-trial.txt", None), ("seed000-k.j", "k5")]
#: points of a walkthrough (fractions of its steps) at which questions are asked
POINTS = (0.0, 0.35, 0.7)


def _at(puzzle, steps, k: int):
    """The puzzle with the digits the first ``k`` steps wrote as entries."""
    entries = dict(puzzle.entries)
    for s in steps[:k]:
        for r, c, d in s.placements:
            if (r, c) not in puzzle.givens:
                entries[(r, c)] = d
    return puzzle.with_entries(entries)


def _path(steps, rc, digit) -> int | None:
    """Steps the walkthrough takes until ``digit`` leaves cell ``rc``."""
    for n, s in enumerate(steps, 1):
        if any((r, c) == rc and digit in ds for r, c, ds in s.eliminations):
            return n
        if any((r, c) == rc and d != digit for r, c, d in s.placements):
            return n
    return None


def _triples(puzzle, per_point: int):
    """(grid in progress, cell, digit, solution digit) questions along the walkthrough."""
    full = explain(puzzle)  # no time limit: a loaded machine once ran out of 30 s here
    assert full.status == "solved"
    sol = full.solution
    out = []
    for frac in POINTS:
        k = int(len(full.steps) * frac)
        at = _at(puzzle, full.steps, k)
        board = proofcheck.Replay(at).board
        picked = 0
        for i, rc in enumerate(at.whites):
            if board.written[i]:
                continue
            wrong = [d for d in range(1, 10) if board.masks[i] & BIT[d] and d != sol[i]]
            if not wrong:
                continue
            out.append((at, rc, wrong[(i * 7) % len(wrong)], sol[i]))
            picked += 1
            if picked == per_point:
                break
    return out


def _check(p, rc, digit, solution):
    answer = why(p, rc, digit, limits=Limits.within(60))
    assert answer.kind == EXPLAINED, answer.message
    steps = answer.steps
    assert steps
    assert proofcheck.check_walkthrough(p, steps) == []
    rp = proofcheck.Replay(p)
    for s in steps[:-1]:
        rp.feed(s)
    i = p.index[rc]
    assert rp.board.masks[i] & BIT[digit]  # not out before the last step...
    rp.feed(steps[-1])
    assert not rp.board.masks[i] & BIT[digit]  # ...and out after it
    path = _path(explain(p, limits=Limits.within(60)).steps, rc, digit)
    assert path is not None and len(steps) <= path == answer.path
    # the same cell's solution digit: the answer says so
    assert why(p, rc, solution).kind == SOLUTION
    return answer


def _ask_all(questions) -> int:
    """Check every question; returns how many answers were shorter than the path."""
    shorter = 0
    for p, rc, digit, solution in questions:
        try:
            answer = _check(p, rc, digit, solution)
        except AssertionError as e:
            raise AssertionError(f"why not {digit} in {cell_name(rc)}: {e}") from None
        shorter += answer.path > len(answer.steps)
    return shorter


def test_why_not_on_the_bundled_puzzles_is_proved_short_and_reaches_the_target():
    questions = []
    for name, which in BUNDLED:
        questions += _triples(load(ROOT / "puzzles" / name, name=which), 3)
    assert len(questions) >= 25
    # the closure leaves steps out: most answers are shorter than the walkthrough's path
    assert _ask_all(questions) > len(questions) // 2


def test_why_not_on_a_corpus_sample(corpus_dir):
    from tests.support import corpus

    questions = []
    for pid in ("16", "40", "101"):
        (cp,) = corpus.janko(root=corpus_dir, ids=[pid])
        questions += _triples(cp.puzzle, 3)
    assert len(questions) >= 25
    _ask_all(questions)


def test_on_k2_only_the_steps_that_lead_there():
    p = load(K2)
    # r4c3: the walkthrough takes 10 steps to write r3c3 = 4 (issue 51: the unique
    # combination on r4c3's own run r1c3↓ 34/5 writes it in the same step, once
    # r3c1→ 7/3 has left r3c3 only 1, 2 or 4 -- 4+6+7+8+9 and 1+2+4 share only 4)
    answer = why(p, (3, 2), 4)
    assert answer.kind == EXPLAINED
    assert [s.rule for s in answer.steps] == ["unique-combination", "unique-combination"]
    assert [s.runs for s in answer.steps] == [["r3c1→ 7/3"], ["r1c3↓ 34/5"]]
    assert not answer.steps[0].placements and (2, 2, 4) in answer.steps[1].placements
    assert proofcheck.check_walkthrough(p, answer.steps) == []
    assert answer.path == 10 and [s.n for s in answer.steps] == [1, 2]
    assert answer.text.startswith("Why 4 cannot go in r4c3: 2 steps (the walkthrough takes 10")
    assert answer.text.endswith("So 4 cannot go in r4c3: r3c3, in the same run r1c3↓ 34/5, "
                                "holds it.")
    # the closure alone, from the walkthrough's path: 2 of its 10 steps
    from deducer.assist.closure import closure

    walk = explain(p).steps[:10]
    assert [s.n for s in closure(p, walk)] == [2, 10]


def test_must_leaves_only_the_digit():
    p = load(K2)
    answer = why(p, (3, 2), 7, must=True)
    assert answer.kind == EXPLAINED
    assert proofcheck.check_walkthrough(p, answer.steps) == []
    rp = proofcheck.Replay(p)
    for s in answer.steps:
        rp.feed(s)
    assert rp.board.masks[p.index[(3, 2)]] == BIT[7]
    assert len(answer.steps) < answer.path
    assert why(p, (3, 2), 9, must=True).kind == NOT_SOLUTION


def test_a_ladder_that_stalls_and_a_puzzle_with_several_solutions():
    from deducer.assist.why import NOT_FOUND, POSSIBLE
    from deducer.engine import registry

    p = load(K2)
    weak = [r for r in registry.load() if r.id == "naked-single"]
    answer = why(p, (3, 2), 4, rules=weak)
    assert answer.kind == NOT_FOUND and "stall" in answer.message and not answer.steps
    several = load(ROOT / "puzzles" / "seed003-example.txt")
    assert why(several, (1, 2), 2).kind == POSSIBLE  # r2c3 is 2 or 3 by the solution
    assert why(several, (1, 2), 2, must=True).kind == POSSIBLE
    assert why(several, (1, 2), 9).kind == EXPLAINED


def test_a_written_cell_and_bad_questions():
    from deducer.errors import PuzzleError

    p = load(K2)
    entered = p.with_entries({(3, 2): 7})
    assert why(entered, (3, 2), 4).kind == WRITTEN
    with pytest.raises(PuzzleError, match="not a white cell"):
        why(p, (0, 0), 4)
    with pytest.raises(PuzzleError, match="not a digit"):
        why(p, (3, 2), 0)


def test_a_digit_written_in_the_cells_run_is_answered_from_the_grid(capsys):
    """No step is needed when a digit written in the cell's run rules it out (this was an
    internal error): the answer says so and names the cell holding it."""
    progress = Path(__file__).resolve().parents[1] / "puzzles" / "seed002-progress.txt"
    got = why(load(progress), (2, 1), 2)
    assert got.kind == EXPLAINED and got.steps == [] and got.path == 0
    assert got.closing == "So 2 cannot go in r3c2: r2c2, in the same run r1c2↓ 5/2, holds it."
    code, out, err = run(capsys, "why", progress, "r3c2", "2")
    assert code == 0 and "before any step" in out and "r2c2" in out, err


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    got = capsys.readouterr()
    return code, got.out, got.err


def test_cli_text_json_and_exit_codes(capsys):
    code, out, _ = run(capsys, "why", K2, "r4c3", "4")
    assert code == 0 and out.startswith("Why 4 cannot go in r4c3: 2 steps")
    assert "1. Unique combination: r3c1→ 7/3 needs 3 digits summing to 7" in out
    assert "2. Unique combination: r1c3↓ 34/5 needs 5 digits summing to 34" in out
    assert "r3c3, which is then 4" in out
    code, out, _ = run(capsys, "why", K2, "r4c3", "4", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["kind"] == "explained" and len(obj["steps"]) == 2
    assert all("proof" in s for s in obj["steps"])
    code, out, _ = run(capsys, "why", K2, "r4c3", "7")
    assert code == 1 and "solution digit" in out
    code, out, _ = run(capsys, "why", K2, "r4c3", "7", "--must")
    assert code == 0 and out.startswith("Why r4c3 must be 7")


@pytest.mark.parametrize("cell, digit, fragment", [
    ("r1c1", "4", "r1c1 is not a white cell"),
    ("x9", "4", "'x9' is not a cell like r3c4"),
    ("r4c3", "10", "'10' is not a digit 1-9"),
    ("r4c3", "0", "'0' is not a digit 1-9"),
])
def test_cli_bad_input_is_one_line_exit_2(capsys, cell, digit, fragment):
    code, out, err = run(capsys, "why", K2, cell, digit)
    assert code == 2 and not out
    assert fragment in err and len(err.strip().splitlines()) == 1


def test_names_in_messages_are_cell_names():
    assert cell_name((3, 2)) == "r4c3"


def test_a_steps_sentence_mentions_only_digits_the_answer_wrote():
    """The answer keeps only the steps the target needs, and each is made again on the
    board those leave: on a generated 10x10 Hard puzzle a kept step once said "3 and 8
    written in" of a run where no kept step wrote 8."""
    import re

    from deducer import api

    p = api.generate(size="10x10", level="Hard", seed=3)[0].puzzle
    # issue 51 moved the path: the answer for r6c4 = 7 no longer keeps a step that says
    # what is "written in" a run; r3c2 = 7's does (r2c1→ 30/7, in its last step's detail)
    got = why(p, (2, 1), 7)
    assert got.kind == EXPLAINED and got.steps
    assert proofcheck.check_walkthrough(p, got.steps) == []
    runs = {run.name: run for run in p.runs}
    written: dict = dict(p.givens)
    claim = re.compile(r"(r\d+c\d+[↓→] \d+/\d+) \([^()]*?((?<!\d)(?:\d, )*\d(?: and \d)?)"
                       r" written in")
    checked = 0
    for s in got.steps:  # the sentence and its detail (the whole case analysis)
        for name, digits in claim.findall(f"{s.text} {s.detail}"):
            held = {written[rc] for rc in runs[name].coords if rc in written}
            said = {int(d) for d in re.findall(r"\d", digits)}
            assert said <= held, (s.n, s.text, sorted(held))
            checked += 1
        written.update({(r, c): d for r, c, d in s.placements})
    assert checked


def test_must_keeps_only_the_steps_that_lead_there():
    """--must on k2's r4c3 = 7 gave 23 steps, 13 of them about cells that never bear on
    r4c3: passes of dropping, each followed by the closure of what is left, give 10."""
    got = why(load(K2), (3, 2), 7, must=True)
    assert got.kind == EXPLAINED and len(got.steps) <= 10
    assert proofcheck.check_walkthrough(load(K2), got.steps) == []


def test_a_digit_in_the_run_is_answered_even_when_the_entries_leave_no_solution():
    """r2c2 = 1 is wrong (the grid has no solution with it), yet 'why not 1 in r3c2' is
    answered by the run's rule rather than 'the grid has no solution'."""
    from deducer.puzzle.formats import loads

    wrong = loads("\\|5\\|16\\\n\\|1| \n\\12| | \n")
    got = why(wrong, (2, 1), 1)
    assert got.kind == EXPLAINED and got.steps == []
    assert got.closing == "So 1 cannot go in r3c2: r2c2, in the same run r1c2↓ 5/2, holds it."


def test_the_shortcut_asks_a_rule_again_only_where_the_board_changed(monkeypatch):
    """_direct asked every run rule about the cell's runs at every step (issue 40: 54% of a
    slow answer); with its memory, a board unchanged near the runs is not asked again."""
    from deducer.assist import why as why_mod
    from deducer.engine import registry
    from deducer.engine.walk import Engine

    p = load(K2)
    rules = registry.load()
    eng = Engine(p, rules)
    i = p.index[(3, 2)]
    calls = []
    real = registry.Rule.call
    monkeypatch.setattr(registry.Rule, "call",
                        lambda self, view, rid=None: calls.append(self.id) or real(self, view, rid))
    asked: dict = {}
    # a digit no rule takes out now: every rule is asked, none answers
    d = next(x for x in range(1, 10) if eng.state.masks[i] & BIT[x]
             and why_mod._direct(eng, p, rules, i, x, {}) is None)
    calls.clear()
    assert why_mod._direct(eng, p, rules, i, d, asked) is None
    first = len(calls)
    assert first > 0
    assert why_mod._direct(eng, p, rules, i, d, asked) is None
    assert len(calls) == first  # nothing near the runs changed: no rule asked again
    eng.step()  # a change somewhere: only the rules whose runs' surroundings changed
    calls.clear()
    why_mod._direct(eng, p, rules, i, d, asked)
    assert len(calls) <= first


def test_why_walks_without_counting_yet_shows_the_counts_it_did():
    """The walk of `why` skips the count of open easy moves (half its time on a 150x150
    grid); an answer that shows the walk's own steps still carries the counts a counting
    walk gives them."""
    from dataclasses import replace

    from deducer.assist import why as why_mod
    from deducer.engine import registry

    p = load(K2)
    rules = registry.load()
    path = explain(p, rules).steps
    kept = [path[2], path[5]]
    bare = [replace(s, available=0) for s in path]
    got = why_mod._counted(p, rules, bare, [bare[2], bare[5]])
    assert [s.available for s in got] == [s.available for s in kept]
    assert any(s.available for s in kept)


def test_why_costs_no_more_than_explain_on_janko_960(corpus_dir):
    """`why janko-960 r14c28 4` took 4-5x the CPU of the puzzle's whole walkthrough: the
    run names rebuilt at every step, every run rule asked again at every step, the easy
    moves counted at every step. CPU of each, in one process; slack for a loaded machine."""
    import time

    from deducer.engine import registry
    from tests.support import corpus

    (cp,) = corpus.janko(root=corpus_dir, ids=["960"])
    rules = registry.load()
    t = time.process_time()
    explain(cp.puzzle, rules)
    walk = time.process_time() - t
    t = time.process_time()
    answer = why(cp.puzzle, (13, 27), 4, rules=rules)
    asked = time.process_time() - t
    assert answer.kind == EXPLAINED
    assert asked < 2.5 * walk, (asked, walk)


MULTI = "\\|4\\|16\\|6\\\n\\12| | | \n\\14| | | \n"  # three solutions


def test_must_on_a_puzzle_with_several_solutions_says_they_differ():
    # issue 54, finding 10: the two solutions found first both put 1 in r2c2 and a third
    # puts 3: --must walked, stalled on the cells they differ in, and said "stall"
    from deducer import api
    from deducer.puzzle import formats

    p = formats.loads(MULTI, None)
    for digit, must in ((1, True), (3, True), (3, False)):
        w = api.why(p, (1, 1), digit, must=must)
        assert w.kind == "possible", (digit, must, w.message)
        assert "more than one solution" in w.message and "stall" not in w.message


def test_a_trimming_cut_by_the_time_limit_is_flagged(monkeypatch):
    # issue 54, finding 5: --timeout 0.5 gave the untrimmed answer with exit 0 where more
    # time gives a shorter one; an answer whose trimming the clock stopped says so
    import deducer.assist.why as why_mod
    from deducer import api
    from deducer.puzzle import formats

    p = formats.load(ROOT / "puzzles" / "seed000-k2.j")
    whole = api.why(p, (3, 2), 7, must=True)
    assert whole.kind == "explained" and whole.complete and whole.to_json()["complete"]
    real = why_mod._shortest
    calls = []

    def late_trim(puzzle, path, i, digit, must, limits=None):
        calls.append(limits)
        return list(path)  # as a trimming the deadline stopped at once

    monkeypatch.setattr(why_mod, "_shortest", late_trim)
    monkeypatch.setattr(why_mod, "past", lambda deadline: bool(calls))
    cut = api.why(p, (3, 2), 7, must=True, timeout=60)
    monkeypatch.setattr(why_mod, "_shortest", real)
    assert cut.kind == "explained" and not cut.complete
    assert "time limit stopped the trimming" in cut.message
    assert cut.to_json()["complete"] is False
