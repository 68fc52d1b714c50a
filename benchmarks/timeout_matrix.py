"""The timeout matrix: every command that takes ``--timeout`` on the biggest grids deducer
reads, on a loaded machine, must print its (partial) answer soon after the limit.

    python benchmarks/timeout_matrix.py [--timeout 3] [--slack 2] [--busy 2] [--rounds 1]

Grids: three 200x200 boards (6600 two-way islands of 2-cell runs, 400 Latin 9x9 blocks of
45-sum runs, 400 blocks of unclued 9-cell runs) and the 150x150 corpus puzzle (marcizhu
``150_150_easy_unique.kak``, read as it is, when the corpus is found: ``$DEDUCER_CORPUS``
or ``../shared/corpus``; skipped otherwise). Commands: ``solve --json --max-solutions
100000``, ``explain --json``, ``hint --level full``, ``hint --all``, ``why CELL 1``,
``check``, ``render --html``, each with ``--timeout``. Meanwhile ``--busy`` processes
spin (``while 1: pass``; default one a core) so the machine is loaded, and are ended at
the end whatever happens.

A run passes when it ends, counted from its launch, within ``--timeout`` + ``--slack``
seconds with its answer: solve's JSON (``"complete": false`` when cut short), explain's
JSON (status ``timeout``), a line from hint, why and check (``hint --all`` on the corpus
puzzle: the steps found so far, numbered), the HTML page written or render's one
"stopped" line (exit 4: render has no partial answer); never exit 3 or a traceback.
Prints a row per run (the "past limit" column: how far past the limit its answer came)
and exits 1 if any failed.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: tests.support lives beside the package
    sys.path.insert(0, str(ROOT))

from tests.fuzz.bad_input_table import islands_text, unclued_text  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": str(ROOT), "DEDUCER_DEBUG": ""}
CORPUS_PUZZLE = "marcizhu-kakuroapp/kakuros/generated/150_150_easy_unique.kak"


def latin_text(n: int = 200) -> str:
    """``n`` x ``n`` squares of 9x9 blocks whose runs all sum to 45: each block a Latin
    square with ~10^27 solutions, 400 islands at 200x200."""
    rows = []
    for r in range(n):
        row = []
        for c in range(n):
            if r % 10 == 0:
                row.append("\\" if c % 10 == 0 else "45\\")
            else:
                row.append("\\45" if c % 10 == 0 else " ")
        rows.append("|".join(row))
    return "\n".join(rows) + "\n"


def make_grids(folder: Path) -> dict[str, Path]:
    """The matrix's puzzle files, written into ``folder``."""
    grids = {"islands200": ("islands.txt", islands_text(200, 200)),
             "latin200": ("latin.txt", latin_text(200)),
             "unclued200": ("unclued.txt", unclued_text(200))}
    out = {}
    for name, (fname, text) in grids.items():
        (folder / fname).write_text(text, encoding="utf-8")
        out[name] = folder / fname
    from tests.support import corpus

    root = corpus.corpus_root()
    if root is not None and (root / CORPUS_PUZZLE).is_file():
        out["corpus150"] = root / CORPUS_PUZZLE  # a .kak file: one of deducer's formats
    else:
        print(f"(corpus puzzle {CORPUS_PUZZLE} not found: three grids only)")
    return out


def first_cell(path: Path) -> str:
    """The first white cell of the puzzle, named like r2c3 (``why``'s argument)."""
    from deducer.puzzle import formats

    r, c = formats.load(str(path)).whites[0]
    return f"r{r + 1}c{c + 1}"


def commands(path: Path, out: Path) -> dict[str, list[str]]:
    f = str(path)
    return {"solve": ["solve", f, "--json", "--max-solutions", "100000"],
            "explain": ["explain", f, "--json"],
            "hint": ["hint", f, "--level", "full"],
            "hintall": ["hint", f, "--all"],
            "why": ["why", f, first_cell(path), "1"],
            "check": ["check", f],
            "render": ["render", f, "--html", str(out), "--force"]}


