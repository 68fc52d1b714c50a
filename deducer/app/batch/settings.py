"""How a batch runs: the :class:`Settings` and the constants both engines share (apart from
the package's ``run``, so that the engines can import them without importing it back)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

ENGINES = ("pool", "dask")
#: attempts after the first for an item whose worker died (then it is reported as failed)
RETRIES = 2
#: a worker still busy this long after an item's time limit is killed
GRACE = 1.0
#: --jobs is capped at this many workers a core: more only adds memory and switching (a
#: --jobs 100000 once forked thousands of workers for one puzzle)
MAX_JOBS_PER_CORE = 4

OnFail = Callable[[Any, str, str], Any]


@dataclass
class Settings:
    """How a batch runs (the command line's ``--engine/--jobs/--chunk/--timeout``)."""

    engine: str = "pool"
    jobs: int = 1
    chunk: int | None = None  # items per chunk (None: sized from the batch)
    timeout: float | None = None  # per item
    retries: int = RETRIES
    scheduler: str | None = None  # dask: tcp://HOST:8786 (None: a LocalCluster)
