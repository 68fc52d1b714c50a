"""The play server: one page (``static/``) and a small JSON API over deducer's engine.

Made for one person on one computer, so it is a plain synchronous Flask app, served by
waitress (:func:`make_server`):

* it answers only requests from 127.0.0.1 / ::1, whose ``Host`` is a loopback name (a
  DNS-rebinding page cannot reach it);
* the API refuses cross-site requests of every method, GET included (a page elsewhere
  must not make the server solve for 20 s with an ``<img src=/api/open?...>``): a
  browser's ``Sec-Fetch-Site`` must say same-origin (or none: typed in), and ``Origin``
  or ``Referer``, when sent, must be this very origin (scheme, host and port);
* every POST must be ``application/json``, which a cross-site form cannot send
  without a CORS preflight this server never grants;
* request bodies are limited to :data:`MAX_BODY` (413 with a JSON error), JSON nesting to
  :data:`MAX_NESTING` (400, however deep);
* waitress reads each request whole before a worker thread sees it, so slow or idle
  clients hold no thread, and it closes a connection idle for :data:`IDLE_TIMEOUT` or
  whose request takes over :data:`REQUEST_TIMEOUT` to arrive; at most :data:`HEAVY` long
  computations run at once, so the page's quick requests always find a thread;
* every error is one JSON object ``{"error": "..."}``; a traceback never reaches a
  response (it is logged to the terminal instead);
* files are read and written only inside ``root``: no absolute paths, no ``..``, no
  symbolic link leading out; saving never replaces a file unless the request says
  ``"overwrite": true`` (the page asks the person first), and writes atomically through
  :func:`deducer.puzzle.fileio.write_output`.

The puzzle travels between page and server as deducer's own JSON format (an object, see
:mod:`deducer.puzzle.formats.jsonfmt`), so the server re-validates it on every call with the
same reader that reads files. Hints and checks come from :mod:`deducer.api`
(:mod:`deducer.assist.hints`, :mod:`deducer.assist.checking`); nothing here re-implements them.

Endpoints (all JSON):

=========================  ===================================================================
``GET  /api/start``        the puzzle named on the command line (or null), the root folder
``GET  /api/files``        puzzle files inside the root folder (relative paths)
``GET  /api/open?path=P``  read and parse a file inside the root folder (``&name=N``: which
                           puzzle of several; without it such a file answers ``{choose}``)
``POST /api/parse``        ``{text, filename?, format?, name?}``: parse uploaded text (idem)
``POST /api/create``       ``{grid, name?}``: a puzzle from the editor, with its ``rating``;
                           refused unless unique
``POST /api/generate``     ``{size, level?, seed?}``: a new puzzle with one solution
``POST /api/check``        ``{puzzle}``: entries / pencil marks that fit no solution
``POST /api/hint``         ``{puzzle, level, apply?}``: a hint; with apply, the edits it makes
``POST /api/allsteps``     ``{puzzle}``: every deduction open at the position, simplest first
                           (``deducer hint --all``), each with the cells and runs to highlight
``POST /api/why``          ``{puzzle, cell, digit, must?}``: why the digit cannot go in the cell
                           (``must``: why it must), the steps that lead there (``deducer why``)
``POST /api/whatif``       ``{puzzle, cell, digit}``: what follows from the digit in the cell, as
                           a chain (``deducer.what_if``); the puzzle is not changed
``POST /api/link``         ``{puzzle}``: the puzz.link URL of the puzzle with the entries and
                           pencil marks after ``#`` (docs/formats.md, "puzzlink")
``POST /api/record``       ``{puzzle, moves}``: "Save my solve": the puzzle as janko.at's
                           ``x-janko`` text with the player's moves (docs/play.md)
``POST /api/solve``        ``{puzzle}``: a full solution (one agreeing with the entries if any)
``POST /api/candidates``   ``{puzzle}``: auto pencil marks (each run's combinations, written digits)
``POST /api/export``       ``{puzzle, format}``: the text of the puzzle in ``pipe`` or ``json``
``POST /api/save``         ``{puzzle, format, path, overwrite?}``: write it inside the root
``POST /api/combos``       ``{puzzle, cell}``: the combinations of the cell's runs, struck where
                           the entries and pencil marks rule them out (``deducer combos``)
``POST /api/replay``       ``{text, filename?} | {path} | {link}``, ``name?``: a solving record
                           (Save my solve, janko.at's) with its puzzle, beside the walkthrough
                           (``deducer replay``); a file of several records answers ``{choose}``
=========================  ===================================================================
"""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from flask import Flask, g, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException

from ...errors import DeducerError, PuzzleError
from ...puzzle import formats, records
from ...puzzle.fileio import plain_suffix, read_input
from ...puzzle.model import Puzzle, cell_name

STATIC = Path(__file__).resolve().parent / "static"
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
                         "/api/parse", "/api/open", "/api/files"})
