"""The order items are handed out in, and how they are cut into tasks: both engines use it.

A batch ends when its last worker finishes, so what matters is the tail. Two things made
it long (a 16-worker run over the 960 janko puzzles gave 7.1x where 16 was possible): the
items came in input order, which in a published collection puts the largest puzzles last,
so the run ended with a few workers on them and the rest idle; and a chunk size taken from
``--jobs`` gave a remote Dask cluster of 16 workers 15 tasks. So:

- **largest first**: the caller's cost estimates (one per item, from the grid: the size
  of a puzzle's text, say) order the items within blocks of :data:`BLOCK`, so the small
  ones fill the gaps at the end (the classic longest-processing-time rule, within
  4/3 of the best schedule). Results still come back in input order: the rows waiting
  for an earlier one are held, and a block bounds how many;
- **tasks from workers**: at least :data:`MIN_TASKS` tasks a worker (never fewer tasks than
  workers), from the number of workers the engine really has, and chunks that shrink to
  one item towards the end of each block, so that the workers finish together.

:func:`makespan` replays a schedule on N workers from measured item times (what
``benchmarks/bench_batch.py`` prints against the bound ``max(total / N, largest)``).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from typing import Any

#: items sorted together by their cost estimate: rows that wait for an earlier row (results
#: come back in input order) are at most about this many
BLOCK = 4096
#: tasks a worker gets at least: fewer leaves the last ones finishing alone
MIN_TASKS = 4
#: items per task at most (a task's own cost: a pipe message for the pool, about 0.1 ms; a
#: scheduler round trip for Dask, about a millisecond), and the tasks a worker gets when
#: the batch is large enough for them
CAP = {"pool": 16, "dask": 64}
TASKS_PER_WORKER = {"pool": 64, "dask": 16}


def chunk_size(n: int, workers: int, asked: int | None = None, engine: str = "pool") -> int:
    """Items per task: :data:`TASKS_PER_WORKER` tasks a worker where the batch is large
    enough, never fewer than :data:`MIN_TASKS` (and so never fewer tasks than workers),
    at most :data:`CAP` items each. ``asked`` (``--chunk``) wins."""
    if asked is not None:
        return max(1, asked)
    workers = max(1, workers)
    size = min(CAP.get(engine, 16), n // (workers * TASKS_PER_WORKER.get(engine, 64)))
    return max(1, min(size, n // (workers * MIN_TASKS)))


def order(n: int, costs: Sequence[float] | None = None, block: int = BLOCK) -> list[int]:
    """Indices of ``n`` items in the order they are handed out: by decreasing cost estimate
    within each block of ``block`` items (input order among equal costs, and without
    ``costs``)."""
    if costs is None:
        return list(range(n))
    out: list[int] = []
    for start in range(0, n, block):
        out += sorted(range(start, min(n, start + block)), key=lambda k: -costs[k])
    return out


def chunks(items: Sequence, idx: Sequence[int], size: int, taper: int = 0,
           block: int = BLOCK) -> Iterator[list[tuple[int, Any]]]:
    """``[(index, item), ...]`` tasks over ``idx`` (see :func:`order`), lazily (items are
    looked up as their task is made: a Dask run reads a file when its task is sent). With
    ``taper`` (the worker count) tasks shrink towards the end of each block, down to one
    item, so that the workers finish together."""
    n = len(idx)
    start = 0
    while start < n:
        end = min(n, (start // block + 1) * block)  # the block's end
        step = size if not taper else max(1, min(size, (end - start) // (4 * taper)))
        step = min(step, end - start)
        yield [(k, items[k]) for k in idx[start:start + step]]
        start += step


def plan(items: Sequence, workers: int, engine: str = "pool", asked: int | None = None,
         costs: Sequence[float] | None = None,
         idx: Sequence[int] | None = None) -> Iterator[list[tuple[int, Any]]]:
    """The tasks of a batch on ``workers`` workers: :func:`order` (unless ``idx`` gives
    it), :func:`chunk_size` and :func:`chunks` together (a chunk size asked for is kept to
    the end)."""
    if idx is None:
        idx = order(len(items), costs)
    size = chunk_size(len(idx), workers, asked, engine)
    return chunks(items, idx, size, 0 if asked is not None else workers)


def makespan(times: Sequence[float], tasks: Sequence[Sequence[int]], workers: int) -> float:
    """When the last of ``workers`` workers finishes, each taking the next task as it gets
    free (as both engines hand them out), ``times[k]`` being item k's time."""
    free = [0.0] * max(1, workers)
    for task in tasks:
        t = heapq.heappop(free)
        heapq.heappush(free, t + sum(times[k] for k in task))
    return max(free)


def bound(times: Sequence[float], workers: int) -> float:
    """No schedule on ``workers`` workers ends before this: the work shared out evenly, or
    the largest item."""
    return max(sum(times) / max(1, workers), max(times, default=0.0))
