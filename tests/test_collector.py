"""The collector eased while a walk runs (deducer/engine/collector.py): set inside, put
back after, once however many walks run, and a caller's own setting left alone."""

from __future__ import annotations

import gc
import threading

import pytest

from deducer.engine import collector, registry
from deducer.engine.walk import Engine
from deducer.puzzle import bundled


@pytest.fixture
def default_threshold():
    was = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*was)


def test_eased_inside_and_put_back_after(default_threshold):
    with collector.eased():
        assert gc.get_threshold() == (collector.YOUNG, 10, 10)
        with collector.eased():  # a walk inside a walk (a hint's twin)
            assert gc.get_threshold()[0] == collector.YOUNG
        assert gc.get_threshold()[0] == collector.YOUNG  # the outer walk still runs
    assert gc.get_threshold() == (700, 10, 10)


def test_put_back_when_a_walk_fails(default_threshold):
    with pytest.raises(RuntimeError), collector.eased():
        raise RuntimeError("a rule failed")
    assert gc.get_threshold() == (700, 10, 10)


def test_a_callers_setting_is_left_alone(default_threshold):
    gc.set_threshold(50_000, 5, 5)
    with collector.eased():
        assert gc.get_threshold() == (50_000, 5, 5)
    gc.set_threshold(0)  # collection off
    with collector.eased():
        assert gc.get_threshold()[0] == 0
    assert gc.get_threshold()[0] == 0


def test_walks_in_threads_put_it_back_once_the_last_ends(default_threshold):
    inside = threading.Barrier(3)
    leave = threading.Event()
    seen = []

    def walk():
        with collector.eased():
            inside.wait()
            leave.wait()
            seen.append(gc.get_threshold()[0])

    threads = [threading.Thread(target=walk) for _ in range(2)]
    for t in threads:
        t.start()
    inside.wait()
    assert gc.get_threshold()[0] == collector.YOUNG
    leave.set()
    for t in threads:
        t.join()
    # each saw it eased to its end (the other one still running, or itself)
    assert seen == [collector.YOUNG, collector.YOUNG]
    assert gc.get_threshold() == (700, 10, 10)


def test_a_walk_runs_eased(default_threshold, monkeypatch):
    seen = []
    puzzle = next(b.puzzle for b in bundled.bundled_puzzles() if "trial" in b.label)
    eng = Engine(puzzle, registry.load())
    step = eng.step

    def spy(*a, **k):
        seen.append(gc.get_threshold()[0])
        return step(*a, **k)

    monkeypatch.setattr(eng, "step", spy)
    eng.run()
    assert seen and set(seen) == {collector.YOUNG}
    assert gc.get_threshold() == (700, 10, 10)