_TOO_BIG = f"the request is larger than {MAX_BODY // (1024 * 1024)} MiB"
TIMEOUT = 20.0  # seconds for one solve / check / hint
GENERATE_TIMEOUT = 60.0  # seconds for one new puzzle
#: a replay walks the record's puzzle: a long computation too
HEAVY_PATHS = HEAVY_PATHS | {"/api/replay"}
#: a janko.at puzzle's address (``https://www.janko.at/Raetsel/Kakuro/002.a.htm``): its number
JANKO_LINK = re.compile(r"(?:https?://)?(?:www\.)?janko\.at/\S*?Kakuro/0*([0-9]{1,4})\b", re.I)
LOCAL_ADDRS = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})
LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
SAVE_FORMATS = {"pipe": (".txt", ".pipe"), "json": (".json",)}
MAX_LISTED = 500
MAX_DEPTH = 4
SKIP_DIRS = frozenset({"__pycache__", "node_modules", "venv", "env"})


class ApiError(Exception):
    """An error answered as ``{"error": message, **extra}`` with an HTTP status."""

    def __init__(self, status: int, message: str, **extra):
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def _cross_site() -> bool:
    """Does a browser send this request on behalf of another origin (any method)?"""
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return True  # cross-site, or same-site: another port of 127.0.0.1
    own = f"{request.scheme}://{request.host}".lower()
    for header in ("Origin", "Referer"):
        value = request.headers.get(header)
        if value is None:
            continue
        try:
            parts = urlsplit(value)
            theirs = f"{parts.scheme}://{parts.netloc}".lower()
        except ValueError:
            return True
        if theirs != own:
            return True
    return False


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


def _error(status: int, message: str, **extra):
    body = {"error": message}
    body.update(extra)
    resp = jsonify(body)
    resp.status_code = status
    return resp


# ---- request parsing --------------------------------------------------------------------------
def _nesting(text: str) -> int:
    """How deeply JSON arrays/objects nest in ``text`` (brackets inside strings skipped);
    counted before parsing, since the parser itself recurses."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _body() -> dict:
    if not request.is_json:
        raise ApiError(415, "send the request body as JSON (Content-Type: application/json)")
    text = request.get_data(as_text=True)
    if _nesting(text) > MAX_NESTING:
        raise ApiError(400, f"the request body nests JSON more than {MAX_NESTING} levels deep")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    if data is None:
        raise ApiError(400, "the request body is not valid JSON")
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return data


def _check_format(name: str | None) -> None:
    """A format named in a request must be one deducer reads."""
    if name is not None and name not in formats.names():
        raise ApiError(400, f"unknown format {name!r}; known: {', '.join(formats.names())}")


def _field(body: dict, key: str, kind, *, required: bool = True, default=None):
    if key not in body or body[key] is None:
        if required:
            raise ApiError(400, f"missing field {key!r}")
        return default
    value = body[key]
    if kind is bool:
        ok = isinstance(value, bool)
    elif kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    if not ok:
        names = {str: "a string", dict: "an object", list: "a list", bool: "true or false",
                 int: "a whole number"}
        raise ApiError(400, f"field {key!r} must be {names.get(kind, kind.__name__)}")
    return value


def _puzzle(body: dict) -> Puzzle:
    """The puzzle a request carries (deducer JSON object), read by the JSON format reader."""
    obj = dict(_field(body, "puzzle", dict))
    obj.setdefault("format", "deducer")
    obj.setdefault("version", 1)
    try:
        return formats.loads(json.dumps(obj), "json")
    except PuzzleError as e:
        raise ApiError(400, f"the puzzle is not valid: {e.message}") from None
    except (TypeError, ValueError) as e:
        raise ApiError(400, f"the puzzle is not valid: {e}") from None


# ---- answers ----------------------------------------------------------------------------------
def model(p: Puzzle) -> dict:
    """What the page needs to draw and play ``p``: the JSON object and the runs."""
    runs = [
        {"name": r.name, "dir": r.direction, "total": r.total,
         "cells": [list(c) for c in r.coords],
         "clue": list(r.clue_at) if r.clue_at is not None else None}
        for r in p.runs
    ]
    return {"puzzle": json.loads(formats.dumps(p, "json")), "runs": runs}


def solvability(p: Puzzle) -> dict:
    """Does the bare puzzle have exactly one solution? ``{"status", "message", "cells"?}``."""
    from ...api import solve

    res = solve(p.without_progress(), max_solutions=2, timeout=TIMEOUT)
    if len(res.solutions) >= 2:
        a, b = res.solutions[0], res.solutions[1]
        diff = [p.whites[i] for i in range(len(a)) if a[i] != b[i]]
        names = ", ".join(cell_name(c) for c in diff[:8]) + (" …" if len(diff) > 8 else "")
        return {"status": "multiple", "cells": [list(c) for c in diff],
                "message": f"the puzzle has more than one solution (two of them differ at "
                           f"{names})"}
    if not res.solutions:
        if res.timed_out:
            return {"status": "unknown",
                    "message": f"no solution was found within {TIMEOUT:g} s"}
        return {"status": "none", "message": f"the puzzle has no solution: {res.reason}"}
    if not res.complete:
        return {"status": "unknown", "message": f"one solution was found, but {TIMEOUT:g} s "
                                                "were not enough to prove it is the only one"}
    return {"status": "unique", "message": "the puzzle has exactly one solution"}


def rating_json(r) -> dict:
    """A solved walkthrough's rating for the page: ``{"level", "score", "notes",
    "notes_text", "text"}`` as ``deducer rate`` gives them."""
    notes = r.notes_text()
    return {"level": r.level, "score": r.score, "notes": r.notes, "notes_text": notes,
            "text": f"Rated {r.level} (score {r.score:g}" + (f"; {notes}" if notes else "")
            + ")."}


def rating(p: Puzzle) -> dict:
    """The rater's verdict on ``p`` for the page (:func:`rating_json`), or ``{"level":
    None, "text"}`` when the walkthrough did not reach the solution within
    :data:`TIMEOUT`."""
    from ... import api

    exp = api.explain(p.without_progress(), timeout=TIMEOUT)
    r = exp.rating
    if r is None or not r.solved:
        why = exp.message or "the walkthrough did not reach the solution"
        return {"level": None, "score": None, "text": f"Not rated: {why}."}
    return rating_json(r)


def _read_text(text: str, fmt: str | None, which: str | None, label: str) -> Puzzle | dict:
    """Parse puzzle text of any format deducer reads (errors name ``label`` and the line).

    A text holding several puzzles, read without ``which``, gives the choice instead:
    ``{"choose": [names], "source", "format", "message"}`` (the page asks which one)."""
    if fmt is None:
        try:
            fmt = formats.detect(text, label).name
        except PuzzleError:
            raise ApiError(400, f"{label}: cannot tell which puzzle format this is (deducer "
                                f"reads: {', '.join(formats.names())})") from None
    lister = formats.get(fmt).names
    if which is None and lister is not None:
        try:
            found = lister(text)
        except PuzzleError:
            found = []  # the reader below names what is wrong
        if len(found) > 1:
            return {"choose": found, "source": label, "format": fmt,
                    "message": f"{label} holds {len(found)} puzzles: pick one."}
    return formats.loads(text, fmt, name=which, path=label)


def _opened(p: Puzzle, source: str | None) -> dict:
    """The answer to opening a puzzle: refused when it has no solution."""
    verdict = solvability(p)
    if verdict["status"] == "none":
        raise ApiError(422, _capital(verdict["message"]) + ".", kind="none")
    out = model(p)
    out.update(status=verdict["status"], message=_capital(verdict["message"]) + ".",
               source=source)
    if verdict["status"] == "multiple":
        out["message"] += " Check compares your entries with every solution."
        out["cells"] = verdict["cells"]
    elif verdict["status"] == "unique":  # the header rates every puzzle, a file's too
        out["rating"] = rating(p)
    return out


def _label(source: str, which: str | None) -> str:
    """The file's name, and which of its puzzles when it holds several."""
    return f"{source}: {which}" if which else source


