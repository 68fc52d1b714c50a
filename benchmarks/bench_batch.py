"""Batch throughput (a script, not a test): python benchmarks/bench_batch.py [--limit N]

Rates every janko puzzle of the corpus as a user would, one whole ``deducer rate FOLDER
--out rows.jsonl`` command per engine: the process pool with --jobs 1 and --jobs 2, and Dask
on a LocalCluster of 2 workers (``--engine dask --jobs 2``). Prints puzzles per second (wall
clock, start-up included), CPU seconds per puzzle (the command and every process it
started, a fork server's workers included), the speed-up from 1 to 2 workers, and Dask
against the pool, and checks that every run wrote the same rows byte for byte.

Targets (issue 14): at least 1.7x from 1 to 2 workers; Dask within 15% of the pool. Both
are compared as a user sees them, each command's own start-up included (the pool's: Python,
deducer, forking its workers; Dask's: importing Dask and starting the cluster). The same
ratio without start-up is printed too, start-up being the time the same command takes over
one puzzle. The engines run one after the other, round after round (``--rounds``), and
every round's ratios are printed: on a shared machine, compare runs of the same round; the
CPU seconds per puzzle is the steadier figure.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from deducer.puzzle import formats  # noqa: E402
from tests.support import corpus  # noqa: E402

POOL1, POOL2, DASK = "pool --jobs 1", "pool --jobs 2", "dask LocalCluster x2"
ENGINES = {POOL1: ("--jobs", "1"), POOL2: ("--jobs", "2"),
           DASK: ("--engine", "dask", "--jobs", "2")}


def adopt_orphans() -> bool:
    """Become the reaper of this process's orphaned descendants (Linux): a Dask fork server,
    and the workers it forked, outlive the command by a moment and are not waited for by it,
    so their CPU time would otherwise be missing from ours."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # SUBREAPER
    except (OSError, AttributeError):
        return False


def reap(deadline: float = 10.0) -> None:
    """Wait for adopted orphans to exit, adding their CPU time to RUSAGE_CHILDREN."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if not pid:
            time.sleep(0.01)
    print("  (a process it started was still running 10 s after it: its CPU is left out)")


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def rate(folder: Path, out: Path, *extra: str) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds, exit code and summary of one whole ``deducer rate``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "deducer", "rate", str(folder), "--out", str(out),
           "--no-timing", "--no-progress", *extra]
    cpu = children_cpu()
    t = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=out.parent)
    wall = time.perf_counter() - t
    reap()
    if proc.returncode not in (0, 1, 4):
        print(f"  {' '.join(extra)}: exit {proc.returncode}: {proc.stderr.strip()}")
    return wall, children_cpu() - cpu, proc.returncode, proc.stdout.strip()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, help="only the first N janko puzzles")
    ap.add_argument("--no-dask", action="store_true", help="leave the Dask run out")
    ap.add_argument("--no-single", action="store_true",
                    help="leave the --jobs 1 run out (Dask against the pool only)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run every engine this many times, interleaved; each round's ratios "
                         "are printed, and their medians")
    args = ap.parse_args()
    if corpus.corpus_root() is None:
        print("corpus not found (set DEDUCER_CORPUS): nothing to measure")
        return 0
    try:
        import distributed  # noqa: F401
        dask = not args.no_dask
    except ImportError:
        print("distributed is not installed (pip install 'deducer[dask]'): no Dask run")
        dask = False
    adopted = adopt_orphans()
    with tempfile.TemporaryDirectory() as tmp:
        folder, one = Path(tmp) / "janko", Path(tmp) / "one"
        folder.mkdir()
        one.mkdir()
        n = 0
        for c in corpus.janko():
            if args.limit is not None and n >= args.limit:
                break
            text = formats.dumps(c.puzzle, "json")
            (folder / f"{c.id}.json").write_text(text, encoding="utf-8")
            if not n:
                (one / f"{c.id}.json").write_text(text, encoding="utf-8")
            n += 1
        names = ([] if args.no_single else [POOL1]) + [POOL2] + ([DASK] if dask else [])
        print(f"rating {n} janko puzzles, one whole 'deducer rate' command per line "
              f"({os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}"
              + ("" if adopted else "; CPU of orphaned processes not counted") + ")")
        print(f"{'engine':<22} {'seconds':>8} {'puzzles/s':>10} {'CPU s/puzzle':>13} "
              f"{'start-up s':>10} {'p/s after':>10} exit")
        wall: dict[str, list[float]] = {k: [] for k in names}
        start: dict[str, list[float]] = {k: [] for k in names}
        cpu_per: dict[str, list[float]] = {k: [] for k in names}
        outputs: dict[str, bytes] = {}
        summary = ""
        for r in range(args.rounds):
            for k, name in enumerate(names):
                out = Path(tmp) / f"rows{k}-{r}.jsonl"
                # start-up: the same command over one puzzle (Python, imports, workers)
                up, _, _, _ = rate(one, Path(tmp) / f"one{k}-{r}.jsonl", *ENGINES[name])
                w, cpu, code, said = rate(folder, out, *ENGINES[name])
                summary = summary or said
                wall[name].append(w)
                start[name].append(up)
                cpu_per[name].append(cpu / n)
                outputs[f"{name} {r}"] = out.read_bytes() if out.exists() else b""
                print(f"{name:<22} {w:>8.1f} {n / w:>10.2f} {cpu / n:>13.4f} {up:>10.2f} "
                      f"{n / max(w - up, 1e-9):>10.2f} {code}  (load {os.getloadavg()[0]:.1f})")
        print("rows:", summary.split(";")[0])
        med = statistics.median
        if not args.no_single:
            ups = [a / b for a, b in zip(wall[POOL1], wall[POOL2], strict=True)]
            print(f"speed-up 1 -> 2 workers, per round: {', '.join(f'{x:.2f}x' for x in ups)}; "
                  f"median {med(ups):.2f}x (target >= 1.7x), scaling efficiency "
                  f"{med(ups) / 2:.0%}")
            # what two idle cores would give: the same CPU work split in two (the wall-clock
            # figure above also measures whoever else is using the machine)
            ideal = 2 * med(cpu_per[POOL1]) / med(cpu_per[POOL2])
            print(f"CPU-bound speed-up (2 x CPU s/puzzle at 1 worker / at 2): {ideal:.2f}x; "
                  f"throughput per core {1 / med(cpu_per[POOL1]):.1f} puzzles/s")
        if dask:
            with_up = [p / d for p, d in zip(wall[POOL2], wall[DASK], strict=True)]
            without = [(p - pu) / (d - du) for p, pu, d, du in
                       zip(wall[POOL2], start[POOL2], wall[DASK], start[DASK], strict=True)]
            cpu = [d / p for p, d in zip(cpu_per[POOL2], cpu_per[DASK], strict=True)]
            print("dask / pool at 2 workers (speed), per round: "
                  f"{', '.join(f'{x:.2f}' for x in with_up)}; median {med(with_up):.2f} "
                  "(the target's figure: each engine's start-up included; target >= 0.85)")
            print("  start-up left out of both: "
                  f"{', '.join(f'{x:.2f}' for x in without)}; median {med(without):.2f} "
                  f"(start-up: pool {med(start[POOL2]):.2f} s, Dask {med(start[DASK]):.2f} s)")
            print(f"  Dask's CPU s/puzzle against the pool's: "
                  f"{', '.join(f'{x:.2f}x' for x in cpu)}; median {med(cpu):.2f}x "
                  "(start-up included)")
        same = len(set(outputs.values())) == 1
        print("rows identical across engines and job counts:", "yes" if same else "NO")
        return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
