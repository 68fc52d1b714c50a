"""Batch scale-out (a script, not a test): python benchmarks/bench_batch.py --workers 1,2

Rates every janko puzzle of the corpus as a user would, one whole ``deducer rate FOLDER
--out rows.jsonl`` command per engine and worker count: the process pool (``--jobs N``) and
Dask on a LocalCluster of N workers (``--engine dask --jobs N``). For each it prints the
wall seconds, the CPU seconds per puzzle (the command and every process it started, a fork
server's workers included), and against the same engine's first worker count, measured in
the same run: the speed-up and the efficiency (speed-up / workers). Every run must write the
same rows byte for byte.

Then the schedule, from measured per-puzzle CPU times (each puzzle rated once in this
process; ``--times FILE`` keeps them for the next run): for each worker count of
``--simulate`` (default 1,2,4,8,16), the makespan that the batch's schedule (largest puzzles
first by the cost estimate ``deducer rate`` uses, tasks sized from the workers) gives on N
workers that each take the next task when free, against the bound no schedule beats,
max(total CPU / N, the largest puzzle); and the same for the schedule before it (input
order, chunks from --jobs). Target (issue 40): within 10% of the bound at 16 workers; 2
workers at least 1.9x one on an otherwise quiet 2-core machine.

The engines run one after the other, round after round (``--rounds``): on a shared
machine the wall-clock speed-up also measures whoever else is running (the load average is
printed with each line); the CPU seconds per puzzle is the steadier figure.
"""

from __future__ import annotations

import argparse
import json
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

from deducer.app.batch import schedule  # noqa: E402
from deducer.puzzle import formats  # noqa: E402
from tests.support import corpus  # noqa: E402

ENGINE_ARGS = {"pool": (), "dask": ("--engine", "dask")}


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


def item_times(files: list[Path]) -> list[float]:
    """Each puzzle's CPU seconds for ``deducer rate``'s row, in this process (the ladder
    loaded first, as a warm worker has it)."""
    from deducer.app.batch.inputs import Task
    from deducer.app.commands import rate as rate_cmd

    settings = (None, (), (), None, False)
    rate_cmd._ladder((), ())
    rate_cmd.rate_one(settings, Task(str(files[0]), path=str(files[0])))  # warm caches
    out = []
    for f in files:
        t = time.process_time()
        rate_cmd.rate_one(settings, Task(str(f), path=str(f)))
        out.append(time.process_time() - t)
    return out