def _capital(text: str) -> str:
    """Capitalise a sentence, but never a coordinate like r2c1."""
    if text[:1] == "r" and text[1:2].isdigit():
        return text
    return text[:1].upper() + text[1:]


def _named_cells(message: str) -> list[list[int]]:
    """The square a model error names first (``r3c4: ...``), for the editor to mark."""
    m = re.match(r"r([0-9]+)c([0-9]+)\b", message)
    return [[int(m[1]) - 1, int(m[2]) - 1]] if m else []


def _cells(items) -> list[list[int]]:
    return [list(c) for c in items]


def _digits(mask: int) -> list[int]:
    return [d for d in range(1, 10) if mask >> (d - 1) & 1]


# ---- file paths -------------------------------------------------------------------------------
def safe_path(root: Path, rel) -> Path:
    """``rel`` (a relative path) inside ``root``, resolved; ApiError 400/403 otherwise."""
    if not isinstance(rel, str) or not rel.strip():
        raise ApiError(400, "give a file name (a path inside the folder)")
    if "\x00" in rel or len(rel) > 1024:
        raise ApiError(400, "that is not a usable file name")
    if "\\" in rel:
        raise ApiError(400, "use / between folder names, not \\")
    pp = PurePosixPath(rel)
    if pp.is_absolute() or rel.startswith("~"):
        raise ApiError(403, "absolute paths are not allowed: give a path inside the folder "
                            f"{root}")
    if ".." in pp.parts:
        raise ApiError(403, "'..' is not allowed: give a path inside the folder")
    target = (root / pp).resolve()
    if target != root and not target.is_relative_to(root):
        raise ApiError(403, "that path leads outside the folder (through a symbolic link)")
    return target


SNIFF_BYTES = 64 * 1024  # how much of a listed file is read to tell if it is a puzzle


#: seconds one listing may spend sniffing files (3,000 notes took 16-29 s a call): past it
#: the list is given as it stands, marked truncated, and the next call goes on from the
#: answers kept in :data:`_SNIFFED`
LIST_SECONDS = 2.0
#: file (path, size, modification time) -> is it a puzzle: a file is sniffed once while it
#: is unchanged; at most :data:`SNIFF_CACHE` answers kept
_SNIFFED: dict[tuple, bool] = {}
SNIFF_CACHE = 50_000


def _is_puzzle_file(path: Path) -> bool:
    """Does the file read as a puzzle format (its start, by the formats' own sniffing)?
    Keeps project files with a puzzle extension (SOURCES.txt, expected.json) off the list.
    Asked once per unchanged file (see :data:`_SNIFFED`)."""
    try:
        st = path.stat()
    except OSError:
        return False
    key = (str(path), st.st_size, st.st_mtime_ns)
    known = _SNIFFED.get(key)
    if known is None:
        known = _sniff(path, st.st_size)
        if len(_SNIFFED) >= SNIFF_CACHE:
            _SNIFFED.clear()
        _SNIFFED[key] = known
    return known


