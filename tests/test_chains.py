"""Chain steps (bivalue chain, forcing chain, trial) checked link by link, as a reader would.

For every chain step of a walkthrough the state before it is rebuilt from the JSON of the
earlier steps; the assumed digit is written in, then every link is checked in the state the
assumption and the earlier links leave: its cell facts are true, and its effect holds in
every filling of its local problem (its runs, limited by its facts and the written digits),
found by brute force here (no code shared with the rules). The last link must leave that
local problem with no filling. (The project-wide proof checker does the same for every rule;
this is the chains' own guard.)
"""

from __future__ import annotations

import json
from itertools import permutations

import pytest

from deducer.explain import registry
from deducer.explain.engine import explain
from deducer.explain.rating import chain_length
from deducer.puzzle import formats
from deducer.puzzle.combos import combos
from tests.support import corpus

CHAIN_RULES = {"bivalue-chain", "forcing-chain", "trial"}
ALL = frozenset(range(1, 10))


def _fillings(puzzle, runs, dom, combo_facts):
    """Every assignment of the local problem's cells (dicts cell -> digit)."""
    cells = sorted({i for r in runs for i in puzzle.runs[r].cells} | set(dom))
    out = [{}]
    # cells outside the listed runs are limited by their fact alone
    for i in cells:
        if not any(i in puzzle.runs[r].cells for r in runs):
            out = [{**a, i: d} for a in out for d in sorted(dom[i])]
    for r in runs:
        run = puzzle.runs[r]
        sets = combo_facts.get(r) or [frozenset(c) for c in _combos(run)]
        nxt = []
        for a in out:
            for s in sets:
                for perm in permutations(sorted(s)):
                    b = dict(a)
                    ok = True
                    for i, d in zip(run.cells, perm, strict=True):
                        if d not in dom.get(i, ALL) or b.get(i, d) != d:
                            ok = False
                            break
                        b[i] = d
                    if ok:
                        nxt.append(b)
        out = nxt
        if len(out) > 200_000:
            pytest.fail("local problem too big to enumerate")
    return out


def _combos(run):
    from deducer.puzzle.combos import DIGITS

    return [DIGITS[c] for c in combos(run.total, run.length)]


def _state_before(puzzle, steps):
    index = puzzle.index
    dom = [set(ALL) for _ in puzzle.whites]
    for (r, c), d in {**puzzle.givens, **puzzle.entries}.items():
        dom[index[(r, c)]] = {d}
    written = {index[rc]: d for rc, d in {**puzzle.givens, **puzzle.entries}.items()}
    for i, d in written.items():
        for rid in puzzle.cell_runs[i]:
            for j in puzzle.runs[rid].cells:
                if j != i:
                    dom[j].discard(d)
    for s in steps:
        for r, c, ds in s["eliminations"]:
            dom[index[(r, c)]] -= set(ds)
        for r, c, d in s["placements"]:
            dom[index[(r, c)]] = {d}
            written[index[(r, c)]] = d
    return dom, written


def _write(puzzle, dom, written, i, d):
    dom[i] = {d}
    written[i] = d
    for rid in puzzle.cell_runs[i]:
        for j in puzzle.runs[rid].cells:
            if j != i:
                dom[j].discard(d)


def _run_id(puzzle, ref):
    for r in puzzle.runs:
        if r.ref == list(ref):
            return r.id
    raise AssertionError(f"no run {ref}")


def check_chain(puzzle, step, before):
    """Check one chain step's proof link by link (raises AssertionError)."""
    index = puzzle.index
    dom, written = _state_before(puzzle, before)
    proof = step["proof"]
    r, c, d = proof["assume"]
    cell = index[(r, c)]
    assert d in dom[cell], "the assumed digit is not a candidate"
    assert step["eliminations"] == [[r, c, [d]]]
    _write(puzzle, dom, written, cell, d)
    links = proof["links"]
    assert links and links[-1].get("contradiction") and \
        not any(lk.get("contradiction") for lk in links[:-1])
    for n, lk in enumerate(links, 1):
        where = f"step {step['n']} link {n} ({lk['text']})"
        fact_dom: dict[int, set[int]] = {}
        combo_facts: dict[int, list[frozenset[int]]] = {}
        for f in lk["facts"]:
            if "cell" in f:
                i = index[tuple(f["cell"])]
                assert dom[i] <= set(f["candidates"]), f"{where}: false cell fact {f}"
                fact_dom[i] = set(f["candidates"])
                assert puzzle.whites[i] and f"r{f['cell'][0] + 1}c{f['cell'][1] + 1}" in \
                    lk["text"], f"{where}: fact cell not named"
            else:
                combo_facts[_run_id(puzzle, f["run"])] = [frozenset(x) for x in f["combos"]]
        runs = [_run_id(puzzle, ref) for ref in lk["runs"]]
        for rid in runs:
            assert puzzle.runs[rid].name in lk["text"], f"{where}: run not named"
        local = {}
        for rid in runs:
            for i in puzzle.runs[rid].cells:
                local[i] = {written[i]} if i in written else fact_dom.get(i, set(ALL))
        for i, m in fact_dom.items():
            local.setdefault(i, m)
        fills = _fillings(puzzle, runs, local, combo_facts)
        if lk.get("contradiction"):
            assert not fills, f"{where}: the local problem still has a filling"
            break
        for rr, cc, dd in lk["placements"]:
            i = index[(rr, cc)]
            assert all(f[i] == dd for f in fills), f"{where}: placement not forced"
        for rr, cc, ds in lk["eliminations"]:
            i = index[(rr, cc)]
            placed_peer = any(i in puzzle.runs[rid].cells and dd in ds
                              for pr, pc, dd in lk["placements"]
                              for rid in puzzle.cell_runs[index[(pr, pc)]])
            if not placed_peer:
                assert all(f[i] not in ds for f in fills), f"{where}: elimination not proved"
        for rr, cc, ds in lk["eliminations"]:
            dom[index[(rr, cc)]] -= set(ds)
        for rr, cc, dd in lk["placements"]:
            _write(puzzle, dom, written, index[(rr, cc)], dd)
    return len(links)


