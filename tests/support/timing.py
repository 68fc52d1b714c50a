"""Time bounds that hold on a loaded machine (two cores shared by many jobs).

A test that bounds time asserts what the code promises, not how fast the machine is today:
either in CPU time (what the code spends; a busy machine does not change it), or in wall
time with its slack scaled by :func:`stretch`, how much longer than its CPU time a piece
of work takes on this machine right now.
"""

from __future__ import annotations

import contextlib
import resource
import time


def stretch(sample: float = 0.05) -> float:
    """Wall seconds a CPU second takes now (1 on an idle core; 10 when a process gets a
    tenth of one): spins ``sample`` seconds of CPU time and times it."""
    wall, cpu = time.perf_counter(), time.process_time()
    while time.process_time() - cpu < sample:
        pass
    return max(1.0, (time.perf_counter() - wall) / sample)


def children_cpu() -> float:
    """CPU seconds (user + system) of this process's finished children so far."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


class OverBudget(AssertionError):
    """A block spent more CPU time than its budget (a hang, or a cost that grew)."""


@contextlib.contextmanager
def cpu_budget(seconds: float):
    """Raise :class:`OverBudget` inside the block (main thread) once it has spent ``seconds``
    of CPU time: what the code costs, which a loaded machine does not change."""
    import signal

    def over(signum, frame):
        raise OverBudget(f"over the {seconds} s CPU budget")

    old = signal.signal(signal.SIGPROF, over)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


@contextlib.contextmanager
def cpu_of_children():
    """``with cpu_of_children() as used: subprocess.run(...)``; then ``used()`` is the CPU
    time the children that ended inside the block spent."""
    before = children_cpu()
    after: list[float] = []
    yield lambda: (after[0] if after else children_cpu()) - before
    after.append(children_cpu())


@contextlib.contextmanager
def cpu_of_this_process():
    """``with cpu_of_this_process() as used: ...``; then ``used()`` is this process's CPU time
    (all threads) inside the block."""
    before = time.process_time()
    after: list[float] = []
    yield lambda: (after[0] if after else time.process_time()) - before
    after.append(time.process_time())


class Stopwatch:
    """The wall time of a block, and bounds on it scaled to the machine's load, measured
    before and after (the larger :func:`stretch` counts)::

        with Stopwatch() as sw:
            ...
        assert sw.within(3), sw
    """

    def __enter__(self) -> Stopwatch:
        self.scale = stretch()
        self.wall = 0.0
        self._t0 = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        self.wall = time.perf_counter() - self._t0
        self.scale = max(self.scale, stretch())

    def within(self, seconds: float) -> bool:
        """Did the block take less than ``seconds`` as an idle machine counts them?"""
        return self.wall < seconds * self.scale

    def __repr__(self) -> str:
        return f"Stopwatch(wall={self.wall:.2f} s, load stretch {self.scale:.1f}x)"