def _sniff(path: Path, size: int) -> bool:
    from ...puzzle.fileio import compression

    try:
        if size > formats.MAX_BYTES:
            return False
        with path.open("rb") as f:
            head = f.read(SNIFF_BYTES)
        if compression(head):  # its start says nothing: what it holds does
            head = read_input(path, path.name)[:SNIFF_BYTES]
        text = formats.decode(head, path.name)
        formats.detect(text, path.name)
    except (OSError, DeducerError):
        return False
    return True


def list_files(root: Path) -> tuple[list[str], bool]:
    """Puzzle files under ``root`` (no hidden folders, no links out); truncated?"""
    exts: set[str] = set()
    for n in formats.names():
        exts.update(formats.get(n).extensions)
    import time

    out: list[str] = []
    deadline = time.monotonic() + LIST_SECONDS
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        depth = len(here.relative_to(root).parts)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS
                             and not d.endswith(".egg-info") and depth < MAX_DEPTH)
        for f in sorted(filenames):
            if f.startswith(".") or plain_suffix(f) not in exts:
                continue
            if time.monotonic() > deadline:  # a folder of thousands of notes: what it has
                return out, True
            full = here / f
            try:
                real = full.resolve()
            except OSError:
                continue
            if not real.is_relative_to(root) or not real.is_file() \
                    or not _is_puzzle_file(real):
                continue
            out.append(full.relative_to(root).as_posix())
            if len(out) >= MAX_LISTED:
                return out, True
    return out, False


