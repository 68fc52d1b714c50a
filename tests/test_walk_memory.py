"""What a walkthrough keeps (issue 40, item 5: ``explain`` at 3,960 cells in at most 40 MB):
no record the walk no longer needs, no copy of what can be shared, nothing loaded for
nothing. benchmarks/bench_memory.py measures the whole command."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from deducer.engine import registry, rulecheck
from deducer.engine.walk import Engine, Step, WalkOptions
from deducer.puzzle.formats import load

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def walked():
    p = load(ROOT / "puzzles" / "seed003-example.txt")
    eng = Engine(p, registry.load(), WalkOptions())
    eng.run()
    return p, eng


def test_the_walk_forgets_what_took_the_digits_of_a_cell_once_it_is_written(walked):
    """Context.taken serves a naked single's sentence (what took the cell's other digits);
    a written cell needs it no more."""
    p, eng = walked
    written = {p.index[(r, c)] for s in eng.steps for r, c, _ in s.placements}
    assert written and eng.context.taken is not None
    assert not written & set(eng.context.taken)


def test_the_dirty_sets_share_their_run_ids():
    """One int object per run id, whatever the number of rules (a rule never asked keeps a
    full set to the end)."""
    from tests.support.grids import tiled

    p = tiled(load(ROOT / "puzzles" / "seed003-example.txt"), 6, 6)
    assert len(p.runs) > 300  # ids beyond the small ints Python shares anyway
    eng = Engine(p, registry.load(), WalkOptions())
    sets = list(eng.dirty.values()) + list(eng.avail_dirty.values())
    big = {rid for rid in sets[0] if rid > 300}
    first = {rid: rid for rid in sets[0]}
    assert big and all(first[rid] is rid for s in sets for rid in s if rid in big)


def test_a_step_has_no_dict(walked):
    _, eng = walked
    step = eng.steps[0]
    assert isinstance(step, Step) and not hasattr(step, "__dict__")


def _run(view, rid, *, max_len=3):
    return ()


def _needs(view, rid, need, other=2):
    return ()


def _global(view, **options):
    return ()


def _only(view, /, rid):
    return ()


class _Holder:
    def rule(self, view, rid):
        return ()


@pytest.mark.parametrize(("func", "positional", "params"), [
    (_run, 2, {}), (_run, 2, {"max_len": 4}), (_run, 2, {"max_lenx": 4}), (_run, 1, {}),
    (_needs, 2, {}), (_needs, 2, {"need": 1}), (_needs, 2, {"need": 1, "other": 3}),
    (_needs, 2, {"rid": 1, "need": 1}), (_global, 1, {"a": 1}), (_global, 2, {}),
    (_only, 2, {}), (_only, 2, {"rid": 1}), (_Holder().rule, 2, {}), (_Holder().rule, 3, {}),
    (len, 1, {}),
])
def test_a_plain_rule_function_is_checked_as_inspect_would(func, positional, params):
    """Where the shortcut answers yes, inspect's bind agrees (a no is left to inspect)."""
    try:
        inspect.signature(func).bind(None, *([0] * (positional - 1)), **params)
        fits = True
    except TypeError:
        fits = False
    except ValueError:  # no signature
        fits = None
    if rulecheck._plainly_binds(func, positional, params):
        assert fits is True
    elif func in (_run, _needs, _global, _only):
        assert fits is False  # a plain function is told either way
