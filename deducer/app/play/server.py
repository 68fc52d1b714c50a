"""The play server: one page (``static/``) and a small JSON API over deducer's engine.

Made for one person on one computer, so it is a plain synchronous Flask app, served by
waitress (:func:`.limits.make_server`). The app is put together from small modules:
:mod:`.routes` (a Blueprint: the guards and one function per endpoint), :mod:`.inputs`
(reading a request), :mod:`.answers` (what the routes answer with), :mod:`.files` (the root
folder) and :mod:`.limits` (sizes, time limits, long computations at once, waitress).
What it guarantees:

* it answers only requests from 127.0.0.1 / ::1, whose ``Host`` is a loopback name (a
  DNS-rebinding page cannot reach it);
* the API refuses cross-site requests of every method, GET included (a page elsewhere
  must not make the server solve for 20 s with an ``<img src=/api/open?...>``): a
  browser's ``Sec-Fetch-Site`` must say same-origin (or none: typed in), and ``Origin``
  or ``Referer``, when sent, must be this very origin (scheme, host and port);
* every POST must be ``application/json``, which a cross-site form cannot send
  without a CORS preflight this server never grants;
* request bodies are limited to :data:`.limits.MAX_BODY` (413 with a JSON error), JSON nesting to
  :data:`.limits.MAX_NESTING` (400, however deep);
* waitress reads each request whole before a worker thread sees it, so slow or idle
  clients hold no thread, and it closes a connection idle too long or whose request takes
  too long to arrive; at most :data:`.limits.HEAVY` long computations run at once, so the
  page's quick requests always find a thread;
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

import secrets
from pathlib import Path

from flask import Flask

from ...errors import DeducerError
from ...puzzle import formats
from ..cli import is_url
from . import limits
from .answers import opened
from .inputs import ApiError
from .limits import make_server, stop_server
from .routes import bp

__all__ = ["create_app", "make_server", "stop_server"]


def create_app(root: Path, puzzle_path: str | None = None, *, fmt: str | None = None,
               name: str | None = None) -> Flask:
    """The play app serving files of ``root`` and starting from ``puzzle_path`` (if given).

    ``puzzle_path`` (named on the command line, so it may lie anywhere) is read once, here;
    a puzzle with no solution raises :class:`~deducer.errors.DeducerError`.
    """
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
            start = opened(p, label)
        except ApiError as e:
            raise DeducerError(e.message, path=puzzle_path) from None

    app = Flask(__name__, static_folder=None)  # the blueprint serves static/
    app.config["MAX_CONTENT_LENGTH"] = limits.MAX_BODY
    app.json.sort_keys = False  # type: ignore[attr-defined]  # the default provider's
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.config.update(DEDUCER_ROOT=root, DEDUCER_START=start,
                      DEDUCER_SESSION=secrets.token_hex(8))
    limits.add_slots(app)
    app.register_blueprint(bp)
    return app
