"""``explain`` CPU against older code, side by side (a script, not a test):

    python benchmarks/bench_wording_cpu.py --old PATH [--janko N] [--rounds R]

Issue 51: explain's CPU time on the bundled chain puzzles (scripts/heavy_reasons.py's 17)
and on ``--janko`` janko.at puzzles (default 50: every 9th) within 1.1x of the code before
the wording change. ``--old PATH``: a copy of the older tree (``git archive <commit> | tar
-x -C PATH``). Each walk runs in a fresh process of its own (bench_chain_cpu's), old and new
alternately, best of ``--rounds`` (default 1); prints each puzzle's ratio, the geometric
mean and the total. Needs the corpus (``DEDUCER_CORPUS``).
"""

from __future__ import annotations

import math
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_chain_cpu import _cpu  # noqa: E402
from scripts.heavy_reasons import CHAINS  # noqa: E402


def main() -> int:
    from deducer.puzzle import formats
    from tests.support import corpus

    args = sys.argv[1:]
    old = args[args.index("--old") + 1]
    n = int(args[args.index("--janko") + 1]) if "--janko" in args else 50
    rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else 1
    picked = [(f"janko/{cp.id}", cp.puzzle) for cp in list(corpus.janko())[::9][:n]]
    picked += [(f"{s}/{i}", corpus.get(s, i).puzzle) for s, i in CHAINS]
    ratios, t_old, t_new = [], 0.0, 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for where, p in picked:
            path = Path(tmp) / "p.json"
            path.write_text(formats.dumps(p, "json"), encoding="utf-8")
            a = min(_cpu(old, path)[0] for _ in range(rounds))
            b = min(_cpu(str(ROOT), path)[0] for _ in range(rounds))
            t_old, t_new = t_old + a, t_new + b
            ratios.append(b / a if a else 1.0)
            print(f"{where}: old {a:.3f} s, new {b:.3f} s, ratio {ratios[-1]:.2f}", flush=True)
    gm = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"{len(ratios)} puzzles: total old {t_old:.2f} s, new {t_new:.2f} s "
          f"(ratio {t_new / t_old:.3f}); geometric mean {gm:.3f}, worst {max(ratios):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
