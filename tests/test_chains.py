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
import re
from itertools import permutations

import pytest

from deducer.clock import Limits
from deducer.engine import registry
from deducer.engine.rating import chain_length, rate_steps
from deducer.engine.walk import Engine, WalkOptions, explain
from deducer.puzzle import formats
from deducer.puzzle.combos import combos
from tests.support import corpus

CHAIN_RULES = {"bivalue-chain", "forcing-chain", "forcing-braid", "trial"}
CAPPED = ("bivalue-chain", "forcing-chain", "forcing-braid")
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


def _written_in(puzzle, dom, written, i, d):
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
    left = dom[cell] - {d}
    if len(left) == 1:
        # issue 51: a step that leaves a cell one digit writes it in that same step; its
        # eliminations are then that digit leaving the cell's peers that still held it
        (e,) = left
        assert step["placements"] == [[r, c, e]]
        peers = {j for rid in puzzle.cell_runs[cell] for j in puzzle.runs[rid].cells
                 if j != cell and e in dom[j]}
        assert sorted(step["eliminations"]) == sorted(
            [[*puzzle.whites[j], [e]] for j in peers])
    else:
        assert step["eliminations"] == [[r, c, [d]]] and not step["placements"]
    _written_in(puzzle, dom, written, cell, d)
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
            _written_in(puzzle, dom, written, index[(rr, cc)], dd)
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
                # the closing contradiction is where the links lead, not a link: the
                # sentence numbers n - 1 links (the heading gives the count)
                last = f"; ({n - 1}" if n > 2 else ": (1) "
                assert last in s["text"] and f"; ({n}" not in s["text"]
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
        if s.rule in CAPPED:
            assert chain_length(s) <= 2


