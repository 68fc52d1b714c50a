"""Teaching the techniques: the technique pages of ``deducer rules --pages``, the technique
cards of an HTML walkthrough, and the glossary that ends Markdown and PDF walkthroughs.

What a technique is (its names, explanation, level) comes from
:mod:`deducer.engine.teaching`; a page's worked example (a puzzle and its walkthrough up to
a step of the technique) from :mod:`deducer.generator.examples`. Pages are self-contained
HTML (inline SVG boards, no script, no network) and link to each other by file name, so a
folder of them can be opened from the disk or put on any web server.

Stable hooks: a page's ``main#technique`` with ``data-rule``; its boards ``figure.before``
and ``figure.after`` (``figure.chain`` for a chain step); the index's ``table#techniques``
with a row ``tr[data-rule]`` per technique. In a walkthrough, each card is
``details.tech#technique-<id>`` inside ``section#techniques``, and each step's rule name is
an ``a.rule[data-tech=<id>]`` that opens its card. The style and the script are files of
``render/static/`` (``technique.css`` for the pages; ``cards.css``, and ``cards.js``, which
opens a card from a step's rule name, for the walkthrough), written into each page.
"""

from __future__ import annotations

from html import escape

from ..engine import registry
from ..engine.rating import model_for
from ..engine.registry import CORE
from ..engine.teaching import level_at, techniques
from ..puzzle.model import cell_name
from .assets import static_text
from .position import (
    Marks,
    add_region,
    advance,
    position_at,
    position_digits,
    run_ids,
    shown_candidates,
    step_marks,
)
from .svg import board_svg, diagram_svg
from .walk import (
    chain_cases,
    chain_conclusion,
    proof_marks,
    region_parts,
    step_text,
    step_title,
)

KIND_TEXT = {
    "simple": "a step of its own",
    "link": "a step of its own, and a link that chains may use",
    "chain": "a chain: a candidate supposed and followed until the grid breaks",
    "trial": "trial: a candidate supposed and followed as far as it goes",
    "guess": "a guess, undone when it leads nowhere",
}


# ---------------------------------------------------------------------------- data
def used_techniques(explanation) -> list:
    """The techniques an explanation's steps use, in ladder order (the ladder it was walked
    with, else the core one)."""

    ids = {s.rule for s in explanation.steps}
    if not ids:
        return []
    ladder = getattr(explanation, "ladder", None) or registry.core_ladder()
    return techniques(ladder, ids)


def used_in_all(explanations) -> list:
    """The techniques any of the explanations use, in ladder order, each once."""
    seen: dict = {}
    order: dict[str, int] = {}
    for exp in explanations:
        for k, t in enumerate(used_techniques(exp)):
            if t.id not in seen:
                seen[t.id], order[t.id] = t, k
    return sorted(seen.values(), key=lambda t: (t.weight, order[t.id], t.id))


def counts_cell(counts: dict[str, int] | None) -> str:
    """A puzzle's technique counts in one CSV cell: ``naked-single:58;lone-cell:12``
    (most used first, as the rating lists them; empty for an unrated puzzle)."""
    return ";".join(f"{rid}:{n}" for rid, n in (counts or {}).items())


def level_line(t) -> str:
    """``Medium · weight 1.8``, ``Hard to Expert · weight 4.2 to 5.8`` (with its growth,
    when it has one)."""
    line = f"{t.levels} · weight {t.weights}"
    return line + (f" ({t.heavier})" if t.heavier else "")


# ---------------------------------------------------------------------------- text
def glossary_lines(techs) -> list[tuple[str, str]]:
    """The glossary as (kind, text) lines: ``name``, ``meta`` (level, other names),
    ``para`` (explanation), ``look`` (what to look for), ``case`` (a case of)."""
    out: list[tuple[str, str]] = []
    for t in techs:
        out.append(("name", t.name))
        meta = level_line(t)
        if t.aka:
            meta += ". Also called: " + ", ".join(t.aka)
        out.append(("meta", meta + "."))
        out += [("para", p) for p in t.paragraphs]
        if t.hint and t.teach:
            out.append(("look", f"What to look for: {t.hint}"))
        if t.case_of:
            out.append(("case", f"A case of {t.case_of}"))
    return out


def glossary_markdown(techs, escape_md) -> list[str]:
    """The Markdown glossary section (``escape_md`` escapes a sentence)."""
    if not techs:
        return []
    out = ["## Glossary of the techniques used", ""]
    for kind, text in glossary_lines(techs):
        if kind == "name":
            out += [f"### {escape_md(text)}", ""]
        elif kind == "meta":
            out += [f"*{escape_md(text)}*", ""]
        elif kind == "look":
            out += [f"**What to look for:** {escape_md(text.split(': ', 1)[1])}", ""]
        else:
            out += [escape_md(text), ""]
    return out


