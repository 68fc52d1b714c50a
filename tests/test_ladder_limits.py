"""The ladder owns every limit that changes a result (issue 36): the chain rules' search
budgets, braid and trial work, the region finder's limits, how many reasons a permutation
step states, what a solver node costs a walk; and the renderers group and colour steps by
the level thresholds of the ladder the walk was rated with, not by numbers of their own."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
import yaml
from test_rules import AREA, FOUR, line

from deducer.clock import Limits
from deducer.engine import registry
from deducer.engine.state import Context, State, View
from deducer.engine.walk import Engine, WalkOptions, explain
from deducer.puzzle import formats
from deducer.render import get
from deducer.render.walk import easy_weight, groups
from deducer.rules import regionfind
from deducer.rules.fixture import fire, position, puzzle, run_id

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
CORE_FILE = ROOT / "rules" / "core.yaml"


def _core_entries() -> dict[str, dict]:
    return {e["id"]: e for e in yaml.safe_load(CORE_FILE.read_text(encoding="utf-8"))["rules"]}


def changed(tmp_path, rule_id: str, **params):
    """The rule ``rule_id`` of a ladder whose rule file gives it other ``params`` (a user
    file with the core entry, params changed: it replaces the core rule)."""
    entry = dict(_core_entries()[rule_id])
    entry["params"] = {**entry.get("params", {}), **params}
    f = tmp_path / f"{rule_id}.yaml"
    f.write_text(yaml.safe_dump({"version": 1, "rules": [entry]}), encoding="utf-8")
    return next(r for r in registry.load([f]) if r.id == rule_id)


def core(rule_id: str):
    return next(r for r in registry.load() if r.id == rule_id)


def found(rule, view, rid=None) -> list[tuple[dict, dict]]:
    """(placements, eliminations) in names of each deduction that changes something."""
    return [(f.placements, {c: "".join(map(str, ds)) for c, ds in f.eliminations.items()})
            for f in fire(rule, view, rid)]


# ---------------------------------------------------------------------------- one source
def test_the_packaged_ladder_is_the_repositorys():
    # rules/core.yaml is the one source; deducer/data/core.yaml (what a wheel carries)
    # must never drift from it
    packaged = ROOT / "deducer" / "data" / "core.yaml"
    assert packaged.read_bytes() == CORE_FILE.read_bytes()
    assert registry.CORE.read_bytes() == CORE_FILE.read_bytes()


def _defaults(func) -> dict:
    return {k: p.default for k, p in inspect.signature(func).parameters.items()
            if p.default is not inspect.Parameter.empty and p.default is not None}


def _plain(v):
    return list(v) if isinstance(v, tuple) else v


def test_every_limit_of_a_core_rule_is_stated_in_the_ladder():
    """A core rule function's keyword defaults are stated in the core ladder's params, and
    where every rung of the function states one value (a limit, not a rung's choice such
    as ``size``), the default is that value: it only serves a rule file written before the
    limit became a parameter. A limit changed in the YAML is the one that counts."""
    by_func: dict = {}
    for rule in registry.load():
        by_func.setdefault(rule.func, []).append(rule)
    for func, rungs in by_func.items():
        for name, default in _defaults(func).items():
            values = [_plain(r.params[name]) for r in rungs if name in r.params]
            assert values, f"{rungs[0].implementation}: {name} is in no rung's params"
            if all(v == values[0] for v in values):
                assert values[0] == _plain(default), (rungs[0].implementation, name)
        for r in rungs:
            if "regions" in r.params:  # the region finder's limits, every one stated
                assert r.params["regions"] == _defaults(regionfind._find_regions), r.id


# ---------------------------------------------------------------------------- params count
def test_a_tiny_chain_search_budget_finds_another_chain_or_none(tmp_path):
    """forcing-chain's ``search_nodes`` bounds each assumption's search: with the ladder's
    budget the first chain step of deducer-trial is found; with a budget of one node, no
    chain is."""
    p = formats.load(PUZZLES / "deducer-trial.txt")
    rules = registry.load()
    walk = Engine(p, rules)
    while walk.step() is not None and walk.steps[-1].rule != "forcing-chain":
        pass
    first = walk.steps[-1]
    assert first.rule == "forcing-chain"
    before = Engine(p, rules, WalkOptions(max_steps=first.n - 1))
    before.run()
    assert found(core("forcing-chain"), before.view)
    assert found(changed(tmp_path, "forcing-chain", search_nodes=1), before.view) == []


def test_braid_and_trial_work_come_from_the_ladder(tmp_path):
    # no work at all: the first assumption followed is the last (1 in r2c2 is not
    # followed: no chain starts from it, tests/test_chainbound.py), so its chain is taken,
    # not the shortest
    p = puzzle(line(10, 3))
    cands = {"r2c2": "12", "r2c3": "34", "r2c4": "67"}
    assert found(core("forcing-braid"), position(p, cands=cands)) == [({}, {"r2c3": "4"})]
    assert found(changed(tmp_path, "forcing-braid", work=0), position(p, cands=cands)) == [
        ({}, {"r2c2": "2"})]
    assert found(changed(tmp_path, "forcing-braid", reach=0), position(p, cands=cands)) == []
    p = puzzle(FOUR)
    cands = {"r2c2": "12", "r3c2": "34", "r3c3": "89", "r2c3": "78"}
    assert found(core("trial"), position(p, cands=cands)) == [({}, {"r2c3": "8"})]
    assert found(changed(tmp_path, "trial", work=0), position(p, cands=cands)) != \
        [({}, {"r2c3": "8"})]


def test_region_limits_come_from_the_ladder(tmp_path):
    p = puzzle(AREA)
    assert found(core("region-sum-one"), position(p))
    limits = {**core("region-sum-one").params["regions"], "max_cost": 0}
    assert found(changed(tmp_path, "region-sum-one", regions=limits), position(p)) == []


def test_the_reasons_a_permutation_step_states_come_from_the_ladder(tmp_path, monkeypatch):
    from deducer.rules import permutation

    p = puzzle(line(30, 6))
    cands = {"r2c2": "12", "r2c3": "12", "r2c4": "12345"}
    rid = run_id(p, "r2c1>")
    loose = changed(tmp_path, "permutation-check", max_reasons=100)
    few = found(core("permutation-check"), position(p, cands=cands), rid)
    assert few == [({}, {"r2c5": "5", "r2c6": "5", "r2c7": "5"})]
    # issue 51: a step also takes no more digits than its sentence fits (CASES_MAX), which
    # here holds the step to the 5s whatever max_reasons says; with no sentence limit,
    # max_reasons is what decides how much the step takes
    assert found(loose, position(p, cands=cands), rid) == few
    monkeypatch.setattr(permutation, "CASES_MAX", 10**6)
    assert found(core("permutation-check"), position(p, cands=cands), rid) == few
    many = found(loose, position(p, cands=cands), rid)
    assert len(many) == 1 and len(many[0][1]) > len(few[0][1])
    assert all(set(ds) >= set(few[0][1].get(c, "")) for c, ds in many[0][1].items())


def test_what_a_solver_node_costs_a_walk_comes_from_the_ladder(tmp_path):
    p = formats.load(PUZZLES / "deducer-trial.txt")

    def view(work):
        return View(State(p), Context(p, Limits(work=work)))

    free = view(None)
    assert found(core("backtracking"), free)
    spent = free.context.spent
    assert found(core("backtracking"), view(spent))  # just enough
    dearer = changed(tmp_path, "backtracking", node_work=2 * core("backtracking").params[
        "node_work"])
    assert found(dearer, view(spent)) == []


def test_a_misspelt_limit_is_refused_when_the_ladder_is_loaded(tmp_path):
    with pytest.raises(registry.RuleError, match="serach_nodes"):
        changed(tmp_path, "forcing-chain", serach_nodes=10)


# ---------------------------------------------------------------------------- renderers
LEVELS_FILE = ("version: 1\nrules: []\nrating:\n"
               "  levels: {Easy: 1.05, Medium: 2.4, Hard: 4.2, Expert: 6.0}\n")


@pytest.fixture(scope="module")
def k2_two_ways(tmp_path_factory):
    """seed000-k2 walked with the core ladder and with one whose Easy level ends at 1.05
    (lone cells only): the same steps, rated and drawn by other thresholds."""
    f = tmp_path_factory.mktemp("ladder") / "levels.yaml"
    f.write_text(LEVELS_FILE, encoding="utf-8")
    p = formats.load(PUZZLES / "seed000-k2.j")
    return p, explain(p), explain(p, registry.load([f]))


def test_renderers_group_by_the_walks_ladder(k2_two_ways):
    p, usual, other = k2_two_ways
    assert [s.to_json() for s in usual.steps] == [s.to_json() for s in other.steps]
    assert easy_weight(usual) == 1.6 and easy_weight(other) == 1.05
    assert (usual.rating.level, other.rating.level) == ("Easy", "Medium")
    # unique combinations (1.1) are easy by the core ladder only: grouped there alone
    heads = [len(groups(e.steps, easy_weight(e))) for e in (usual, other)]
    assert heads[0] < heads[1]
    md = [get("markdown").walkthrough(p, e) for e in (usual, other)]
    assert "Unique combination ×" in md[0] and "Unique combination ×" not in md[1]
    html = [get("html").walkthrough(p, e) for e in (usual, other)]
    assert html[0].count('<li class="grp"') > html[1].count('<li class="grp"')


def test_terminal_colours_by_the_walks_ladder(k2_two_ways):
    p, usual, other = k2_two_ways
    yellow = re.compile(r"\x1b\[1;33m")  # bold yellow: a Medium step's rule
    out = [get("terminal").walkthrough(p, e) for e in (usual, other)]
    assert not yellow.search(out[0]) and yellow.search(out[1])


def test_the_command_line_rates_and_draws_by_the_rule_files_levels(tmp_path, capsys):
    """`explain --rules FILE`: the file's rating: section counts (api.ladder kept only the
    rules of a loaded ladder, and the walk was rated and drawn by the core thresholds)."""
    from deducer.app.cli import main

    f = tmp_path / "levels.yaml"
    f.write_text(LEVELS_FILE, encoding="utf-8")
    k2 = str(PUZZLES / "seed000-k2.j")
    assert main(["explain", k2, "--markdown", "-"]) == 0
    usual = capsys.readouterr().out
    assert main(["explain", k2, "--rules", str(f), "--markdown", "-"]) == 0
    other = capsys.readouterr().out
    assert "Easy, score" in usual and "Medium, score" in other
    assert "Unique combination ×" in usual and "Unique combination ×" not in other
