"""Write rules/fixtures/<id>.fixtures.yaml: a regression fixture for every core rule.

    python scripts/rule_fixtures.py [--check] [ID ...]

For each rule of the core ladder with a worked example (deducer/data/examples.yaml, the
technique pages' examples), the board its example's walkthrough makes the rule's first step
on, written as a position (pencil marks as candidates; the live combinations where they are
narrower than the candidates make them), the deduction the rule must make there (its
effect: placements, eliminations, combinations ruled out; never the sentence, so rewording
a rule breaks nothing) and up to three runs where it must not fire. Like HoDoKu's
regression library: tests/test_rule_fixtures.py checks every file, so a change to a rule
that loses a deduction it used to make, or makes one where it made none, fails a test.
``--check`` only says whether the files are up to date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: this checkout's deducer
    sys.path.insert(0, str(ROOT))

from deducer import api  # noqa: E402 (after the path is set)
from deducer.engine.walk import Engine  # noqa: E402
from deducer.generator import examples  # noqa: E402
from deducer.puzzle import formats  # noqa: E402
from deducer.puzzle.combos import DIGITS  # noqa: E402
from deducer.rules import fixture  # noqa: E402

FOLDER = ROOT / "rules" / "fixtures"


def board(puzzle, eng):
    """The position text of ``eng``'s board and the live combinations to state."""
    st = eng.state
    whites = puzzle.whites
    entries = {whites[i]: next(iter(DIGITS[st.masks[i]])) for i in range(len(whites))
               if st.placed[i] and whites[i] not in puzzle.givens}
    pencil = {whites[i]: st.masks[i] for i in range(len(whites)) if not st.placed[i]}
    text = formats.dumps(puzzle.with_entries(entries, pencil), "pipe").strip("\n")
    view = fixture.position(text)
    live = {}
    for r in puzzle.runs:
        if view.live(r.id) != st.live[r.id]:
            live[r.label] = [view.combo(c) for c in st.live[r.id]]
    view = fixture.position(text, live=live)
    view.context.rules = list(eng.ladder)
    return text, live, view


def named(f) -> tuple:
    return (f.placements, {c: sorted(ds) for c, ds in f.eliminations.items()},
            {r: sorted(cs) for r, cs in f.dropped.items()})


def from_walk(rule, ex):
    """The board of ``ex``'s last step, if it is the walk's own step of ``rule``, and the
    run (for a run rule) on which the rule, asked alone, makes that deduction."""
    puzzle = ex.puzzle.without_progress()
    eng = Engine(puzzle, api.ladder())
    for _ in ex.steps[:-1]:
        eng.step()
    found = eng.next_deduction()
    if found is None or found[0].id != rule.id:
        return None
    want = named(fixture._named(rule, eng.view, found[1], found[2]))
    text, live, view = board(puzzle, eng)
    step_runs = set(found[1].runs)
    runs = [None] if rule.scope != "run" else (
        [r.label for r in puzzle.runs if r.id in step_runs]
        + [r.label for r in puzzle.runs if r.id not in step_runs])
    for run in runs:
        if any(named(f) == want for f in fixture.fire(rule, view, run=run)):
            return puzzle, eng, text, live, view, run, want, ex.source, len(ex.steps)
    return None


def from_boards(rule, puzzles):
    """The first board of a walkthrough of one of ``puzzles`` where ``rule``, asked alone,
    makes a deduction (a rule the walk seldom or never takes itself: a link-only rule, the
    fallbacks)."""
    for label, puzzle in puzzles:
        puzzle = puzzle.without_progress()
        eng = Engine(puzzle, api.ladder())
        n = 0
        while eng.open_count and n < 400:
            text, live, view = board(puzzle, eng)
            for run in [None] if rule.scope != "run" else [r.label for r in puzzle.runs]:
                got = fixture.first(rule, view, run=run)
                if got is not None:
                    return (puzzle, eng, text, live, view, run, named(got), label, n + 1)
            if eng.step() is None:
                break
            n += 1
    return None


def case_text(rule, ex) -> str | None:
    """The fixture file of ``rule`` (None: no board found)."""
    made = from_walk(rule, ex) if ex is not None else None
    how = "its first step in the walkthrough of"
    if made is None:
        made = from_boards(rule, examples.bundled())
        how = "the first board where it fires alone in the walkthrough of"
    if made is None:
        return None
    puzzle, eng, text, live, view, run, (place, elim, drop), source, n = made
    st = eng.state
    silent = []
    if rule.scope == "run":
        for r in puzzle.runs:
            if len(silent) == 3:
                break
            if any(not st.placed[i] for i in r.cells) and fixture.first(
                    rule, view, run=r.label) is None:
                silent.append(_ascii(r.label))
    lines = [f"# {rule.id}: {how} {source} (step {n}), written by scripts/rule_fixtures.py",
             "fixtures:", f"  - rule: {rule.id}", "    position: |"]
    lines += ["      " + ln for ln in text.splitlines()]
    if live:
        lines.append("    live:")
        lines += [f"      \"{_ascii(k)}\": [{', '.join(repr(c) for c in v)}]"
                  for k, v in live.items()]
    lines.append("    makes:")
    fields = []
    if run:
        fields.append(f"run: \"{_ascii(run)}\"")
    if place:
        fields.append(f"placements: {{{', '.join(f'{c}: {d}' for c, d in place.items())}}}")
    if elim:
        fields.append("eliminations: {" + ", ".join(f"{c}: {list(ds)}" for c, ds in elim.items())
                      + "}")
    if drop:
        fields.append("dropped: {" + ", ".join(f"\"{_ascii(r)}\": {list(cs)}"
                                               for r, cs in drop.items()) + "}")
    lines.append("      - " + fields[0])
    lines += ["        " + f for f in fields[1:]]
    if silent:
        lines.append(f"    silent: [{', '.join(silent)}]")
    return "\n".join(lines).replace("'", "\"") + "\n"


def _ascii(label: str) -> str:
    return label.replace("→", ">").replace("↓", "v")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ids", nargs="*", help="only these rules")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 if a file differs from what this script would write")
    args = ap.parse_args(argv)
    lad = api.ladder()
    found = examples.find(lad, args.ids or None, generate=False)
    stale = 0
    for rule in lad:
        if args.ids and rule.id not in args.ids:
            continue
        text = case_text(rule, found.examples.get(rule.id))
        if text is None:
            print(f"{rule.id}: no board found where it fires", file=sys.stderr)
            continue
        path = FOLDER / f"{rule.id}{fixture.FIXTURE_SUFFIX}"
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                print(f"{path.relative_to(ROOT)} is out of date", file=sys.stderr)
                stale += 1
            continue
        FOLDER.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
