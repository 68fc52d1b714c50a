"""The distributed engine: the same chunks as tasks on a Dask cluster.

``Settings.scheduler`` names a running scheduler (``tcp://HOST:8786``, started with
``dask scheduler``; workers with ``dask worker tcp://HOST:8786``, each with deducer installed
and any ``--rules`` files at the same path); without it a ``LocalCluster`` of ``jobs``
single-threaded worker processes is started for the run and closed after it, its workers
forked from a fork server that imported Dask and deducer once for all of them.

A worker that dies mid-task is handled by Dask itself: the scheduler reruns the task
elsewhere, up to its ``allowed-failures``, then gives up with ``KilledWorker``. A chunk that
gives up is split into one task per item, so only the item that keeps killing workers is
reported as failed. Per-item time limits are the function's own (cooperative) here: Dask
workers run tasks in threads, which cannot be killed from outside.
"""

from __future__ import annotations

import importlib.util
import logging
import multiprocessing
import os
import pickle
import site
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from multiprocessing import forkserver
from pathlib import Path
from typing import Any

from ...errors import DeducerError
from .settings import OnFail, Settings

HEARTBEAT = 0.25
HOME = Path(__file__).resolve().parents[2]  # the deducer package


#: the ``init`` functions this worker process has run (pickled: each task brings its own copy)
_WARM: set[bytes] = set()


def _warm(init) -> None:
    """Run ``init`` once in this worker process (the rule ladder, loaded for every task
    after it)."""

    key = pickle.dumps(init)
    if key not in _WARM:
        _WARM.add(key)
        try:
            init()
        except Exception:  # noqa: BLE001 - each item then says what went wrong
            pass


def run_chunk(func, chunk: list[tuple[int, Any]], init=None) -> list[tuple[int, str, Any]]:
    """One task: ``func`` over a chunk, each failure caught per item (runs on a worker)."""
    if init is not None:
        _warm(init)
    out = []
    for idx, item in chunk:
        try:
            out.append((idx, "ok", func(item)))
        except Exception as e:
            out.append((idx, "error", f"{type(e).__name__}: {e}"))
    return out


def missing() -> str | None:
    """Why the engine cannot run here (None when it can). Looked up, not imported: importing
    Dask takes about a second, which a local cluster spends in parallel with its fork
    server (see :func:`_fork_server`)."""

    if importlib.util.find_spec("distributed") is None:
        return ("--engine dask needs Dask's distributed package: "
                "pip install 'deducer[dask]' (or pip install distributed)")
    return None


def _preloads() -> list[str]:
    """Dask and the deducer modules this run has imported (the rule ladder's among them):
    what a fork server imports once for every local worker."""
    ours = []
    for name, mod in list(sys.modules.items()):
        where = getattr(mod, "__file__", None)
        # never a __main__: importing one runs the command again
        if (name == "deducer" or name.startswith("deducer.")) and "__main__" not in name \
                and where and Path(where).resolve().is_relative_to(HOME):
            ours.append(name)
    return ["distributed", *sorted(ours)]


def _fork_server() -> bool:
    """Start the fork server the local workers are forked from, with Dask and deducer
    imported, before this process imports Dask itself, so that the two imports (about a
    second each) run side by side. Each worker is then a fork of a process that runs no
    thread (forking this one, next to Dask's threads, once left a worker deadlocked), up
    in milliseconds and with nothing to import, where spawned workers import Dask and
    deducer each. False where there are no fork servers (Windows): Dask spawns."""

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return False
    multiprocessing.get_context("forkserver").set_forkserver_preload(_preloads())
    # The server imports by name with this environment's path, not this process's
    # sys.path: a deducer found some other way than from site-packages (a source tree
    # put on sys.path in-process, beside an editable install of another copy) goes first
    # on its PYTHONPATH, or the workers would run the other copy's code.
    root = str(HOME.parent)
    saved = os.environ.get("PYTHONPATH")
    if root not in _site_dirs():
        os.environ["PYTHONPATH"] = root + (os.pathsep + saved if saved else "")
    try:
        forkserver.ensure_running()  # a server already running keeps its own preloads
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved
    return True


def _site_dirs() -> set[str]:
    dirs = [*getattr(site, "getsitepackages", list)(), site.getusersitepackages()]
    return {str(Path(d).resolve()) for d in dirs}


