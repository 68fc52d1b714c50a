"""The garbage collector eased while a walk runs.

A walk makes and drops millions of small containers (tuples of candidates, effects, dicts
of a hypothetical state's changes) and keeps large caches (a chain search's looks, nodes
and bounds). Almost all of the small ones die by reference counting; what the cyclic
collector's young-generation passes find is the caches, traversed again and again. With
CPython's default threshold (700 allocations), collecting every 20,000 instead saves 0.8%
of the instructions of a chained walk (zwvista 58) and, the passes reading memory all over,
about 1.5-3% of its CPU time (docs/benchmarks.md, "Chain walkthroughs"). While a walk
runs, the young generation is collected every :data:`YOUNG` allocations; the older
generations' settings stay.

The setting is the process's, so it is eased once however many walks run at a time (threads
of the play server) and put back as the last one ends. A collector a caller disabled, or
already set to collect less often, is left alone.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: allocations between two young-generation collections while a walk runs
YOUNG = 20_000

_LOCK = threading.Lock()
_walks = 0  # walks running
_saved: tuple[int, int, int] | None = None  # the thresholds to put back, when changed


@contextmanager
def eased() -> Iterator[None]:
    """Collect the young generation every :data:`YOUNG` allocations inside the block."""
    global _walks, _saved
    with _LOCK:
        if _walks == 0:
            now = gc.get_threshold()
            # 0 turns collection off: a caller's choice, as is a larger threshold
            if gc.isenabled() and 0 < now[0] < YOUNG:
                _saved = now
                gc.set_threshold(YOUNG, now[1], now[2])
        _walks += 1
    try:
        yield
    finally:
        with _LOCK:
            _walks -= 1
            if _walks == 0 and _saved is not None:
                gc.set_threshold(*_saved)
                _saved = None
