"""Chains built from the ladder (a script, not a test): python benchmarks/bench_chains.py

Part 1, shape and soundness: over every corpus puzzle whose walkthrough needs a chain
(janko 226, marcelgarus 30x30, minizinc 6x6 super, marcizhu cpu_burner, and the zwvista
puzzles that need one, found by walking them all) and the generated puzzles given with
``--generated DIR`` (``deducer generate --needs forcing-chain --out DIR``), it prints the
share of chain steps that are whips (target at least 80%), the length distribution (median
at most 6), the trial steps on published puzzles (target 0) and the proof checker's
verdict on every step (all pass).

Part 2, cost (``--tiles 4,6,8``): ``explain`` on k x k copies of puzzles/deducer-trial.txt
(41 white cells each: 656, 1,476 and 2,624 cells), each walk in a subprocess of its own
so that peak memory (ru_maxrss) is the walk's; the fitted exponent of time ~ cells**k
(target at most 1.15) and the peak memory at the largest (target at most 250 MB). With
``--old PATH`` (a checkout of older code, e.g. a git worktree) the same walks run on it
in the same run, for the baseline figures. ``--part 1`` or ``--part 2`` runs one part;
``--no-published`` leaves the corpus out of part 1 (the generated puzzles only).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: tests.support lives beside the package
    sys.path.insert(0, str(ROOT))

from bench_explain import fit_exponent  # noqa: E402  (the same fit as --scaling)

#: the published puzzles whose walkthroughs needed a chain (issue 27), by corpus source
NAMED = (("janko", "226"), ("marcelgarus", "30x30"), ("minizinc", "kakuro_6_6_super"),
         ("marcizhu", "unsolved/cpu_burner"))
CHAINS = ("bivalue-chain", "forcing-chain", "forcing-braid", "trial")


def _arg(name: str, default: str | None = None) -> str | None:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def _walk(label: str, puzzle, published: bool, tally: dict) -> None:
    from deducer.engine.rating import chain_length
    from deducer.engine.walk import explain
    from deducer.proofcheck import check_walkthrough
    from deducer.solver.search import solve

    t = time.perf_counter()
    exp = explain(puzzle)
    dt = time.perf_counter() - t
    chains = [s for s in exp.steps if s.rule in CHAINS]
    problems = check_walkthrough(puzzle, exp.steps)
    agree = None
    if exp.status == "solved":
        sol = solve(puzzle, max_solutions=2)
        agree = len(sol.solutions) == 1 and sol.solutions[0] == exp.solution
    trials = sum(s.rule == "trial" for s in exp.steps)
    kinds = Counter(s.chain_kind for s in chains)
    tally["puzzles"] += 1
    tally["steps"] += len(exp.steps)
    tally["problems"] += len(problems)
    tally["chains"] += len(chains)
    tally["whips"] += kinds["whip"]
    tally["lengths"] += [chain_length(s) for s in chains]
    tally["disagree"] += agree is False
    if published:
        tally["published_trial"] += trials
    print(f"{label:<34} {len(puzzle.whites):>5} {exp.status:<8} {dt:>7.1f}s "
          f"{len(chains):>6} {kinds['whip']:>5} {kinds['braid']:>6} {trials:>5} "
          f"{max((chain_length(s) for s in chains), default=0):>4} "
          f"{'pass' if not problems else f'{len(problems)} FAIL':>6} "
          f"{'-' if agree is None else ('yes' if agree else 'NO'):>5}", flush=True)


def shape(generated: str | None) -> int:
    from deducer.engine.walk import explain
    from deducer.puzzle import formats
    from tests.support import corpus

    if corpus.corpus_root() is None:
        print("the corpus was not found (set DEDUCER_CORPUS)")
        return 2
    tally = {"puzzles": 0, "steps": 0, "problems": 0, "chains": 0, "whips": 0,
             "lengths": [], "published_trial": 0, "disagree": 0}
    print(f"{'puzzle':<34} {'cells':>5} {'status':<8} {'explain':>8} {'chains':>6} "
          f"{'whips':>5} {'braids':>6} {'trial':>5} {'max':>4} {'proofs':>6} "
          f"{'=sol':>5}")
    for source, pid in () if "--no-published" in sys.argv else NAMED:
        cp = corpus.get(source, pid)
        _walk(f"{source}/{pid}", cp.puzzle, True, tally)
    # the zwvista puzzles that need a chain: walk them all, show those
    for cp in () if "--no-published" in sys.argv else corpus.load_source("zwvista"):
        exp = explain(cp.puzzle)
        if any(s.rule in CHAINS for s in exp.steps):
            _walk(f"zwvista/{cp.id}", cp.puzzle, True, tally)
    if generated:
        for f in sorted(Path(generated).glob("*.txt")):
            _walk(f"generated/{f.name}", formats.load(f), False, tally)
    lengths = tally["lengths"]
    share = tally["whips"] / tally["chains"] if tally["chains"] else float("nan")
    print()
    print(f"puzzles walked: {tally['puzzles']}, steps: {tally['steps']}, chain steps: "
          f"{tally['chains']}")
    print(f"whips: {tally['whips']} of {tally['chains']} chain steps = {share:.0%} "
          f"(target >= 80%)")
    if lengths:
        dist = Counter(lengths)
        print(f"length: median {statistics.median(lengths):g} (target <= 6), "
              f"max {max(lengths)}; distribution "
              + ", ".join(f"{n}: {dist[n]}" for n in sorted(dist)))
    print(f"trial steps on published puzzles: {tally['published_trial']} (target 0)")
    print(f"proof checker: {tally['problems']} problem(s) over {tally['steps']} steps "
          f"({'all pass' if not tally['problems'] else 'FAIL'}); solutions that disagree "
          f"with the solver: {tally['disagree']}")
    return 0


_CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from deducer.puzzle import formats
try:
    from deducer.engine.walk import explain
except ImportError:  # the tree before the layers (77381d2)
    from deducer.explain.engine import explain
sys.path.insert(0, sys.argv[3])  # this tree's tests.support: the old tree may lack grids
from tests.support import grids
k = int(sys.argv[2])
p = grids.tiled(formats.load(sys.argv[1] + "/puzzles/deducer-trial.txt"), k, k)
t = time.process_time()  # CPU: the machine may be loaded
exp = explain(p)
dt = time.process_time() - t
print(json.dumps({"cells": len(p.whites), "seconds": dt, "status": exp.status,
                  "chains": sum(getattr(s, "chain", 0) > 0 for s in exp.steps),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _tile(root: Path, k: int, timeout: float) -> dict | None:
    env = {**os.environ, "PYTHONPATH": str(root)}
    try:
        out = subprocess.run([sys.executable, "-c", _CHILD, str(root), str(k), str(ROOT)],
                             env=env,
                             capture_output=True, text=True, timeout=timeout, cwd=root)
    except subprocess.TimeoutExpired:
        return None
    if out.returncode:
        print(out.stderr.strip().splitlines()[-1:], flush=True)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def cost(tiles: list[int], old: str | None, timeout: float) -> int:
    roots = [("this", ROOT)] + ([("old", Path(old))] if old else [])
    print(f"{'code':<5} {'copies':>6} {'cells':>5} {'explain':>9} {'chains':>6} "
          f"{'peak MB':>8}")
    for label, root in roots:
        got = []
        for k in tiles:
            r = _tile(root, k, timeout)
            if r is None:
                print(f"{label:<5} {k * k:>6} {'':>5} {'>' + str(int(timeout)) + 's':>9}",
                      flush=True)
                continue
            got.append(r)
            print(f"{label:<5} {k * k:>6} {r['cells']:>5} {r['seconds']:>8.1f}s "
                  f"{r['chains']:>6} {r['peak_mb']:>8.0f}", flush=True)
        if len(got) >= 2:
            k = fit_exponent([r["cells"] for r in got], [r["seconds"] for r in got])
            print(f"{label:<5} fitted exponent {k:.2f} (target <= 1.15); peak memory at "
                  f"{got[-1]['cells']} cells: {got[-1]['peak_mb']:.0f} MB (target <= 250)",
                  flush=True)
    return 0


def main() -> int:
    part = _arg("--part")
    code = 0
    if part in (None, "1"):
        code |= shape(_arg("--generated"))
    if part in (None, "2"):
        tiles = [int(x) for x in (_arg("--tiles") or "4,6,8").split(",")]
        code |= cost(tiles, _arg("--old"), float(_arg("--timeout") or 1800))
    return code


if __name__ == "__main__":
    sys.exit(main())
