"""Plain-text renderer: aligned grids for terminals, logs and diffs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ..errors import printable
from ..puzzle.combos import SINGLE
from ..puzzle.formats import dumps
from ..puzzle.model import Puzzle, cell_name
from . import Renderer

# the walkthrough helpers (.walk) are imported where a walkthrough is written: `deducer
# solve` prints through this module and needs none of them


def clue_text(sq) -> str:
    if not sq.is_clue:
        return "#"
    return f"{sq.down or ''}\\{sq.across or ''}"


def draw_grid(puzzle: Puzzle, values: list[int] | None = None, *, fixed: dict | None = None) -> str:
    """The grid with clues as ``d\\a``, blanks as ``#``, digits where known, ``.`` where not."""
    known: dict = {}
    if values is not None:
        known = {rc: v for rc, v in zip(puzzle.whites, values, strict=True) if v}
    if fixed:
        known.update(fixed)
    cells = []
    for r, row in enumerate(puzzle.squares):
        line = []
        for c, sq in enumerate(row):
            line.append(str(known.get((r, c), ".")) if sq.white else clue_text(sq))
        cells.append(line)
    width = max(len(t) for line in cells for t in line)
    return "\n".join(" ".join(t.rjust(width) for t in line).rstrip() for line in cells)



def verdict(result) -> str:
    n = len(result.solutions)
    if not result.solutions:
        if result.timed_out:
            return f"no solution found before the time limit ({result.reason})"
        return f"no solution: {result.reason}"
    if n == 1 and result.complete:
        return "unique solution"
    if n == 1:
        why = "time limit" if result.timed_out else "--max-solutions 1"
        return f"1 solution found; uniqueness not checked ({why} stopped the search)"
    if result.complete:
        return f"{n} solutions (all of them)"
    why = "the time limit" if result.timed_out else f"the cap (--max-solutions {n})"
    return f"at least {n} solutions ({why} stopped the search)"


#: why a walkthrough that ended so is not rated
_UNRATED = {"multiple": "the puzzle has more than one solution",
            "none": "the puzzle has no solution",
            "timeout": "the time limit stopped the walkthrough",
            "stalled": "the rules stalled before the solution"}


def unrated_reason(status: str | None, message: str | None = None) -> str:
    """Why a walkthrough that ended with ``status`` carries no level (a stalled one's own
    ``message`` says why it stopped: --max-steps, or a false step)."""
    if str(status) == "stalled" and message:
        return message
    if str(status) == "timeout" and message and message.startswith("interrupted"):
        return "interrupted (Ctrl-C) before the end"  # not the time limit
    return _UNRATED.get(str(status), "the walkthrough did not reach the one solution")


def rating_line(rating, status: str | None = None, message: str | None = None) -> str:
    """``Hard, score 4.2, pencil marks: likely (72%) (hardest step 3.8, effort 412, 59
    steps; Hard from step 17 (naked-pair, weight 3.8); narrowest at step 30 (no easy move
    open); rater v8)``;
    ``not rated`` and why (the walkthrough's ``status``) for one that did not reach the
    one solution."""
    if rating is None:
        return "not rated"
    if rating.level is None:
        why = unrated_reason(status, message)
        steps = "" if why.startswith("stopped after") else \
            f"{rating.steps} step{'s' if rating.steps != 1 else ''}; "  # said already
        return f"not rated: {why} ({steps}rater v{rating.version})"
    notes = f", {rating.notes_text()}" if rating.notes is not None else ""
    return (f"{rating.level}, score {rating.score:g}{notes} (hardest step "
            f"{rating.max_weight:g}, "
            f"effort {rating.effort}, {rating.steps} steps; {rating.why(notes=False)}; "
            f"rater v{rating.version})")


def explanation_verdict(explanation) -> str:
    """One line on how a walkthrough ended."""
    status = explanation.status
    msg = explanation.message
    if status == "solved":
        return "solved"
    if status == "multiple":
        return f"several solutions: {msg}" if msg else "several solutions"
    if status == "none":
        return f"no solution: {msg}" if msg else "no solution"
    if status == "timeout":
        return f"stopped: {msg}" if msg else "stopped by the time limit"
    return f"stalled: {msg}" if msg else "stalled"


#: how the whole case analysis of a step (its ``detail``) is introduced with ``--verbose``
DETAIL_LABEL = "In full:"


