"""What the play server allows itself and each client: request sizes, time limits, the
long computations run at once, and the waitress server that enforces the connection limits.

The page is made for one person on one computer, yet a hostile page or a stuck client must
not lock it out: waitress reads each request whole before a worker thread sees it (slow or
idle clients hold no thread), closes a connection idle for :data:`IDLE_TIMEOUT` or whose
request takes over :data:`REQUEST_TIMEOUT` to arrive, and at most :data:`HEAVY` long
computations run at once (:func:`take_slot`), so the page's quick requests always find a
thread. The routes read :data:`TIMEOUT` and :data:`GENERATE_TIMEOUT` when they run (tests
shorten them).
"""

from __future__ import annotations

import threading

from flask import Flask, g

MAX_BODY = 1024 * 1024  # bytes per request
MAX_HEADERS = 64 * 1024  # bytes of request line and headers
MAX_NESTING = 64  # JSON arrays/objects inside each other (a puzzle needs 4)
IDLE_TIMEOUT = 15  # seconds a connection may send nothing before it is closed
#: seconds a request may take to arrive whole: a client that trickles a byte at a time
#: (never idle long enough for IDLE_TIMEOUT) is hung up on after this
REQUEST_TIMEOUT = 10
#: connections held at once; beyond it waitress stops accepting (its default of 100 let 120
#: slow clients lock the page out), below select()'s limit of 1024 descriptors
CONNECTION_LIMIT = 500
THREADS = 6  # worker threads: requests at once (the page sends one at a time)
#: long computations (solve, check, hint, generate...) at once: the other threads stay free
#: for the page's quick requests, and one more long one is answered 503 "busy" at once
HEAVY = 4
HEAVY_PATHS = frozenset({"/api/hint", "/api/solve", "/api/check", "/api/generate",
                         "/api/create", "/api/candidates", "/api/why", "/api/whatif",
                         "/api/allsteps",
                         # opening a puzzle solves it (up to TIMEOUT), and listing the
                         # folder sniffs every file: eight of them once starved the page
                         "/api/parse", "/api/open", "/api/files",
                         # a replay walks the record's puzzle
                         "/api/replay"})
TIMEOUT = 20.0  # seconds for one solve / check / hint
GENERATE_TIMEOUT = 60.0  # seconds for one new puzzle
TOO_BIG = f"the request is larger than {MAX_BODY // (1024 * 1024)} MiB"
_SLOTS = "deducer_slots"  # the app's semaphore of long computations (app.extensions)


def add_slots(app: Flask) -> None:
    """Give ``app`` its :data:`HEAVY` places for long computations (read when made)."""
    app.extensions[_SLOTS] = threading.BoundedSemaphore(HEAVY)


def take_slot(app: Flask, path: str) -> bool:
    """Take a place for the request at ``path`` if it is a long computation; False when
    every place is taken (the caller answers 503). :func:`free_slot` gives it back."""
    if path not in HEAVY_PATHS:
        return True
    if not app.extensions[_SLOTS].acquire(blocking=False):
        return False
    g.deducer_heavy = True
    return True


def free_slot(app: Flask) -> None:
    """Give back the place :func:`take_slot` took for this request (if any)."""
    if g.pop("deducer_heavy", False):
        app.extensions[_SLOTS].release()


def make_server(app: Flask, port: int = 0, *, idle_timeout: int = IDLE_TIMEOUT,
                request_timeout: float = REQUEST_TIMEOUT):
    """A waitress server for ``app`` on 127.0.0.1:``port`` (0: any free port).

    Waitress rather than werkzeug's development server: werkzeug gives every connection a
    thread of its own and never times one out, so 20 clients that open a connection and
    send nothing hold 20 threads for good. Waitress reads requests (headers and body) in
    one event loop, hands only complete ones to :data:`THREADS` workers, and closes a
    connection that has sent nothing for ``idle_timeout`` seconds, or whose request has
    not arrived whole ``request_timeout`` seconds after it began (a slow client), and holds
    at most :data:`CONNECTION_LIMIT` connections. ``.run()`` serves until Ctrl+C;
    :func:`stop_server` ends it from another thread.
    """
    from waitress.server import create_server

    server = create_server(
        app, host="127.0.0.1", port=port, threads=THREADS, ident="deducer",
        channel_timeout=idle_timeout, cleanup_interval=1, connection_limit=CONNECTION_LIMIT,
        max_request_body_size=MAX_BODY, max_request_header_size=MAX_HEADERS,
        expose_tracebacks=False, clear_untrusted_proxy_headers=True)
    _hang_up_on_slow_requests(server, request_timeout)
    return server


def _hang_up_on_slow_requests(server, limit: float) -> None:
    """Close a connection whose request is still arriving ``limit`` seconds after its first
    byte, at waitress's clean-up round (every second)."""
    plain = server.maintenance
    began: dict[int, float] = {}  # channel (by id) -> when its unfinished request began

    def maintenance(now: float) -> None:
        plain(now)
        live = set()
        for channel in list(server.active_channels.values()):
            key = id(channel)
            live.add(key)
            if channel.request is None:  # between requests: IDLE_TIMEOUT's business
                began.pop(key, None)
            elif now - began.setdefault(key, now) > limit:
                channel.will_close = True
        for key in set(began) - live:
            del began[key]

    server.maintenance = maintenance


def stop_server(server) -> None:
    """Stop a server from :func:`make_server` that runs in another thread."""
    for channel in list(server._map.values()):
        channel.close()
    server.task_dispatcher.shutdown(timeout=2)
