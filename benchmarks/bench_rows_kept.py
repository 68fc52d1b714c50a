"""Rows kept as they finish (a script, not a test): python benchmarks/bench_rows_kept.py

Takes the first ``--count`` (default 300) janko.at records of the corpus and runs ``deducer
rate FILE --out rows.jsonl --no-timing --jobs 2`` three times, as a user would:

1. whole: uninterrupted; the rows file is read every 0.2 s, and the script prints when the
   first row arrived and how many rows the file held at a quarter, half and three quarters
   of the run (issue 54: the largest-first schedule held every row back for 66 s of an
   81-s run);
2. SIGINT at half the whole run's time: the exit code, the rows kept (every row finished,
   all whole lines) and the line the command says;
3. the same command with ``--resume``: its file must be byte for byte the whole run's.

Then the same SIGINT-and-resume with SIGKILL (no goodbye). Needs DEDUCER_CORPUS (or
../shared/corpus beside the checkout).
"""

from __future__ import annotations

import argparse
import bz2
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.corpus import corpus_root  # noqa: E402


def lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def start(cmd: list[str], cwd: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen(cmd, cwd=cwd, env=env, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def watch(proc: subprocess.Popen, out: Path, stop_at: float | None = None,
          sig: int = signal.SIGINT) -> tuple[float, list[tuple[float, int]]]:
    """Wall seconds the run took and (seconds, rows) samples; ``stop_at``: send ``sig``."""
    t0 = time.monotonic()
    samples = []
    sent = False
    while proc.poll() is None:
        now = time.monotonic() - t0
        samples.append((now, lines(out)))
        if stop_at is not None and not sent and now >= stop_at:
            os.killpg(proc.pid, sig)
            sent = True
        time.sleep(0.2)
    return time.monotonic() - t0, samples


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    root = corpus_root()
    src = None if root is None else root / "janko-at-tkoz0" / "Kakuro.jsonl.bz2"
    if src is None or not src.is_file():
        print("the corpus's janko.at file is absent (set DEDUCER_CORPUS)")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        with bz2.open(src, "rt", encoding="utf-8") as fh:
            head = [next(fh) for _ in range(args.count)]
        (work / "janko.jsonl").write_text("".join(head), encoding="utf-8")
        cmd = [sys.executable, "-m", "deducer", "rate", "janko.jsonl", "--no-timing",
               "--jobs", str(args.jobs), "--no-progress", "--out"]
        whole = work / "whole.jsonl"
        took, samples = watch(start(cmd + ["whole.jsonl"], work), whole)
        first = next((t for t, n in samples if n), None)
        at = {q: max((n for t, n in samples if t <= q * took), default=0)
              for q in (0.25, 0.5, 0.75)}
        print(f"whole run: {args.count} puzzles, --jobs {args.jobs}, {took:.1f} s wall; "
              f"first row after {first if first is None else round(first, 1)} s; rows held "
              + ", ".join(f"{n} at {int(q * 100)}%" for q, n in at.items()))
        for sig in (signal.SIGINT, signal.SIGKILL):
            out = work / f"cut-{sig.name}.jsonl"
            proc = start(cmd + [out.name], work)
            _, _samples = watch(proc, out, stop_at=took / 2, sig=sig)
            err = proc.stderr.read() if proc.stderr else ""
            kept = lines(out)
            said = err.strip().splitlines()[-1] if err.strip() else ""
            print(f"{sig.name} at {took / 2:.1f} s: exit {proc.returncode}, {kept} rows kept"
                  + (f"; said: {said}" if said else ""))
            res = subprocess.run(cmd + [out.name, "--resume"], cwd=work, capture_output=True,
                                 text=True,
                                 env=dict(os.environ, PYTHONPATH=str(ROOT)))
            same = out.read_bytes() == whole.read_bytes()
            print(f"  --resume: {res.stdout.strip()}; identical to the whole run: {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
