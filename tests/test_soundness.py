"""Every deduction must be true of every solution (HoDoKu's /bts check, DESIGN.md §7).

For puzzles with a known unique solution (bundled, corpus samples, random generated ones)
the walkthrough's every placement and elimination is checked against the solution, and
replaying the steps from the puzzle's initial candidates must pin every cell to it. A
fuzz test also calls every rule directly in random *sound* positions (candidates and live
combinations that still contain the solution) and checks what each deduction claims.

The corpus sample (every 10th janko puzzle, all KrazyDad, cx16, marcelgarus) keeps the file
quick; ``DEDUCER_SOUNDNESS=full`` checks every puzzle of those sources.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from deducer.engine import registry
from deducer.engine import walk as engine
from deducer.engine.state import Context, State, View
from deducer.generator.seeded import generate
from deducer.puzzle.combos import BIT, combos
from deducer.puzzle.model import Puzzle
from deducer.solver.search import solve

FULL = os.environ.get("DEDUCER_SOUNDNESS", "").lower() == "full"
PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


# ---------------------------------------------------------------------------- the check
def check_walkthrough(p: Puzzle, sol: list[int], where: str = "") -> engine.Explanation:
    """Explain ``p``; assert every step agrees with ``sol`` and the replay reaches it."""
    e = engine.explain(p)
    idx = p.index
    masks = p.initial_masks(with_entries=True)
    for s in e.steps:
        for r, c, d in s.placements:
            assert sol[idx[(r, c)]] == d, f"{where} step {s.n} ({s.rule}) is wrong: {s.text}"
            masks[idx[(r, c)]] = BIT[d]
        for r, c, ds in s.eliminations:
            i = idx[(r, c)]
            assert sol[i] not in ds, f"{where} step {s.n} ({s.rule}) is wrong: {s.text}"
            for d in ds:
                masks[i] &= ~BIT[d]
    assert e.status == engine.SOLVED, f"{where}: {e.status} {e.message}"
    assert e.solution == sol, where
    for i, m in enumerate(masks):
        assert m == BIT[sol[i]], f"{where}: replaying the steps leaves {p.whites[i]} open"
    return e


# ---------------------------------------------------------------------------- bundled puzzles
def _bundled():
    meta = PUZZLES / "expected.json"
    if not meta.exists():
        return []
    out = []
    for entry in json.loads(meta.read_text(encoding="utf-8"))["puzzles"]:
        if entry["solutions"] != 1:
            continue
        out.append((entry["file"], entry.get("name"), entry.get("format")))
    return out


@pytest.mark.parametrize("file,name,fmt", _bundled())
def test_bundled_walkthroughs_are_sound(file, name, fmt):
    from deducer.puzzle import formats

    p = formats.load(PUZZLES / file, fmt, name=name)
    res = solve(p, max_solutions=2)
    assert len(res.solutions) == 1 and res.complete
    check_walkthrough(p, res.solutions[0], f"{file}:{name}")


# ---------------------------------------------------------------------------- corpus
def _corpus(source: str, every: int):
    from conftest import require_corpus

    from deducer.errors import PuzzleError
    from tests.support import corpus

    require_corpus()
    try:
        entries = list(corpus.load_source(source))
    except PuzzleError as e:
        pytest.skip(f"corpus source {source} unavailable: {e}")
    step = 1 if FULL else every
    return [cp for k, cp in enumerate(entries)
            if k % step == 0 and cp.solution is not None and cp.expected == "unique"]


@pytest.mark.parametrize("source,every", [("janko", 10), ("krazydad", 1), ("cx16", 1),
                                          ("marcelgarus", 1)])
def test_corpus_walkthroughs_are_sound(source, every):
    sample = _corpus(source, every)
    if not sample:
        pytest.skip(f"no puzzle with a known unique solution in {source}")
    for cp in sample:
        check_walkthrough(cp.puzzle, list(cp.solution), cp.key)


# ---------------------------------------------------------------------------- generated puzzles
GENERATED = 40 if FULL else 16


@pytest.mark.parametrize("seed", range(GENERATED))
def test_generated_walkthroughs_are_sound(seed):
    size = 6 + seed % 5
    p, sol = generate(random.Random(seed), size, size + seed % 3, 0.2 + 0.05 * (seed % 3))
    check_walkthrough(p, sol, f"generated seed {seed}")


# ------------------------------------------------------------ rules in random positions
def random_position(rng: random.Random, p: Puzzle, sol: list[int]) -> View:
    """A sound position: every candidate set and live list still holds the solution."""
    n = len(sol)
    masks = []
    for i in range(n):
        m = BIT[sol[i]]
        keep = rng.random()
        for d in range(1, 10):
            if rng.random() < keep:
                m |= BIT[d]
        masks.append(m & p.initial_mask(i, with_entries=True) | BIT[sol[i]])
    state = State(p, masks)
    placed_share = rng.random() * 0.7
    for i in range(n):
        if rng.random() < placed_share:
            masks[i] = BIT[sol[i]]
            state.placed[i] = True
    for i in range(n):  # as the engine does: written-in digits leave their runs
        if state.placed[i]:
            for rid in p.cell_runs[i]:
                for j in p.runs[rid].cells:
                    if j != i and not state.placed[j]:
                        masks[j] &= ~BIT[sol[i]]
    for rid, r in enumerate(p.runs):
        truth = 0
        placed = 0
        for j in r.cells:
            truth |= BIT[sol[j]]
            if state.placed[j]:
                placed |= BIT[sol[j]]
        keep = rng.random()
        state.live[rid] = tuple(c for c in combos(r.total, r.length)
                                if c == truth or (c & placed == placed and rng.random() < keep))
    return View(state, Context(p))


def _fuzz_puzzles():
    out = [generate(random.Random(100 + k), 7 + k % 3, 8, 0.3) for k in range(4)]
    try:
        from tests.support import corpus

        for pid in ("10x10-v4-b98-n8", "10x10-v1-b99-n8", "8x8-v3-b97-n8"):
            cp = corpus.get("krazydad", pid)
            out.append((cp.puzzle, list(cp.solution)))
    except Exception:  # corpus absent
        pass
    return out


def test_rules_are_sound_in_random_positions():
    rules = [r for r in registry.all_rules() if r.id not in ("trial", "backtracking")]
    rng = random.Random(2024)
    rounds = 150 if FULL else 16  # 16 x 7 puzzles: 112 random positions a default run
    checked = 0
    for p, sol in _fuzz_puzzles():
        truth = {}
        for rid, r in enumerate(p.runs):
            m = 0
            for j in r.cells:
                m |= BIT[sol[j]]
            truth[rid] = m
        for _ in range(rounds):
            v = random_position(rng, p, sol)
            for rule in rules:
                rids = list(v.run_ids) if rule.scope == "run" else [None]
                for rid in rids:
                    for ded in rule.call(v, rid) or ():
                        checked += 1
                        for i, d in ded.placements.items():
                            assert sol[i] == d, (rule.id, ded.values)
                        for i, m in ded.eliminations.items():
                            assert not m & BIT[sol[i]], (rule.id, ded.values)
                        for r2, cs in ded.drop_combos.items():
                            assert truth[r2] not in cs, (rule.id, ded.values)
    assert checked > 100
