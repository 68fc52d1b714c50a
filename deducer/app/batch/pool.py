"""The local engine: worker processes fed chunks over pipes, results streamed per item.

Each worker gets one chunk at a time and sends every result back as soon as it has it, so
the parent always knows which item a worker is on. That is what makes the pool survive:

- a worker that dies (killed, out of memory) loses only the item it was on; the rest of its
  chunk goes back to the queue and the item is retried, first in line, on a fresh worker;
- an item that has killed ``1 + retries`` workers is reported as failed, not retried again;
- an item still running ``GRACE`` seconds after its time limit (a rule stuck in a loop never
  reaches the cooperative deadline check) gets its worker killed and is reported as timed out.

Workers are forked where that is safe (start-up in milliseconds, and the parent's loaded
rule ladder comes along), else started by a fork server; they ignore SIGINT so that Ctrl-C
stops the run from the parent, which kills them on the way out. A parent that dies without
a way out (SIGKILL, SIGTERM, SIGHUP) takes its workers with it: the kernel kills them
(Linux's parent-death signal), and a watchdog thread in each ends it within half a second of
noticing its parent gone (elsewhere), so no worker keeps the caller's pipes open.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import wait
from typing import Any

from . import notes
from .settings import GRACE, OnFail, Settings

TICK = 0.2  # seconds between heartbeats (progress redraw, deadline checks)
#: seconds between a worker's looks at whether its parent is still there
WATCH = 0.5
PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """End this worker when ``parent`` (the batch's process, or the fork server) dies."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # it died before the line above
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(WATCH)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _worker_main(conn, func: Callable[[Any], Any], parent: int | None = None,
                 init: Callable[[], Any] | None = None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    _die_with_parent(os.getppid() if parent is None else parent)
    if init is not None:
        try:  # warm: what every item needs, loaded once (a failure shows in the items)
            init()
        except Exception:  # noqa: BLE001 - each item then says what went wrong
            pass

    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        for idx, item in msg:
            notes._SEND = lambda what, idx=idx: conn.send((idx, "note", what))
            try:
                out = (idx, "ok", func(item))
            except Exception as e:  # a failing item is a row, never a dead batch
                out = (idx, "error", f"{type(e).__name__}: {e}")
            finally:
                notes._SEND = None
            try:
                conn.send(out)
            except (EOFError, OSError):
                return  # the parent is gone
            except Exception as e:  # the result would not pickle (nothing was written)
                conn.send((idx, "error", f"result could not be sent back: {e}"))


@dataclass
class _Slot:
    """One worker process of the pool and the chunk it is working on."""

    proc: Any
    conn: Any
    cid: int = -1  # the chunk it is on
    todo: deque = field(default_factory=deque)  # (idx, item) not yet answered, in order
    since: float = 0.0  # when the current item started


class PoolEngine:
    """Chunks over local worker processes (see the module docstring)."""

    def __init__(self, settings: Settings):
        self.jobs = max(1, settings.jobs)
        self.timeout = settings.timeout
        self.retries = settings.retries
        self.ctx: Any = None  # chosen when the run starts (see _context)

    @staticmethod
    def _context():
        """Fork when this process has no other thread (workers start in milliseconds and
        inherit the loaded rule ladder); otherwise forkserver, because a fork copies any lock
        another thread holds (a Dask client left in the same process, say) and can leave the
        child waiting on it forever."""
        methods = multiprocessing.get_all_start_methods()
        if "fork" in methods and threading.active_count() == 1:
            return multiprocessing.get_context("fork")
        if "forkserver" in methods:
            return multiprocessing.get_context("forkserver")
        return multiprocessing.get_context("spawn")

    def _start(self, func, init=None) -> _Slot:
        for stream in (sys.stdout, sys.stderr):  # a forked child must not re-flush them
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        parent, child = self.ctx.Pipe()
        # a forked worker's parent is this process; another's is the fork server
        me = os.getpid() if self.ctx.get_start_method() == "fork" else None
        proc = self.ctx.Process(target=_worker_main, args=(child, func, me, init),
                                daemon=True)
        proc.start()
        child.close()
        return _Slot(proc, parent)

    @staticmethod
    def _stop(slot: _Slot, kill: bool = False) -> None:
        if kill and slot.proc.is_alive():
            slot.proc.kill()
        else:
            try:
                slot.conn.send(None)
            except (OSError, ValueError):
                pass
        slot.proc.join(timeout=None if kill else 2)
        if slot.proc.is_alive():
            slot.proc.kill()
            slot.proc.join()
        slot.conn.close()

    def map(self, func, tasks: Callable[[int], Iterator[list]], on_fail: OnFail, *,
            init: Callable[[], Any] | None = None,
            note: Callable[[int, Any], None] | None = None
            ) -> Iterator[tuple[int, Any] | None]:
        """(index, result) pairs in completion order, ``None`` as a heartbeat; ``tasks``
        gives the chunks for a number of workers, ``init`` runs once in each worker,
        ``note`` gets the items' notes (see :func:`deducer.app.batch.run`)."""
        self.ctx = self._context()
        fresh = iter(tasks(self.jobs))
        start = partial(self._start, func, init)
        retry: deque = deque()  # (cid, [(idx, item), ...]) put back after a worker died
        left: dict[int, int] = {}  # chunk id -> items not answered yet
        deaths: Counter = Counter()
        window = 4 * self.jobs  # chunks ahead of the oldest open one (bounds reordering)
        next_cid = 0
        exhausted = False
        slots: list[_Slot] = []

        def take():
            nonlocal next_cid, exhausted
            if retry:
                return retry.popleft()
            if exhausted or (left and next_cid - min(left) >= window):
                return None
            chunk = next(fresh, None)
            if chunk is None:
                exhausted = True
                return None
            cid, next_cid = next_cid, next_cid + 1
            left[cid] = len(chunk)
            return cid, chunk

        def answered(slot: _Slot, res_idx: int) -> None:
            idx, _item = slot.todo.popleft()
            assert idx == res_idx, (idx, res_idx)
            left[slot.cid] -= 1
            if not left[slot.cid]:
                del left[slot.cid]
            slot.since = time.monotonic()

        try:
            while True:
                for k, slot in enumerate(slots):
                    if not slot.proc.is_alive() and not slot.todo:
                        self._stop(slot)
                        slots[k] = start()
                while len(slots) < self.jobs and (retry or not exhausted):
                    slots.append(start())
                _hand_out(slots, take)
                busy = [s for s in slots if s.todo]
                if not busy:
                    if exhausted and not retry:
                        return
                    continue
                wait([s.conn for s in busy] + [s.proc.sentinel for s in busy], timeout=TICK)
                now = time.monotonic()
                for k, slot in enumerate(slots):
                    if not slot.todo:
                        continue
                    alive = slot.proc.is_alive()  # before draining: what it sent is all there
                    broken = yield from _drain(slot, note, on_fail, answered)
                    if not slot.todo:
                        continue
                    if broken or not alive:
                        yield from self._died(slots, k, start, deaths, retry, on_fail,
                                              answered)
                    elif self.timeout is not None and now - slot.since > self.timeout + GRACE:
                        idx, item = slot.todo[0]
                        self._stop(slot, kill=True)
                        answered(slot, idx)
                        yield idx, on_fail(item, "timeout", f"timed out after {self.timeout:g} s")
                        if slot.todo:
                            retry.appendleft((slot.cid, list(slot.todo)))
                        slots[k] = start()
                yield None
        finally:
            for slot in slots:
                self._stop(slot, kill=True)

    def _died(self, slots, k, start, deaths, retry, on_fail, answered):
        """Worker ``k`` died mid-chunk: blame the item it was on, put the rest back."""
        slot = slots[k]
        self._stop(slot, kill=True)
        idx, item = slot.todo[0]
        deaths[idx] += 1
        code = slot.proc.exitcode
        if deaths[idx] > self.retries:
            how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
            answered(slot, idx)
            yield idx, on_fail(item, "died", f"its worker died {deaths[idx]} times "
                                             f"(last: {how}; killed, or out of memory?)")
        if slot.todo:
            retry.appendleft((slot.cid, list(slot.todo)))
        slots[k] = start()


def cpu_count() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _hand_out(slots: list[_Slot], take: Callable[[], tuple[int, list] | None]) -> None:
    """A chunk (``take``'s) to each idle worker, while there are chunks to take."""
    for slot in slots:
        if slot.todo:
            continue
        got = take()
        if got is None:
            break
        slot.cid, chunk = got
        slot.todo = deque(chunk)
        slot.since = time.monotonic()
        try:
            slot.conn.send(chunk)
        except (OSError, ValueError):
            pass  # it died meanwhile: handled below like any death


def _drain(slot: _Slot, note, on_fail: OnFail, answered):
    """Yield the (index, result) pairs a worker has sent (its notes to ``note``); returns
    True when the pipe broke mid-message (the worker died)."""
    try:
        while slot.todo and slot.conn.poll():
            idx, kind, payload = slot.conn.recv()
            if kind == "note":  # how the item in hand is going
                if note is not None:
                    note(idx, payload)
                continue
            item = slot.todo[0][1]
            answered(slot, idx)
            yield idx, (payload if kind == "ok" else on_fail(item, kind, payload))
    except (EOFError, OSError, ValueError, pickle.UnpicklingError):
        return True  # it died mid-message
    return False