# ---------------------------------------------------------------------------- HTML pieces
def _paras(t) -> str:
    return "".join(f"<p>{escape(p)}</p>" for p in t.paragraphs)


def _facts(t, *, aka: bool = True, level: bool = True) -> str:
    """The facts of a technique as a definition list (``level``: with its level and
    weight, which a card's heading already says)."""
    rows = [("Level", escape(t.levels)), ("Weight", escape(t.weights + (
        f" ({t.heavier})" if t.heavier else "")))] if level else []
    kind = KIND_TEXT.get(t.kind, t.kind)
    if t.chain_only:
        kind = "a link of chains only: the walkthrough never takes it as a step of its own"
    rows.append(("Kind", escape(kind)))
    if t.aka and aka:
        rows.insert(0, ("Also called", escape(", ".join(t.aka))))
    if t.case_of:
        rows.append(("A case of", escape(t.case_of)))
    rows.append(("Id", f"<code>{escape(t.id)}</code>"))
    return ('<dl class="facts">' + "".join(f"<div><dt>{k}</dt><dd>{v}</dd></div>"
                                           for k, v in rows) + "</dl>")


def rule_link(step) -> str:
    """A step's rule name, linked to its technique card."""
    return (f'<a class="rule" href="#technique-{escape(step.rule)}" '
            f'data-tech="{escape(step.rule)}" title="what this technique is">'
            f"{escape(step_title(step))}</a>")


def cards_html(explanation) -> str:
    """``section#techniques``: a card for each technique the walkthrough uses, with the
    steps that use it (empty when it has no steps)."""
    techs = used_techniques(explanation)
    if not techs:
        return ""
    uses: dict[str, list[int]] = {}
    for s in explanation.steps:
        uses.setdefault(s.rule, []).append(s.n)
    out = [f"<style>{static_text('cards.css')}</style>",
           '<section id="techniques" class="techniques" aria-labelledby="techniques-h">',
           '<h2 id="techniques-h">Techniques in this walkthrough</h2>']
    for t in techs:
        ns = uses.get(t.id, [])
        shown = ", ".join(f'<a href="#s{n}" data-goto="{n}">{n}</a>' for n in ns[:12])
        more = f" and {len(ns) - 12} more" if len(ns) > 12 else ""
        look = (f'<p class="look">What to look for: {escape(t.hint)}</p>'
                if t.hint and t.teach else "")
        out.append(
            f'<details class="tech" id="technique-{escape(t.id)}" data-rule="{escape(t.id)}">'
            f'<summary>{escape(t.name)} <span class="lvl">{escape(level_line(t))} · '
            f'{len(ns)} step{"s" if len(ns) != 1 else ""}</span></summary>'
            f"{_paras(t)}{look}{_facts(t, level=False)}"
            f'<p class="uses">Steps: {shown}{more}</p></details>')
    out.append("</section>")
    return "\n".join(out)


# ---------------------------------------------------------------------------- pages
def _page(title: str, body: str) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta name="generator" content="deducer">\n'
            f"<title>{escape(title)}</title>\n<style>{static_text('technique.css')}</style>\n</head>\n<body>\n"
            f"{body}\n</body>\n</html>\n")


def _boards(example) -> str:
    """The board before the example's step (its cells, runs and proof's cells marked, a
    region sum's area outlined), the chain on that board for a chain step, and the board
    after it: each as the walk has it there (the candidates its steps have left, as the
    HTML walkthrough draws them), not every digit the runs' combinations allow."""

    puzzle, steps = example.puzzle, example.steps
    step = steps[-1]
    before = position_at(puzzle, steps, len(steps) - 1)
    names = run_ids(puzzle)
    marks = add_region(Marks(cells={tuple(rc) for rc in step.cells},
                             runs={names[n] for n in step.runs if n in names},
                             facts=proof_marks(puzzle, step)[0]), puzzle, step)
    size = f"{puzzle.rows}×{puzzle.cols} Kakuro board"
    figs = [("before", f"Before step {step.n}",
             board_svg(puzzle, digits=position_digits(before),
                       candidates=shown_candidates(puzzle, before), marks=marks,
                       standalone=False, title=f"{size} before step {step.n}"))]
    if chain_cases(step):
        figs.append(("chain", "The chain", diagram_svg(
            puzzle, before, step, standalone=False, title=f"{size}: the chain of step {step.n}")))
    after = before.copy()
    advance(puzzle, after, step)
    done = step_marks(puzzle, step, names)
    figs.append(("after", f"After step {step.n}",
                 board_svg(puzzle, digits=position_digits(after),
                           candidates=shown_candidates(puzzle, after, done), marks=done,
                           standalone=False, title=f"{size} after step {step.n}")))
    return ('<div class="boards">' + "".join(
        f'<figure class="{cls}"><figcaption>{escape(cap)}</figcaption>{svg}</figure>'
        for cls, cap, svg in figs) + "</div>")