def _check_walkthrough(puzzle, rules=None):
    exp = explain(puzzle, rules)
    steps = [s.to_json() for s in exp.steps]
    json.dumps(steps)  # the proofs are plain JSON
    seen = 0
    for k, s in enumerate(steps):
        if s["rule"] in CHAIN_RULES:
            n = check_chain(puzzle, s, steps[:k])
            assert n == chain_length(exp.steps[k])
            if s["rule"] != "trial":
                assert f"of {n} link" in s["text"]
            seen += 1
    return exp, seen


def test_bundled_trial_puzzle_chains_check():
    p = formats.load("puzzles/deducer-trial.txt")
    exp, seen = _check_walkthrough(p)
    assert exp.status == "solved" and seen >= 1
    assert exp.rating.max_chain == max(chain_length(s) for s in exp.steps)
    assert exp.rating.to_json()["max_chain"] == exp.rating.max_chain


def test_max_chain_caps_the_chain_rules():
    """With chains of at most 2 links, every chain step is that short or is trial."""
    p = formats.load("puzzles/deducer-trial.txt")
    rules = registry.load()
    for r in rules:
        if "max_len" in r.params:
            r.params = {**r.params, "max_len": 2}
    exp, _ = _check_walkthrough(p, rules)
    assert exp.status == "solved"
    for s in exp.steps:
        if s.rule in ("bivalue-chain", "forcing-chain"):
            assert chain_length(s) <= 2


def test_generated_puzzles_chains_check():
    from deducer.generate.generator import generated

    checked = 0
    # which puzzles need a chain depends on the solver's order of solutions (the givens
    # go where two solutions differ), and few do (2 of the first 200 for this seed), so
    # go on until a few chain steps were checked
    for _label, p, _sol in generated(200, 12):
        _, seen = _check_walkthrough(p)
        checked += seen
        if checked >= 3:
            break
    assert checked >= 1  # some generated puzzles need a chain: they are all checked


@pytest.mark.skipif(corpus.corpus_root() is None, reason="corpus not present")
@pytest.mark.parametrize("pid", ["169", "226", "350"])
def test_janko_chains_check(pid):
    """Three of the janko puzzles that needed trial before chains and larger region sums."""
    (cp,) = corpus.janko(ids=[pid])
    exp, _ = _check_walkthrough(cp.puzzle)
    assert exp.status == "solved"
    assert "trial" not in exp.rating.rules and "backtracking" not in exp.rating.rules


