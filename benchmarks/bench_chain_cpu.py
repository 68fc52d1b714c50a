"""Chain walkthroughs' CPU against older code (a script, not a test):

    python benchmarks/bench_chain_cpu.py --old PATH [--rounds N] [--janko N] [--no-chains]

Issue 40, item 1: on the published puzzles whose walkthroughs need a chain (janko 226,
marcelgarus 30x30, minizinc 6x6 super, marcizhu cpu_burner and the zwvista puzzles that
need one: 18), ``explain`` at most the CPU of the code before the chain rewrite (77381d2)
as a geometric mean, and at most 1.5x on the worst. ``--old PATH``: a copy of the older
tree (``git archive 77381d2 | tar -x -C PATH``; not a worktree). Each walk runs in a fresh
process of its own (the ladder loaded, not timed; the walk's CPU timed), old and new
alternately, best of ``--rounds`` (default 5: here one process's CPU time for the same
walk moves by a third from run to run, and with the best of three one puzzle's ratio
still swung by 0.2 between runs). Needs the corpus (``DEDUCER_CORPUS``).
The two bundled puzzles whose walkthroughs need a chain (puzzles/deducer-trial.txt and
generated-6x6-s23.txt) come first, a group of their own. ``--janko N`` adds the first N
janko.at puzzles with one solution (issue 51: explain within 1.1x on the bundled chain
puzzles and on 50 janko.at puzzles), ``--no-chains`` leaves the published chain puzzles
out; the geometric mean and the total CPU are printed per group.
``--ids FILE`` reuses the list of zwvista puzzles that need a chain (found by walking all
131 with the current code, and written there when absent).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NAMED = (("janko", "226"), ("marcelgarus", "30x30"), ("minizinc", "kakuro_6_6_super"),
         ("marcizhu", "unsolved/cpu_burner"))
CHAINS = ("bivalue-chain", "forcing-chain", "forcing-braid", "trial")
#: the bundled puzzles whose walkthroughs need a chain (puzzles/: issue 51's "bundled chain
#: puzzles"), first, as a group of their own
BUNDLED = ("deducer-trial.txt", "generated-6x6-s23.txt")

WALK = """
import sys, time, json
sys.path.insert(0, sys.argv[1])
from deducer.puzzle import formats
try:
    from deducer.engine import registry
    from deducer.engine.walk import explain
except ImportError:  # the tree before the layers (77381d2): deducer.explain
    from deducer.explain import registry
    from deducer.explain.engine import explain
p = formats.load(sys.argv[2])
rules = registry.load()
t = time.process_time()
e = explain(p, rules)
print(json.dumps([time.process_time() - t, len(e.steps)]))
"""


#: each puzzle's best CPU seconds, old and new
TOTALS: dict[str, list[float]] = {"old": [], "new": []}


def _arg(name: str, default: str | None = None) -> str | None:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def _cpu(tree: str, path: Path) -> tuple[float, int]:
    env = {**os.environ, "PYTHONPATH": tree}
    out = subprocess.run([sys.executable, "-c", WALK, tree, str(path)], env=env, cwd=tree,
                         capture_output=True, text=True, check=True).stdout
    t, n = json.loads(out.strip().splitlines()[-1])
    return t, n


def main() -> int:
    from deducer.engine.walk import explain
    from deducer.puzzle import formats
    from tests.support import corpus

    old = _arg("--old")
    if old is None:
        print("--old PATH is needed (a copy of the older tree)")
        return 2
    rounds = int(_arg("--rounds", "5"))
    ids_file = Path(_arg("--ids", "/tmp/deducer-chain-zwvista.json"))
    if ids_file.exists():
        zw = json.loads(ids_file.read_text())
    else:
        zw = [cp.id for cp in corpus.load_source("zwvista")
              if any(s.rule in CHAINS for s in explain(cp.puzzle).steps)]
        ids_file.write_text(json.dumps(zw))
    bundled = [(f"puzzles/{name}", formats.load(ROOT / "puzzles" / name)) for name in BUNDLED]
    cases = [(f"{s}/{pid}", corpus.get(s, pid).puzzle) for s, pid in NAMED]
    cases += [(f"zwvista/{pid}", corpus.get("zwvista", pid).puzzle) for pid in zw]
    if "--no-chains" in sys.argv:
        cases = []
    cases = bundled + cases
    janko = int(_arg("--janko", "0"))  # issue 51: and the first N janko.at puzzles
    janko_cases = [(f"janko/{cp.id}", cp.puzzle) for cp in corpus.janko()
                   if cp.expected == "unique"][:janko] if janko else []
    cases += janko_cases
    tmp = Path(_arg("--tmp", "/tmp"))
    ratios = []
    print(f"{'puzzle':<34} {'old s':>7} {'new s':>7} {'ratio':>6} {'steps':>11}")
    for label, p in cases:
        f = tmp / ("chaincpu-" + label.replace("/", "_") + ".json")
        f.write_text(formats.dumps(p, "json"), encoding="utf-8")
        best_old = best_new = math.inf
        for _ in range(rounds):
            to, no = _cpu(old, f)
            tn, nn = _cpu(str(ROOT), f)
            best_old, best_new = min(best_old, to), min(best_new, tn)
        ratios.append(best_new / best_old)
        TOTALS["old"].append(best_old)
        TOTALS["new"].append(best_new)
        print(f"{label:<34} {best_old:7.2f} {best_new:7.2f} {ratios[-1]:6.2f} "
              f"{no:>5}/{nn:<5}", flush=True)
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"\n{len(ratios)} puzzles: geometric mean new/old {geo:.2f} (target <= 1.0), worst "
          f"{max(ratios):.2f} (target <= 1.5)")
    # the chain puzzles and the janko ones apart (janko 226 is a chain puzzle: by position,
    # not by name), each with its total CPU as well
    chained = len(cases) - (len(janko_cases) if janko else 0)
    nb = len(bundled)
    for name, lo, hi in (("bundled chain", 0, nb), ("published chain", nb, chained),
                         ("janko", chained, len(cases))):
        rs = ratios[lo:hi]
        if rs and (janko or name == "bundled chain"):
            g = math.exp(sum(math.log(r) for r in rs) / len(rs))
            to, tn = sum(TOTALS["old"][lo:hi]), sum(TOTALS["new"][lo:hi])
            print(f"{name} puzzles ({len(rs)}): geometric mean {g:.2f}, worst {max(rs):.2f}, "
                  f"total CPU old {to:.2f} s, new {tn:.2f} s, new/old {tn / to:.2f}")
    totals = sum(t for t in TOTALS["old"]), sum(t for t in TOTALS["new"])
    print(f"total CPU: old {totals[0]:.1f} s, new {totals[1]:.1f} s, new/old "
          f"{totals[1] / totals[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