# ---- the app ----------------------------------------------------------------------------------
def create_app(root: Path, puzzle_path: str | None = None, *, fmt: str | None = None,
               name: str | None = None) -> Flask:
    """The play app serving files of ``root`` and starting from ``puzzle_path`` (if given).

    ``puzzle_path`` (named on the command line, so it may lie anywhere) is read once, here;
    a puzzle with no solution raises :class:`~deducer.errors.DeducerError`.
    """
    from ..cli import is_url

    root = Path(root).resolve()
    if not root.is_dir():
        raise DeducerError("is not a folder", path=str(root))
    start = None
    if puzzle_path is not None:
        if is_url(puzzle_path):  # a link of the page's: the puzzle and the player's position
            p = formats.loads(puzzle_path, fmt, name=name, path="<url>")
            label = "link"
        else:
            p = formats.load(puzzle_path, fmt, name=name)
            label = Path(puzzle_path).name
        try:
            start = _opened(p, label)
        except ApiError as e:
            raise DeducerError(e.message, path=puzzle_path) from None

    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.config["JSON_SORT_KEYS"] = False
    app.json.sort_keys = False  # type: ignore[attr-defined]  # the default provider's
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    session = secrets.token_hex(8)
    app.config["DEDUCER_ROOT"] = root

    heavy = threading.BoundedSemaphore(HEAVY)

    # ---- guards ---------------------------------------------------------------------------
    @app.before_request
    def _guard():
        if request.remote_addr not in LOCAL_ADDRS:
            return _error(403, "this server only answers requests from this computer "
                               "(127.0.0.1)")
        host = (request.host or "").lower()
        hostname = host[1:host.index("]")] if host.startswith("[") and "]" in host \
            else host.split(":")[0]
        if hostname not in LOCAL_NAMES:
            return _error(403, f"unexpected Host {host!r}: open the page as http://127.0.0.1")
        if request.path.startswith("/api/") and _cross_site():
            return _error(403, "requests from other web sites are refused")
        length = request.content_length
        if length is not None and length > MAX_BODY:
            return _error(413, _TOO_BIG)
        if request.path in HEAVY_PATHS:
            if not heavy.acquire(blocking=False):
                return _error(503, "busy: other long computations are running; try again "
                                   "in a moment")
            g.deducer_heavy = True
        return None

    @app.teardown_request
    def _release(_exc):
        if g.pop("deducer_heavy", False):
            heavy.release()

    @app.after_request
    def _headers(resp):
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["X-Frame-Options"] = "DENY"
        resp.headers["Referrer-Policy"] = "no-referrer"
        resp.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
            "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'none'")
        resp.headers["Cache-Control"] = "no-store"
        return resp

    @app.errorhandler(ApiError)
    def _api_error(e: ApiError):
        return _error(e.status, e.message, **e.extra)

    @app.errorhandler(HTTPException)
    def _http_error(e: HTTPException):
        if e.code == 413:
            return _error(413, _TOO_BIG)
        if e.code == 404:
            return _error(404, f"no such page: {request.path}")
        if e.code == 405:
            return _error(405, f"{request.method} is not allowed on {request.path}")
        return _error(e.code or 500, e.description or e.name)

    @app.errorhandler(DeducerError)
    def _deducer_error(e: DeducerError):
        return _error(400, str(e))

    @app.errorhandler(Exception)
    def _internal(e: Exception):
        app.logger.exception("internal error while answering %s", request.path)
        return _error(500, f"internal error ({type(e).__name__}); the terminal running "
                           "'deducer play' shows the details")

    # ---- page -----------------------------------------------------------------------------
    @app.get("/")
    def index():
        return send_from_directory(STATIC, "index.html")

    @app.get("/favicon.ico")
    def favicon():
        return "", 204

    # ---- API ------------------------------------------------------------------------------
    @app.get("/api/start")
    def api_start():
        return jsonify({"start": start, "root": str(root), "session": session,
                        "formats": formats.names(), "save_formats": sorted(SAVE_FORMATS)})

    @app.get("/api/files")
    def api_files():
        files, truncated = list_files(root)
        return jsonify({"root": str(root), "files": files, "truncated": truncated})

    @app.get("/api/open")
    def api_open():
        rel = request.args.get("path")
        if rel is None:
            raise ApiError(400, "missing parameter 'path'")
        target = safe_path(root, rel)
        if not target.is_file():
            raise ApiError(404, f"no such file in the folder: {rel}")
        try:  # size checked first, at most the limit read (never /dev/zero's "whole")
            data = read_input(target, rel)  # a .gz or .bz2 file read through
        except DeducerError as e:
            raise ApiError(400, str(e)) from None
        fmt_ = request.args.get("format") or None
        _check_format(fmt_)
        text = formats.decode(data, rel)
        which = request.args.get("name") or None
        p = _read_text(text, fmt_, which, rel)
        return jsonify(p if isinstance(p, dict) else _opened(p, _label(rel, which)))

    @app.post("/api/parse")
    def api_parse():
        body = _body()
        text = _field(body, "text", str)
        filename = _field(body, "filename", str, required=False)
        fmt_ = _field(body, "format", str, required=False)
        which = _field(body, "name", str, required=False)
        _check_format(fmt_)
        if not text.strip():
            raise ApiError(400, "the file is empty")
        # only the base name is used (to guess the format); nothing is read from disk
        label = PurePosixPath(filename.replace("\\", "/")).name if filename else "upload"
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        if "\x00" in text:
            raise ApiError(400, f"{label}: the file contains a NUL byte (is it a binary file?)")
        p = _read_text(text, fmt_, which, label)
        return jsonify(p if isinstance(p, dict) else _opened(p, _label(label, which)))

    @app.post("/api/create")
    def api_create():
        body = _body()
        grid = _field(body, "grid", list)
        title = _field(body, "name", str, required=False)
        if not grid or not all(isinstance(row, list) and all(isinstance(t, str) for t in row)
                               for row in grid):
            raise ApiError(400, "field 'grid' must be a list of rows, each a list of strings "
                                "('' white, '\\\\' blank, 'D\\\\A' clue)")
        _check_tokens(grid)
        obj = {"format": "deducer", "version": 1, "grid": grid}
        if title:
            obj["name"] = title
        try:
            p = formats.loads(json.dumps(obj), "json")
        except PuzzleError as e:
            raise ApiError(422, _capital(e.message) + ".", kind="invalid",
                           cells=_named_cells(e.message)) from None
        verdict = solvability(p)
        if verdict["status"] == "multiple":
            raise ApiError(422, _capital(verdict["message"]) + ". Change a clue or a square so "
                           "that only one solution is left.", kind="multiple",
                           cells=verdict["cells"])
        if verdict["status"] != "unique":
            raise ApiError(422, _capital(verdict["message"]) + ".", kind=verdict["status"])
        out = model(p)
        rated = rating(p)
        out.update(status="unique", source=title or "new puzzle", rating=rated,
                   message="The puzzle has exactly one solution. " + rated["text"])
        return jsonify(out)

    @app.post("/api/generate")
    def api_generate():
        from ... import api

        body = _body()
        size = _field(body, "size", str)
        level = _field(body, "level", str, required=False)
        seed = _field(body, "seed", int, required=False)
        if seed is None:
            seed = secrets.randbelow(10**9)
        try:
            made = api.generate(size, level or None, seed=seed, timeout=GENERATE_TIMEOUT)
        except api.GenerateError as e:
            raise ApiError(422, _capital(str(e)) + ".") from None
        if not made:
            raise ApiError(422, f"No {level or ''} {size} puzzle was found within "
                                f"{GENERATE_TIMEOUT:g} seconds; try a smaller size or "
                                "another level.".replace("  ", " "), kind="timeout")
        res = made[0]
        assert res.puzzle is not None and res.rating is not None  # made: found in time
        out = model(res.puzzle)
        out.update(status="unique", source=f"generated {size} (seed {res.seed})",
                   rating=rating_json(res.rating),
                   message=f"A new {size} puzzle with one solution, rated "
                           f"{res.rating.level} (seed {res.seed}).")
        return jsonify(out)

    @app.post("/api/check")
    def api_check():
        from ... import api

        p = _puzzle(_body())
        res = api.check(p, timeout=TIMEOUT)
        out = res.to_json()
        out["wrong_entries"] = _cells(m.cell for m in res.wrong_entries)
        out["wrong_pencil"] = _cells(m.cell for m in res.wrong_pencil)
        filled = all(rc in p.entries or rc in p.givens for rc in p.whites)
        out["filled"] = filled
        out["solved"] = filled and res.status == "ok"
        return jsonify(out)

    @app.post("/api/hint")
    def api_hint():
        from ... import api

        body = _body()
        p = _puzzle(body)
        level = _field(body, "level", str, required=False, default="vague")
        apply = _field(body, "apply", bool, required=False, default=False)
        if level not in api.HINT_LEVELS:
            raise ApiError(400, f"field 'level' must be one of {', '.join(api.HINT_LEVELS)}")
        if apply:
            level = "full"
        h = api.hint(p, level, timeout=TIMEOUT)
        out = h.to_json()
        show_where = h.kind == "mistake" or (h.kind == "deduction" and level != "vague")
        by_name = {r.name: r for r in p.runs}
        out["highlight"] = {
            "cells": _cells(h.cells) if show_where else [],
            "runs": [{"name": n, "cells": _cells(by_name[n].coords),
                      "clue": list(at) if (at := by_name[n].clue_at) else None}
                     for n in h.runs if n in by_name] if show_where else [],
        }
        if apply:
            out["edits"] = _hint_edits(p, h)
        return jsonify(out)

    @app.post("/api/allsteps")
    def api_allsteps():
        from ... import api

        p = _puzzle(_body())
        res = api.all_steps(p, timeout=TIMEOUT)
        out = res.to_json()
        by_name = {r.name: r for r in p.runs}
        # what each step looks at, as a hint's highlight
        out["highlights"] = [{
            "cells": _cells(s.cells),
            "runs": [{"name": n, "cells": _cells(by_name[n].coords),
                      "clue": list(at) if (at := by_name[n].clue_at) else None}
                     for n in s.runs if n in by_name]} for s in res.steps]
        return jsonify(out)

    @app.post("/api/why")
    def api_why():
        from ...api import why

        body = _body()
        p = _puzzle(body)
        cell = _field(body, "cell", list)
        digit = _field(body, "digit", int)
        must = _field(body, "must", bool, required=False, default=False)
        if len(cell) != 2 or not all(isinstance(x, int) and not isinstance(x, bool)
                                     for x in cell):
            raise ApiError(400, "field 'cell' must be [row, column]")
        if tuple(cell) not in p.index:
            raise ApiError(400, f"{cell_name(tuple(cell))} is not a white cell")
        if not 1 <= digit <= 9:
            raise ApiError(400, "field 'digit' must be 1-9")
        answer = why(p, tuple(cell), digit, must=must, timeout=TIMEOUT)
        out = answer.to_json()
        out["text"] = answer.text
        out["highlight"] = {"cells": _cells(dict.fromkeys(
            [tuple(c) for s in answer.steps for c in s.cells] + [tuple(cell)]))}
        return jsonify(out)

    @app.post("/api/whatif")
    def api_whatif():
        from ... import api

        body = _body()
        p = _puzzle(body)
        cell = _cell_field(body, p)
        digit = _field(body, "digit", int)
        if not 1 <= digit <= 9:
            raise ApiError(400, "field 'digit' must be 1-9")
        if cell in p.givens:
            raise ApiError(400, f"{cell_name(cell)} holds a given: it cannot change")
        res = api.what_if(p, cell, digit, timeout=TIMEOUT)
        out = res.to_json()
        out["text"] = res.text
        return jsonify(out)

    @app.post("/api/link")
    def api_link():
        p = _puzzle(_body())
        try:
            link = formats.dumps(p, "puzzlink").strip()
        except PuzzleError as e:
            raise ApiError(422, "No link for this puzzle: " + e.message.split(";")[0] + ".",
                           kind="unwritable") from None
        return jsonify({"link": link, "message": "The link reopens this grid as it is now "
                        "(entries and pencil marks): in this page (Open link), or with "
                        "deducer play 'LINK'."})

    @app.post("/api/record")
    def api_record():
        body = _body()
        p = _puzzle(body).without_progress()
        moves = _field(body, "moves", str)
        _check_record(moves, p)
        try:
            text = formats.dumps(p, "janko")
        except PuzzleError as e:
            raise ApiError(422, "Janko's notation cannot hold this puzzle: "
                           + e.message.split(";")[0] + ".", kind="unwritable") from None
        # the moves go in janko's own property, before the record's end
        assert text.endswith("end\n")
        text = text[: -len("end\n")] + "moves\n" + moves + "\nend\n"
        n = len(records.parse(moves).moves)
        return jsonify({"text": text, "filename": _stem(p.name) + "-solve.x-janko",
                        "mime": "text/plain", "moves": n,
                        "message": f"Saved your solve: {n} move{'' if n == 1 else 's'}."})

    @app.post("/api/solve")
    def api_solve():
        from ...api import solve

        p = _puzzle(_body())
        bare = solve(p, max_solutions=2, use_entries=False, timeout=TIMEOUT)
        res = solve(p, max_solutions=1, use_entries=True, timeout=TIMEOUT) \
            if p.entries and bare.solutions else bare
        message = "Solved."
        if len(bare.solutions) > 1:
            message = "Solved. The puzzle has more than one solution; this is one of them" + \
                (" that agrees with your entries." if p.entries and res.solutions else ".")
        if not res.solutions and bare.solutions:
            res = bare
            message = ("Your entries fit no solution together, so they were replaced by a "
                       "solution of the puzzle.")
        if not res.solutions:
            if res.timed_out:
                raise ApiError(422, f"No solution was found within {TIMEOUT:g} s.")
            raise ApiError(422, f"The puzzle cannot be solved: {res.reason}.")
        sol = res.solutions[0]
        entries = [[r, c, d] for (r, c), d in zip(p.whites, sol, strict=True)
                   if (r, c) not in p.givens]
        return jsonify({"entries": entries, "message": message})

    @app.post("/api/candidates")
    def api_candidates():
        from ...api import pencil_marks

        p = _puzzle(_body())
        marks, broken = pencil_marks(p)
        if broken is not None:
            raise ApiError(422, f"your entries leave run {broken.name} without a combination "
                                "of digits that fits; check them first",
                           cells=_cells(broken.coords))
        pencil = [[r, c, _digits(m)] for (r, c), m in sorted(marks.items())]
        return jsonify({"pencil": pencil,
                        "message": "Pencil marks: in each empty cell, the digits its runs' "
                                   "combinations allow beside the digits written in them."})

    @app.post("/api/export")
    def api_export():
        body = _body()
        p = _puzzle(body)
        fmt_ = _save_format(body)
        text = formats.dumps(p, fmt_)
        stem = _stem(p.name)
        return jsonify({"text": text, "format": fmt_,
                        "filename": stem + SAVE_FORMATS[fmt_][0],
                        "mime": "application/json" if fmt_ == "json" else "text/plain"})

    @app.post("/api/save")
    def api_save():
        from ...puzzle.fileio import check_name, write_output

        body = _body()
        p = _puzzle(body)
        fmt_ = _save_format(body)
        rel = _field(body, "path", str)
        overwrite = _field(body, "overwrite", bool, required=False, default=False)
        target = safe_path(root, rel)
        try:
            check_name(target)  # a name too long would fail every look below
        except DeducerError as e:
            raise ApiError(400, str(e).split(": ", 1)[-1]) from None
        suffixes = SAVE_FORMATS[fmt_]
        if target.suffix.lower() not in suffixes:
            raise ApiError(400, f"a {fmt_} file must end in {' or '.join(suffixes)}")
        if target.is_dir():
            raise ApiError(400, f"{rel} is a folder")
        shown = target.relative_to(root).as_posix()
        if target.exists() and not overwrite:
            raise ApiError(409, f"{shown} already exists; confirm to overwrite it",
                           exists=True, path=shown)
        if not target.parent.is_dir():
            raise ApiError(400, f"the folder {target.parent.relative_to(root).as_posix()!r} "
                                "does not exist")
        text = formats.dumps(p, fmt_)
        write_output(target, text, force=overwrite)
        return jsonify({"saved": shown, "bytes": len(text.encode("utf-8")),
                        "message": f"Saved {shown}."})

    @app.post("/api/combos")
    def api_combos():
        from ... import api

        body = _body()
        p = _puzzle(body)
        cell = _cell_field(body, p)
        out = []
        for run in p.runs:
            if cell not in run.coords:
                continue
            shown = []
            for rc in run.coords:
                d = p.givens.get(rc) or p.entries.get(rc)
                shown.append((d, 0 if d else p.pencil.get(rc, 0), cell_name(rc)))
            res = api.combinations(run.total, len(run.coords), shown)
            out.append({"name": run.name, "dir": run.direction, "cells": _cells(run.coords),
                        "clue": list(run.clue_at) if run.clue_at is not None else None,
                        **res.to_json()})
        return jsonify({"cell": list(cell), "runs": out})

    @app.post("/api/replay")
    def api_replay():
        from ... import api

        body = _body()
        which = _field(body, "name", str, required=False)
        text, label, linked = _record_text(root, body)
        which = which or linked
        if which is None:
            from ...puzzle.formats import janko

            ids = janko.recorded(text)
            if len(ids) > 1:
                return jsonify({"choose": ids, "source": label,
                                "message": f"{label} holds {len(ids)} solving records: pick "
                                           "one."})
        rep = api.replay(text, label, name=which, timeout=TIMEOUT)
        out = model(rep.puzzle)
        out["replay"] = rep.to_json()
        name = rep.puzzle.name or _label(label, which)
        out["source"] = name
        n = len(rep.record.moves)
        who = f" by {rep.solver}" if rep.solver else ""
        out["message"] = (f"Replaying the solve of {name}{who}: {n} move"
                          f"{'' if n == 1 else 's'}" +
                          ("" if rep.timed else " (janko.at's records have no times)") + ".")
        return jsonify(out)

    return app