def _step_html(step, rid: str = "") -> str:
    """A step with its chain's links one a line; a link of rule ``rid`` (the page's, when
    the step is a chain that shows it) is marked."""
    # a chain's sentence says its links in one breath: they are listed one a line instead
    text = "" if chain_cases(step) else f" {escape(step_text(step))}"
    parts = [f'<p><span class="rule">{escape(step_title(step))}.</span>{text}</p>']
    for case in chain_cases(step):
        parts.append(f"<p>{escape(case.intro)}</p><ol>")
        parts += [('<li class="shown">' if rid and link.get("rule") == rid else "<li>")
                  + escape(link["text"])
                  + (" <b>✗ contradiction</b>" if link.get("contradiction") else "") + "</li>"
                  for link in case.links]
        parts.append("</ol>")
    if chain_cases(step):
        parts.append(f"<p><b>{escape(chain_conclusion(step))}</b></p>")
    effect = [f"{cell_name((r, c))} = {d}" for r, c, d in step.placements]
    effect += [f"{', '.join(map(str, ds))} leave{'s' if len(ds) == 1 else ''} "
               f"{cell_name((r, c))}" for r, c, ds in step.eliminations]
    if effect:
        parts.append(f'<p class="effect">What it does: {escape("; ".join(effect))}.</p>')
    return '<div class="step">' + "".join(parts) + "</div>"


def _instead(example) -> str:
    """The step the walkthrough takes where the example shows another, by its heading
    ("a forcing chain of 3 links")."""
    return escape(_instead_of(example.instead))


def technique_page(t, example, *, missing: str = "", prev=None, next_=None,
                   rules=None) -> str:
    """The page of technique ``t`` (a :class:`~deducer.engine.teaching.Technique`), with
    its worked ``example`` (:class:`~deducer.generator.examples.Example`, or None and the
    reason it has none in ``missing``); ``rules``: the ladder whose thresholds give the
    example's level (None: the core ladder's)."""
    nav = ['<a href="index.html">All techniques</a>']
    if prev is not None:
        nav.append(f'<a href="{escape(prev.id)}.html" rel="prev">← {escape(prev.name)}</a>')
    if next_ is not None:
        nav.append(f'<a href="{escape(next_.id)}.html" rel="next">{escape(next_.name)} →</a>')
    body = [f'<header><nav aria-label="techniques">{"".join(nav)}</nav></header>',
            f'<main id="technique" data-rule="{escape(t.id)}">',
            f"<h1>{escape(t.name)}</h1>"]
    if t.aka:
        body.append(f'<p class="aka">Also called {escape(", ".join(t.aka))}.</p>')
    body.append(_facts(t, aka=False))
    if t.hint:
        body.append(f'<p class="look"><b>What to look for:</b> {escape(t.hint)}</p>')
    body.append("<h2>How it works</h2>")
    body.append(_paras(t) if t.teach else
                f"<p>{escape(t.description or t.hint or 'The rule file says no more.')}</p>")
    body.append("<h2>An example</h2>")
    if example is None:
        body.append(f'<p class="missing">No worked example: {escape(missing)}.</p>')
    else:
        step = example.step
        source = escape(example.source)
        if example.kept:  # its command no longer makes it: say so rather than mislead
            source += " (made by an earlier version of the generator)"
        if example.core_ladder:  # the user's rules take that step another way
            source += (" (walked with the core ladder alone: with your rules added, this "
                       "puzzle's walkthrough does not need the technique)")
        if step.rule != t.id:
            # a rule only chains use (walk: false): its first use is a chain's link
            where = ("the first chain of the walkthrough with a link of this technique "
                     "(in bold: chains only use it; the walkthrough itself takes the same "
                     "cells a step each, with easier techniques)")
        elif example.instead is None:
            where = "the first step of this technique"
        else:
            # a chain rule whose chains are seldom the shortest: say which step the
            # walkthrough takes there, and why this one is shown instead
            where = (f"the walkthrough itself takes another step here ({_instead(example)}), "
                     "since a walkthrough shows the shortest chain any chain rule offers. "
                     f"This {escape(t.name.lower())} is open on the same board, and proved")
        body.append(f'<p class="source">Step {step.n} of the walkthrough of '
                    f"<code>{source}</code>: {where}. {_legend(example)} The steps as JSON: "
                    f'<a href="{escape(t.id)}.json">{escape(t.id)}.json</a>.</p>')
        body.append(_boards(example))
        body.append(_step_html(step, t.id if step.rule != t.id else ""))
        body.append(f'<p class="weighs">{escape(example_weight(t, step, rules))}</p>')
        if len(example.steps) > 1:
            body.append(f"<details class=\"earlier\"><summary>The {len(example.steps) - 1} "
                        "steps before it</summary><ol>")
            body += [f"<li><b>{escape(step_title(s))}:</b> {escape(step_text(s))}</li>"
                     for s in example.steps[:-1]]
            body.append("</ol></details>")
    if t.source:
        body.append(f'<p class="source">Declared in <code>{escape(_short(t.source))}</code>.</p>')
    body.append("</main>")
    return _page(f"{t.name} — Kakuro technique", "\n".join(body))


