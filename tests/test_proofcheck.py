"""The proof checker itself (deducer/proofcheck/checker.py, DESIGN.md §5b).

Hand-built walkthroughs on a 2x2 puzzle: correct proofs are accepted; a false fact, an
effect that does not follow, a placement outside the local problem, a chain that stops
short of its contradiction and a case split missing a candidate are each caught. The
small search is cross-checked against brute force on random local problems.
"""

from __future__ import annotations

from itertools import permutations, product

from hypothesis import given, settings
from hypothesis import strategies as st

from deducer.proofcheck import audit, grid
from deducer.proofcheck import checker as pc
from deducer.proofcheck.local import Local, satisfiable
from deducer.rules.fixture import puzzle

# r2c2 + r2c3 = 3, r3c2 + r3c3 = 10, r2c2 + r3c2 = 4, r2c3 + r3c3 = 9
# unique solution: r2c2 = 1, r2c3 = 2, r3c2 = 3, r3c3 = 7
P = puzzle(r"""
    \  |4\ |9\
    \3 |   |
    \10|   |
""")
A2 = [1, 0, "across"]   # r2c1→ 3/2
A3 = [2, 0, "across"]   # r3c1→ 10/2
D2 = [0, 1, "down"]     # r1c2↓ 4/2
D3 = [0, 2, "down"]     # r1c3↓ 9/2


def step(n, text="", placements=(), eliminations=(), proof=None, rule="test", combos=()):
    out = {"n": n, "rule": rule, "text": text, "placements": [list(p) for p in placements],
           "eliminations": [[r, c, list(ds)] for r, c, ds in eliminations],
           "combos_removed": [[run, list(cs)] for run, cs in combos]}
    if proof is not None:
        out["proof"] = proof
    return out


def kinds(problems):
    return [(p.step, p.kind) for p in problems]


# the peers of r2c2 that lose a written 1 (engine style: listed in the step)
PEERS_OF_R2C2 = [(1, 2, [1]), (2, 1, [1])]
INTERSECT = step(1, "r2c2 is in r2c1→ 3/2 (1+2) and r1c2↓ 4/2 (1+3); only 1 fits both",
                 placements=[(1, 1, 1)], eliminations=PEERS_OF_R2C2,
                 proof={"facts": [], "runs": [A2, D2]})


# ---------------------------------------------------------------------------- accepted
def test_correct_simple_proofs_are_accepted():
    lone = step(2, "r2c1→ 3/2 needs 3 − 1 = 2 in r2c3", placements=[(1, 2, 2)],
                eliminations=[(2, 2, [2])], proof={"facts": [], "runs": [A2]})
    assert pc.check_walkthrough(P, [INTERSECT, lone]) == []


def test_written_digits_count_without_a_fact():
    # r2c3 = 2 only follows because step 1 wrote 1 in r2c2
    lone = step(1, placements=[(1, 2, 2)], proof={"facts": [], "runs": [A2]})
    assert kinds(pc.check_walkthrough(P, [lone])) == [(1, "unproved")]


def test_facts_true_after_earlier_eliminations_are_accepted():
    narrow = step(1, "r2c1→ 3/2 is 1+2", eliminations=[(1, 1, range(3, 10)),
                                                       (1, 2, range(3, 10))],
                  proof={"facts": [], "runs": [A2]})
    use = step(2, "r2c2 (1 or 2) in r1c2↓ 4/2 (1+3)", placements=[(1, 1, 1)],
               eliminations=PEERS_OF_R2C2,
               proof={"facts": [{"cell": [1, 1], "candidates": [1, 2]}], "runs": [D2]})
    assert pc.check_walkthrough(P, [narrow, use]) == []


def test_run_facts_and_ruled_out_combinations():
    # r3c1→ 10/2 can be 1+9, 2+8, 3+7 or 4+6; r3c2 is in 4/2 (1+3) so 2+8 and 4+6 go
    drop = step(1, combos=[("r3c1→ 10/2", ["2+8", "4+6"])],
                proof={"facts": [], "runs": [A3, D2]})
    fact = step(2, "r3c1→ 10/2 is 1+9 or 3+7", eliminations=[(2, 2, [2, 4, 5, 6, 8])],
                proof={"facts": [{"run": A3, "combos": [[1, 9], [3, 7]]}], "runs": [A3]})
    assert pc.check_walkthrough(P, [drop, fact]) == []
    # without the first step, the run fact is false
    assert kinds(pc.check_walkthrough(P, [fact])) == [(2, "false-fact")]


