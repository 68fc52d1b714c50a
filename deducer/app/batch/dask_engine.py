"""The distributed engine: the same chunks as tasks on a Dask cluster.

``Settings.scheduler`` names a running scheduler (``tcp://HOST:8786``, started with
``dask scheduler``; workers with ``dask worker tcp://HOST:8786``, each with deducer installed
and any ``--rules`` files at the same path); without it a ``LocalCluster`` of ``jobs``
single-threaded worker processes is started for the run and closed after it.

A worker that dies mid-task is handled by Dask itself: the scheduler reruns the task
elsewhere, up to its ``allowed-failures``, then gives up with ``KilledWorker``. A chunk that
gives up is split into one task per item, so only the item that keeps killing workers is
reported as failed. Per-item time limits are the function's own (cooperative) here: Dask
workers run tasks in threads, which cannot be killed from outside.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from ...errors import DeducerError
from . import OnFail, Settings

HEARTBEAT = 0.25


def run_chunk(func, chunk: list[tuple[int, Any]]) -> list[tuple[int, str, Any]]:
    """One task: ``func`` over a chunk, each failure caught per item (runs on a worker)."""
    out = []
    for idx, item in chunk:
        try:
            out.append((idx, "ok", func(item)))
        except Exception as e:
            out.append((idx, "error", f"{type(e).__name__}: {e}"))
    return out


def missing() -> str | None:
    """Why the engine cannot run here (None when it can)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return ("--engine dask needs Dask's distributed package: "
                "pip install 'deducer[dask]' (or pip install distributed)")
    return None


class DaskEngine:
    """Chunks as Dask tasks (see the module docstring)."""

    def __init__(self, settings: Settings):
        self.settings = settings

    def _client(self):
        from distributed import Client, LocalCluster

        if self.settings.scheduler:
            try:
                return Client(self.settings.scheduler, timeout="10s"), None
            except (OSError, TimeoutError, ValueError) as e:
                raise DeducerError(f"cannot reach the Dask scheduler at "
                                   f"{self.settings.scheduler}: {e}") from None
        # Workers are spawned (Dask's default), not forked: forking this process while
        # Dask's own threads hold locks left a worker deadlocked (seen in testing), even
        # though a forked cluster starts in 0.6 s against about 4 s spawned.
        import dask

        # the local scheduler gives up on a task as the pool gives up on an item (a remote
        # scheduler keeps its own distributed.scheduler.allowed-failures, 3 by default)
        dask.config.set({"distributed.scheduler.allowed-failures": self.settings.retries,
                         # one task per single-threaded worker at a time: a task waiting
                         # behind one that kills the worker would be blamed with it
                         "distributed.scheduler.worker-saturation": 1.0})
        cluster = LocalCluster(n_workers=max(1, self.settings.jobs), threads_per_worker=1,
                               processes=True, dashboard_address=None,
                               silence_logs=logging.CRITICAL)
        return Client(cluster), cluster

    def map(self, func, chunks: Iterator[list], on_fail: OnFail
            ) -> Iterator[tuple[int, Any] | None]:
        from distributed import wait
        from distributed.scheduler import KilledWorker

        client, cluster = self._client()
        try:
            nworkers = max(1, len(client.scheduler_info().get("workers", {})))
            window = 4 * nworkers
            fresh = iter(chunks)
            exhausted = False
            running: dict = {}  # future -> chunk
            while True:
                while not exhausted and len(running) < window:
                    chunk = next(fresh, None)
                    if chunk is None:
                        exhausted = True
                        break
                    running[client.submit(run_chunk, func, chunk, pure=False)] = chunk
                if not running:
                    return
                try:
                    done, _ = wait(list(running), timeout=HEARTBEAT,
                                   return_when="FIRST_COMPLETED")
                except TimeoutError:
                    done = ()
                for fut in done:
                    chunk = running.pop(fut)
                    try:
                        results = fut.result(timeout=HEARTBEAT)
                    except TimeoutError:
                        # finished, then its result went down with a worker that died since
                        # (one a later task killed): the scheduler computes it again
                        running[fut] = chunk
                        continue
                    except KilledWorker:
                        if len(chunk) > 1:  # find the one to blame: one task per item
                            for one in chunk:
                                running[client.submit(run_chunk, func, [one], pure=False)] = [one]
                            continue
                        idx, item = chunk[0]
                        yield idx, on_fail(item, "died", "its workers kept dying "
                                                         "(killed, or out of memory?)")
                        continue
                    items = dict(chunk)
                    for idx, kind, payload in results:
                        item = items[idx]
                        yield idx, (payload if kind == "ok" else on_fail(item, kind, payload))
                yield None
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
