"""``deducer play``: solve a Kakuro yourself in the browser, with checks and hints."""

from __future__ import annotations

import sys

from ..cli import EXIT_OK, whole

DEFAULT_PORT = 8765


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
    from ...puzzle import formats

    p.add_argument("--format", choices=formats.names(), help="the file's format (default: detect)")
    p.add_argument("--name", help="which puzzle of a file holding several (e.g. k3)")
    p.add_argument("--port", type=whole, default=DEFAULT_PORT,
                   help=f"port to listen on (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--no-browser", action="store_true", help="do not open a web browser")
    p.add_argument("--root", metavar="DIR", default=".",
                   help="the folder the page may open and save files in (default: the "
                        "current folder); nothing outside it is read or written")


def run(args) -> int:
    import logging
    import socket
    import threading
    import webbrowser
    from pathlib import Path

    from ...errors import DeducerError
    from ..play.server import create_app, make_server

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
    try:
        server.run()  # waitress's returns on Ctrl+C
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    print("deducer play: stopped", file=sys.stderr)
    return EXIT_OK
