"""Rebuild everything in reports/: corpus ratings (Markdown + SVG chart), two walkthroughs
and deducer against the janko.at test-solvers' records (human.md).

    python scripts/make_reports.py [--jobs N] [--only ratings|walkthroughs|human]

Reads the corpus from ../shared/corpus (or $DEDUCER_CORPUS); the walkthroughs need only the
bundled puzzles. Output is deterministic: the same corpus and code give the same bytes.
The human part's computations live in scripts/human.py (a fitting script imports them).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: tests.support (the corpus notes) lives here
    sys.path.insert(0, str(ROOT))
from scripts.stats import spearman  # noqa: E402 (after the path is set)

REPORTS = ROOT / "reports"
COMMAND = "python scripts/make_reports.py"

#: publisher label sets, easiest first (the order a good rating keeps)
LABELS = {
    "gecode": ("Nikoli (gecode)", ["Easy", "Medium", "Hard"]),
    "cx16": ("book B5 (cx16)", ["2*", "3*"]),
    "minizinc": ("minizinc benchmarks", ["easy", "hard", "super"]),
    "panpapag": ("PanPapag", ["easy", "intermediate", "hard"]),
}
#: unlabelled published sources, rated for the trial/guessing counts
UNLABELLED = ("janko", "krazydad", "zwvista", "marcelgarus")
#: the chain rungs below trial (issue 12); trial and backtracking are counted apart
CHAIN_RULES = ("bivalue-chain", "forcing-chain")
#: generated puzzles rated beside the corpus (the same seed gives the same puzzles)
GENERATED = (200, 2026)
WALKTHROUGHS = (
    ("easy", "puzzles/seed000-k2.j", None),
    ("hard", "puzzles/deducer-trial.txt", None),
)


def _rate(job):
    source, pid, label, puzzle = job
    from deducer.clock import Limits
    from deducer.engine.walk import explain

    t = time.perf_counter()
    exp = explain(puzzle, limits=Limits.within(120))
    r = exp.rating
    return {
        "source": source, "id": pid, "label": label, "status": exp.status,
        "level": r.level or "unrated", "max_weight": r.max_weight, "score": r.score,
        "effort": r.effort, "steps": r.steps,
        "rules": r.rules, "seconds": time.perf_counter() - t, "cells": len(puzzle.whites),
        "available": r.mean_available, "givens": len(puzzle.givens),
        "max_chain": r.max_chain,
        "chained": any(rule in CHAIN_RULES for rule in r.rules),
    }


def _jobs():
    from deducer.generator.seeded import generated
    from tests.support import corpus

    for source in list(LABELS) + list(UNLABELLED):
        fn = getattr(corpus, source)
        for cp in fn():
            if cp.expected != "unique":
                continue  # ratings grade published, unique puzzles only
            yield (source, cp.id, cp.label, cp.puzzle)
    for k, (_label, puzzle, _sol) in enumerate(generated(*GENERATED), 1):
        yield ("generated", str(k), None, puzzle)


def _rank(level: str) -> int:
    from deducer.engine.rating import LEVELS

    return LEVELS.index(level) if level in LEVELS else -1


def fit_section(jobs: int) -> list[str]:
    """The score against the publishers' labels, in sample and leave-one-source-out
    (scripts/fit_rating.py), and what was learned about the sets that agree with nothing."""
    from deducer.engine.rating import model_for, score_of
    from scripts import fit_rating

    rows = fit_rating.collect(fit_rating._corpus_jobs(), jobs, None, fit_rating.CACHE)
    table, _coef, _offset = fit_rating.rho_table(rows)
    # the shipped score's own figures on the labels the gates name
    solved = [r for r in rows if r["status"] == "solved"]
    model = model_for(None)
    shipped = [score_of(fit_rating.features(r), model) for r in solved]
    gec = [i for i, r in enumerate(solved) if r["group"] == "gecode"]
    nik = spearman([solved[i]["rank"] for i in gec], [shipped[i] for i in gec])
    kd = fit_rating.krazydad_aucs(solved, shipped)
    kd_text = " / ".join("n/a" if v is None else f"{v:.3f}" for v in kd.values())
    return [
        "## Level and score against the publishers' labels",
        "",
        "The shipped score (rules/core.yaml), fitted on these labels alone (`python "
        "scripts/fit_rating.py --write`; docs/rating.md): Nikoli (gecode) rho "
        f"{'n/a' if nik is None else f'{nik:+.3f}'} (gate >= 0.85); KrazyDad books 96-99 "
        f"over 1-4, AUC within volumes, 6x6 / 8x8 / 10x10: {kd_text} (gate >= 0.95 each).",
        "",
        "Spearman's rho between each labelled set's ranks and our level, the grid's size, "
        "the effort (sum of step scores) and the score: in sample (a fit on the publishers' "
        "labels alone, all the sets) and leave-one-source-out (each source "
        "scored by a model fitted on the other sources only: the honest figure). Fitting "
        "and the features: docs/rating.md; refit with `python scripts/fit_rating.py "
        "--write`. KrazyDad's label is the book (1-4 against 96-99), within each size.",
        "",
        *table,
        "",
        *fit_rating.findings(rows),
        "",
    ]


def chart_svg(groups: list[tuple[str, Counter]], levels: tuple[str, ...]) -> str:
    """A stacked horizontal bar per publisher label: share of puzzles at each level."""
    colours = ("#4caf50", "#8bc34a", "#ffc107", "#ff9800", "#f44336", "#7b1fa2")
    bar_h, gap, left, width = 22, 8, 210, 460
    height = 60 + len(groups) * (bar_h + gap) + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 40}" '
           f'height="{height}" font-family="sans-serif" font-size="12">',
           '<text x="10" y="20" font-size="14" font-weight="bold">deducer level by publisher '
           'label (share of puzzles)</text>']
    y = 40
    for name, counts in groups:
        total = sum(counts.values()) or 1
        out.append(f'<text x="{left - 8}" y="{y + 15}" text-anchor="end">{name} '
                   f'(n={sum(counts.values())})</text>')
        x = left
        for lvl, col in zip(levels, colours, strict=True):
            w = width * counts.get(lvl, 0) / total
            if w > 0:
                out.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar_h}" '
                           f'fill="{col}"><title>{name}: {lvl} {counts[lvl]}</title></rect>')
                if w > 18:
                    out.append(f'<text x="{x + w / 2:.1f}" y="{y + 15}" text-anchor="middle" '
                               f'fill="white">{counts[lvl]}</text>')
            x += w
        y += bar_h + gap
    x = left
    for lvl, col in zip(levels, colours, strict=True):
        out.append(f'<rect x="{x}" y="{y + 10}" width="12" height="12" fill="{col}"/>')
        out.append(f'<text x="{x + 16}" y="{y + 21}">{lvl}</text>')
        x += 80
    out.append("</svg>")
    return "\n".join(out) + "\n"


def ratings(jobs: int) -> None:
    from deducer.engine import registry
    from deducer.engine.rating import LEVELS, RATER_VERSION, model_for
    from tests.support.corpus import corpus_root

    max_chain = model_for(registry.load()).max_chain

    if corpus_root() is None:
        print("corpus not found; ratings report not rebuilt", file=sys.stderr)
        return
    work = list(_jobs())
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        rows = list(pool.map(_rate, work, chunksize=8))
    elapsed = time.perf_counter() - t0
    lines = [
        "# Corpus ratings",
        "",
        f"Rebuild: `{COMMAND}` (rater version {RATER_VERSION}). Unique puzzles only; the "
        "level is the tier of the hardest step on the path (never raised for length), "
        f"Extreme = needed level-1 trial or a chain of more than {max_chain} links, "
        "Unreasonable = needed guessing (backtracking). The score is the fitted model of "
        "docs/rating.md (how hard the whole solve is); effort is the sum of the steps' "
        "scores.",
        "",
        *fit_section(jobs),
        "",
        "## Level distribution per publisher label",
        "",
        "| publisher | label | n | " + " | ".join(LEVELS) + " | median effort | "
        "median hardest step | median score |",
        "|---|---|---|" + "---|" * len(LEVELS) + "---|---|---|",
    ]
    chart_groups = []
    corr_lines = []
    for source, (title, order) in LABELS.items():
        mine = [r for r in rows if r["source"] == source and r["label"] in order]
        xs, ys = [], []
        for label in order:
            grp = [r for r in mine if r["label"] == label]
            if not grp:
                continue
            c = Counter(r["level"] for r in grp)
            chart_groups.append((f"{title} {label}", c))
            eff = sorted(r["effort"] for r in grp)
            hw = sorted(r["max_weight"] for r in grp)
            sc = sorted(r["score"] for r in grp if r["score"] is not None) or [0.0]
            lines.append(f"| {title} | {label} | {len(grp)} | "
                         + " | ".join(str(c.get(lv, 0) or "") for lv in LEVELS)
                         + f" | {eff[len(eff) // 2]} | {hw[len(hw) // 2]:.1f} | "
                         f"{sc[len(sc) // 2]:g} |")
            for r in grp:
                xs.append(order.index(label))
                ys.append(r["effort"])
        ordered = [r for lb in order for r in mine if r["label"] == lb]

        def rho_of(key, sign=1.0, xs=xs, ordered=ordered):
            v = spearman(xs, [sign * key(r) for r in ordered])
            return "n/a" if v is None else f"{v:+.2f}"

        corr_lines.append(
            f"| {title} | {len(xs)} | {rho_of(lambda r: _rank(r['level']))} | "
            f"{rho_of(lambda r: r['score'] or 0.0)} | "
            f"{rho_of(lambda r: r['effort'])} | "
            f"{rho_of(lambda r: r['max_weight'])} | "
            f"{rho_of(lambda r: r['effort'] / r['cells'])} | "
            f"{rho_of(lambda r: r['available'], -1.0)} | {rho_of(lambda r: r['givens'], -1.0)} |")
    lines += [
        "",
        "![level distribution per publisher label](ratings.svg)",
        "",
        "## Spearman correlation with the publisher labels",
        "",
        "The small labelled sets the fit leaves out (or, for cx16, repeats): between the label's "
        "rank (easiest = 0) and: our level, our score, our total effort (sum of step scores), "
        "our hardest step, effort per white cell, the simplest-tier moves open per step "
        "(negated: fewer open = harder) and the number of givens (negated). Positive means "
        "the measure keeps the labels' order.",
        "",
        "| publisher | n | rho (level) | rho (score) | rho (effort) | rho (hardest step) | "
        "rho (effort/cell) | rho (-easy moves open) | rho (-givens) |",
        "|---|---|---|---|---|---|---|---|---|",
        *corr_lines,
        "",
        "## Chains, trial and guessing across published puzzles",
        "",
        "A puzzle *needed chains* when its path has a bivalue or forcing chain (and no trial or "
        "guess); the longest chain is its `max_chain` (links, each a simple step). Trial is "
        "a chain longer than the cut-off a person follows "
        f"({max_chain} links) or none at all within it. Generated: "
        f"{GENERATED[0]} puzzles of deducer's generator (seed {GENERATED[1]}, 5x5 to 9x9).",
        "",
        "| source | unique puzzles | solved without chains | needed chains | longest chain: "
        "median / max | needed trial | needed guessing |",
        "|---|---|---|---|---|---|---|",
    ]
    by_source = defaultdict(list)
    for r in rows:
        by_source[r["source"]].append(r)
    still = []
    for source in list(LABELS) + list(UNLABELLED) + ["generated"]:
        grp = by_source.get(source, [])
        guess = [r for r in grp if "backtracking" in r["rules"]]
        trial = [r for r in grp if "trial" in r["rules"] and "backtracking" not in r["rules"]]
        chained = [r for r in grp if r["chained"] and r not in trial and r not in guess]
        lens = sorted(r["max_chain"] for r in chained)
        span = f"{lens[len(lens) // 2]} / {lens[-1]}" if lens else "-"
        plain = len(grp) - len(chained) - len(trial) - len(guess)
        lines.append(f"| {source} | {len(grp)} | {plain} | {len(chained)} | {span} | "
                     f"{len(trial)} | {len(guess)} |")
        if source != "generated":
            still += [(r, "trial") for r in trial] + [(r, "guessing") for r in guess]
    lines += ["", "Published puzzles that still need trial or guessing: "
              + (", ".join(f"{r['source']} {r['id']} ({how}, longest chain {r['max_chain']})"
                           for r, how in still) if still else "none") + "."]
    unsolved = [r for r in rows if r["status"] != "solved" and r["source"] != "generated"]
    lines += [
        "",
        f"Walkthroughs that did not end solved: {len(unsolved)}"
        + ("" if not unsolved else " (" + ", ".join(f"{r['source']} {r['id']}: {r['status']}"
                                                  for r in unsolved[:10]) + ")"),
        "",
        "## Rules used (steps, all rated puzzles)",
        "",
        "| rule | steps | puzzles using it |",
        "|---|---|---|",
    ]
    steps = Counter()
    puzzles = Counter()
    for r in rows:
        steps.update(r["rules"])
        puzzles.update(r["rules"].keys())
    for rule, n in sorted(steps.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"| {rule} | {n} | {puzzles[rule]} |")
    published = [r for r in rows if r["source"] != "generated" and r["status"] == "solved"]
    labelled = [r for r in published if r["source"] in LABELS]

    def mix_row(what: str, grp: list[dict]) -> str:
        mix = Counter(r["level"] for r in grp)
        return (f"| {what} | {len(grp)} | "
                + " | ".join(f"{100 * mix.get(lv, 0) / max(1, len(grp)):.1f}%"
                             for lv in LEVELS) + " |")

    lines += ["", "## Level mix of the published puzzles", "",
              "The publisher-labelled sets of the first table are the collections an "
              "unconstrained `generate` run follows (deducer/generator/request.py DEFAULT_MIX: "
              "Easy 72, Medium 26, Expert 2; benchmarks/bench_generate.py compares a run "
              "with this row). janko's 959 puzzles, mostly large, lean harder.", "",
              "| puzzles | n | " + " | ".join(LEVELS) + " |",
              "|---|---|" + "---|" * len(LEVELS),
              mix_row("publisher-labelled sets", labelled),
              mix_row("every unique published puzzle", published)]
    slow = max(rows, key=lambda r: r["seconds"])
    print(f"rated {len(rows)} puzzles in {elapsed:.1f} s with {jobs} jobs; slowest "
          f"{slow['source']} {slow['id']} {slow['seconds']:.2f} s", file=sys.stderr)
    from scripts import level_changes

    changes = level_changes.section()  # from the saved ratings of each rater version
    if changes:
        lines += ["", *changes]
    REPORTS.mkdir(exist_ok=True)
    (REPORTS / "ratings.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (REPORTS / "ratings.svg").write_text(chart_svg(chart_groups, LEVELS), encoding="utf-8")


def walkthroughs() -> None:
    from deducer.engine.walk import explain
    from deducer.puzzle import formats
    from deducer.render import get

    REPORTS.mkdir(exist_ok=True)
    for tag, rel, name in WALKTHROUGHS:
        path = ROOT / rel
        puzzle = formats.load(path, name=name)
        exp = explain(puzzle)
        header_md = f"<!-- Rebuild: {COMMAND} --only walkthroughs -->\n"
        header_html = f"<!-- Rebuild: {COMMAND} --only walkthroughs -->\n"
        stem = f"walkthrough-{tag}"
        (REPORTS / f"{stem}.md").write_text(
            header_md + get("markdown").walkthrough(puzzle, exp), encoding="utf-8")
        (REPORTS / f"{stem}.html").write_text(
            header_html + get("html").walkthrough(puzzle, exp), encoding="utf-8")
        print(f"{stem}: {rel} {exp.status} {exp.rating.level} ({len(exp.steps)} steps)",
              file=sys.stderr)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", choices=("ratings", "walkthroughs", "human"))
    args = ap.parse_args()
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if args.only in (None, "walkthroughs"):
        walkthroughs()
    if args.only in (None, "ratings"):
        ratings(args.jobs)
    if args.only in (None, "human"):
        from scripts import human

        human.build(args.jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
