"""Peak memory of whole commands (a script, not a test): python benchmarks/bench_memory.py

Issue 40, item 5: ``deducer explain`` of a puzzle of 3,960 white cells that needs no chain
(janko 960, 990 cells, tiled 2 x 2) at most 40 MB, and ``deducer rate --jobs 2`` over the
janko puzzles at most 130 MB for the whole process tree (the command and its workers).

Each command runs as a process of its own; its tree's resident memory (the sum of VmRSS
over the command and every process under it) is sampled every 50 ms and the peak printed,
beside ``python -c pass``'s, measured in the same run (the baseline: what any Python
process holds). ``--limit N``: rate only the first N janko puzzles. Needs the corpus
(``DEDUCER_CORPUS``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _mem_kb(pid: int) -> tuple[int, int]:
    """(resident, proportional) kB of a process: the resident set counts pages a forked
    worker shares with its parent in both, the proportional set splits them."""
    rss = pss = 0
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
            for line in f:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            kids.setdefault(ppid, []).append(int(name))
    return kids


def tree_peak(cmd: list[str]) -> tuple[float, float, int]:
    """(peak MB of the command's process tree, summed resident sets; the same, summed
    proportional sets; exit code)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = ppeak = 0
    while proc.poll() is None:
        kids = _children()
        todo, total, ptotal = [proc.pid], 0, 0
        while todo:
            p = todo.pop()
            rss, pss = _mem_kb(p)
            total += rss
            ptotal += pss
            todo.extend(kids.get(p, ()))
        peak, ppeak = max(peak, total), max(ppeak, ptotal)
        time.sleep(0.05)
    return peak / 1024, ppeak / 1024, proc.returncode


def main() -> int:
    from deducer.puzzle import formats
    from tests.support import corpus, grids

    limit = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else None
    py = sys.executable
    base, _, _ = tree_peak([py, "-c", "pass"])
    print(f"python -c pass: {base:.1f} MB")
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "janko960x4.json"
        p = grids.tiled(corpus.get("janko", "960").puzzle, 2, 2)
        big.write_text(formats.dumps(p, "json"), encoding="utf-8")
        for what in ([] if "--rate-only" in sys.argv else
                     (["explain", str(big)], ["explain", "--json", str(big)])):
            mb, _, rc = tree_peak([py, "-m", "deducer", *what])
            print(f"deducer {' '.join(what[:-1])} ({len(p.whites)} cells, no chain): "
                  f"{mb:.1f} MB peak ({mb / base:.2f}x python -c pass; target 40 MB), exit {rc}")
        folder = Path(tmp) / "janko"
        folder.mkdir()
        n = 0
        for c in corpus.janko():
            if limit is not None and n >= limit:
                break
            (folder / f"{c.id}.json").write_text(formats.dumps(c.puzzle, "json"),
                                                 encoding="utf-8")
            n += 1
        for jobs in ("1", "2"):
            mb, pss, rc = tree_peak([py, "-m", "deducer", "rate", str(folder), "--jobs", jobs,
                                     "--out", str(Path(tmp) / f"rows{jobs}.jsonl")])
            # exit 1: some puzzle is not solved by the ladder (rate's own exit code)
            print(f"deducer rate --jobs {jobs} ({n} janko puzzles), whole tree: {mb:.1f} MB "
                  f"peak resident ({mb / base:.2f}x python -c pass; target 130 MB with 2), "
                  f"{pss:.1f} MB proportional, exit {rc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