class DaskEngine:
    """Chunks as Dask tasks (see the module docstring)."""

    def __init__(self, settings: Settings):
        self.settings = settings

    def _client(self):
        if self.settings.scheduler:
            from distributed import Client

            try:
                return Client(self.settings.scheduler, timeout="10s"), None
            except (OSError, TimeoutError, ValueError) as e:
                raise DeducerError(f"cannot reach the Dask scheduler at "
                                   f"{self.settings.scheduler}: {e}") from None
        forked = _fork_server()  # first: it imports Dask while this process does
        import dask
        import distributed.utils
        from distributed import Client, LocalCluster

        config = {
            # the local scheduler gives up on a task as the pool gives up on an item (a
            # remote scheduler keeps its own distributed.scheduler.allowed-failures, 3)
            "distributed.scheduler.allowed-failures": self.settings.retries,
            # one task per single-threaded worker at a time: a task waiting behind one
            # that kills the worker would be blamed with it
            "distributed.scheduler.worker-saturation": 1.0,
            # what feeds a dashboard (there is none here) costs CPU the two workers
            # need: measured on a 2-core machine, these took the cluster's own CPU from
            # about 13% of the work to 4%. The statistical profiler samples the task's
            # thread 100 times a second; event-loop health checks ran every 20 ms and
            # system metrics every 500 ms. Work stealing has nothing to steal when every
            # worker holds one task.
            "distributed.worker.profile.enabled": False,
            "distributed.admin.tick.interval": "200ms",
            "distributed.admin.system-monitor.interval": "2s",
            "distributed.scheduler.work-stealing": False,
        }
        if forked:
            config["distributed.worker.multiprocessing-method"] = "forkserver"
            # else Dask imports numpy and pandas here to preload them into a fork server
            # that is already running (half a second of this process's start-up)
            if hasattr(distributed.utils, "_forkserver_preload_set"):
                distributed.utils._forkserver_preload_set = True
        dask.config.set(config)
        cluster = LocalCluster(n_workers=max(1, self.settings.jobs), threads_per_worker=1,
                               processes=True, dashboard_address=None,
                               silence_logs=logging.CRITICAL)
        return Client(cluster), cluster

    def map(self, func, tasks: Callable[[int], Iterator[list]], on_fail: OnFail, *,
            init: Callable[[], Any] | None = None, note=None
            ) -> Iterator[tuple[int, Any] | None]:
        """(index, result) pairs in completion order, ``None`` as a heartbeat; a lost
        scheduler ends the run with one line (the rows already given are kept). ``tasks``
        gives the chunks for the cluster's number of workers (a remote scheduler's, not
        --jobs); ``init`` runs once in each worker; notes are not passed on here."""

        try:
            yield from self._map(func, tasks, on_fail, init)
        except (CancelledError, OSError) as e:
            where = self.settings.scheduler or "the local cluster"
            why = "its tasks were cancelled" if isinstance(e, CancelledError) else \
                (str(e).strip().splitlines() or [type(e).__name__])[0]
            raise DeducerError(f"lost the Dask scheduler at {where} ({why}); the rows "
                               "given so far are kept") from None

    def _map(self, func, tasks: Callable[[int], Iterator[list]], on_fail: OnFail, init
             ) -> Iterator[tuple[int, Any] | None]:
        client, cluster = self._client()
        if self.settings.scheduler:  # its client logs each failed reconnect: one line is ours
            for name in list(logging.root.manager.loggerDict):
                if name == "distributed" or name.startswith("distributed."):
                    logging.getLogger(name).setLevel(logging.CRITICAL)

        from distributed import wait
        from distributed.scheduler import KilledWorker

        try:
            nworkers = max(1, len(client.scheduler_info().get("workers", {})))
            window = 4 * nworkers
            fresh = iter(tasks(nworkers))
            exhausted = False
            running: dict = {}  # future -> chunk
            while True:
                while not exhausted and len(running) < window:
                    chunk = next(fresh, None)
                    if chunk is None:
                        exhausted = True
                        break
                    running[client.submit(run_chunk, func, chunk, init, pure=False)] = chunk
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
                                running[client.submit(run_chunk, func, [one], init,
                                                      pure=False)] = [one]
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
            try:
                client.close(timeout=5)
                if cluster is not None:
                    cluster.close()
            except (OSError, TimeoutError, CancelledError):
                pass  # the scheduler is gone already