def iter_step_lines(steps, verbose: bool = False) -> Iterator[str]:
    """``  1. Lone cell: r1c2↓ 2/1 has one empty cell left ...`` (numbers aligned), one
    line at a time; a chain's links on lines of their own, numbered under its assumption;
    with ``verbose``, each step's whole case analysis (its ``detail``) on a line of its own
    under it."""
    from .walk import chain_cases, chain_lines, step_text, step_title

    width = len(str(len(steps))) if steps else 1
    for s in steps:
        cases = chain_cases(s)
        if not cases:
            yield f"{s.n:>{width}}. {step_title(s)}: {step_text(s)}"
            detail: str = getattr(s, "detail", "")
            if verbose and detail:
                yield f"{' ' * (width + 2)}{DETAIL_LABEL} {detail}"
            continue
        yield f"{s.n:>{width}}. {step_title(s)}:"
        yield from chain_lines(s, " " * (width + 2))


def end_grid(explanation) -> str:
    """The final grid: the digits written in (given, entered, or placed by a step), ``.``
    where still open. A cell a walk that stopped early narrowed to one digit without
    writing it stays open: no step wrote it."""

    puzzle = explanation.puzzle
    if explanation.status == "solved":
        return draw_grid(puzzle, [SINGLE[m] for m in explanation.masks])
    written = {**puzzle.givens, **puzzle.entries}
    for s in explanation.steps:
        written.update({(r, c): d for r, c, d in s.placements})
    return draw_grid(puzzle, [written.get(rc, 0) for rc in puzzle.whites])


def write_solve(puzzle, result, write) -> None:
    """The same text as ``TextRenderer.solve``, written one solution at a time (the cells
    that differ are gathered on the way instead of by rereading every solution)."""

    sols = result.solutions
    many = len(sols) > 1
    write(verdict(result))
    seen = [0] * len(puzzle.whites)
    for k, sol in enumerate(sols, start=1):
        if many:
            write(f"\n\nsolution {k}:")
        write("\n" + draw_grid(puzzle, sol))
        for i, v in enumerate(sol):
            seen[i] |= 1 << v
    if many:
        diff = [f"{cell_name(rc)} ({'/'.join(str(d) for d in range(1, 10) if seen[i] >> d & 1)})"
                for i, rc in enumerate(puzzle.whites) if seen[i] & (seen[i] - 1)]
        write(f"\n\nthe solutions differ at {len(diff)} cells: " + ", ".join(diff))
    write("\n")


# ---------------------------------------------------------------------------- check
def check_text(result) -> str:
    """``deducer check``: what was checked, the mistakes, and how many solutions."""
    lines = []
    n = result.entries_checked
    head = f"{n} entr{'y' if n == 1 else 'ies'}"
    if result.pencil_checked:
        head += f" and {result.pencil_checked} cell{'s' if result.pencil_checked != 1 else ''} " \
                "of pencil marks"
    lines.append(f"checked {head}: {result.message}")
    for m in result.mistakes:
        lines.append(f"  {m.sentence()}")
    if result.solutions_found:
        if result.cap_hit:
            lines.append(f"the puzzle has at least {result.solutions_found} solutions (the cap "
                         "--max-solutions stopped the enumeration; entries were then checked "
                         "one by one)")
        elif result.solutions_found > 1:
            lines.append(f"the puzzle has {result.solutions_found} solutions")
    if not result.complete:
        lines.append("the time limit cut the check short")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- rate rows
#: the columns of ``deducer rate``'s table
COLUMNS = ("file", "size", "status", "level", "score", "notes", "hardest", "effort", "steps",
           "chain", "trial/guessing")


def _cells(row: dict) -> list[str]:
    return [printable(c) for c in _raw_cells(row)]


def _raw_cells(row: dict) -> list[str]:
    size = "-" if row["rows"] is None else f"{row['rows']}x{row['cols']}/{row['cells']}"
    if row["level"] is None:
        return [row["file"], size, row["status"], "-", "", "", "", "", "", "",
                row["error"] or ""]
    fallback = []
    if row["trial"]:
        fallback.append(f"trial x{row['trial']}")
    if row["guessing"]:
        fallback.append(f"guessing x{row['guessing']}")
    # one decimal in the table, so that the columns line up (2 beside 1.8 did not)
    hardest = f"{row['max_weight']:.1f}" + (f" {row['hardest_rule']}" if row["hardest_rule"]
                                             else "")
    notes = "" if row.get("notes") is None else f"{row['notes']:.0%}"
    return [row["file"], size, row["status"], row["level"], f"{row['score']:.1f}", notes,
            hardest,
            str(row["effort"]), str(row["steps"]), str(row["chain"] or "-"),
            ", ".join(fallback) or "-"]