def judge(command: str, code: int, stdout: str, stderr: str, out: Path,
          grid: str = "") -> str | None:
    """What is wrong with the run's answer (None: nothing)."""
    if code == 3 or "Traceback" in stderr or "internal error" in stderr:
        return f"exit {code}: {stderr.strip()[-200:]}"
    if command == "render":
        if code == 0 and out.is_file():
            return None
        if code == 4 and "time limit" in stderr:
            return None
        return f"exit {code}, no page and no stop line: {stderr.strip()[:200]}"
    if not stdout.strip():
        return f"exit {code}, nothing printed: {stderr.strip()[:200]}"
    if command in ("solve", "explain"):
        try:
            data = json.loads(stdout)
        except ValueError as e:
            return f"exit {code}, stdout is not JSON ({e})"
        if command == "solve" and code == 4 and data.get("complete") is not False:
            return "exit 4 without \"complete\": false"
        if command == "explain" and code == 4 and data.get("status") != "timeout":
            return f"exit 4 with status {data.get('status')!r}"
    if command == "hintall" and grid == "corpus150" and "\n 1. " not in stdout \
            and "\n1. " not in stdout:  # it has easy steps open: some are found in time
        return f"exit {code} without a step found so far"
    return None


def run_one(argv: list[str], cwd: Path) -> tuple[int, float, str, str]:
    start = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "deducer", *argv], cwd=cwd, env=ENV,
                       capture_output=True, text=True, timeout=600, check=False)
    return r.returncode, time.perf_counter() - start, r.stdout, r.stderr


def spin(n: int) -> list[subprocess.Popen]:
    """``n`` processes that keep a core busy each (ended by :func:`stop`)."""
    return [subprocess.Popen([sys.executable, "-c", "while 1: pass"], start_new_session=True)
            for _ in range(n)]


def stop(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeout", type=float, default=3.0)
    ap.add_argument("--slack", type=float, default=2.0,
                    help="seconds past the limit an answer may take (default 2)")
    ap.add_argument("--busy", type=int, default=os.cpu_count() or 2,
                    help="busy loops kept running meanwhile (default: one a core)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--only", help="comma-separated commands (default: all)")
    args = ap.parse_args()
    failed = 0
    worst = float("-inf")
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        grids = make_grids(folder)
        busy = spin(args.busy)
        try:
            print(f"--timeout {args.timeout:g}, {args.busy} busy loops, "
                  f"load {os.getloadavg()[0]:.1f}")
            print(f"{'grid':11} {'command':8} {'exit':>4} {'seconds':>7} {'past limit':>10}"
                  "  answer")
            for _ in range(args.rounds):
                for name, path in grids.items():
                    out = folder / f"{name}.html"
                    for command, argv in commands(path, out).items():
                        if args.only and command not in args.only.split(","):
                            continue
                        out.unlink(missing_ok=True)
                        code, secs, stdout, stderr = run_one(
                            [*argv, "--timeout", f"{args.timeout:g}"], folder)
                        wrong = judge(command, code, stdout, stderr, out, name)
                        if wrong is None and secs > args.timeout + args.slack:
                            wrong = f"answered {secs - args.timeout:.1f} s after the limit"
                        failed += wrong is not None
                        shown = (stdout.strip() or stderr.strip()).splitlines()
                        text = wrong or (shown[0][:70] if shown else "")
                        worst = max(worst, secs - args.timeout)
                        print(f"{name:11} {command:8} {code:>4} {secs:7.2f} "
                              f"{secs - args.timeout:+10.2f}  "
                              f"{'FAIL ' if wrong else ''}{text}", flush=True)
        finally:
            stop(busy)
    print(f"latest answer: {worst:+.2f} s past the limit; "
          + (f"{failed} failed" if failed else "all answered in time"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
