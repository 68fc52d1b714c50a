"""The settled run (issue 37, item 4): an assumption that leaves a run one arrangement is one
link of a chain, not a single, a lone cell and a filter each; the rule is ``walk: false``, so
the walkthrough itself, hints, ``why`` and the step lists never take it on the board.

The rule's own fixtures are in tests/test_rules.py (test_settled_run_*)."""

from __future__ import annotations

import re

import pytest
import yaml

from deducer import api, proofcheck
from deducer.engine import registry
from deducer.engine.rating import chain_length
from deducer.engine.walk import Engine, explain
from deducer.puzzle import formats

TRIAL = "puzzles/deducer-trial.txt"


@pytest.fixture(scope="module")
def trial():
    p = formats.load(TRIAL)
    return p, explain(p)


def _settled_links(steps):
    return [lk for s in steps if s.chain for lk in s.proof["links"]
            if lk.get("rule") == "settled-run"]


def test_chains_use_it_and_the_walk_does_not(trial):
    p, exp = trial
    assert exp.status == "solved"
    assert not [s for s in exp.steps if s.rule == "settled-run"]
    links = _settled_links(exp.steps)
    # one link writes a whole run's open cells, named in its sentence
    assert links and any(len(lk["placements"]) >= 2 for lk in links)
    for lk in links:
        # the sum its open cells make, which their lists leave one way (issue 51)
        assert re.search(r"(= |make )\d+ - [\d(]|(= |make )\d+(,|$| with)", lk["text"]) \
            and ", only as " in lk["text"], lk["text"]
        for r, c, d in lk["placements"]:
            # the one cell of four or more that no fact is stated for gets its digit by
            # the arithmetic said beside it (a learner read it bare, issue 51)
            m = re.search(rf"r{r + 1}c{c + 1} = (?:(\d+) - (\d+) = )?{d}\b", lk["text"])
            assert m, (lk["text"], (r, c, d))
            if m.group(1):
                assert int(m.group(1)) - int(m.group(2)) == d
                assert f"r{r + 1}c{c + 1} (" not in lk["text"]
    # every other link names its rule too; the closing contradiction none
    for s in exp.steps:
        if s.chain:
            *body, end = s.proof["links"]
            assert all(lk.get("rule") for lk in body) and "rule" not in end


def test_every_chain_with_it_is_proved_minimal_and_named(trial):
    p, exp = trial
    steps = [s.to_json() for s in exp.steps]
    assert proofcheck.check_walkthrough(p, steps) == []
    chains = [s for s in steps if any(lk.get("rule") == "settled-run"
                                      for lk in s.get("proof", {}).get("links", ()))]
    assert chains
    assert [s["n"] for s in chains if proofcheck.unnamed(p, s)] == []
    assert proofcheck.surplus(p, steps, only={s["n"] for s in chains}) == []


def test_it_makes_the_chains_shorter(trial):
    """Without the rule the same puzzle's chains are longer (the longest, and in all)."""
    p, exp = trial
    old = explain(p, registry.load(disable=["settled-run"]))
    new_lengths = [chain_length(s) for s in exp.steps if s.chain]
    old_lengths = [chain_length(s) for s in old.steps if s.chain]
    assert max(new_lengths) < max(old_lengths)
    assert sum(new_lengths) < sum(old_lengths)


def test_the_walk_asks_only_the_walked_rules():
    ladder = registry.load()
    eng = Engine(formats.load(TRIAL), ladder)
    assert "settled-run" not in {r.id for r in eng.rules}
    assert "settled-run" in {r.id for r in eng.context.rules}  # where chains find links
    assert eng.rules.rating is ladder.rating and eng.rules.order is ladder.order


def test_step_lists_and_hints_never_offer_it():
    p = formats.load(TRIAL)
    listed = api.all_steps(p)
    assert "settled-run" not in listed.rules
    assert not [s for s in listed.steps if s.rule == "settled-run"]
    h = api.hint(p, "full")
    assert "settled-run" not in {getattr(h, "rule", None), *getattr(h, "reasoning_rules", ())}


def test_the_generator_refuses_to_need_it_and_its_weight_cuts_no_level():
    from deducer.generator.level import Target
    from deducer.generator.request import GenerateError

    with pytest.raises(GenerateError, match="chain links only"):
        api.generate("8x8", None, count=1, seed=1, needs="settled-run")
    ladder = registry.load()
    # its weight (2.2) is above Easy's cap (1.6), yet the Easy head goes on past it
    easy = [r.id for r in Target(ladder, "Easy").ladder]
    assert "hidden-single" in easy and "settled-run" in easy


def test_a_users_link_rule_can_be_chains_only(tmp_path):
    """``walk: false`` on a rule author's link rule: it makes links, never a step."""
    rule = {"id": "my-run", "name": "My run", "priority": 1, "weight": 1, "score": 1,
            "scope": "run", "kind": "link", "walk": False,
            "implementation": "deducer.rules.settled:settled_run",
            "explain": "{run} one way{facts}: {filled}"}
    f = tmp_path / "r.yaml"
    f.write_text(yaml.safe_dump({"rules": [rule]}), encoding="utf-8")
    rules = registry.load([f], disable=["settled-run"])
    assert next(r for r in rules if r.id == "my-run").to_json()["walk"] is False
    exp = explain(formats.load(TRIAL), rules)
    assert exp.status == "solved" and not [s for s in exp.steps if s.rule == "my-run"]
    assert [lk for s in exp.steps if s.chain for lk in s.proof["links"]
            if lk.get("rule") == "my-run"]


def test_janko_226_longest_chain():
    """Issue 37's "done when": janko 226's longest chain at most 6 links (the closing
    contradiction not counted). It was 5 before the settled run, and is 3 with it."""
    from conftest import require_corpus

    from tests.support import corpus

    require_corpus()
    p = corpus.get("janko", "226").puzzle
    exp = explain(p)
    assert exp.status == "solved"
    shown = [sum(1 for lk in s.proof["links"] if not lk.get("contradiction"))
             for s in exp.steps if s.chain]
    assert shown and max(shown) <= 4
    assert _settled_links(exp.steps)


def test_the_rules_table_says_it_is_for_chains_only():
    from deducer.render.text import ladder_text

    text = ladder_text(registry.load())
    assert "settled-run: chain links only (walk: false)" in text
    assert "chain links only" not in ladder_text(registry.load(disable=["settled-run"]))
