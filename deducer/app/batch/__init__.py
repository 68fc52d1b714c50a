"""Batch work over many items: one interface, two engines.

:func:`run` maps a picklable function over a sequence of items in chunks and yields the
results **in input order**, whatever the engine and the worker count. Two engines:

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

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .settings import ENGINES, GRACE, MAX_JOBS_PER_CORE, RETRIES, OnFail, Settings  # noqa: F401  (shared)


def add_engine_args(p, what: str = "work") -> None:
    """``--jobs/--engine/--scheduler/--chunk/--retries/--no-progress`` for a batch command."""
    from ..cli import whole

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
                   help="items per task (default: sized from the batch, at most 16 for the "
                        "pool and 64 for Dask)")
    p.add_argument("--retries", type=whole, default=RETRIES, metavar="N",
                   help="times an item whose worker died is tried again before its row says "
                        f"failed (default {RETRIES})")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (it is only drawn when stderr is a terminal)")


def settings_from(args) -> Settings:
    """The :class:`Settings` the command line asks for (usage errors as DeducerError)."""
    from ...errors import DeducerError

    if args.jobs < 1:
        raise DeducerError("--jobs must be at least 1")
    from .pool import cpu_count

    cap = MAX_JOBS_PER_CORE * cpu_count()
    if args.jobs > cap:
        import sys

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
        from .dask_engine import missing

        why = missing()
        if why:
            raise DeducerError(why)
    return Settings(engine=args.engine, jobs=args.jobs, chunk=args.chunk,
                    timeout=getattr(args, "timeout", None), retries=args.retries,
                    scheduler=args.scheduler)


def chunk_size(n: int, jobs: int, asked: int | None = None, engine: str = "pool") -> int:
    """Items per chunk: enough chunks that the workers finish together, few enough that the
    per-task cost stays negligible. The pool's is a pipe message (about 0.1 ms), so its
    chunks are small; a Dask task costs about a millisecond and a scheduler round trip."""
    if asked is not None:
        return max(1, asked)
    if engine == "dask":
        return max(1, min(64, n // (jobs * 16)))
    return max(1, min(16, n // (jobs * 64)))


def chunks(items: Sequence, size: int, taper: int = 0) -> Iterator[list[tuple[int, Any]]]:
    """``[(index, item), ...]`` slices of ``items``, lazily. With ``taper`` (the worker
    count) the chunks shrink towards the end, down to one item, so that the workers finish
    together: a last full-sized chunk left one of two Dask workers idle for seconds."""
    start, n = 0, len(items)
    while start < n:
        step = size if not taper else max(1, min(size, (n - start) // (4 * taper)))
        yield list(enumerate(items[start:start + step], start))
        start += step


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


def run(func: Callable[[Any], Any], items: Sequence, settings: Settings, on_fail: OnFail,
        *, tick: Callable[[int], None] | None = None) -> Iterator[Any]:
    """``func(item)`` for every item, yielded in input order (a generator: close it, or run
    it to the end, to stop the workers)."""
    if settings.engine not in ENGINES:
        raise ValueError(f"unknown engine {settings.engine!r}")
    if settings.jobs > len(items):  # a worker per item at most
        from dataclasses import replace

        settings = replace(settings, jobs=max(1, len(items)))
    size = chunk_size(len(items), settings.jobs, settings.chunk, settings.engine)
    if settings.engine == "dask":
        from .dask_engine import DaskEngine

        engine: Any = DaskEngine(settings)
    else:
        from .pool import PoolEngine

        engine = PoolEngine(settings)
    # a chunk size asked for is kept to the end
    taper = 0 if settings.chunk is not None else settings.jobs
    pairs = engine.map(func, chunks(items, size, taper), on_fail)
    try:
        yield from ordered(pairs, tick=tick)
    finally:
        pairs.close()
