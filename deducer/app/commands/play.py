"""``deducer play``: solve a Kakuro yourself in the browser, with checks and hints."""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import threading
import webbrowser
from pathlib import Path

from ...errors import DeducerError
from ...puzzle import formats
from ..backstop import PROGRAM
from ..cli import whole
from ..exits import EXIT_OK
from ..play.server import create_app, make_server

DEFAULT_PORT = 8765
#: seconds after Ctrl+C by which ``play`` has ended, whatever its server is doing (its own
#: stop gives worker threads 5 s)
STOP_WITHIN = 10.0
_STOPPED = "deducer play: stopped"


def add_parser(sub) -> None:
    p = sub.add_parser(
        "play", help="solve a puzzle yourself in the browser (local web page)",
        description="Start a small web server on 127.0.0.1 (this computer only) and open a "
                    "page where you solve a Kakuro: digits, pencil marks (Shift+digit), "
                    "undo/redo, check against every solution, hints in three tiers, auto "
                    "pencil marks, solve, save; and an editor for new puzzles. Stop it with "
                    "Ctrl+C.")
    p.add_argument("puzzle", nargs="?", metavar="PUZZLE",
                   help="a puzzle file to start with (any format deducer reads), or a "
                        "link the page made (a puzz.link URL; quote it)")

    p.add_argument("--format", choices=formats.names(), help="the file's format (default: detect)")
    p.add_argument("--name", help="which puzzle of a file holding several (e.g. k3)")
    p.add_argument("--port", type=whole, default=DEFAULT_PORT,
                   help=f"port to listen on (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--no-browser", action="store_true", help="do not open a web browser")
    p.add_argument("--root", metavar="DIR", default=".",
                   help="the folder the page may open and save files in (default: the "
                        "current folder); nothing outside it is read or written")


def run(args) -> int:
    if not 0 <= args.port <= 65535:
        raise DeducerError(f"--port {args.port} is not a port number (0-65535)")
    root = Path(args.root)
    if not root.is_dir():
        raise DeducerError("is not a folder (--root)", path=args.root)
    app = create_app(root, args.puzzle, fmt=args.format, name=args.name)
    logging.getLogger("waitress").setLevel(logging.ERROR)  # no banner, no queue warnings
    hint = "(pick another with --port N, or --port 0 for any free port)"
    if args.port:  # ask first, for a one-line error on a busy port
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("127.0.0.1", args.port))
            except OSError as e:
                raise DeducerError(f"cannot listen on 127.0.0.1:{args.port}: "
                                   f"{e.strerror or e} {hint}") from None
    try:
        server = make_server(app, args.port)
    except OSError as e:
        raise DeducerError(f"cannot listen on 127.0.0.1:{args.port} ({e}) {hint}") from None
    url = f"http://127.0.0.1:{server.effective_port}/"
    print(f"deducer play: serving {url} (folder {app.config['DEDUCER_ROOT']}); "
          "press Ctrl+C to stop", flush=True)
    if not args.no_browser:
        threading.Timer(0.3, lambda: webbrowser.open(url)).start()
    if PROGRAM["on"]:  # not in a caller's process (a test calling main()): its own signals
        ctrl_c_stops(STOP_WITHIN)
    try:
        server.run()  # waitress's returns on Ctrl+C
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    print(_STOPPED, file=sys.stderr)
    return EXIT_OK


def ctrl_c_stops(within: float) -> None:
    """Make sure Ctrl+C ends the process: the first raises KeyboardInterrupt as usual (the
    server's loop ends and it closes), and if the process is still there ``within`` seconds
    later, or at a second Ctrl+C, it ends at once (exit 0: the stop was asked for).

    A backstop: once in a full test run, ``play`` answered its page and then did not end for
    a minute after Ctrl+C; the cause was not found (an interrupt swallowed, or a lock held),
    and a user must never be left with a server that will not stop. A SIGINT the process was
    started ignoring (``nohup``) stays ignored.
    """

    if (signal.getsignal(signal.SIGINT) is not signal.default_int_handler
            or threading.current_thread() is not threading.main_thread()):
        return

    def end_now() -> None:
        os.write(2, (_STOPPED + "\n").encode())
        os._exit(EXIT_OK)

    def on_ctrl_c(signum, frame):
        if stopping:
            end_now()
        stopping.append(True)
        timer = threading.Timer(within, end_now)
        timer.daemon = True  # not a reason to stay: the normal stop ends the process
        timer.start()
        raise KeyboardInterrupt

    stopping: list[bool] = []
    signal.signal(signal.SIGINT, on_ctrl_c)
