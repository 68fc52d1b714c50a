"""The janko.at puzzles' ratings by rater version: which changed level, and why.

    python scripts/level_changes.py [--before 7]

Rates every unique janko.at puzzle with the code and rule file as they are and writes
``reports/levels/janko-rater{V}.tsv`` (V: the rater version; one line a puzzle: id, white
cells, level, the rule and weight of the step that set it, score, notes); then compares it
with the file of ``--before`` (default: the newest saved version older than this one): how
many changed level, between which levels, and why (the technique of the step that set the
level, before and after), written as the section "Level changes of the janko.at puzzles"
of reports/ratings.md (which ``python scripts/make_reports.py --only ratings`` keeps when
it rebuilds the rest). Run it after each refit (``python scripts/fit_rating.py --write``).

``--save-as V`` only files the ratings as they are now under version V (to keep the
ratings of the code before a change that bumps the version: run it before the change).

The walks are those of scripts/fit_rating.py, cached in its cache file (``--cache``); a
changed engine or rule file walks again.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from scripts.stats import fmt, spearman  # noqa: E402

LEVELS_DIR = ROOT / "reports" / "levels"
REPORT = ROOT / "reports" / "ratings.md"
TITLE = "## Level changes of the janko.at puzzles"
COLUMNS = ("id", "cells", "level", "level_rule", "level_weight", "score", "notes")


def rate_rows(rows: list[dict]) -> list[dict]:
    """Each janko row's rating under the rule file as it is now (from the cached steps)."""
    from deducer.engine.rating import rate_steps
    from scripts.cached_paths import path_steps

    out = []
    for r in sorted((r for r in rows if r["source"] == "janko"), key=lambda r: r["id"]):
        rt = rate_steps(path_steps(r), r["status"], None, r["cells"],
                        head=tuple(r["head"]) if r.get("head") else None)
        out.append({"id": r["id"], "cells": r["cells"], "level": rt.level or "unrated",
                    "level_rule": rt.level_rule or "-",
                    "level_weight": "-" if rt.level_weight is None else f"{rt.level_weight:g}",
                    "score": "-" if rt.score is None else f"{rt.score:g}",
                    "notes": "-" if rt.notes is None else f"{rt.notes:g}"})
    return out


def save(rated: list[dict], version: str, folder: Path = LEVELS_DIR) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"janko-rater{version}.tsv"
    lines = ["\t".join(COLUMNS)] + ["\t".join(str(r[k]) for k in COLUMNS) for r in rated]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def load(path: Path) -> dict[str, dict]:
    lines = path.read_text(encoding="utf-8").splitlines()
    head = lines[0].split("\t")
    return {r["id"]: r for r in (dict(zip(head, ln.split("\t"), strict=True))
                                 for ln in lines[1:] if ln)}


def saved_versions(folder: Path = LEVELS_DIR) -> list[str]:
    return sorted((p.stem.removeprefix("janko-rater") for p in folder.glob("janko-rater*.tsv")),
                  key=lambda v: (len(v), v))


def _num(v: str) -> float | None:
    return None if v in ("-", "") else float(v)