def old_tasks(n: int, workers: int, engine: str, jobs: int | None = None) -> list[list[int]]:
    """The schedule before issue 40: input order, chunks from --jobs (``jobs``, the
    workers by default; a remote Dask scheduler's run kept --jobs 1), shrinking at the end
    by --jobs."""
    workers = workers if jobs is None else jobs
    size = (max(1, min(64, n // (workers * 16))) if engine == "dask"
            else max(1, min(16, n // (workers * 64))))
    tasks, start = [], 0
    while start < n:
        step = max(1, min(size, (n - start) // (4 * workers)))
        tasks.append(list(range(start, min(n, start + step))))
        start += step
    return tasks


def new_tasks(n: int, workers: int, engine: str, costs: list[float]) -> list[list[int]]:
    """The batch's schedule now (deducer.app.batch.schedule.plan), as index lists."""
    return [[k for k, _ in task]
            for task in schedule.plan(list(range(n)), workers, engine, costs=costs)]


def simulate(times: list[float], costs: list[float], counts: list[int]) -> None:
    """Makespans of the schedules on N workers from the measured times, against the bound."""
    n = len(times)
    print(f"\nschedule on N workers, from the {n} puzzles' measured CPU times (total "
          f"{sum(times):.1f} s, largest {max(times):.2f} s): makespan in CPU seconds")
    print(f"{'N':>3} {'bound':>7} {'pool':>7} {'/bound':>7} {'tasks':>6} {'dask':>7} "
          f"{'/bound':>7} {'tasks':>6} | {'before: pool':>12} {'/bound':>7} "
          f"{'dask':>7} {'/bound':>7} {'tasks':>6} {'remote dask':>11} {'/bound':>7}")
    for w in counts:
        b = schedule.bound(times, w)
        row = [f"{w:>3} {b:>7.2f}"]
        for engine in ("pool", "dask"):
            tasks = new_tasks(n, w, engine, costs)
            m = schedule.makespan(times, tasks, w)
            row.append(f"{m:>7.2f} {m / b:>7.3f} {len(tasks):>6}")
        row.append("|")
        for engine in ("pool", "dask"):
            tasks = old_tasks(n, w, engine)
            m = schedule.makespan(times, tasks, w)
            row.append(f"{m:>7.2f} {m / b:>7.3f}" + (f" {len(tasks):>6}" if engine == "dask"
                                                       else "     "))
        m = schedule.makespan(times, old_tasks(n, w, "dask", jobs=1), w)
        row.append(f"{m:>11.2f} {m / b:>7.3f}")
        print(" ".join(row))
    print("(pool, dask: the schedule now, largest first by the size of each puzzle's file, "
          "tasks sized from N; before: input order, chunks from --jobs N; remote dask: a "
          "scheduler's N workers with the --jobs 1 the client was given)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", default="1,2", help="worker counts to run (default 1,2)")
    ap.add_argument("--engines", default="pool,dask", help="pool, dask or both")
    ap.add_argument("--limit", type=int, help="only the first N janko puzzles")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run every engine and worker count this many times, interleaved")
    ap.add_argument("--simulate", default="1,2,4,8,16",
                    help="worker counts to replay the schedule on ('' for none)")
    ap.add_argument("--times", metavar="FILE",
                    help="per-puzzle CPU times: read from FILE if it exists, else measured "
                         "and written there")
    args = ap.parse_args()
    if corpus.corpus_root() is None:
        print("corpus not found (set DEDUCER_CORPUS): nothing to measure")
        return 0
    engines = [e for e in args.engines.split(",") if e]
    if "dask" in engines:
        try:
            import distributed  # noqa: F401
        except ImportError:
            print("distributed is not installed (pip install 'deducer[dask]'): no Dask run")
            engines.remove("dask")
    counts = [int(x) for x in args.workers.split(",") if x]
    adopted = adopt_orphans()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "janko"
        folder.mkdir()
        files = []
        for c in corpus.janko():
            if args.limit is not None and len(files) >= args.limit:
                break
            f = folder / f"{c.id}.json"
            f.write_text(formats.dumps(c.puzzle, "json"), encoding="utf-8")
            files.append(f)
        n = len(files)
        runs = [(e, w) for e in engines for w in counts]
        same = True
        if runs:
            print(f"rating {n} janko puzzles, one whole 'deducer rate' command per line "
                  f"({os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}"
                  + ("" if adopted else "; CPU of orphaned processes not counted") + ")")
            print(f"{'engine':<6} {'workers':>7} {'seconds':>8} {'puzzles/s':>10} "
                  f"{'CPU s/puzzle':>13} {'speed-up':>9} {'efficiency':>10}  load")
            wall: dict[tuple[str, int], list[float]] = {r: [] for r in runs}
            outputs: dict[str, bytes] = {}
            for r in range(args.rounds):
                for k, (engine, w) in enumerate(runs):
                    out = Path(tmp) / f"rows{k}-{r}.jsonl"
                    secs, cpu, code, _ = rate(folder, out, *ENGINE_ARGS[engine], "--jobs",
                                              str(w))
                    wall[(engine, w)].append(secs)
                    outputs[f"{engine} {w} {r}"] = out.read_bytes() if out.exists() else b""
                    base = wall[(engine, counts[0])][-1]
                    up = base / secs * counts[0]
                    print(f"{engine:<6} {w:>7} {secs:>8.1f} {n / secs:>10.2f} {cpu / n:>13.4f} "
                          f"{up:>8.2f}x {up / w:>10.0%}  {os.getloadavg()[0]:.1f}"
                          + ("" if code in (0, 1) else f"  exit {code}"), flush=True)
            if args.rounds > 1:
                print("median over the rounds:")
                for engine, w in runs:
                    med = statistics.median(wall[(engine, w)])
                    up = statistics.median(wall[(engine, counts[0])]) / med * counts[0]
                    print(f"{engine:<6} {w:>7} {med:>8.1f} speed-up {up:.2f}x, efficiency "
                          f"{up / w:.0%}")
            same = len(set(outputs.values())) == 1
            print("rows identical across engines and worker counts:", "yes" if same else "NO")
        sims = [int(x) for x in args.simulate.split(",") if x]
        if sims:
            times = None
            if args.times and Path(args.times).exists():
                saved = json.loads(Path(args.times).read_text(encoding="utf-8"))
                if len(saved) == n:
                    times = saved
            if times is None:
                times = item_times(files)
                if args.times:
                    Path(args.times).write_text(json.dumps(times), encoding="utf-8")
            from deducer.app.batch.inputs import Task
            from deducer.app.commands.rate import cost

            costs = [cost(Task(str(f), path=str(f))) for f in files]
            simulate(times, costs, sims)
        return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
