"""Batch throughput (a script, not a test): python benchmarks/bench_batch.py [--limit N]

Rates every janko puzzle of the corpus as a user would, one whole ``deducer rate FOLDER
--out rows.jsonl`` command per engine: the process pool with --jobs 1 and --jobs 2, and Dask
on a LocalCluster of 2 workers (``--engine dask --jobs 2``). Prints puzzles per second (wall
clock, start-up included), CPU seconds per puzzle (the command and all its workers), the
speed-up from 1 to 2 workers, and Dask against the pool, and checks that every run wrote
the same rows byte for byte.

Targets (issue 14): at least 1.7x from 1 to 2 workers; Dask within 15% of the pool.
The baseline for both ratios is measured in the same run. On a shared machine, wall-clock
figures move with the load: the CPU seconds per puzzle is the steadier figure.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from deducer.puzzle import formats  # noqa: E402
from tests.support import corpus  # noqa: E402


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
    if proc.returncode not in (0, 1, 4):
        print(f"  {' '.join(extra)}: exit {proc.returncode}: {proc.stderr.strip()}")
    return wall, children_cpu() - cpu, proc.returncode, proc.stdout.strip()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, help="only the first N janko puzzles")
    ap.add_argument("--no-dask", action="store_true", help="leave the Dask run out")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run every engine this many times, interleaved, and keep each one's "
                         "best (steadier on a shared machine)")
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
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "janko"
        folder.mkdir()
        n = 0
        for c in corpus.janko():
            if args.limit is not None and n >= args.limit:
                break
            (folder / f"{c.id}.json").write_text(formats.dumps(c.puzzle, "json"),
                                                 encoding="utf-8")
            n += 1
        runs = [("pool --jobs 1", ("--jobs", "1")), ("pool --jobs 2", ("--jobs", "2"))]
        if dask:
            runs.append(("dask LocalCluster x2", ("--engine", "dask", "--jobs", "2")))
        print(f"rating {n} janko puzzles, one whole 'deducer rate' command per line "
              f"({os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f})")
        print(f"{'engine':<22} {'seconds':>8} {'puzzles/s':>10} {'CPU s/puzzle':>13} exit")
        speed: dict[str, float] = {}
        cpu_per: dict[str, float] = {}
        outputs: dict[str, bytes] = {}
        summary = ""
        for r in range(args.rounds):
            for k, (name, extra) in enumerate(runs):
                out = Path(tmp) / f"rows{k}-{r}.jsonl"
                wall, cpu, code, said = rate(folder, out, *extra)
                summary = summary or said
                speed[name] = max(speed.get(name, 0.0), n / wall)
                cpu_per[name] = min(cpu_per.get(name, cpu / n), cpu / n)
                outputs[f"{name} {r}"] = out.read_bytes() if out.exists() else b""
                print(f"{name:<22} {wall:>8.1f} {n / wall:>10.2f} {cpu / n:>13.4f} {code}")
        print("rows:", summary.split(";")[0])
        one, two = speed["pool --jobs 1"], speed["pool --jobs 2"]
        print(f"speed-up 1 -> 2 workers: {two / one:.2f}x (target >= 1.7x), "
              f"scaling efficiency {two / one / 2:.0%}"
              + (f" (best of {args.rounds})" if args.rounds > 1 else ""))
        # what two idle cores would give: the same CPU work split in two (the wall-clock
        # figure above also measures whoever else is using the machine)
        ideal = 2 * cpu_per["pool --jobs 1"] / cpu_per["pool --jobs 2"]
        print(f"CPU-bound speed-up (2 x CPU s/puzzle at 1 worker / at 2): {ideal:.2f}x; "
              f"throughput per core {1 / cpu_per['pool --jobs 1']:.1f} puzzles/s")
        if dask:
            d = speed["dask LocalCluster x2"]
            print(f"dask / pool at 2 workers: {d / two:.2f} (target >= 0.85, within 15%); "
                  f"CPU s/puzzle {cpu_per['dask LocalCluster x2'] / cpu_per['pool --jobs 2']:.2f}"
                  "x the pool's (cluster start-up included)")
        same = len(set(outputs.values())) == 1
        print("rows identical across engines and job counts:", "yes" if same else "NO")
        return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