def markdown(before: dict[str, dict], after: dict[str, dict], v_before: str,
             v_after: str) -> list[str]:
    """The section: level moves, the techniques behind them, and the scores' agreement."""
    from deducer.engine.rating import LEVELS

    order = {lv: k for k, lv in enumerate(LEVELS)}
    ids = sorted(set(before) & set(after))
    moved = [i for i in ids if before[i]["level"] != after[i]["level"]]
    up = sum(1 for i in moved if order.get(after[i]["level"], -1)
             > order.get(before[i]["level"], -1))
    lines = [TITLE, "",
             f"Rater {v_before} against rater {v_after} on the {len(ids)} unique janko.at "
             f"puzzles (`python scripts/level_changes.py --before {v_before}`; the ratings "
             f"of each version are kept in reports/levels/). **{len(moved)} changed level** "
             f"({up} harder, {len(moved) - up} easier); {len(ids) - len(moved)} kept it.",
             ""]
    if moved:
        lines += ["| level before | level after | puzzles |", "|---|---|---|"]
        for (a, b), n in sorted(Counter((before[i]["level"], after[i]["level"])
                                        for i in moved).items(),
                                key=lambda kv: (order.get(kv[0][0], 9), order.get(kv[0][1], 9))):
            lines.append(f"| {a} | {b} | {n} |")
        lines += ["", "Why: the step that set the level, before and after (its rule and "
                  "weight); the puzzles of each change, first five named.", "",
                  "| change | set by, before | set by, after | puzzles | e.g. |",
                  "|---|---|---|---|---|"]
        why: dict[tuple, list[str]] = {}
        for i in moved:
            b, a = before[i], after[i]
            key = (f"{b['level']} -> {a['level']}",
                   f"{b['level_rule']} ({b['level_weight']})",
                   f"{a['level_rule']} ({a['level_weight']})")
            why.setdefault(key, []).append(i)
        for key, which in sorted(why.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            lines.append(f"| {key[0]} | {key[1]} | {key[2]} | {len(which)} | "
                         + ", ".join(which[:5]) + " |")
        lines.append("")
    sb = [_num(before[i]["score"]) for i in ids]
    sa = [_num(after[i]["score"]) for i in ids]
    both = [(x, y) for x, y in zip(sb, sa, strict=True) if x is not None and y is not None]
    if both:
        d = [abs(y - x) for x, y in both]
        lines.append(f"Scores: rho between the two raters' scores "
                     f"{fmt(spearman([x for x, _ in both], [y for _, y in both]))}; median "
                     f"change {statistics.median(d):.1f}, largest {max(d):.1f}; median score "
                     f"{statistics.median(x for x, _ in both):g} before, "
                     f"{statistics.median(y for _, y in both):g} after.")
    notes = [_num(after[i]["notes"]) for i in ids]
    notes = [x for x in notes if x is not None]
    if notes:
        lines.append(f"`notes` (rater {v_after}): median {statistics.median(notes):.2f}; "
                     f"{sum(1 for x in notes if x >= 0.5)} of {len(notes)} puzzles at 0.5 "
                     "or more (pencil marks likely).")
    return lines


def section(before_version: str | None = None) -> list[str]:
    """The section from the saved files: ``before_version`` (default the newest older than
    this rater) against this rater's file; [] when either is missing."""
    from deducer.engine.rating import RATER_VERSION

    saved = saved_versions()
    if RATER_VERSION not in saved:
        return []
    older = [v for v in saved if (len(v), v) < (len(RATER_VERSION), RATER_VERSION)]
    v = before_version or (older[-1] if older else None)
    if v is None or v not in saved:
        return []
    return markdown(load(LEVELS_DIR / f"janko-rater{v}.tsv"),
                    load(LEVELS_DIR / f"janko-rater{RATER_VERSION}.tsv"), v, RATER_VERSION)


def put_section(lines: list[str], report: Path = REPORT) -> None:
    """Replace (or add at the end) the section of reports/ratings.md."""
    text = report.read_text(encoding="utf-8") if report.exists() else ""
    block = "\n".join(lines) + "\n"
    if TITLE in text:
        head, rest = text.split(TITLE, 1)
        nxt = rest.find("\n## ")
        text = head + block + (rest[nxt + 1:] if nxt >= 0 else "")
        if nxt >= 0 and not block.endswith("\n\n"):
            text = text.replace(block, block + "\n", 1)
    else:
        text = text.rstrip("\n") + "\n\n" + block
    report.write_text(text, encoding="utf-8")


def main() -> int:
    from deducer.engine.rating import RATER_VERSION
    from scripts import fit_rating

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache", type=Path, default=fit_rating.CACHE)
    ap.add_argument("--before", help="the rater version to compare with (a saved file)")
    ap.add_argument("--save-as", metavar="V",
                    help="only save the ratings as they are now under rater version V")
    args = ap.parse_args()
    rows = fit_rating.collect(fit_rating._janko_jobs(), args.jobs, None, args.cache)
    path = save(rate_rows(rows), args.save_as or RATER_VERSION)
    print(f"saved {path}", file=sys.stderr)
    if args.save_as:
        return 0
    lines = section(args.before)
    if not lines:
        raise SystemExit("no saved ratings to compare with (reports/levels/janko-rater*.tsv)")
    print("\n".join(lines))
    put_section(lines)
    print(f"wrote the section into {REPORT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
