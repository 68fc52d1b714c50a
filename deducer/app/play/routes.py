"""The play page's routes: a Flask Blueprint whose views are the module's functions.

Each route reads its request (:mod:`.inputs`), asks :mod:`deducer.api` and answers JSON
(:mod:`.answers`); the guards before every request (loopback only, same origin only, the
body's size, a place among the long computations) and the error handlers that turn every
fault into ``{"error": "..."}`` are here too. :func:`deducer.app.play.server.create_app`
registers the blueprint; the app's ``DEDUCER_ROOT`` (the folder), ``DEDUCER_START`` (the
puzzle named on the command line) and ``DEDUCER_SESSION`` configure it.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from urllib.parse import urlsplit

from flask import Blueprint, current_app, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException

from ... import api
from ...errors import DeducerError, PuzzleError
from ...puzzle import formats, records
from ...puzzle.fileio import check_name, write_output
from ...puzzle.formats import janko
from ...puzzle.model import cell_name
from . import answers, files, limits
from .inputs import (
    SAVE_FORMATS,
    ApiError,
    body,
    cell_field,
    check_format,
    check_record,
    check_tokens,
    digit_field,
    field,
    puzzle,
    save_format,
)

STATIC = Path(__file__).resolve().parent / "static"
#: the chain walker both the play page and the HTML walkthrough run (the render layer's)
SHARED_STATIC = Path(__file__).resolve().parents[2] / "render" / "static"
SHARED_SCRIPTS = frozenset({"chainstep.js"})
LOCAL_ADDRS = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})
LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
#: the page's own content only: no inline script, nothing from elsewhere
CSP = ("default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
       "connect-src 'self'; frame-ancestors 'none'; form-action 'none'")

bp = Blueprint("play", __name__)


def _root() -> Path:
    return current_app.config["DEDUCER_ROOT"]


def error(status: int, message: str, **extra):
    """The JSON answer ``{"error": message, **extra}`` with ``status``."""
    resp = jsonify({"error": message, **extra})
    resp.status_code = status
    return resp


# ---- guards -----------------------------------------------------------------------------------
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


@bp.before_app_request
def guard():
    """Refuse what is not this computer's own page asking, before any work."""
    if request.remote_addr not in LOCAL_ADDRS:
        return error(403, "this server only answers requests from this computer (127.0.0.1)")
    host = (request.host or "").lower()
    hostname = host[1:host.index("]")] if host.startswith("[") and "]" in host \
        else host.split(":")[0]
    if hostname not in LOCAL_NAMES:
        return error(403, f"unexpected Host {host!r}: open the page as http://127.0.0.1")
    if request.path.startswith("/api/") and _cross_site():
        return error(403, "requests from other web sites are refused")
    length = request.content_length
    if length is not None and length > limits.MAX_BODY:
        return error(413, limits.TOO_BIG)
    if not limits.take_slot(current_app, request.path):
        return error(503, "busy: other long computations are running; try again in a moment")
    return None


@bp.teardown_app_request
def release(_exc):
    limits.free_slot(current_app)


@bp.after_app_request
def headers(resp):
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["X-Frame-Options"] = "DENY"
    resp.headers["Referrer-Policy"] = "no-referrer"
    resp.headers["Content-Security-Policy"] = CSP
    resp.headers["Cache-Control"] = "no-store"
    return resp


# ---- errors: every one a JSON object, never a traceback ---------------------------------------
@bp.app_errorhandler(ApiError)
def api_error(e: ApiError):
    return error(e.status, e.message, **e.extra)


@bp.app_errorhandler(HTTPException)
def http_error(e: HTTPException):
    if e.code == 413:
        return error(413, limits.TOO_BIG)
    if e.code == 404:
        return error(404, f"no such page: {request.path}")
    if e.code == 405:
        return error(405, f"{request.method} is not allowed on {request.path}")
    return error(e.code or 500, e.description or e.name)


@bp.app_errorhandler(DeducerError)
def deducer_error(e: DeducerError):
    return error(400, str(e))