def test_cli_max_chain(capsys):
    """``explain --max-chain N`` caps the chain rungs; the JSON rating says how long the
    longest chain was; a cap below 1 is a usage error."""
    from deducer.app.cli import main

    code = main(["explain", "puzzles/deducer-trial.txt", "--json", "--max-chain", "5"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "solved"
    chains = [s for s in out["steps"] if s["rule"] in ("bivalue-chain", "forcing-chain")]
    assert chains and all(len(s["proof"]["links"]) <= 5 for s in chains)
    assert out["rating"]["level"] == "Extreme"  # the longer chains were left to trial
    assert out["rating"]["max_chain"] == max(len(s["proof"]["links"]) for s in out["steps"]
                                             if s["rule"] in CHAIN_RULES)
    assert main(["explain", "puzzles/deducer-trial.txt", "--max-chain", "0"]) == 2
    assert "--max-chain" in capsys.readouterr().err
    code = main(["rate", "puzzles/deducer-trial.txt", "--csv"])
    lines = capsys.readouterr().out.splitlines()
    head, row = lines[0].split(","), lines[1].split(",")
    assert int(row[head.index("max_chain")]) >= 1


def test_a_walks_work_budget_ends_it_as_a_deadline_would():
    """Engine(work=N): the chain links walked count against the walk's budget; once it is
    spent the walk ends as TIMEOUT (what a deadline gives), at the same step every time.
    Without a budget, or with a large one, the walk is the usual one."""
    from deducer.explain.engine import SOLVED, TIMEOUT, Engine

    p = formats.load("puzzles/deducer-trial.txt")
    rules = registry.load()
    free = Engine(p, rules)
    assert free.run() == SOLVED
    assert any(s.rule in CHAIN_RULES for s in free.steps) and free.context.spent > 0
    large = Engine(p, rules, work=10 * free.context.spent)
    assert large.run() == SOLVED and [s.to_json() for s in large.steps] == \
        [s.to_json() for s in free.steps]
    runs = []
    for _ in range(2):
        eng = Engine(p, rules, work=free.context.spent // 2)
        assert eng.run() == TIMEOUT
        runs.append((len(eng.steps), eng.context.spent, eng.state.masks))
    assert runs[0] == runs[1] and runs[0][0] < len(free.steps)
    tiny = Engine(p, rules, work=1)
    assert tiny.run() == TIMEOUT and not any(s.rule in CHAIN_RULES for s in tiny.steps)


def test_backtracking_spends_the_walks_budget_and_stops_with_it():
    """The backtracking rule's solver gets what is left of the walk's work budget (three
    units a search node) and spends it; with too little it yields nothing."""
    from deducer.explain.state import Context, State, View
    from deducer.rules import fallback

    p = formats.load("puzzles/deducer-trial.txt")

    def view(work):
        return View(State(p), Context(p, work=work))

    free = view(None)
    assert list(fallback.backtracking(free)) and free.context.spent > 0
    enough = view(free.context.spent)
    assert list(fallback.backtracking(enough)) and enough.context.spent == free.context.spent
    short = view(free.context.spent - fallback.NODE_WORK)
    assert not list(fallback.backtracking(short)) and short.context.stopped()


def test_kept_looks_give_the_walkthrough_fresh_looks_give(monkeypatch):
    """Chain walks keep what a run offers (Chase._look) for later walks of the puzzle; the
    walkthrough, sentences and proofs included, is the one looking afresh every time
    gives."""
    from deducer.rules import chains

    p = formats.load("puzzles/deducer-trial.txt")  # ten forcing chains
    kept = explain(p)
    monkeypatch.setattr(chains._Chase, "_look", chains._Chase._first_step)
    fresh = explain(p)
    assert [repr(s) for s in kept.steps] == [repr(s) for s in fresh.steps]
    assert sum(s.rule == "forcing-chain" for s in kept.steps) >= 5


def test_a_kept_look_is_not_reused_once_the_runs_combinations_narrowed():
    """What a run offers depends on its live combinations too, not only on its cells."""
    from deducer.explain.state import Context, State, View
    from deducer.rules import chains

    p = formats.load("puzzles/deducer-trial.txt")
    state = State(p, p.initial_masks(with_entries=True))
    view = View(state, Context(p))

    def shown(lk):
        return None if lk is None else (lk.kind, lk.place, lk.elim)

    def look(r, far):
        chase = chains._Chase(view, far, chains.DIGITS[state.masks[far]][0],
                              singles_only=False, budget=12)
        got, fresh = chase._look(r), chase._first_step(r)
        assert shown(got) == shown(fresh)
        return shown(got)

    changed = 0
    for r, run in enumerate(p.runs):
        live = state.live[r]
        far = next((i for i in range(len(p.whites))
                    if all(j not in run.cells for rr in view.layout.cell_runs[i]
                           for j in view.layout.run_cells[rr])), None)
        if len(live) < 2 or far is None:
            continue
        before = look(r, far)
        state.live[r] = live[:1]  # as if a step had ruled the others out
        changed += look(r, far) != before
        state.live[r] = live
    assert changed


def test_a_walk_the_budget_stopped_goes_on_as_a_new_walk_would(monkeypatch):
    """A search asks with larger and larger budgets; a walk the last budget stopped goes
    on from there. Walkthrough and work counted are those of walking anew each time."""
    from deducer.explain.engine import Engine
    from deducer.rules import chains

    p = formats.load("puzzles/deducer-trial.txt")
    rules = registry.load()
    resumed = []
    run = chains._Chase.run

    def counting(chase):
        resumed.append(len(chase.links) > 0)
        return run(chase)

    monkeypatch.setattr(chains._Chase, "run", counting)
    went_on = Engine(p, rules)
    went_on.run()
    assert any(resumed)
    chase = chains._chase
    monkeypatch.setattr(chains, "_chase", lambda *a: chase(*a[:6], None))
    resumed.clear()
    anew = Engine(p, rules)
    anew.run()
    assert not any(resumed)
    assert [repr(s) for s in went_on.steps] == [repr(s) for s in anew.steps]
    assert went_on.context.spent == anew.context.spent > 0


def test_a_finished_walk_leaves_nothing_behind():
    """Rules keep their caches in the walk's context, which dies with the walk (caches
    held outside it once kept every walk of a process alive)."""
    import gc
    import weakref

    from deducer.explain.engine import Engine

    eng = Engine(formats.load("puzzles/deducer-trial.txt"), registry.load(), lean=True)
    eng.run()
    assert eng.context.caches["chains.looks"]
    gone = weakref.ref(eng.context)
    del eng
    gc.collect()
    assert gone() is None
