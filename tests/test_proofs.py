"""Every step of every walkthrough carries a proof that holds (docs/json-contract.md, "Proofs").

The independent checker (deducer/proofcheck/checker.py) replays each walkthrough: every
fact must be true, every placement, elimination and ruled-out combination must follow from
its local problem, the sentence must name every cell and run of its proof, and the proofs
of a sample of steps must carry no fact or run that could be dropped.

Walkthroughs: every bundled puzzle, a sample of the corpus puzzles with a unique solution
(all of them with ``DEDUCER_PROOFS=full``; skipped without the corpus) and generated ones.

Rules still being taught to prove their steps are listed in :data:`UNPROVED_RULES`: their
steps may lack a proof (but a proof they do give must pass). The set shrinks to empty as
the rules learn; a rule listed here whose every step already carries a proof fails the
ratchet test, so that it is struck off (and can never lose its proofs again).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from deducer import proofcheck
from deducer.engine import registry
from deducer.engine import walk as engine
from deducer.generator.seeded import generate
from deducer.puzzle import formats
from deducer.puzzle.model import Puzzle

FULL = os.environ.get("DEDUCER_PROOFS", "").lower() == "full"
PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"

#: rules whose steps may still come without a proof
UNPROVED_RULES = {"backtracking"}

#: the surplus check (each fact dropped in turn) runs on every SURPLUS_EVERY-th proved step
SURPLUS_EVERY = 1 if FULL else 5

#: steps seen per rule, and how many of them came without a proof (for the warning)
_SEEN: dict[str, list[int]] = {}


def check_proofs(p: Puzzle, where: str) -> list[str]:
    """Explain ``p`` and return every failure of its steps' proofs, located."""
    e = engine.explain(p)
    steps = [s.to_json() for s in e.steps]
    out = []
    for prob in proofcheck.check_walkthrough(p, steps):
        if prob.kind == "no-proof" and prob.rule in UNPROVED_RULES:
            continue
        out.append(f"{where}: {prob}")
    proved = [s for s in steps if s.get("proof") is not None]
    for s in steps:
        seen = _SEEN.setdefault(s["rule"], [0, 0])
        seen[0] += 1
        seen[1] += s.get("proof") is None
    for s in proved:
        missing = proofcheck.unnamed(p, s)
        if missing:
            out.append(f"{where}: step {s['n']} [{s['rule']}]: the sentence does not name "
                       f"{', '.join(missing)}: {s['text']}")
    sample = {s["n"] for s in proved[::SURPLUS_EVERY]}
    out += [f"{where}: {prob}" for prob in proofcheck.surplus(p, steps, only=sample)]
    return out


def _assert_proved(p: Puzzle, where: str) -> None:
    failures = check_proofs(p, where)
    assert not failures, f"{len(failures)} problem(s):\n" + "\n".join(failures[:20])


# ---------------------------------------------------------------------------- the set itself
def test_unproved_rules_are_real_rule_ids():
    ids = {r.id for r in registry.all_rules()}
    assert UNPROVED_RULES <= ids, UNPROVED_RULES - ids


# ---------------------------------------------------------------------------- bundled puzzles
def _bundled():
    meta = PUZZLES / "expected.json"
    if not meta.exists():
        return []
    return [(e["file"], e.get("name"), e.get("format"))
            for e in json.loads(meta.read_text(encoding="utf-8"))["puzzles"]]


@pytest.mark.parametrize("file,name,fmt", _bundled())
def test_bundled_walkthroughs_are_proved(file, name, fmt):
    p = formats.load(PUZZLES / file, fmt, name=name)
    _assert_proved(p, f"{file}" + (f":{name}" if name else ""))


# ---------------------------------------------------------------------------- corpus
#: default sample: every k-th unique puzzle of each source (a few seconds each)
SAMPLE_EVERY = {"janko-at-tkoz0": 60, "billstclair-kakuro-dojo-krazydad": 25,
                "ifilot-cx16-kakuro": 15, "paucuesta9-prop-kakuro": 25,
                "zwvista-logicpuzzles-kakuro": 30, "marcizhu-kakuroapp": 15}
DEFAULT_EVERY = 4
#: the default sample leaves out the few 50x50-and-larger grids (seconds each)
MAX_SIDE_SAMPLED = 40


def _corpus_sources():
    from tests.support import corpus

    return corpus.sources() or ["(no corpus)"]


@pytest.mark.parametrize("source", _corpus_sources())
def test_corpus_walkthroughs_are_proved(source):
    from conftest import require_corpus

    from deducer.errors import PuzzleError
    from tests.support import corpus

    require_corpus()
    try:
        entries = [cp for cp in corpus.load_source(source) if cp.expected == "unique"]
    except PuzzleError as e:
        pytest.skip(f"corpus source {source} unavailable: {e}")
    if not FULL:
        every = SAMPLE_EVERY.get(source, DEFAULT_EVERY)
        entries = [cp for k, cp in enumerate(entries) if k % every == 0
                   and max(cp.puzzle.rows, cp.puzzle.cols) <= MAX_SIDE_SAMPLED]
    if not entries:
        pytest.skip(f"no unique puzzle in {source}")
    failures = []
    for cp in entries:
        failures += check_proofs(cp.puzzle, cp.key)
    assert not failures, f"{len(failures)} problem(s):\n" + "\n".join(failures[:20])


# ---------------------------------------------------------------------------- generated
GENERATED = 40 if FULL else 10


@pytest.mark.parametrize("seed", range(GENERATED))
def test_generated_walkthroughs_are_proved(seed):
    size = 6 + seed % 5
    p, _ = generate(random.Random(1000 + seed), size, size + seed % 3, 0.2 + 0.05 * (seed % 3))
    _assert_proved(p, f"generated seed {1000 + seed}")


# ---------------------------------------------------------------------------- the ratchet
def test_zz_report_rules_that_prove_every_step():
    """Runs last (by name): a rule in UNPROVED_RULES that gave a proof on every step seen
    above must be struck off the set, so that it can never lose its proofs again."""
    if not _SEEN:
        pytest.skip("no walkthrough was checked in this session")
    done = sorted(r for r, (n, missing) in _SEEN.items()
                  if r in UNPROVED_RULES and n and not missing)
    assert done == [], (f"every step of {', '.join(done)} carried a proof: strike them off "
                        "UNPROVED_RULES in tests/test_proofs.py")