def test_proof_by_assumption_reaching_a_contradiction():
    chain = step(1, "If r2c2 were 2, r1c2↓ 4/2 would need 2 in r3c2", eliminations=[(1, 1, [2])],
                 proof={"assume": [1, 1, 2], "links": [
                     {"text": "r3c2 = 4 − 2 = 2, already used", "placements": [],
                      "eliminations": [], "facts": [], "runs": [D2], "contradiction": True}]})
    assert pc.check_walkthrough(P, [chain]) == []


def test_two_link_chain():
    # if r2c3 were 1: r2c2 = 2 (3/2), then r1c2↓ 4/2 needs 2 in r3c2 too: contradiction
    chain = step(1, eliminations=[(1, 2, [1])], proof={"assume": [1, 2, 1], "links": [
        {"text": "r2c2 = 2", "placements": [[1, 1, 2]], "eliminations": [],
         "facts": [], "runs": [A2]},
        {"text": "r1c2↓ 4/2 needs 2 in r3c2 too", "placements": [], "eliminations": [],
         "facts": [], "runs": [D2], "contradiction": True}]})
    assert pc.check_walkthrough(P, [chain]) == []


def _narrow_r2c2():
    return step(1, eliminations=[(1, 1, range(3, 10)), (1, 2, range(3, 10))],
                proof={"facts": [], "runs": [A2]})


def _cases(with_second=True):
    one = {"assume": [1, 1, 1], "links": [
        {"text": "r3c2 = 3", "placements": [[2, 1, 3]], "eliminations": [], "facts": [],
         "runs": [D2]}]}
    two = {"assume": [1, 1, 2], "links": [
        {"text": "r1c2↓ 4/2 breaks", "placements": [], "eliminations": [], "facts": [],
         "runs": [D2], "contradiction": True}]}
    return step(2, "Either way r3c2 = 3", placements=[(2, 1, 3)], eliminations=[(2, 2, [3])],
                proof={"cases": [one, two] if with_second else [one]})


def test_proof_by_cases_is_accepted():
    assert pc.check_walkthrough(P, [_narrow_r2c2(), _cases()]) == []


# ---------------------------------------------------------------------------- caught
def test_a_false_fact_is_caught():
    bad = step(1, placements=[(1, 2, 2)], proof={
        "facts": [{"cell": [1, 1], "candidates": [1]}], "runs": [A2]})
    probs = pc.check_walkthrough(P, [bad])
    assert kinds(probs) == [(1, "false-fact")]
    assert "r2c2" in probs[0].message


def test_an_effect_that_does_not_follow_is_caught():
    bad = step(1, placements=[(1, 1, 1)], eliminations=PEERS_OF_R2C2,
               proof={"facts": [], "runs": [A2]})  # 1+2 alone leaves r2c2 open
    probs = pc.check_walkthrough(P, [bad])
    assert kinds(probs) == [(1, "unproved")]
    # an elimination that is not a peer of the written digit needs its own proof
    bad2 = step(1, placements=[(1, 1, 1)], eliminations=[*PEERS_OF_R2C2, (2, 2, [9])],
                proof={"facts": [], "runs": [A2, D2]})
    assert kinds(pc.check_walkthrough(P, [bad2])) == [(1, "outside")]
    bad3 = step(1, combos=[("r3c1→ 10/2", ["3+7"])], proof={"facts": [], "runs": [A3, D2]})
    assert kinds(pc.check_walkthrough(P, [bad3])) == [(1, "unproved")]


def test_a_placement_outside_the_local_problem_is_caught():
    bad = step(2, placements=[(2, 2, 7)], proof={"facts": [], "runs": [A2, D2]})
    probs = pc.check_walkthrough(P, [INTERSECT, bad])
    assert kinds(probs) == [(2, "outside")]
    assert "r3c3" in probs[0].message