@bp.app_errorhandler(Exception)
def internal(e: Exception):
    current_app.logger.exception("internal error while answering %s", request.path)
    return error(500, f"internal error ({type(e).__name__}); the terminal running "
                      "'deducer play' shows the details")


# ---- the page ---------------------------------------------------------------------------------
@bp.get("/")
def index():
    return send_from_directory(STATIC, "index.html")


@bp.get("/static/<path:name>")
def static_file(name: str):
    if name in SHARED_SCRIPTS:
        return send_from_directory(SHARED_STATIC, name)
    return send_from_directory(STATIC, name)


@bp.get("/favicon.ico")
def favicon():
    return "", 204


# ---- opening puzzles --------------------------------------------------------------------------
@bp.get("/api/start")
def api_start():
    cfg = current_app.config
    return jsonify({"start": cfg["DEDUCER_START"], "root": str(_root()),
                    "session": cfg["DEDUCER_SESSION"], "formats": formats.names(),
                    "save_formats": sorted(SAVE_FORMATS)})


@bp.get("/api/files")
def api_files():
    found, truncated = files.list_files(_root())
    return jsonify({"root": str(_root()), "files": found, "truncated": truncated})


@bp.get("/api/open")
def api_open():
    rel = request.args.get("path")
    if rel is None:
        raise ApiError(400, "missing parameter 'path'")
    text = files.read_text(_root(), rel)
    fmt_ = request.args.get("format") or None
    check_format(fmt_)
    which = request.args.get("name") or None
    return _opened(text, fmt_, which, rel)


def _opened(text: str, fmt_: str | None, which: str | None, label: str):
    """A file's text read as the page opens it: the puzzle, or the list to choose from."""
    p = answers.read_text(text, fmt_, which, label)
    return jsonify(p if isinstance(p, dict) else answers.opened(p, answers.label(label, which)))


@bp.post("/api/parse")
def api_parse():
    data = body()
    text = field(data, "text", str)
    filename = field(data, "filename", str, required=False)
    fmt_ = field(data, "format", str, required=False)
    which = field(data, "name", str, required=False)
    check_format(fmt_)
    if not text.strip():
        raise ApiError(400, "the file is empty")
    text, label = files.uploaded(text, filename)
    return _opened(text, fmt_, which, label)


@bp.post("/api/create")
def api_create():
    data = body()
    grid = field(data, "grid", list)
    title = field(data, "name", str, required=False)
    if not grid or not all(isinstance(row, list) and all(isinstance(t, str) for t in row)
                           for row in grid):
        raise ApiError(400, "field 'grid' must be a list of rows, each a list of strings "
                            "('' white, '\\\\' blank, 'D\\\\A' clue)")
    check_tokens(grid)
    obj = {"format": "deducer", "version": 1, "grid": grid}
    if title:
        obj["name"] = title
    try:
        p = formats.loads(json.dumps(obj), "json")
    except PuzzleError as e:
        raise ApiError(422, answers.capital(e.message) + ".", kind="invalid",
                       cells=answers.named_cells(e.message)) from None
    verdict = answers.solvability(p)
    said = answers.capital(verdict["message"]) + "."
    if verdict["status"] == "multiple":
        raise ApiError(422, said + " Change a clue or a square so that only one solution is "
                       "left.", kind="multiple", cells=verdict["cells"])
    if verdict["status"] != "unique":
        raise ApiError(422, said, kind=verdict["status"])
    out = answers.model(p)
    rated = answers.rating(p)
    out.update(status="unique", source=title or "new puzzle", rating=rated,
               message="The puzzle has exactly one solution. " + rated["text"])
    return jsonify(out)