def test_generated_puzzles_chains_check():
    from deducer.generator.seeded import generated

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

    code = main(["explain", "puzzles/deducer-trial.txt", "--json", "--max-chain", "3"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "solved"
    chains = [s for s in out["steps"] if s["rule"] in CAPPED]
    assert chains and all(len(s["proof"]["links"]) <= 3 for s in chains)
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
    from deducer.engine.walk import SOLVED, TIMEOUT, Engine

    p = formats.load("puzzles/deducer-trial.txt")
    rules = registry.load()
    free = Engine(p, rules)
    assert free.run() == SOLVED
    assert any(s.rule in CHAIN_RULES for s in free.steps) and free.context.spent > 0
    large = Engine(p, rules, WalkOptions(limits=Limits(work=10 * free.context.spent)))
    assert large.run() == SOLVED and [s.to_json() for s in large.steps] == \
        [s.to_json() for s in free.steps]
    runs = []
    for _ in range(2):
        eng = Engine(p, rules, WalkOptions(limits=Limits(work=free.context.spent // 2)))
        assert eng.run() == TIMEOUT
        runs.append((len(eng.steps), eng.context.spent, eng.state.masks))
    assert runs[0] == runs[1] and runs[0][0] < len(free.steps)
    tiny = Engine(p, rules, WalkOptions(limits=Limits(work=1)))
    assert tiny.run() == TIMEOUT and not any(s.rule in CHAIN_RULES for s in tiny.steps)


def test_backtracking_spends_the_walks_budget_and_stops_with_it():
    """The backtracking rule's solver gets what is left of the walk's work budget (three
    units a search node) and spends it; with too little it yields nothing."""
    from deducer.engine.state import Context, State, View
    from deducer.rules import fallback

    p = formats.load("puzzles/deducer-trial.txt")

    def view(work):
        return View(State(p), Context(p, Limits(work=work)))

    free = view(None)
    assert list(fallback.backtracking(free)) and free.context.spent > 0
    enough = view(free.context.spent)
    assert list(fallback.backtracking(enough)) and enough.context.spent == free.context.spent
    node_work = next(r for r in registry.load() if r.id == "backtracking").params["node_work"]
    short = view(free.context.spent - node_work)
    assert not list(fallback.backtracking(short)) and short.context.stopped()


def test_kept_searches_give_the_walkthrough_fresh_searches_give(monkeypatch):
    """Braid walks and chain bounds are kept from step to step and dropped only near a
    change; the walkthrough, sentences and proofs included, is the one searching afresh
    at every step gives."""
    from deducer.rules.chains.cache import BoardWatch, Snapshot

    p = formats.load("puzzles/deducer-trial.txt")
    kept = explain(p)

    def forget(self, view):
        self.seen = Snapshot.of(view)
        return set(view.run_ids)  # every run changed: every kept walk and bound goes

    monkeypatch.setattr(BoardWatch, "sync", forget)
    fresh = explain(p)
    assert [repr(s) for s in kept.steps] == [repr(s) for s in fresh.steps]
    assert sum(s.rule == "forcing-chain" for s in kept.steps) >= 5


def _example_rule_as_link(tmp_path):
    """A copy of docs/example-rule's YAML with the rule declared ``kind: link``."""
    from pathlib import Path

    src = Path("docs/example-rule/sum_parity.yaml").read_text(encoding="utf-8")
    impl = (Path("docs/example-rule/sum_parity.py").resolve()).as_posix()
    assert "implementation: sum_parity.py:sum_parity\n" in src
    copy = tmp_path / "sum_parity_link.yaml"
    copy.write_text(src.replace("implementation: sum_parity.py:sum_parity\n",
                                f"implementation: {impl}:sum_parity\n    kind: link\n"),
                    encoding="utf-8")
    return copy


def test_a_rule_authors_rule_marked_link_takes_part_in_chains(tmp_path):
    """The example rule, declared ``kind: link`` in its YAML and changed in no other way,
    is a link of chains, worded by its own template, and every proof checks."""
    from deducer.proofcheck import check_walkthrough

    # without the settled run: with it, this puzzle's shortest chains (or the first of
    # equal length) use no parity link
    rules = registry.load([_example_rule_as_link(tmp_path)], disable=["settled-run"])
    assert [r.id for r in rules if r.id == "sum-parity" and r.link] == ["sum-parity"]
    p = formats.load("puzzles/deducer-trial.txt")
    exp, seen = _check_walkthrough(p, rules)
    assert exp.status == "solved" and seen
    inside = [lk["text"] for s in exp.steps if s.chain for lk in s.proof["links"]
              if "add up to an" in lk["text"]]
    assert inside and all(" must be " in t for t in inside)
    assert check_walkthrough(p, exp.steps) == []
    # without the mark it is a step of its own but never a link
    plain = explain(p, registry.load(["docs/example-rule/sum_parity.yaml"]))
    assert not [lk for s in plain.steps if s.chain for lk in s.proof["links"]
                if "add up to an" in lk["text"]]


def _template_pattern(template: str):
    """A regular expression a sentence filled from ``template`` matches."""
    import re
    import string

    parts = []
    for text, field, _spec, _conv in string.Formatter().parse(template):
        parts.append(re.escape(" ".join(text.split())) if text.strip() else r"\s*")
        if field is not None:
            parts.append(".*?")
    return re.compile("".join(parts).rstrip(r"\.") + r"\.?", re.S | re.I)


def test_chain_links_are_the_ladders_own_steps():
    """Every link but the closing one is a step of a rule declared ``kind: link``, worded
    by that rule's own template (chains.py holds no sentences of its own)."""
    p = formats.load("puzzles/deducer-trial.txt")
    exp = explain(p)
    patterns = [_template_pattern(r.explain) for r in registry.load() if r.link]
    links = [lk for s in exp.steps if s.chain for lk in s.proof["links"]]
    assert links
    for lk in links:
        if lk.get("contradiction"):  # the chain's own close: an empty cell or run
            assert ("has no digit left" in lk["text"] and lk["facts"][0]["candidates"] == []
                    or re.search(r"would hold .+, but no \d different digits making \d+ "
                                 r"hold ", lk["text"]))
        elif re.match(r"r\d+c\d+ = \d, as ", lk["text"]):
            # a cell down to one digit inside a chain: the links that took the others
            assert re.fullmatch(r"r\d+c\d+ = \d, as \d(,\d)* went (in \(\d+\)|with r\d+c\d+ "
                                r"= \d)(, \d(,\d)* in \(\d+\))*( and \d(,\d)* in \(\d+\))?",
                                lk["text"]), lk["text"]
        else:
            assert any(pt.fullmatch(lk["text"]) for pt in patterns), lk["text"]


def test_whips_first_each_link_rests_on_the_one_before():
    """A whip's every link rests on the link just before it (``after``); its sentence
    opens with the assumption (the heading gives the kind and length: no label); the step
    records the kind."""
    p = formats.load("puzzles/deducer-trial.txt")
    exp = explain(p)
    chains = [s for s in exp.steps if s.chain]
    assert chains and all(s.chain_kind == "whip" for s in chains)
    assert exp.rating.chain_kind == "whip" and exp.rating.to_json()["chain_kind"] == "whip"
    for s in chains:
        links = s.proof["links"]
        assert s.proof["kind"] == "whip" and s.text.startswith("If r")
        for k, lk in enumerate(links[1:], 2):
            assert k - 1 in lk["after"], (s.n, k, lk)


def test_braids_only_where_no_whip_and_weigh_more(tmp_path):
    """With the whip rungs off, the braid rung takes over: its chains check, say their
    kind (the JSON's; a braid's sentence marks a link that does not rest on the one
    before: "(4, from 1 and 2)"), and a braid weighs more than a whip of the same length
    (the rule file's)."""
    rules = registry.load(disable=["bivalue-chain", "forcing-chain"])
    p = formats.load("puzzles/deducer-trial.txt")
    exp, seen = _check_walkthrough(p, rules)
    assert exp.status == "solved" and seen
    braids = [s for s in exp.steps if s.rule == "forcing-braid"]
    assert braids
    longest = [s.chain_kind for s in exp.steps if s.chain == exp.rating.max_chain]
    assert exp.rating.chain_kind == ("braid" if "braid" in longest else "whip")
    for s in braids:
        kind = s.proof["kind"]
        assert s.chain_kind == kind and s.text.startswith("If ")
        assert (", from " in s.text) == (kind == "braid")
    by_id = {r.id: r for r in registry.load()}
    from deducer.engine.state import Deduction

    for n in (2, 6, 12):
        ded = Deduction(size=n)
        assert by_id["forcing-braid"].weight_of(ded) > by_id["forcing-chain"].weight_of(ded)


def _shifted_ladder(tmp_path, delta):
    """A copy of the core ladder with each rule's weight raised by ``delta[id]``."""
    import yaml

    data = yaml.safe_load(open(registry.CORE, encoding="utf-8"))
    for entry in data["rules"]:
        entry["weight"] = round(entry["weight"] + delta[entry["id"]], 3)
        impl = entry["implementation"]
        assert not impl.split(":")[0].endswith(".py")
    copy = tmp_path / "ladder.yaml"
    copy.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return copy


def test_every_steps_weight_and_the_rating_follow_the_rule_file(tmp_path):
    """Each rule's weight raised by its own amount in a copy of the ladder (--rules):
    every step of that rule, chains and region sums included, weighs that much more (or
    its proof's floor), and the rating's hardest weight follows."""
    from deducer.app.cli import main

    ids = [r.id for r in registry.all_rules()]
    delta = {rid: round(0.01 * (k + 1), 3) for k, rid in enumerate(ids)}
    copy = _shifted_ladder(tmp_path, delta)
    seen = set()
    for puzzle in ("puzzles/deducer-trial.txt", "puzzles/seed003-example.txt"):
        p = formats.load(puzzle)
        # the engine itself: explain() stops at once on seed003-example, which has several
        # solutions, but its steps up to the stall (region sums among them) still weigh
        shifted = registry.load([copy])
        old, new = Engine(p, registry.load()), Engine(p, shifted)
        old.run(), new.run()
        assert [s.rule for s in old.steps] == [s.rule for s in new.steps]
        for a, b in zip(old.steps, new.steps, strict=True):
            assert b.weight >= a.weight
            own = a.weight + delta[a.rule]
            if b.weight == pytest.approx(own):
                seen.add(a.rule)
            else:  # a step at its proof's floor: the weight of the search rule it asks for
                floors = [a.weight + delta[r] for r in ("permutation-check-small",
                                                        "permutation-check")]
                assert any(b.weight == pytest.approx(f) for f in floors), a.rule
        old_rating, new_rating = rate_steps(old.steps), rate_steps(new.steps, rules=shifted)
        assert new_rating.max_weight == max(s.weight for s in new.steps)
        assert new_rating.max_weight > old_rating.max_weight
    assert {"forcing-chain", "naked-single", "region-sum-four"} <= seen
    assert main(["explain", "puzzles/deducer-trial.txt", "--rules", str(copy),
                 "--json"]) == 0


def test_region_sum_weights_come_from_the_rule_file(tmp_path):
    """A region sum weighs its rule's weight plus its growth per run added up beyond two
    (up to ``max``), as the rule file says."""
    import yaml

    data = yaml.safe_load(open(registry.CORE, encoding="utf-8"))
    regions = [e for e in data["rules"] if e["id"].startswith("region-sum")]
    assert regions and all("growth" in e for e in regions)
    for e in regions:
        e["weight"], e["growth"] = 0.5, {"weight": 0.0}
    copy = tmp_path / "flat.yaml"
    copy.write_text(yaml.safe_dump({"rules": regions}), encoding="utf-8")
    found = False
    for puzzle in ("puzzles/seed002-four.txt", "puzzles/deducer-trial.txt",
                   "puzzles/seed003-example.txt"):
        # the engine itself: explain() stops at once on seed003-example (several solutions)
        eng = Engine(formats.load(puzzle), registry.load([copy]))
        eng.run()
        for s in eng.steps:
            if s.rule.startswith("region-sum"):
                found = True
                assert s.weight in (0.5, 3.8, 5.8)  # the rule's, or its proof's floor
    if not found:
        pytest.skip("no region sum in the bundled puzzles")


@pytest.mark.parametrize("entry,message", [
    ({"link": True}, "unknown key(s) link"),  # a link is declared with kind: link
    ({"kind": "linked"}, "kind"),
    ({"growth": 3}, "growth must be a mapping"),
    ({"growth": {"wieght": 0.1}}, "unknown growth key(s) wieght"),
    ({"growth": {"weight": -1}}, "bad growth weight"),
    ({"growth": {"score": 1.5}}, "bad growth score"),
    ({"growth": {"max": True}}, "bad growth max"),
    ({"walk": "no"}, "walk must be true or false"),
    ({"walk": False, "kind": "simple"}, "walk: false is for rules of kind: link"),
    ({"bound": "tight", "kind": "link", "scope": "run"}, "bound must be one of link, singles"),
    ({"bound": "link", "kind": "simple", "scope": "run"}, "bound: is for rules of kind: link"),
    ({"bound": "link", "kind": "link"}, "bound: is for rules of kind: link and scope: run"),
])
def test_kind_and_growth_keys_are_checked(tmp_path, entry, message):
    import yaml

    from deducer.errors import RuleError

    rule = {"id": "x", "name": "X", "priority": 1, "weight": 1, "score": 1,
            "implementation": "deducer.rules.basic:naked_single", "explain": "{effect}",
            **entry}
    f = tmp_path / "r.yaml"
    f.write_text(yaml.safe_dump({"rules": [rule]}), encoding="utf-8")
    with pytest.raises(RuleError) as e:
        registry.load_file(f)
    assert message in str(e.value) and "'x'" in str(e.value)


def test_a_chain_rule_needs_its_cut_off_from_the_rule_file(tmp_path):
    """``max_len`` is the rule file's alone: a chain rule without it is refused with a
    one-line error naming the rule, when the file is loaded."""
    import yaml

    from deducer.errors import RuleError

    data = yaml.safe_load(open(registry.CORE, encoding="utf-8"))
    (entry,) = [e for e in data["rules"] if e["id"] == "forcing-chain"]
    entry["params"] = {}
    f = tmp_path / "r.yaml"
    f.write_text(yaml.safe_dump({"rules": [entry]}), encoding="utf-8")
    with pytest.raises(RuleError, match="forcing-chain.*max_len") as err:
        registry.load([f])
    assert str(f) in str(err.value) and "\n" not in str(err.value)


def test_a_finished_walk_leaves_nothing_behind():
    """Rules keep their caches in the walk's context, which dies with the walk (caches
    held outside it once kept every walk of a process alive)."""
    import gc
    import weakref

    from deducer.engine.walk import Engine

    eng = Engine(formats.load("puzzles/deducer-trial.txt"), registry.load(), WalkOptions(lean=True))
    eng.run()
    assert eng.context.caches["chains.whips"]
    gone = weakref.ref(eng.context)
    del eng
    gc.collect()
    assert gone() is None


def _went_in(links) -> list[tuple[str, set[int], int]]:
    """(cell, digits, link number) of each "D went in (N)" (or, after the first, "D in
    (N)"; D: "4", "4 and 5"; "the rest in (N)", no digits said, for those the last link
    has just said leave the cell) of a chain's closing link."""
    import re

    end = links[-1].text
    cell = end.split(" ", 1)[0]
    return [(cell, {int(x) for x in re.findall(r"\d", m[1])}, int(m[2]))
            for m in re.finditer(r"(\d(?:(?:, | and )\d)*|the rest) (?:went )?in \((\d+)\)",
                                 end)]


def test_a_braids_closing_link_names_the_links_by_their_shown_numbers():
    # a braid keeps only the links its contradiction rests on and numbers them afresh;
    # its closing link named the link that took a digit by its number before that (at the
    # start of deducer-trial.txt: "went in (2)" in a chain of one link and the closing)
    from deducer.engine.record import digits_of
    from deducer.rules import chains

    p = formats.load("puzzles/deducer-trial.txt")
    eng = Engine(p, registry.load())
    cell, digit, links = chains.find_braid(eng.view, chains.link_rules(eng.view),
                                           max_len=30, work=3000, budgets=(6, 12, 24), reach=3)
    said = _went_in(links)
    assert said
    for name, digits, n in said:
        assert 1 <= n < len(links), (name, n, len(links))
        i = next(j for j in range(len(p.whites)) if eng.view.cell_name(j) == name)
        assert digits <= set(digits_of(links[n - 1].eliminations.get(i, 0)))


def test_a_braid_search_takes_the_chain_the_spec_takes(monkeypatch):
    """find_braid follows each assumption for 2 links, then 4, 8 (each walk going on
    from where it stopped, kept from step to step): it takes the chain the plain
    definition (chains/spec.py: every assumption walked afresh, round by round) takes."""
    from deducer.rules import chains
    from deducer.rules.chains import bound, spec

    p = formats.load("puzzles/deducer-trial.txt")
    # every assumption walked, as the spec walks them (the chain bound, which skips
    # assumptions no short chain starts from, is tests/test_chainbound.py's)
    monkeypatch.setattr(bound.Bounds, "within", lambda self, view, c, d, n: True)
    budgets = (2, 4, 8)
    eng = Engine(p, registry.load())
    while (found := eng.next_deduction()) is not None and found[0].kind != "chain":
        eng.step(found)
    rules = chains.link_rules(eng.view)
    got = chains.find_braid(eng.view, rules, max_len=30, work=100_000, budgets=budgets,
                            reach=3)
    assert got is not None and len(got[2]) > 4  # found in the last round
    assert spec.find_braid(eng.view, rules, 30, budgets) == (got[0], got[1], len(got[2]))


def test_a_link_rule_is_asked_about_a_runs_contents_once(monkeypatch):
    """What a built-in link rule offers on a run depends on the run's contents alone: the
    whip searches and braid walks of a walkthrough share those looks from step to step,
    so a rule is asked again about contents it was asked about only where a braid walk
    takes its deduction (the look keeps what it offers, not the deduction). The looks
    went with every board change near the run, and the whips' were not the braids'."""
    from collections import Counter

    from deducer.engine.registry import Rule
    from deducer.rules import chains

    asked: Counter = Counter()
    empty_again: list = []
    call = Rule.call
    searching = []  # inside a chain search (the engine asks the same rules on the board)

    def counting(self, view, rid=None):
        got = list(call(self, view, rid) or ())
        if searching and self.link and rid is not None:
            st = view._s  # what the rule reads of its run
            key = (self.id, rid, st.live[rid], *[-st.masks[i] if st.placed[i] else st.masks[i]
                                                 for i in st.layout.run_cells[rid]])
            asked[key] += 1
            if asked[key] > 1 and not got:
                empty_again.append(key)
        return got

    def inside(search):
        def run(*args, **kwargs):
            searching.append(1)
            try:
                return search(*args, **kwargs)
            finally:
                searching.pop()
        return run

    monkeypatch.setattr(Rule, "call", counting)
    for name in ("find_whip", "find_braid"):
        wrapped = inside(getattr(chains, name))
        monkeypatch.setattr(chains.rungs, name, wrapped)
        monkeypatch.setattr(chains, name, wrapped)  # trial's (rules/fallback.py)
    exp = explain(formats.load("puzzles/deducer-trial.txt"))
    assert sum(s.rule.startswith("forcing") for s in exp.steps) >= 5
    assert asked and not empty_again, len(empty_again)


def test_a_braid_walk_over_known_runs_asks_the_rules_only_to_word_its_chain(monkeypatch):
    """A braid walk reads of a link what it claims and what it rests on (its proof): kept
    with the look of the run's contents, so walking again over contents seen before asks
    no link rule, except to word the links of the chain kept."""
    from deducer.engine.registry import Rule
    from deducer.rules import chains

    p = formats.load("puzzles/deducer-trial.txt")
    # (with the settled run this once asked 58 times for 5 links: every walk that broke
    # the grid was worded, taken or not; now only the chain taken is)
    eng = Engine(p, registry.load())
    for _ in range(40):
        eng.step()
    rules = chains.link_rules(eng.view)

    def braid():
        return chains.find_braid(eng.view, rules, max_len=12, work=100_000,
                                 budgets=(6, 12, 24), reach=3)

    first = braid()
    eng.context.caches.pop("chains.braids")  # the walks again, the looks kept
    asked = [0]
    call = Rule.call

    def counting(self, *args, **kwargs):
        asked[0] += 1
        return call(self, *args, **kwargs)

    monkeypatch.setattr(Rule, "call", counting)
    spent = eng.context.spent
    again = braid()
    assert first is not None and again is not None and again[:2] == first[:2]
    assert eng.context.spent - spent > 100  # links walked
    assert asked[0] < len(again[2])  # the kept links' words


def test_what_whip_searches_showed_holds_for_their_board_only():
    """The braid rung's bound reads how far the whip searches showed no whip from each
    assumption: on the board they searched, not once it has changed."""
    from deducer.rules import chains
    from deducer.rules.chains.braid import whips_ruled_out

    p = formats.load("puzzles/deducer-trial.txt")
    eng = Engine(p, registry.load())
    rules = chains.link_rules(eng.view)
    while (found := eng.next_deduction()) is not None and found[0].kind != "chain":
        eng.step(found)
    # the chain rung searched this board: the searches that went past one link say so
    shown = whips_ruled_out(eng.view, rules)
    assert shown and max(shown.values()) >= 2
    assert eng.step(found) is not None
    assert whips_ruled_out(eng.view, rules) == {}


def test_following_a_digit_gives_its_consequences_as_a_chain():
    from deducer.proofcheck import check_walkthrough
    from deducer.rules import chains

    p = formats.load("puzzles/seed002-four.txt")
    eng = Engine(p, registry.load())
    i = p.index[(1, 1)]
    before = list(eng.state.masks)
    # 4 in r2c2: r3c2 = 1, then row 3's 12 cannot be made with a 1
    links, status = chains.follow(eng.view, chains.link_rules(eng.view), i, 4, 60)
    assert status == "contradiction" and links[-1].contradiction
    assert [lk.after for lk in links] == [(), (1,)]
    assert eng.state.masks == before  # the board followed on was a copy
    from deducer.engine.record import link_json

    step = {"n": 1, "rule": "what-if", "placements": [], "eliminations": [[1, 1, [4]]],
            "proof": {"assume": [1, 1, 4], "links": [link_json(p, lk) for lk in links]}}
    assert check_walkthrough(p, [step]) == []
    # the right digit fills the grid
    links, status = chains.follow(eng.view, chains.link_rules(eng.view), i, 2, 60)
    assert status == "solved" and len(links) == 3
    # a budget stops it
    links, status = chains.follow(eng.view, chains.link_rules(eng.view), i, 2, 1)
    assert status == "budget" and len(links) == 1


def test_what_follows_leaves_out_the_steps_the_board_allowed_anyway():
    from deducer.rules import chains

    p = formats.load("puzzles/seed000-k2.j")
    eng = Engine(p, registry.load())
    free = eng.step()  # the walkthrough's first step, open before any assumption
    eng = Engine(p, registry.load())
    far = max(range(len(p.whites)), key=lambda j: p.whites[j])  # far from the first step
    links, status = chains.follow(eng.view, chains.link_rules(eng.view), far,
                                  explain(p).solution[far], 3)
    texts = [lk.text for lk in links]
    assert free.text.rstrip(".") not in texts
    # every link kept rests on the assumption or is one a kept link rests on
    assert links and all(n < k for k, lk in enumerate(links, 1) for n in lk.after)


def _built_in_link_gone_wrong():
    """A link rule of the built-in file declaring the link bound (the chains once trusted
    built-in rules without the engine's check) yielding a deduction about a cell that
    does not exist."""
    from dataclasses import replace

    from deducer.engine.state import Deduction, Proof

    def bad(view, rid):
        yield Deduction(eliminations={10**6: 1}, proof=Proof(runs=(rid,)))

    naked = next(r for r in registry.load() if r.id == "naked-single")
    assert naked.link and naked.source == str(registry.CORE)
    return replace(naked, id="bad-link", func=bad, bound="link")


@pytest.mark.parametrize("shape", ["whip", "braid"])
def test_a_chain_link_is_checked_as_an_engine_step_is(shape):
    """A malformed deduction of a built-in link rule on a hypothetical state is the same
    one-line RuleError naming the rule as on the board (it was an IndexError deep in the
    chain search: links of built-in rules skipped check_deduction)."""
    from deducer.errors import RuleError
    from deducer.rules import chains
    from deducer.rules.fixture import position

    # one across run 10/2 whose candidates no assumption breaks at once, though some
    # lead to a contradiction (2 or 8 in r2c2: no partner in r2c3), so that the chain
    # bound has the searches follow them
    view = position("\\  |\\ |\\\n\\10|  |", cands={"r2c2": "1289", "r2c3": "19"})
    rules = [_built_in_link_gone_wrong()]
    with pytest.raises(RuleError, match="rule 'bad-link'.*outside the grid"):
        if shape == "whip":
            chains.find_whip(view, rules, max_len=3, search_nodes=4_000)
        else:
            chains.find_braid(view, rules, max_len=3, work=1_000, budgets=(6, 12, 24),
                              reach=3)
    # the engine refuses the same deduction on the board with the same words
    eng = Engine(view.puzzle, rules)
    with pytest.raises(RuleError, match="rule 'bad-link'.*outside the grid"):
        eng.step()


def test_the_shortest_chain_any_chain_rule_offers_is_taken():
    """Once a chain rule fires, the later chain rules are asked for a chain no longer than
    it (as long only where they would weigh less): length first, then weight."""
    from deducer.engine.chainpick import shortest_chain
    from deducer.engine.state import Deduction

    rules = {r.id: r for r in registry.load()}
    bivalue, forcing, braid = (rules[k] for k in ("bivalue-chain", "forcing-chain",
                                                  "forcing-braid"))
    asked = []

    def ask(rule):
        asked.append((rule.id, rule.params["max_len"]))
        return (Deduction(size=4), None) if rule.id == "forcing-chain" else None

    got = shortest_chain((bivalue, Deduction(size=10), None), [forcing, braid], ask)
    assert got[0] is forcing and got[1].size == 4
    # a forcing chain of 10 would weigh more than the bivalue chain: 9 at most; then a braid
    # must be shorter than the forcing chain's 4
    assert asked == [("forcing-chain", 9), ("forcing-braid", 3)]
    # the ladder's own rules keep their cut-offs
    assert forcing.params["max_len"] == 12 and braid.params["max_len"] == 12


@pytest.mark.skipif(corpus.corpus_root() is None, reason="corpus not present")
def test_janko_226_longest_chain_is_short():
    """janko 226's hardest step was a 9-link bivalue chain while a 2-link forcing chain was
    open on the same board (issue 37): no chain of its walkthrough is over 6 links now."""
    (cp,) = corpus.janko(ids=["226"])
    exp = explain(cp.puzzle)
    lengths = [sum(1 for lk in s.proof["links"] if not lk.get("contradiction"))
               for s in exp.steps if s.chain]
    assert lengths and max(lengths) <= 6


def test_a_kept_braid_walk_not_found_again_is_walked_afresh(monkeypatch):
    """A braid walk is worded once its chain is taken, each link found again by its rule
    on the board replayed from the assumption; where a link is not found again there (a
    walk kept from an earlier step, the board moved on), the assumption is walked afresh,
    as a fresh walk finds it, instead of the rule raising StopIteration (a 12x12
    generation once stopped on "generator raised StopIteration")."""
    from deducer.engine.registry import Rule
    from deducer.rules import chains
    from deducer.rules.chains import bound as chainbound

    monkeypatch.setattr(chainbound.Bounds, "within", lambda self, view, c, d, n: True)
    p = formats.load("puzzles/deducer-trial.txt")
    plain = Rule.call
    calls = [0, None]  # calls made, the call that finds nothing

    def counted(self, *args):
        calls[0] += 1
        return () if calls[0] == calls[1] else plain(self, *args)

    monkeypatch.setattr(Rule, "call", counted)

    def braid_at_a_chain_step():
        eng = Engine(p, registry.load())
        while (found := eng.next_deduction()) is not None and found[0].kind != "chain":
            eng.step(found)
        rules = chains.link_rules(eng.view)

        def braid(max_len):
            got = chains.find_braid(eng.view, rules, max_len=max_len, work=100_000,
                                    budgets=(2, 4, 8), reach=3)
            return got and (got[0], got[1], [lk.text for lk in got[2]])

        assert braid(1) is None  # walks of up to 3 links kept, to go on from
        calls[0] = 0
        return braid(30)

    want = braid_at_a_chain_step()
    assert want
    last = calls[0]  # the last call words the chain's last link
    calls[1] = last
    assert braid_at_a_chain_step() == want
    assert calls[0] > last  # not found again there: searched afresh