def test_a_chain_that_stops_short_is_caught():
    short = step(1, eliminations=[(1, 2, [1])], proof={"assume": [1, 2, 1], "links": [
        {"text": "r2c2 = 2", "placements": [[1, 1, 2]], "eliminations": [],
         "facts": [], "runs": [A2]}]})
    assert kinds(pc.check_walkthrough(P, [short])) == [(1, "no-contradiction")]
    # claiming a contradiction the link's local problem does not have
    claimed = step(1, eliminations=[(1, 2, [1])], proof={"assume": [1, 2, 1], "links": [
        {"text": "r2c2 = 2", "placements": [[1, 1, 2]], "eliminations": [],
         "facts": [], "runs": [A2], "contradiction": True}]})
    probs = pc.check_walkthrough(P, [claimed])
    assert kinds(probs) == [(1, "no-contradiction")] and probs[0].where == "link 1"


def test_a_link_that_does_not_follow_is_caught():
    bad = step(1, eliminations=[(1, 2, [1])], proof={"assume": [1, 2, 1], "links": [
        {"text": "r3c2 = 3", "placements": [[2, 1, 3]], "eliminations": [],
         "facts": [], "runs": [A2]},
        {"text": "…", "placements": [], "eliminations": [], "facts": [],
         "runs": [A2, D2], "contradiction": True}]})
    assert ("link 1", "outside") in [(p.where, p.kind) for p in pc.check_walkthrough(P, [bad])]


def test_an_assumption_proves_only_its_own_elimination():
    bad = step(1, eliminations=[(1, 1, [2]), (2, 2, [5])], proof={"assume": [1, 1, 2], "links": [
        {"text": "r1c2↓ breaks", "placements": [], "eliminations": [], "facts": [],
         "runs": [D2], "contradiction": True}]})
    assert kinds(pc.check_walkthrough(P, [bad])) == [(1, "unproved")]


def test_a_case_split_missing_a_candidate_is_caught():
    probs = pc.check_walkthrough(P, [_narrow_r2c2(), _cases(with_second=False)])
    assert kinds(probs) == [(2, "missing-case")]
    assert "2" in probs[0].message and "r2c2" in probs[0].message
    # without narrowing r2c2 first, 3..9 are missing too
    assert kinds(pc.check_walkthrough(P, [_cases()])) == [(2, "missing-case")]


def test_a_case_that_does_not_reach_the_effect_is_caught():
    # case r2c2 = 1 ends without writing r3c2
    empty = {"assume": [1, 1, 1], "links": []}
    two = {"assume": [1, 1, 2], "links": [
        {"text": "breaks", "placements": [], "eliminations": [], "facts": [],
         "runs": [D2], "contradiction": True}]}
    bad = step(2, placements=[(2, 1, 3)], proof={"cases": [empty, two]})
    probs = pc.check_walkthrough(P, [_narrow_r2c2(), bad])
    assert [(p.where, p.kind) for p in probs] == [("case 1", "unproved")]


def test_missing_and_malformed_proofs():
    probs = pc.check_walkthrough(P, [step(1, placements=[(1, 1, 1)])])
    assert kinds(probs) == [(1, "no-proof")]
    bad = step(1, placements=[(1, 1, 1)], proof={"facts": [], "runs": [[5, 5, "down"]]})
    assert kinds(pc.check_walkthrough(P, [bad])) == [(1, "malformed")]
    bad = step(1, placements=[(1, 1, 1)], proof={"facts": [{"cell": [0, 0], "candidates": [1]}],
                                                  "runs": []})
    assert kinds(pc.check_walkthrough(P, [bad])) == [(1, "malformed")]


def test_a_bad_step_does_not_hide_the_next():
    bad = step(1, placements=[(1, 1, 1)], eliminations=PEERS_OF_R2C2,
               proof={"facts": [], "runs": [A2]})
    lone = step(2, placements=[(1, 2, 2)], proof={"facts": [], "runs": [A2]})
    assert kinds(pc.check_walkthrough(P, [bad, lone])) == [(1, "unproved")]


def test_the_checker_reads_engine_steps():
    from deducer.engine.walk import explain

    e = explain(P)
    assert e.status == "solved"
    # whatever proofs the rules give today: each step is either unproved or passes
    for prob in pc.check_walkthrough(P, e.steps):
        assert prob.kind == "no-proof", prob