def _record_text(root: Path, body: dict) -> tuple[str, str, str | None]:
    """The text of the record a replay request names (uploaded text, a file of the root
    folder, or a janko.at address looked up in the root folder's janko files), its label
    for messages, and which record of the file a link names (or None)."""
    text = _field(body, "text", str, required=False)
    rel = _field(body, "path", str, required=False)
    link = _field(body, "link", str, required=False)
    if rel is not None:
        target = safe_path(root, rel)
        if not target.is_file():
            raise ApiError(404, f"no such file in the folder: {rel}")
        try:
            return formats.decode(read_input(target, rel), rel), rel, None
        except DeducerError as e:
            raise ApiError(400, str(e)) from None
    if link is not None:
        return _janko_link(root, link.strip())
    if text is None:
        raise ApiError(400, "give the record as 'text', 'path' or 'link'")
    filename = _field(body, "filename", str, required=False)
    label = PurePosixPath(filename.replace("\\", "/")).name if filename else "upload"
    if not text.strip():
        raise ApiError(400, f"{label}: the file is empty")
    if "\x00" in text:
        raise ApiError(400, f"{label}: the file contains a NUL byte (is it a binary file?)")
    return text.replace("\r\n", "\n").replace("\r", "\n"), label, None


#: at most this many of the root folder's files are read to find a janko.at address
MAX_LINK_FILES = 20