def example_weight(t, step, rules=None) -> str:
    """What the example's step weighs and the level it gives a puzzle, said against the
    technique's own weight (the ladder's YAML): "This step weighs 5.75 (5.5, and 0.25
    for its size): a puzzle whose hardest step it is rates Expert"."""

    w, level = step.weight, level_at(step.weight, rules)
    if step.rule != t.id:
        why = (f"it is {_instead_of(step)}, which weighs what the chain weighs, not what "
               f"its {t.name.lower()} link would weigh ({t.weights}) as a step")
    elif abs(w - t.weight) <= 1e-9:
        why = "the technique's own weight"
    else:
        m = model_for(rules)
        floors = (m.small_search, m.full_search)
        if any(abs(w - f) <= 1e-9 for f in floors) and t.heavier:
            why = (f"{t.weight:g} for {t.name.lower()}, raised to what trying the "
                   "arrangements of a run weighs, as its proof tries them")
        else:
            why = f"{t.weight:g}, and {round(w - t.weight, 3):g} for its size ({t.growth})"
    tail = "" if t.chain_only else \
        f"; steps of this technique weigh {t.weights} ({t.levels})"
    return f"This step weighs {w:g}: {why}. A puzzle whose hardest step it is rates {level}{tail}."


def _instead_of(step) -> str:
    title = step_title(step)
    return "a " + title[:1].lower() + title[1:]


def _legend(example) -> str:
    """What the colours of the example's boards mean."""
    step = example.step
    parts = ["The yellow cells and clues are what the step looks at, blue outlines the "
             "cells whose candidates its proof uses; red candidates are removed, orange "
             "digits written. A cell with no small digits has not been narrowed yet (any "
             "digit its runs allow), as in the HTML walkthrough."]
    if region_parts(example.puzzle, step) is not None:
        parts.append("The green outline is the area the region's runs of one direction "
                     "fill (their clues in green), purple the cells the crossing runs (purple "
                     "clues) add outside it; darker: the cells only one of the two groups "
                     "covers, whose sum the clues fix.")
    if chain_cases(step):
        parts.append("On the chain's board, arrows join each link to the link it rests on, "
                     "from the assumed digit in its dashed cell.")
    return escape(" ".join(parts))


def _short(path: str) -> str:
    """A rule file's path as a reader knows it (the core ladder: rules/core.yaml)."""

    try:
        from pathlib import Path

        if Path(path).resolve() == CORE:
            return "rules/core.yaml"
    except OSError:
        pass
    return path


def index_page(techs, missing: dict[str, str] | None = None, *,
               no_page: list | None = None) -> str:
    """``index.html``: every technique with its level, weight, other names and what to
    look for, linked to its page; ``no_page`` lists rules without one (the fallbacks)."""
    missing = missing or {}
    rows = []
    for t in techs:
        note = (f'<br><span class="missing">no example: {escape(missing[t.id])}</span>'
                if t.id in missing else "")
        rows.append(f'<tr data-rule="{escape(t.id)}"><td><a href="{escape(t.id)}.html">'
                    f"{escape(t.name)}</a></td><td>{escape(t.levels)}</td>"
                    f'<td class="num">{escape(t.weights)}</td>'
                    f'<td class="opt">{escape(", ".join(t.aka))}</td>'
                    f'<td class="says">{escape(t.summary)}{note}</td></tr>')
    body = ['<main id="index">', "<h1>Kakuro techniques</h1>",
            '<p class="legend">The techniques deducer explains solves with, simplest first '
            "(the order it tries them in). Each page says what the technique is, the names "
            "players use for it, and shows it at work on a real walkthrough. The level is "
            "that of a puzzle whose hardest step is the technique; the weight is what one "
            "step of it counts in the rating.</p>",
            '<table id="techniques"><thead><tr><th scope="col">Technique</th>'
            '<th scope="col">Level</th><th scope="col">Weight</th>'
            '<th scope="col" class="opt">Also called</th><th scope="col">What to look for'
            "</th></tr></thead><tbody>", *rows, "</tbody></table>"]
    if no_page:
        names = ", ".join(f"{t.name} ({t.level})" for t in no_page)
        body.append(f'<p class="legend">Fallbacks, with no page of their own: {escape(names)}.'
                    " deducer uses them only where no technique above applies.</p>")
    body.append("</main>")
    return _page("Kakuro techniques", "\n".join(body))