def rate_table(rows: list[dict], why: bool = False) -> str:
    """``deducer rate``'s table: a row per puzzle, the numbers right-aligned."""
    body = [_cells(r) + ([r["why"] or ""] if why else []) for r in rows]
    if why:  # an unrated row's reason is its why: the last column, so no column is padded
        for cells in body:
            if not cells[-1] and cells[3] == "-":
                cells[-2], cells[-1] = "", cells[-2]
    heads = list(COLUMNS) + (["why"] if why else [])
    widths = [max(len(x) for x in col) for col in zip(heads, *body, strict=True)]
    right = {4, 5, 7, 8, 9}  # numbers
    lines = []
    for line in [heads] + body:
        cells = [c.rjust(w) if k in right and line is not heads else c.ljust(w)
                 for k, (c, w) in enumerate(zip(line, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- rules
def shown_path(path: str) -> str:
    """A file as the user would name it: relative to the current folder when inside it."""

    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return path


def _weights(low: float, high: float) -> str:
    """``4.2``, or ``4.2-5.8`` for a rule whose steps weigh more with their size."""
    return f"{low:g}" if low == high else f"{low:g}-{high:g}"


def ladder_text(rules, weights: dict | None = None) -> str:
    """``deducer rules``: a table of the ladder, and how many of its rules are enabled;
    ``weights`` (``api.carried_weights``) gives the weights steps carry, a range where
    they grow."""
    weights = weights or {}
    heads = ["id", "priority", "weight", "score", "name", "enabled", "source"]
    body = [[r.id, f"{r.priority:g}", _weights(*weights.get(r.id, (r.weight, r.weight))),
             str(r.score), r.name, "yes" if r.enabled else "no", shown_path(r.source)]
            for r in rules]
    widths = [max(len(x) for x in col) for col in zip(heads, *body, strict=True)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip()
             for line in [heads] + body]
    n_on = sum(r.enabled for r in rules)
    note = ""
    if any(lo != hi for lo, hi in weights.values()):
        note = ("a range of weights: a step weighs more the more runs it adds up or links it "
                "follows (growth), or when it tries a long run's arrangements (the search "
                "floor); steps carry these weights in walkthroughs and ratings "
                "(docs/rating.md)\n")
    links_only = [r.id for r in rules if not r.walk]
    if links_only:
        note += (f"{', '.join(links_only)}: chain links only (walk: false): chains use "
                 f"{'its' if len(links_only) == 1 else 'their'} steps, the walkthrough "
                 "never takes one on the board\n")
    return "\n".join(lines) + f"\n{n_on} of {len(rules)} rules enabled\n" + note


def rules_test_text(report, verbose: bool = False, impact: bool = False) -> str:
    """``deducer rules test``: the findings by puzzle, the unproved steps by rule, and what
    the run comes to (a :class:`~deducer.assist.audit.RulesTest`)."""
    from ..assist.audit import first_by_rule

    user_ids, audits, replay = report.user_ids, report.audits, report.replay
    findings, unproved, fired, tested = (report.findings, report.unproved, report.fired,
                                         report.tested)
    lines = [f"testing {report.rule_file}: {len(user_ids)} rule(s) "
             f"({', '.join(user_ids)}) in a ladder of {report.ladder_size}"]
    for rid in user_ids:
        if rid not in report.active:
            lines.append(f"  note: {rid} is disabled, so it was not tested")
    for fx in report.fixtures:
        if fx.problems:
            lines += [f"FIXTURE {shown_path(fx.path)}: {p}" for p in fx.problems]
        lines.append(f"fixtures {shown_path(fx.path)}: {fx.checked} claim(s) checked, "
                     + (f"{len(fx.problems)} failed" if fx.problems else "all hold"))
    lines += _audit_lines(report, verbose)
    first = first_by_rule(unproved)
    for rid in user_ids:
        if rid not in first:
            continue
        u = first[rid]
        n = sum(x.rule == rid for x in unproved)
        lines.append(f"UNPROVED {rid}: {n} of {fired.get(rid, 0)} step(s) true but unproved "
                     f"({shown_path(u.source)})")
        lines.append(f"    e.g. {u.puzzle}, step {u.step}: {u.text}")
        lines += [f"    {p}" for p in u.problems[:4]]
    # a false step or an error ends its puzzle's audit: it fired but was not applied, so
    # it is counted beside the applied (true) steps, and the counts add up
    wrong = {rid: [a.status for a in audits if a.finding is not None and a.finding.rule == rid]
             for rid in fired}

    def fired_text(rid: str, n: int) -> str:
        bad = wrong.get(rid, [])
        if not bad:
            return f"{rid} x{n}" + (" (all true)" if n else "")
        n_false, n_err = bad.count("false"), bad.count("error")
        parts = [f"{n} true"] + ([f"{n_false} false"] if n_false else []) + \
            ([f"{n_err} raised"] if n_err else [])
        return f"{rid} x{n + len(bad)} ({', '.join(parts)})"

    used = ", ".join(fired_text(rid, n) for rid, n in fired.items()) or "none"
    lines.append(f"{len(tested)} puzzles, {sum(a.steps for a in tested)} steps checked; "
                 f"user rules fired: {used}")
    # a rule that raised did run: it is reported as an error above, not as idle
    raised = {g.rule for a in audits if a.status == "error" and (g := a.finding)}
    if any(n == 0 and rid not in raised for rid, n in fired.items()):
        idle = ", ".join(rid for rid, n in fired.items() if n == 0 and rid not in raised)
        lines.append(f"warning: {idle} never fired, so this run says nothing about it "
                     "(try more puzzles: --count)")
    if any(f.puzzle not in replay for f in findings):
        lines.append("(--save-failing DIR writes the generated puzzles with findings to DIR, "
                     "to replay them)")
    if findings:
        bad = sorted({f.rule for f in findings})
        n_false = sum(a.status == "false" for a in audits if a.finding is not None)
        kinds = [f"{n_false} false deduction(s)"] if n_false else []
        if len(findings) - n_false:
            kinds.append(f"{len(findings) - n_false} rule error(s)")
        lines.append(f"{' and '.join(kinds)}, in {len(findings)} of {len(tested)} puzzles "
                     f"(each ends its puzzle's audit), by rule(s): {', '.join(bad)}")
    else:
        lines.append("no false deductions")
    if unproved:
        lines.append(f"{len(unproved)} true but unproved step(s), by rule(s): "
                     f"{', '.join(sorted(first))} (each step's proof must prove it: "
                     "docs/json-contract.md, proofs)")
    elif any(fired.values()):
        lines.append("every true step of the tested rules is proved by its proof")
    lines += _impact_lines(report, impact)
    if report.interrupted:
        lines.append(report.interrupted)
    # a puzzle's name (a label from a URL list, a J block) must not steer the terminal
    return "\n".join(printable(line) for line in lines) + "\n"


def _audit_lines(report, verbose: bool) -> list[str]:
    """``rules test``'s line for each puzzle audited (with ``verbose``, the quiet ones too):
    a finding with its problems and the walk that replays it, else the audit's status."""
    out: list[str] = []
    for a in report.audits:
        if a.finding is None and not verbose and a.status in ("solved", "stalled"):
            continue
        if a.finding is not None:
            f = a.finding
            mark = "FALSE" if a.status == "false" else "ERROR"
            out.append(f"{mark} {a.label}: step {f.step}, rule {f.rule} "
                       f"({shown_path(f.source)})")
            out += [f"    {p}" for p in f.problems]
            line = report.replay_line(a.label, f.step)
            if line is not None:
                # the walk up to the board the false step was made on (a walk that takes
                # the false step itself ends in the error that names it)
                out.append(f"    replay: {line}")
        else:
            note = f" ({a.note})" if a.note else ""
            out.append(f"{a.status:<8} {a.label}: {a.steps} steps{note}")
    return out


def _impact_lines(report, every: bool) -> list[str]:
    """The impact section: the puzzles rated with and without the rule file."""
    imp = report.impact()
    if imp is None or report.findings:  # a false rule's ratings are no measure of it
        return []

    def score(x) -> str:
        return "-" if x is None else f"{x:.1f}"

    lines = [f"impact (the same puzzles rated without {shown_path(report.rule_file)}): "
             f"{imp.compared} solved both ways; steps {imp.steps_delta:+d}, scores "
             f"{round(imp.score_delta, 1) + 0.0:+.1f} in all ({imp.raised} raised, "
             f"{imp.lowered} lowered)"]
    if imp.moves:
        lines.append("    levels moved (without -> with):")
        lines += [f"      {a} -> {b}: {n} puzzle(s)" for (a, b), n in sorted(imp.moves.items())]
    else:
        lines.append("    no level moved")
    if imp.rows:
        lines.append(f"    fired in {len(imp.rows)} puzzle(s)"
                     + ("" if every else " (--impact lists them)"))
    if every:
        for label, (s0, s1, c0, c1, l0, l1, at) in imp.rows.items():
            where = "; ".join(f"{rid} at step {', '.join(map(str, ns[:8]))}"
                              + (f" and {len(ns) - 8} more" if len(ns) > 8 else "")
                              for rid, ns in at.items())
            lines.append(f"      {label}: {l0} {score(c0)} -> {l1} {score(c1)}, steps "
                         f"{s0 if s0 is not None else '-'} -> {s1}; {where}")
            saved = report.saved_fired.get(label)
            if saved:
                lines.append(f"        saved: {saved}")
    lines += [f"warning: {w}" for w in imp.warnings if "never fired" not in w]
    return lines


class TextRenderer(Renderer):
    name = "text"

    def write_solve(self, puzzle, result, write) -> None:
        write_solve(puzzle, result, write)

    def hint(self, puzzle, hint) -> str:
        return hint.text + "\n"

    def all_steps(self, puzzle, found) -> str:
        from .allsteps import all_steps_text

        return all_steps_text(puzzle, found)

    def why(self, puzzle, answer) -> str:
        return answer.text + "\n"

    def check(self, puzzle, result) -> str:
        return check_text(result)

    def rate_rows(self, rows: list[dict], *, why: bool = False) -> str:
        return rate_table(rows, why)

    def ladder(self, rules, *, weights: dict | None = None) -> str:
        return ladder_text(rules, weights)

    def rules_test(self, report, *, verbose: bool = False, impact: bool = False) -> str:
        return rules_test_text(report, verbose, impact)

    def generated(self, result, *, format: str = "pipe") -> str:
        return dumps(result.puzzle, format)

    def solve(self, puzzle, result) -> str:
        parts = [verdict(result)]
        for k, sol in enumerate(result.solutions, start=1):
            if len(result.solutions) > 1:
                parts.append(f"\nsolution {k}:")
            parts.append(draw_grid(puzzle, sol))
        if len(result.solutions) > 1:
            from ..engine.sentences import differences  # here: solve's start-up is lean

            diff = differences(puzzle, result.solutions)
            parts.append(f"\nthe solutions differ at {len(diff)} cells: " + ", ".join(diff))
        return "\n".join(parts) + "\n"

    def walkthrough(self, puzzle, explanation, *, verbose: bool = False) -> str:
        """The walkthrough as text; ``verbose`` adds each step's whole case analysis."""
        return "".join(self.walkthrough_lines(puzzle, explanation, verbose=verbose))

    def walkthrough_lines(self, puzzle, explanation, *, verbose: bool = False
                          ) -> Iterator[str]:
        """:meth:`walkthrough` a line at a time, each with its line end (a grid is one
        "line" of several): what ``deducer explain`` writes as it goes, so that the text
        of a walk of thousands of steps is never held whole."""
        from .walk import BOARD_KEY, notation

        yield draw_grid(puzzle, fixed={**puzzle.givens, **puzzle.entries}) + "\n"
        yield BOARD_KEY + "\n"
        if explanation.steps:  # the legend of the names the steps use, as on a terminal
            yield notation(puzzle) + "\n"
        yield "\n"
        for line in iter_step_lines(explanation.steps, verbose):
            yield line + "\n"
        if explanation.steps:
            yield "\n"
        yield explanation_verdict(explanation) + "\n"
        if explanation.steps:  # with no step the end is the puzzle, drawn above
            yield end_grid(explanation) + "\n"
        yield "\n"
        yield "rating: " + rating_line(explanation.rating, explanation.status,
                                       explanation.message) + "\n"


RENDERER = TextRenderer()