def _janko_link(root: Path, link: str) -> tuple[str, str, str | None]:
    """A janko.at Kakuro address (its number) found in the root folder: a file of janko.at
    JSON records holding that number with its moves, or a page or x-janko file whose name
    starts with the number (``002.a.htm``). Nothing is fetched from the web."""
    from ...puzzle.formats import janko

    m = JANKO_LINK.search(link)
    if not m:
        raise ApiError(400, "not a janko.at Kakuro address (like https://www.janko.at/"
                            "Raetsel/Kakuro/002.a.htm)")
    number = int(m.group(1))
    files, _cut = list_files(root)
    looked = 0
    for rel in files:
        path = root / rel
        base = path.name.lower()
        named = re.match(r"0*([0-9]+)\b", base)
        if named and int(named.group(1)) == number and "jsonl" not in base:
            pass
        elif "jsonl" not in base:
            continue
        looked += 1
        if looked > MAX_LINK_FILES:
            break
        try:
            text = formats.decode(read_input(path, rel), rel)
        except DeducerError:
            continue
        if "jsonl" not in base:
            return text, rel, None
        if any(int(pid) == number for pid in janko.recorded(text)):
            return text, rel, str(number)
    raise ApiError(404, f"janko.at Kakuro {number:03d} with its solving record is not in the "
                        "folder (the page reads nothing from the web: put janko.at's file "
                        "or a collection of its records in the folder)")


