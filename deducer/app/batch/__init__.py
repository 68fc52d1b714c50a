"""Batch work over many items: one interface, two engines.

:func:`run` maps a picklable function over a sequence of items in chunks and yields the
results **in input order**, whatever the engine and the worker count. The items are handed
out largest first (by the caller's cost estimates) in tasks sized from the number of
workers (:mod:`.schedule`), and each worker can be started warm (``init``). Two engines:

- ``pool`` (:mod:`.pool`, the default): local worker processes. A worker that dies costs only
  the item it was on, which is retried; an item that keeps killing workers, or that overruns
  its time limit, becomes a failure row instead of stopping the batch.
- ``dask`` (:mod:`.dask_engine`): the same chunks on a Dask cluster (``--scheduler``), or on
  a ``LocalCluster`` started for the run. Imported only when asked for, so that plain runs
  never pay for importing Dask.

Failures are turned into results by the caller's ``on_fail(item, kind, message)`` (kind is
``"timeout"``, ``"died"`` or ``"error"``), so one row shape serves every outcome. A command
uses it in three lines (``deducer rate`` does; ``generate --count`` maps seeds the same way)::

    add_engine_args(parser)                      # --jobs --engine --scheduler --chunk ...
    settings = settings_from(args)               # checked: one-line errors
    for row in run(partial(one, params), items, settings, on_fail, tick=Bar(len(items), tty)):
        ...                                      # rows in input order, as they are ready

``func`` must be picklable (a module-level function, or a ``functools.partial`` of one) and
so must items and results: Dask ships them to other machines.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from ...errors import DeducerError
from ..cli import whole
from .dask_engine import DaskEngine, missing
from .pool import PoolEngine, cpu_count

# how items are ordered and cut into tasks (largest first, tasks from the workers)
from .schedule import chunk_size, chunks, order, plan  # noqa: F401  (shared)
from .settings import ENGINES, GRACE, MAX_JOBS_PER_CORE, RETRIES, OnFail, Settings  # noqa: F401  (shared)


def add_engine_args(p, what: str = "work") -> None:
    """``--jobs/--engine/--scheduler/--chunk/--retries/--no-progress`` for a batch command."""

    p.add_argument("-j", "--jobs", type=whole, default=1, metavar="N",
                   help=f"{what} in N worker processes (default 1); with --engine dask and no "
                        "--scheduler, the LocalCluster's workers")
    p.add_argument("--engine", choices=ENGINES, default="pool",
                   help="pool: local worker processes (default); dask: a Dask cluster "
                        "(the 'dask' extra)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --engine dask: the scheduler, e.g. tcp://HOST:8786 (default: "
                        "start a LocalCluster)")
    p.add_argument("--chunk", type=whole, metavar="N",
                   help="items per task (default: from the number of workers, at least 4 "
                        "tasks a worker, at most 16 items a task for the pool and 64 for "
                        "Dask; the largest puzzles go first either way)")
    p.add_argument("--retries", type=whole, default=RETRIES, metavar="N",
                   help="times an item whose worker died is tried again before its row says "
                        f"failed (default {RETRIES})")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (it is only drawn when stderr is a terminal)")


def settings_from(args) -> Settings:
    """The :class:`Settings` the command line asks for (usage errors as DeducerError)."""

    if args.jobs < 1:
        raise DeducerError("--jobs must be at least 1")

    cap = MAX_JOBS_PER_CORE * cpu_count()
    if args.jobs > cap:
        print(f"deducer: --jobs {args.jobs} is more than this machine can use; using {cap} "
              f"({MAX_JOBS_PER_CORE} a core)", file=sys.stderr)
        args.jobs = cap
    if args.chunk is not None and args.chunk < 1:
        raise DeducerError("--chunk must be at least 1")
    if args.retries < 0:
        raise DeducerError("--retries must be 0 or more")
    if args.scheduler and args.engine != "dask":
        raise DeducerError("--scheduler goes with --engine dask")
    if args.engine == "dask":
        why = missing()
        if why:
            raise DeducerError(why)
    return Settings(engine=args.engine, jobs=args.jobs, chunk=args.chunk,
                    timeout=getattr(args, "timeout", None), retries=args.retries,
                    scheduler=args.scheduler)


def ordered(pairs: Iterator[tuple[int, Any] | None], start: int = 0,
            tick: Callable[[int], None] | None = None) -> Iterator[Any]:
    """Results back in index order. ``pairs`` arrive in completion order; ``None`` is a
    heartbeat (lets ``tick`` redraw a progress bar while nothing finishes)."""
    buf: dict[int, Any] = {}
    nxt = start
    done = 0
    for pair in pairs:
        if pair is not None:
            idx, res = pair
            buf[idx] = res
            done += 1
        if tick is not None:
            tick(done)
        while nxt in buf:
            yield buf.pop(nxt)
            nxt += 1
    if buf:  # an engine lost an index: never pass that off as a finished batch
        raise RuntimeError(f"batch engine lost item {nxt}")


def finished(pairs: Iterator[tuple[int, Any] | None],
             tick: Callable[[int], None] | None = None) -> Iterator[tuple[int, Any] | None]:
    """``pairs`` as they come (heartbeats included), counting them for ``tick``."""
    done = 0
    for pair in pairs:
        if pair is not None:
            done += 1
        if tick is not None:
            tick(done)
        yield pair


def run(func: Callable[[Any], Any], items: Sequence, settings: Settings, on_fail: OnFail,
        *, tick: Callable[[int], None] | None = None,
        costs: Sequence[float] | None = None, init: Callable[[], Any] | None = None,
        note: Callable[[int, Any], None] | None = None, in_order: bool = True
        ) -> Iterator[Any]:
    """``func(item)`` for every item, yielded in input order (a generator: close it, or run
    it to the end, to stop the workers).

    ``in_order=False`` yields ``(index, result)`` pairs as the items finish instead, and
    ``None`` as a heartbeat while none does (about every 0.2 s): what a caller that keeps
    every finished result at once (a rows file, an interrupted run) needs; the input order
    holds results back behind the largest items, which go first.

    ``costs``, an estimate of each item's work, has the largest handed out first
    (:mod:`.schedule`); ``init()`` runs once in each worker before its first item (load
    what every item needs, such as the rule ladder, once a worker); ``note(index, what)``
    gets what an item's ``func`` passed to :func:`.notes.note` while it ran (the pool
    only: progress from inside a long item)."""
    if settings.engine not in ENGINES:
        raise ValueError(f"unknown engine {settings.engine!r}")
    if settings.jobs > len(items):  # a worker per item at most

        settings = replace(settings, jobs=max(1, len(items)))
    idx = order(len(items), costs)
    if settings.engine == "dask":
        engine: Any = DaskEngine(settings)
    else:
        engine = PoolEngine(settings)

    def tasks(workers: int):
        """The tasks once the engine knows its workers (a remote cluster's own count)."""
        return plan(items, workers, settings.engine, settings.chunk, idx=idx)

    pairs = engine.map(func, tasks, on_fail, init=init, note=note)
    try:
        yield from (ordered(pairs, tick=tick) if in_order else finished(pairs, tick))
    finally:
        pairs.close()