@bp.post("/api/generate")
def api_generate():
    data = body()
    size = field(data, "size", str)
    level = field(data, "level", str, required=False)
    seed = field(data, "seed", int, required=False)
    if seed is None:
        seed = secrets.randbelow(10**9)
    limit = limits.GENERATE_TIMEOUT
    try:
        made = api.generate(size, level or None, seed=seed, timeout=limit)
    except api.GenerateError as e:
        raise ApiError(422, answers.capital(str(e)) + ".") from None
    if not made:
        raise ApiError(422, f"No {level or ''} {size} puzzle was found within {limit:g} "
                            "seconds; try a smaller size or another level.".replace("  ", " "),
                       kind="timeout")
    res = made[0]
    assert res.puzzle is not None and res.rating is not None  # made: found in time
    out = answers.model(res.puzzle)
    out.update(status="unique", source=f"generated {size} (seed {res.seed})",
               rating=answers.rating_json(res.rating),
               message=f"A new {size} puzzle with one solution, rated "
                       f"{res.rating.level} (seed {res.seed}).")
    return jsonify(out)


# ---- playing: checks, hints, explanations -----------------------------------------------------
@bp.post("/api/check")
def api_check():
    p = puzzle(body())
    res = api.check(p, timeout=limits.TIMEOUT)
    out = res.to_json()
    out["wrong_entries"] = answers.cells(m.cell for m in res.wrong_entries)
    out["wrong_pencil"] = answers.cells(m.cell for m in res.wrong_pencil)
    filled = all(rc in p.entries or rc in p.givens for rc in p.whites)
    out["filled"] = filled
    out["solved"] = filled and res.status == "ok"
    return jsonify(out)


@bp.post("/api/hint")
def api_hint():
    data = body()
    p = puzzle(data)
    level = field(data, "level", str, required=False, default="vague")
    apply = field(data, "apply", bool, required=False, default=False)
    if level not in api.HINT_LEVELS:
        raise ApiError(400, f"field 'level' must be one of {', '.join(api.HINT_LEVELS)}")
    if apply:
        level = "full"
    h = api.hint(p, level, timeout=limits.TIMEOUT)
    out = h.to_json()
    show_where = h.kind == "mistake" or (h.kind == "deduction" and level != "vague")
    out["highlight"] = answers.highlight(p, h.cells if show_where else (),
                                         h.runs if show_where else ())
    if apply:
        out["edits"] = answers.hint_edits(p, h)
    return jsonify(out)


@bp.post("/api/allsteps")
def api_allsteps():
    p = puzzle(body())
    res = api.all_steps(p, timeout=limits.TIMEOUT)
    out = res.to_json()
    # what each step looks at, as a hint's highlight
    out["highlights"] = [answers.highlight(p, s.cells, s.runs) for s in res.steps]
    return jsonify(out)


@bp.post("/api/why")
def api_why():
    data = body()
    p = puzzle(data)
    cell = cell_field(data, p)
    digit = digit_field(data)
    must = field(data, "must", bool, required=False, default=False)
    answer = api.why(p, cell, digit, must=must, timeout=limits.TIMEOUT)
    out = answer.to_json()
    out["text"] = answer.text
    out["highlight"] = answers.highlight(
        p, dict.fromkeys([tuple(c) for s in answer.steps for c in s.cells] + [cell]))
    return jsonify(out)


@bp.post("/api/whatif")
def api_whatif():
    data = body()
    p = puzzle(data)
    cell = cell_field(data, p)
    digit = digit_field(data)
    if cell in p.givens:
        raise ApiError(400, f"{cell_name(cell)} holds a given: it cannot change")
    res = api.what_if(p, cell, digit, timeout=limits.TIMEOUT)
    out = res.to_json()
    out["text"] = res.text
    return jsonify(out)


@bp.post("/api/combos")
def api_combos():
    data = body()
    p = puzzle(data)
    cell = cell_field(data, p)
    out = []
    for run in p.runs:
        if cell not in run.coords:
            continue
        shown = []
        for rc in run.coords:
            d = p.givens.get(rc) or p.entries.get(rc)
            shown.append((d, 0 if d else p.pencil.get(rc, 0), cell_name(rc)))
        res = api.combinations(run.total, len(run.coords), shown)
        out.append({"name": run.name, "dir": run.direction, "cells": answers.cells(run.coords),
                    "clue": list(run.clue_at) if run.clue_at is not None else None,
                    **res.to_json()})
    return jsonify({"cell": list(cell), "runs": out})


