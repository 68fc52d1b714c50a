"""The fast chain searches agree with the plain definition (deducer/rules/chains/spec.py).

At every chain step of a walkthrough, the chain the ladder took (its assumption and its
length) is the one the spec finds: the spec's shortest whip from that assumption, or its
braid walk from it, has the same length; for a whip, the spec's shortest whip over every
assumption has that length too. Puzzles: every bundled one (puzzles/), and where the corpus
is present (DEDUCER_CORPUS) a few published puzzles whose walkthroughs need whips and
braids; DEDUCER_LONG_SEARCH=1 adds every chain puzzle scripts/walkthrough_digest.py
always samples (minutes).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deducer.engine import registry
from deducer.engine.state import resolve_proof
from deducer.engine.walk import Engine
from deducer.puzzle.formats import load_all
from deducer.rules.chains import link_rules, spec
from tests.support import corpus

ROOT = Path(__file__).resolve().parents[1]
LONG = os.environ.get("DEDUCER_LONG_SEARCH") == "1"
#: published puzzles with whip and braid steps that walk in seconds (zwvista 84: two braids)
QUICK = ("38", "48", "84")
#: the longer sweep: the chain puzzles scripts/walkthrough_digest.py always digests
LONG_KEYS = ("janko-at-tkoz0/226", "minizinc-benchmarks/kakuro_6_6_super",
             *(f"zwvista-logicpuzzles-kakuro/{n}" for n in (27, 51, 53, 58, 62, 64, 66, 80,
                                                           83, 117, 131)))
#: white cells above which the spec's whip over every assumption is not asked (slow)
WIDE = 200


def chain_steps_agree(puzzle) -> list[tuple[str, str, int]]:
    """Walk ``puzzle``; at every chain step compare with the spec (asserting). Returns
    (rule, shape, length) of each chain step checked."""
    eng = Engine(puzzle, registry.load())
    checked = []
    while eng.open_count and (found := eng.next_deduction()) is not None:
        rl, ded, _ = found
        proof = resolve_proof(ded)
        if rl.kind in ("chain", "trial") and proof is not None and proof.assume is not None:
            view, (cell, digit), length = eng.view, proof.assume, int(ded.size or 0)
            if proof.kind == "whip":
                links = link_rules(view, set(rl.params["links"]) if "links" in rl.params
                                   else None)
                got = spec.whip_from(view, links, cell, digit, length)
                assert got is not None and len(got) + 1 == length, (rl.id, cell, digit)
                if len(view.puzzle.whites) <= WIDE:
                    best = spec.find_whip(view, links, length,
                                          bivalue=rl.id == "bivalue-chain")
                    assert best is not None and len(best[2]) + 1 == length, (rl.id, best)
            else:
                walked = spec.braid_from(view, link_rules(view), cell, digit, 10**6)
                assert walked == length, (rl.id, cell, digit, walked)
            checked.append((rl.id, proof.kind, length))
        eng.step(found)
    return checked


def _bundled():
    return [pytest.param(p, id=f"{f.name}:{p.name}" if p.name else f.name)
            for f in sorted((ROOT / "puzzles").iterdir())
            if f.is_file() and f.name != "expected.json" for p in load_all(f)]


@pytest.mark.parametrize("puzzle", _bundled())
def test_bundled_chain_steps_are_the_specs(puzzle):
    chain_steps_agree(puzzle)


def test_the_bundled_puzzles_have_chain_steps_to_compare():
    """deducer-trial.txt and generated-6x6-s23.txt need whips: the comparison above is
    not empty."""
    from deducer.puzzle import formats

    got = [s for name in ("deducer-trial.txt", "generated-6x6-s23.txt")
           for s in chain_steps_agree(formats.load(ROOT / "puzzles" / name))]
    assert len(got) >= 5 and {shape for _, shape, _ in got} == {"whip"}


def _corpus_keys():
    keys = [("zwvista", pid) for pid in QUICK]
    if LONG:
        keys += [tuple(k.split("/", 1)) for k in LONG_KEYS]
    return [pytest.param(k, id="/".join(k)) for k in keys]


@pytest.mark.parametrize("key", _corpus_keys())
def test_corpus_chain_steps_are_the_specs(key):
    if corpus.corpus_root() is None:
        pytest.skip("corpus not present (DEDUCER_CORPUS)")
    checked = chain_steps_agree(corpus.get(*key).puzzle)
    assert checked
    if key == ("zwvista", "84"):
        assert sum(shape == "braid" for _, shape, _ in checked) == 2
