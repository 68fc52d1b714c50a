"""How long chain steps read, over chain-heavy puzzles: the full ``text`` of every chain step.

    python scripts/chain_sentence_stats.py --generated DIR [--cache FILE.jsonl] [--show N]

The 18 published puzzles whose walkthroughs need a chain (janko 226, marcelgarus 30x30,
minizinc 6x6 super, marcizhu cpu_burner and 14 zwvista levels: the sample of issue 37 and
benchmarks/bench_chains.py) and the puzzles in DIR (e.g. ``deducer generate --needs
forcing-chain --size 12x12 --count 10 --seed 27 --out DIR``). Counts each chain step's
``text`` as ``deducer explain --json`` gives it (label included, unlike
scripts/sentence_stats.py, which leaves the label out), and prints the median, the
quartiles and the longest. ``--cache`` keeps each puzzle's figures (and a digest of its
steps: rule and effects, to tell a wording change from a change of steps) as a JSON line,
so a stopped run goes on and two runs can be compared with ``--compare OTHER.jsonl``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: tests.support (the corpus loaders) lives here
    sys.path.append(str(ROOT))

#: the published puzzles whose walkthroughs need a chain (issue 37's sample)
PUBLISHED = (("janko", "226"), ("marcelgarus", "30x30"), ("minizinc", "kakuro_6_6_super"),
             ("marcizhu", "unsolved/cpu_burner"),
             *(("zwvista", str(n)) for n in (27, 38, 48, 51, 53, 58, 62, 64, 66, 80, 83, 84,
                                            117, 131)))


def _puzzles(generated: Path | None):
    from deducer.puzzle import formats
    from tests.support import corpus

    if corpus.corpus_root() is not None:
        for source, pid in PUBLISHED:
            yield f"{source}/{pid}", (lambda s=source, p=pid: corpus.get(s, p).puzzle)
    if generated is not None:
        for f in sorted(generated.glob("*.txt")):
            yield f"generated/{f.name}", (lambda f=f: formats.load(f))


def _record(puzzle) -> dict:
    """A puzzle's chain steps' texts and a digest of all its steps (rule and effects)."""
    from deducer.engine import registry
    from deducer.engine.walk import explain

    kinds = {r.id: r.kind for r in registry.all_rules()}
    steps = [s.to_json() for s in explain(puzzle).steps]
    effects = [[s["rule"], s.get("placements"), s.get("eliminations")] for s in steps]
    digest = hashlib.sha256(json.dumps(effects, sort_keys=True).encode()).hexdigest()[:16]
    chains = [[s["n"], s["rule"], s["text"]] for s in steps
              if kinds.get(s["rule"]) in ("chain", "trial")]
    return {"steps": len(steps), "digest": digest, "chains": chains}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generated", type=Path)
    ap.add_argument("--cache", type=Path)
    ap.add_argument("--compare", type=Path, help="another run's --cache: steps that differ")
    ap.add_argument("--show", type=int, default=3, help="print the N longest texts")
    args = ap.parse_args(argv)
    done: dict[str, dict] = {}
    if args.cache is not None and args.cache.exists():
        for line in args.cache.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                done[rec["where"]] = rec
    for where, make in _puzzles(args.generated):
        if where not in done:
            done[where] = {"where": where, **_record(make())}
            print(f"{where}: {len(done[where]['chains'])} chain steps", file=sys.stderr,
                  flush=True)
            if args.cache is not None:
                with args.cache.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(done[where]) + "\n")
    texts = [(len(t), where, n, rule, t) for where, rec in done.items()
             for n, rule, t in rec["chains"]]
    published = [x[0] for x in texts if not x[1].startswith("generated/")]
    generated = [x[0] for x in texts if x[1].startswith("generated/")]
    made = sum(1 for w in done if w.startswith("generated/"))
    counts = {"published": len(done) - made, "generated": made, "all": len(done)}
    for name, lens in (("published", published), ("generated", generated),
                       ("all", [x[0] for x in texts])):
        if lens:
            q = statistics.quantiles(lens, n=4) if len(lens) > 1 else [lens[0]] * 3
            print(f"{name}: {len(lens)} chain steps over {counts[name]} puzzles; median "
                  f"{statistics.median(lens):g}, quartiles {q[0]:g} / "
                  f"{q[2]:g}, longest {max(lens)}")
    for chars, where, n, rule, text in sorted(texts, reverse=True)[:args.show]:
        print(f"\n{chars} {where} step {n} {rule}:\n{text}")
    if args.compare is not None:
        other = {json.loads(line)["where"]: json.loads(line)
                 for line in args.compare.read_text(encoding="utf-8").splitlines() if line}
        same = [w for w in done if w in other and other[w]["digest"] == done[w]["digest"]]
        differ = [w for w in done if w in other and other[w]["digest"] != done[w]["digest"]]
        print(f"\nsteps (rule and effects) the same as {args.compare}: {len(same)} puzzles; "
              f"different: {len(differ)} {differ}")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