def _check_tokens(grid: list[list[str]]) -> None:
    """The editor's squares, named by cell: '' white, '\\' blank, 'D\\A' a clue."""
    for r, row in enumerate(grid):
        for c, tok in enumerate(row):
            t = tok.strip()
            if not t:
                continue
            where = cell_name((r, c))
            if t.count("\\") != 1 or len(t) > 12:
                raise ApiError(422, f"{where}: {tok!r} is not a white square (''), a blank "
                                    "('\\') or a clue ('down\\across')", kind="invalid",
                               cells=[[r, c]])
            for part, word in zip(t.split("\\"), ("down", "across"), strict=True):
                if part and not (part.isascii() and part.isdigit() and 1 <= int(part) <= 45):
                    raise ApiError(422, f"{where}: the {word} sum {part!r} is not a whole "
                                        "number 1..45", kind="invalid", cells=[[r, c]])


def _check_record(moves: str, p: Puzzle) -> None:
    """The page's record of a solve (docs/play.md, "Save my solve"), read by the moves
    reader: on one line, each move on a white cell of ``p`` and with its time."""
    if "\n" in moves or "\r" in moves:  # it goes on the one line of janko's property
        raise ApiError(400, "field 'moves' is not a solving record: it holds a line break")
    try:
        rec = records.parse(moves)
    except DeducerError as e:
        raise ApiError(400, f"field 'moves' is not a solving record: {e.message}") from None
    # numbered as the reader numbers them: from 1, the header counted
    for k, mv in enumerate(rec.moves, start=1 if rec.header is None else 2):
        if mv.cell is not None and mv.cell not in p.index:
            raise ApiError(400, f"field 'moves' is not a solving record: move {k} is on "
                                f"{cell_name(mv.cell)}, not a white cell")
        if mv.ms is None:
            raise ApiError(400, f"field 'moves' is not a solving record: move {k} has no "
                                "time (@MS)")


def _cell_field(body: dict, p: Puzzle) -> tuple[int, int]:
    """The white cell a request names as ``cell: [row, col]`` (0-based)."""
    cell = _field(body, "cell", list)
    if len(cell) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in cell):
        raise ApiError(400, "field 'cell' must be [row, column]")
    rc = (cell[0], cell[1])
    if rc not in p.index:
        raise ApiError(400, f"{cell_name(rc)} is not a white cell")
    return rc


def _save_format(body: dict) -> str:
    fmt_ = _field(body, "format", str, required=False, default="pipe")
    if fmt_ not in SAVE_FORMATS:
        raise ApiError(400, f"field 'format' must be one of {', '.join(sorted(SAVE_FORMATS))}")
    return fmt_


def _stem(name: str | None) -> str:
    keep = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in (name or "")).strip("-")
    return keep[:60] or "puzzle"


def _hint_edits(p: Puzzle, h) -> list[dict]:
    """What applying hint ``h`` changes on the player's grid, as per-cell edits.

    A deduction writes its placements as entries and rubs its eliminations out of the
    cells that carry pencil marks (a hint is about what the player sees: cells without
    marks stay without). A mistake hint clears the wrong entries / marks.
    """
    edits: list[dict] = []
    if h.kind == "mistake":
        for m in h.mistakes:
            if m.kind == "entry":
                edits.append({"cell": list(m.cell), "entry": None})
            else:
                edits.append({"cell": list(m.cell), "pencil": []})
        return edits
    if h.kind != "deduction" or h.step is None:
        return edits
    step = h.step
    for r, c, d in step.placements:
        if (r, c) not in p.givens:
            edits.append({"cell": [r, c], "entry": d})
    placed = {(r, c) for r, c, _ in step.placements}
    for r, c, ds in step.eliminations:
        rc = (r, c)
        if rc in placed or rc in p.entries or rc in p.givens or not p.pencil.get(rc):
            continue
        marks = p.pencil[rc]
        for d in ds:
            marks &= ~(1 << (d - 1))
        if marks != p.pencil[rc]:
            edits.append({"cell": [r, c], "pencil": _digits(marks)})
    return edits