# ---------------------------------------------------------------------------- surplus
def test_surplus_facts_and_runs_are_found():
    lean = step(2, placements=[(1, 2, 2)], proof={"facts": [], "runs": [A2]})
    assert audit.surplus(P, [INTERSECT, lean]) == []
    fat = step(2, placements=[(1, 2, 2)], proof={
        "facts": [{"cell": [2, 2], "candidates": list(range(1, 10))}], "runs": [A2, D3]})
    found = audit.surplus(P, [INTERSECT, fat])
    assert sorted(p.message for p in found) == [
        "run r1c3↓ 9/2 can be dropped", "the fact on r3c3 can be dropped"]
    assert audit.surplus(P, [INTERSECT, fat], only={1}) == []


def test_surplus_inside_a_chain():
    chain = step(1, eliminations=[(1, 1, [2])], proof={"assume": [1, 1, 2], "links": [
        {"text": "r1c2↓ 4/2 breaks", "placements": [], "eliminations": [],
         "facts": [], "runs": [D2, A3], "contradiction": True}]})
    found = audit.surplus(P, [chain])
    assert [(p.where, p.message) for p in found] == [("link 1", "run r3c1→ 10/2 can be dropped")]


# ---------------------------------------------------------------------------- sentences
def test_unnamed_cells_and_runs():
    s = step(1, "r2c2 fits only 1 in r2c1→ 3/2", placements=[(1, 1, 1)], proof={
        "facts": [{"cell": [1, 1], "candidates": [1, 2]}], "runs": [A2, D2]})
    assert audit.unnamed(P, s) == ["r1c2↓ 4/2"]
    s["text"] += " and r1c2↓ 4/2"
    assert audit.unnamed(P, s) == []
    # r2c22 does not name r2c2
    s2 = step(1, "r2c22 r2c1→ r1c2↓", proof={"facts": [{"cell": [1, 1], "candidates": [1]}],
                                              "runs": [A2, D2]})
    assert audit.unnamed(P, s2) == ["r2c2"]
    # links name their own facts; the step names the assumed cell
    chain = step(1, "If r2c2 were 2 …", proof={"assume": [1, 1, 2], "links": [
        {"text": "then r1c2↓ 4/2 breaks", "facts": [], "runs": [D2], "contradiction": True}]})
    assert audit.unnamed(P, chain) == []
    chain["proof"]["links"][0]["text"] = "then it breaks"
    assert audit.unnamed(P, chain) == ["r1c2↓ 4/2"]


# ---------------------------------------------------------------------------- vs brute force
@st.composite
def local_problems(draw):
    n = draw(st.integers(2, 5))
    domains = [draw(st.integers(1, 0x1FF)) for _ in range(n)]
    runs = []
    for _ in range(draw(st.integers(1, 3))):
        ps = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
        total = draw(st.none() | st.integers(1, 45))
        sets = grid.digit_sets(total, len(ps))
        allowed = draw(st.lists(st.sampled_from(sets), unique=True)) if sets else []
        if draw(st.booleans()):
            allowed = list(sets)
        runs.append((ps, allowed))
    cells = list(range(n))
    return Local(cells, domains, runs, {i: i for i in cells}, [])


def _brute(local, domains):
    for values in product(*(grid.digits_of(m) for m in domains)):
        if all(len({values[p] for p in ps}) == len(ps)
               and grid.mask_of(values[p] for p in ps) in allowed for ps, allowed in local.runs):
            return True
    return False


@settings(max_examples=300)
@given(local_problems())
def test_search_agrees_with_brute_force(local):
    assert satisfiable(local, local.domains) == _brute(local, local.domains)


@settings(max_examples=300)
@given(st.data())
def test_arrangement_agrees_with_brute_force(data):
    combo = data.draw(st.integers(1, 0x1FF))
    ds = grid.digits_of(combo)
    cells = data.draw(st.lists(st.integers(0, 0x1FF), min_size=len(ds), max_size=len(ds)))
    want = any(all(cells[k] & grid.bit(d) for k, d in enumerate(perm))
               for perm in permutations(ds))
    assert grid.arranges(combo, cells) == want