@bp.post("/api/solve")
def api_solve():
    p = puzzle(body())
    limit = limits.TIMEOUT
    bare = api.solve(p, max_solutions=2, use_entries=False, timeout=limit)
    res = api.solve(p, max_solutions=1, use_entries=True, timeout=limit) \
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
            raise ApiError(422, f"No solution was found within {limit:g} s.")
        raise ApiError(422, f"The puzzle cannot be solved: {res.reason}.")
    sol = res.solutions[0]
    entries = [[r, c, d] for (r, c), d in zip(p.whites, sol, strict=True)
               if (r, c) not in p.givens]
    return jsonify({"entries": entries, "message": message})


@bp.post("/api/candidates")
def api_candidates():
    p = puzzle(body())
    marks, broken = api.pencil_marks(p)
    if broken is not None:
        raise ApiError(422, f"your entries leave run {broken.name} without a combination of "
                            "digits that fits; check them first",
                       cells=answers.cells(broken.coords))
    pencil = [[r, c, answers.digits(m)] for (r, c), m in sorted(marks.items())]
    return jsonify({"pencil": pencil,
                    "message": "Pencil marks: in each empty cell, the digits its runs' "
                               "combinations allow beside the digits written in them."})


# ---- links, records, files --------------------------------------------------------------------
@bp.post("/api/link")
def api_link():
    p = puzzle(body())
    try:
        link = formats.dumps(p, "puzzlink").strip()
    except PuzzleError as e:
        raise ApiError(422, "No link for this puzzle: " + e.message.split(";")[0] + ".",
                       kind="unwritable") from None
    return jsonify({"link": link, "message": "The link reopens this grid as it is now "
                    "(entries and pencil marks): in this page (Open link), or with "
                    "deducer play 'LINK'."})


@bp.post("/api/record")
def api_record():
    data = body()
    p = puzzle(data).without_progress()
    moves = field(data, "moves", str)
    check_record(moves, p)
    try:
        text = formats.dumps(p, "janko")
    except PuzzleError as e:
        raise ApiError(422, "Janko's notation cannot hold this puzzle: "
                       + e.message.split(";")[0] + ".", kind="unwritable") from None
    # the moves go in janko's own property, before the record's end
    assert text.endswith("end\n")
    text = text[: -len("end\n")] + "moves\n" + moves + "\nend\n"
    n = len(records.parse(moves).moves)
    return jsonify({"text": text, "filename": answers.stem(p.name) + "-solve.x-janko",
                    "mime": "text/plain", "moves": n,
                    "message": f"Saved your solve: {n} move{'' if n == 1 else 's'}."})


@bp.post("/api/export")
def api_export():
    data = body()
    p = puzzle(data)
    fmt_ = save_format(data)
    text = formats.dumps(p, fmt_)
    return jsonify({"text": text, "format": fmt_,
                    "filename": answers.stem(p.name) + SAVE_FORMATS[fmt_][0],
                    "mime": "application/json" if fmt_ == "json" else "text/plain"})


@bp.post("/api/save")
def api_save():
    data = body()
    p = puzzle(data)
    fmt_ = save_format(data)
    rel = field(data, "path", str)
    overwrite = field(data, "overwrite", bool, required=False, default=False)
    root = _root()
    target = files.safe_path(root, rel)
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


@bp.post("/api/replay")
def api_replay():
    data = body()
    which = field(data, "name", str, required=False)
    text, source, linked = files.record_text(_root(), data)
    which = which or linked
    if which is None:
        ids = janko.recorded(text)
        if len(ids) > 1:
            return jsonify({"choose": ids, "source": source,
                            "message": f"{source} holds {len(ids)} solving records: pick one."})
    rep = api.replay(text, source, name=which, timeout=limits.TIMEOUT)
    out = answers.model(rep.puzzle)
    out["replay"] = rep.to_json()
    name = rep.puzzle.name or answers.label(source, which)
    out["source"] = name
    n = len(rep.record.moves)
    who = f" by {rep.solver}" if rep.solver else ""
    out["message"] = (f"Replaying the solve of {name}{who}: {n} move{'' if n == 1 else 's'}"
                      + ("" if rep.timed else " (janko.at's records have no times)") + ".")
    return jsonify(out)
