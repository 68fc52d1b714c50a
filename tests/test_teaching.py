"""Teaching the techniques (issue 39, points 1 and 2): the rule file's teaching keys,
``deducer rules --pages DIR`` (a page and a proved worked example for every rule of the
ladder but trial and backtracking, user rules too), and the walkthroughs' technique cards
(HTML) and glossaries (Markdown, PDF).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from deducer import api
from deducer.app.cli import main
from deducer.errors import RuleError
from deducer.proofcheck import check_walkthrough
from deducer.puzzle import formats

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
EXAMPLE_RULE = ROOT / "docs" / "example-rule" / "sum_parity.yaml"
FALLBACKS = ("trial", "backtracking")


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------- rule keys
def test_every_core_rule_teaches_with_the_names_players_use():
    rules = api.ladder()
    for r in rules:
        assert r.aka and r.teach and r.case_of, f"{r.id} lacks a teaching key"
        assert len(r.teach) > 150 and not r.case_of[:1].isupper(), r.id
    by_id = {r.id: r for r in rules}
    assert "Innies and outies" in by_id["region-sum-one"].aka
    assert "Magic blocks" in by_id["unique-combination"].aka
    assert "Sole candidate" in by_id["naked-single"].aka
    # a folded text's paragraphs survive, each on one line
    assert by_id["lone-cell"].teach.count("\n\n") == 1
    assert "\n" not in by_id["lone-cell"].teach.replace("\n\n", "")
    # the packaged ladder is the repository's (one file, so the two cannot drift)
    packaged = ROOT / "deducer" / "data" / "core.yaml"
    assert packaged.read_bytes() == (ROOT / "rules" / "core.yaml").read_bytes()


def _rule_file(tmp_path: Path, extra: str) -> Path:
    """The example rule with ``extra`` keys (its implementation beside it)."""
    shutil.copy(EXAMPLE_RULE.with_name("sum_parity.py"), tmp_path / "sum_parity.py")
    text = EXAMPLE_RULE.read_text(encoding="utf-8").split("    # optional, for learners")[0]
    path = tmp_path / "r.yaml"
    path.write_text(text + extra, encoding="utf-8")
    return path


@pytest.mark.parametrize("extra, problem", [
    ("    aka: Parity\n", "aka must be a list"),
    ("    aka: [Parity, [nested]]\n", "aka must be a list"),
    ("    aka: [" + "x" * 81 + "]\n", "at most 80 characters"),
    ("    teach: 12\n", "teach must be non-empty text"),
    ("    teach: '" + "word " * 700 + "'\n", "teach is 3500 characters long"),
    ("    case_of: |\n      two\n      lines\n", "case_of must be one line"),
])
def test_bad_teaching_keys_are_one_line_errors(tmp_path, extra, problem):
    path = _rule_file(tmp_path, extra)
    with pytest.raises(RuleError) as e:
        api.ladder([path])
    assert problem in str(e.value) and "sum-parity" in str(e.value)
    assert str(path) in str(e.value) and "\n" not in str(e.value)


def test_teaching_keys_are_optional(tmp_path):
    rule = next(r for r in api.ladder([_rule_file(tmp_path, "")]) if r.id == "sum-parity")
    assert (rule.aka, rule.teach, rule.case_of) == ((), "", "")
    t = api.techniques([rule])[0]
    assert t.paragraphs == [rule.hint] and t.level == "Easy"  # the hint stands in


def test_levels_and_kinds_of_techniques():
    by_id = {t.id: t for t in api.techniques()}
    assert by_id["lone-cell"].level == "Easy" and by_id["pair-complement"].level == "Medium"
    assert by_id["naked-pair"].level == "Hard" and by_id["forcing-chain"].level == "Expert"
    assert by_id["trial"].level == "Extreme" and by_id["backtracking"].level == "Unreasonable"
    assert "link" in by_id["forcing-chain"].growth
    assert "run added up beyond two" in by_id["region-sum-two"].growth


#: names that mean another technique than the rung they were once listed under: Nishio is
#: a trial of one digit across the grid, a conjugate pair a digit's two places (a strong
#: link), a locked pair or triple a subset in a box-line intersection (Sudoku), Cross Sums
#: the puzzle itself
WRONG_NAMES = ("nishio", "conjugate pair", "locked pair", "locked triple", "locked quad",
               "crossing sums", "isolated cell", "combination of numbers")
#: names a family of rungs share, each rung a case of the one technique
FAMILY_NAMES = {"Innies and outies": "region-sum", "Region sums": "region-sum",
                "Permutations": "permutation-check", "Arrangement check": "permutation-check"}


def test_aliases_are_other_names_for_the_same_technique():
    """An alias is a name people use for that technique (issue 51): not the technique's own
    name, not another rung's name, not a name another technique goes by."""
    rules = api.ladder()
    names = {r.name.lower(): r.id for r in rules}
    seen: dict[str, str] = {}
    for r in rules:
        for alias in r.aka:
            low = alias.lower()
            assert low != r.name.lower(), f"{r.id}: its own name as an alias"
            assert names.get(low, r.id) == r.id, f"{r.id}: {alias} is another rung's name"
            assert not any(w in low for w in WRONG_NAMES), f"{r.id}: {alias}"
            if alias in FAMILY_NAMES:
                assert r.id.startswith(FAMILY_NAMES[alias]), (r.id, alias)
            else:
                assert seen.setdefault(alias, r.id) == r.id, (alias, seen[alias], r.id)


# ---------------------------------------------------------------------------- pages
@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """``rules --pages DIR --rules sum_parity.yaml``: the core ladder and a user rule, with
    no generating (every core example is in the package's cache or the bundled puzzles)."""
    out = tmp_path_factory.mktemp("pages") / "techniques"
    code = main(["rules", "--pages", str(out), "--rules", str(EXAMPLE_RULE),
                 "--seconds", "0"])
    return out, code


def test_pages_for_every_rule_but_the_fallbacks(pages):
    out, code = pages
    assert code == 0, "a rule lacks an example: run scripts/technique_examples.py"
    ladder = api.ladder([EXAMPLE_RULE])
    want = [r.id for r in ladder if r.id not in FALLBACKS]
    assert "sum-parity" in want
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(["index.html"] + [f"{rid}{ext}" for rid in want
                                             for ext in (".html", ".json")])
    index = (out / "index.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr data-rule="([^"]+)">', index)
    assert rows == want  # ladder order, simplest first
    assert "Innies and outies" in index and "Backtracking" in index  # named, no page


@pytest.mark.parametrize("rid", ["naked-single", "pair-complement", "region-sum-two",
                                 "forcing-chain", "forcing-braid", "naked-quad",
                                 "sum-parity"])
def test_a_page_shows_its_technique_before_and_after_one_step(pages, rid):
    out, _ = pages
    page = (out / f"{rid}.html").read_text(encoding="utf-8")
    t = next(t for t in api.techniques([EXAMPLE_RULE]) if t.id == rid)
    assert f'<main id="technique" data-rule="{rid}">' in page
    assert f"<h1>{t.name}</h1>" in page and t.level in page
    for name in t.aka:
        assert name.replace("'", "&#x27;") in page
    assert page.count('<figure class="before">') == 1
    assert page.count('<figure class="after">') == 1
    assert page.count("<svg ") >= 2 and "<script" not in page
    assert f'href="{rid}.json"' in page and 'href="index.html"' in page
    if rid in ("forcing-chain", "forcing-braid"):
        assert '<figure class="chain">' in page and "contradiction" in page


def test_every_example_is_the_walkthrough_up_to_a_proved_step_of_its_rule(pages):
    out, _ = pages
    ladder = api.ladder([EXAMPLE_RULE])
    by_id = {r.id: r for r in ladder}
    assert not by_id["settled-run"].walk
    for path in sorted(out.glob("*.json")):
        rid = path.stem
        data = json.loads(path.read_text(encoding="utf-8"))
        core_alone = data.pop("ladder", None) == "core"
        assert set(data) in ({"puzzle", "steps"}, {"puzzle", "steps", "walkthrough_step"})
        puzzle = formats.loads(json.dumps(data["puzzle"]), "json")
        steps = data["steps"]
        if not by_id[rid].walk:
            # a rule only chains use: its first use is the first chain with a link of it
            def linked(s, rid=rid):
                return any(lk.get("rule") == rid for lk in s.get("proof", {}).get("links", ()))
            assert steps and "assume" in steps[-1]["proof"] and linked(steps[-1]), rid
            assert not any(linked(s) or s["rule"] == rid for s in steps[:-1]), rid
            page = (out / f"{rid}.html").read_text(encoding="utf-8")
            assert "the first chain of the walkthrough with a link of this technique" in page
            assert page.count('<li class="shown">') >= 1
        else:
            assert steps and steps[-1]["rule"] == rid
            assert all(s["rule"] != rid for s in steps[:-1])  # its first step
        assert [s["n"] for s in steps] == list(range(1, len(steps) + 1))
        assert check_walkthrough(puzzle, steps) == [], rid
        # the very steps explain --json gives, from the start
        if core_alone:  # the user's rule takes the technique's step on this puzzle
            assert rid in {r.id for r in api.ladder()}
            assert "walked with the core ladder alone" in (out / f"{rid}.html").read_text(
                encoding="utf-8")
        walk = api.explain(puzzle, api.ladder() if core_alone else ladder,
                           max_steps=len(steps))
        got = [s.to_json() for s in walk.steps]
        if got[-1]["rule"] != steps[-1]["rule"]:
            # a chain rule the walk passes over for a shorter chain (examples.first_uses):
            # the board is the walkthrough's, the example's step is the rule's own there,
            # and the file and the page say which step the walkthrough takes instead
            assert got[:-1] == steps[:-1] and "assume" in got[-1]["proof"], rid
            assert "assume" in steps[-1]["proof"], rid
            assert data["walkthrough_step"] == got[-1], rid
            page = (out / f"{rid}.html").read_text(encoding="utf-8")
            assert "the walkthrough itself takes another step here" in page, rid
        else:
            assert got == steps and "walkthrough_step" not in data, rid
        assert "proof" in steps[-1]


def _yaml_rating():
    """The level thresholds and the search-floor rungs straight from rules/core.yaml."""
    import yaml

    data = yaml.safe_load((ROOT / "rules" / "core.yaml").read_text(encoding="utf-8"))
    weights = {r["id"]: float(r["weight"]) for r in data["rules"]}
    return data["rating"]["levels"], weights


def _level(weight: float, levels: dict[str, float]) -> str:
    for name, top in sorted(levels.items(), key=lambda kv: kv[1]):
        if weight <= top + 1e-9:
            return name
    return "Extreme"


def test_a_page_says_the_ladders_level_and_weight_and_its_example_agrees(pages):
    """Each page's level and weight are the YAML's (a range where a step may weigh more),
    and the page says what its example's step weighs and the level that gives, which lie
    in that range (a chains-only link: the chain's weight, said as such)."""
    out, _ = pages
    levels, weights = _yaml_rating()
    order = list(levels) + ["Extreme"]
    for t in api.techniques():
        path = out / f"{t.id}.html"
        if not (out / f"{t.id}.json").exists():
            continue  # no page, or no example (test_pages_for_every_rule_... says so)
        page = path.read_text(encoding="utf-8")
        assert t.weight == weights[t.id]
        lo, hi = _level(t.weight, levels), _level(max(t.weight, t.weight_max), levels)
        assert t.levels == (lo if lo == hi else f"{lo} to {hi}"), t.id
        facts = " ".join(re.sub(r"<[^>]+>", " ",
                                page.split('<dl class="facts">')[1].split("</dl>")[0]).split())
        assert f"Level {t.levels} " in facts and f"Weight {t.weights}" in facts, t.id
        step = json.loads((out / f"{t.id}.json").read_text(encoding="utf-8"))["steps"][-1]
        weighs = re.search(r'<p class="weighs">([^<]+)</p>', page).group(1)
        w = step["weight"]
        assert weighs.startswith(f"This step weighs {w:g}: "), t.id
        assert f"rates {_level(w, levels)}" in weighs, t.id
        if step["rule"] == t.id:
            # the example is a step of the technique: its weight is in the page's range
            assert t.weight - 1e-9 <= w <= max(t.weight, t.weight_max) + 1e-9, t.id
            assert order.index(lo) <= order.index(_level(w, levels)) <= order.index(hi), t.id
        else:
            assert t.chain_only and "link" in facts and "chain" in weighs, t.id


def _drawn(svg: str) -> dict[tuple[int, int], tuple[str, list[int]]]:
    """Per white cell of an SVG board: its digit and the candidates drawn."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    out = {}
    for g in root.iter("g"):
        if "w" not in (g.get("class") or "").split():
            continue
        r, c = map(int, g.get("data-cell").split(","))
        digit = "".join(t.text or "" for t in g.iter("text")
                        if (t.get("class") or "").split()[:1] == ["d"])
        cands = sorted(int(t.text) for t in g.iter("text")
                       if (t.get("class") or "").split()[:1] == ["c"]
                       and "off" not in t.get("class").split())
        out[(r, c)] = (digit, cands)
    return out


def test_a_page_draws_the_walks_board_at_its_step(pages):
    """The boards before and after the example's step are the walk's, replayed from the
    page's JSON: a narrowed cell shows the candidates the steps left it, a cell no step
    has narrowed shows none (not every digit its runs' combinations allow), a written
    cell its digit."""
    from deducer.puzzle.combos import BIT, DIGITS
    from deducer.render.position import combination_candidates, start_position

    out, _ = pages
    blank_but_allowed = 0
    for path in sorted(out.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        puzzle = formats.loads(json.dumps(data["puzzle"]), "json")
        page = (out / f"{path.stem}.html").read_text(encoding="utf-8")
        start = start_position(puzzle)
        masks = {rc: start.masks[i] for i, rc in enumerate(puzzle.whites)}
        digits = dict(start.digits)
        steps = data["steps"]
        for k, figure in ((len(steps) - 1, "before"), (len(steps), "after")):
            masks = {rc: start.masks[i] for i, rc in enumerate(puzzle.whites)}
            digits = dict(start.digits)
            for s in steps[:k]:
                for r, c, ds in s["eliminations"]:
                    for d in ds:
                        masks[(r, c)] &= ~BIT[d]
                for r, c, d in s["placements"]:
                    masks[(r, c)], digits[(r, c)] = BIT[d], d
            svg = re.search(rf'<figure class="{figure}">.*?(<svg .*?</svg>)', page, re.S).group(1)
            drawn = _drawn(svg)
            struck = {(r, c) for r, c, _ in steps[-1]["eliminations"]} if figure == "after" \
                else set()
            for i, rc in enumerate(puzzle.whites):
                if rc in digits:
                    assert drawn[rc] == (str(digits[rc]), []), (path.stem, figure, rc)
                    continue
                narrowed = masks[rc] != start.masks[i]
                want = list(DIGITS[masks[rc]]) if narrowed else []
                got = drawn[rc][1]
                if rc in struck:  # the removed digits are drawn too, struck out
                    assert set(want) <= set(got), (path.stem, figure, rc)
                else:
                    assert (drawn[rc][0], got) == ("", want), (path.stem, figure, rc)
            if figure == "before":
                allowed = combination_candidates(puzzle)
                blank_but_allowed += sum(1 for i, rc in enumerate(puzzle.whites)
                                         if rc not in digits and masks[rc] == start.masks[i]
                                         and allowed.get(rc))
    assert blank_but_allowed  # the old pages drew those cells' combinations: not the walk's


def test_pages_are_not_written_over_without_force(pages, capsys):
    out, _ = pages
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    code, _, err = cli(capsys, "rules", "--pages", out, "--seconds", "0")
    assert code == 2 and "already exists" in err and "--force" in err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    code, _, err = cli(capsys, "rules", "--pages", out / "index.html")
    assert code == 2 and "not a directory" in err


def test_a_rule_without_an_example_gets_a_page_saying_why(tmp_path, capsys):
    # naked-pair with no cache, no bundled puzzle using it and no time to generate one
    found = api.technique_examples(ids=["naked-pair", "lone-cell"], cached=False,
                                   generate=False)
    assert list(found.examples) == ["lone-cell"]
    assert "no bundled or cached puzzle uses it" in found.missing["naked-pair"]
    from deducer.render.teach import technique_page

    t = next(t for t in api.techniques() if t.id == "naked-pair")
    page = technique_page(t, None, missing=found.missing["naked-pair"])
    assert "No worked example: no bundled or cached puzzle uses it" in page
    # one file that opens offline: its style (render/static/technique.css) is in the page
    from deducer.render.assets import static_text

    assert f"<style>{static_text('technique.css')}</style>" in page


def test_a_chain_rung_offered_beside_another_wanted_chain_rule_gets_its_example():
    """A walk for several rules at once records the walkthrough's forcing chain as that
    rule's first use, and never asks the bivalue rung there (and stops at the next chain
    step where another wanted rung, the braid, is offered); the bundled generated-6x6-s23
    offers a bivalue chain only beside the walkthrough's shorter forcing chain, so
    the rung is walked for on its own (scripts/technique_examples.py asks for every rule)."""
    from deducer.generator import examples

    found = examples.find(api.ladder(), ["forcing-chain", "bivalue-chain", "forcing-braid"],
                          cache=None, generate=False)
    assert "bivalue-chain" not in found.missing
    ex = found.examples["bivalue-chain"]
    assert ex.source == "puzzles/generated-6x6-s23.txt"
    assert ex.step.rule == "bivalue-chain" and ex.instead.rule == "forcing-chain"
    # the example stops where the walkthrough itself takes that forcing chain
    walk = api.explain(ex.puzzle, api.ladder(), max_steps=len(ex.steps))
    assert walk.steps[-1].rule == "forcing-chain"
    assert [s.rule for s in walk.steps[:-1]] == [s.rule for s in ex.steps[:-1]]


def test_the_example_cache_names_how_to_make_each_puzzle_again():
    from deducer.generator import examples

    cache = examples.read_cache()
    ladder = api.ladder()
    assert set(cache) == {r.id for r in ladder if r.id not in FALLBACKS}
    for rid, entry in cache.items():
        if entry["from"].startswith("puzzles/"):
            assert "puzzle" not in entry and examples.bundled_puzzle(entry["from"]), rid
        else:
            assert entry["from"] == f"generate --size 8x8 --needs {rid} --seed 1" or \
                entry["from"] == f"generate --size 10x10 --needs {rid} --seed 1"
            assert api.solve(examples.cached_puzzle(entry)).status == "unique"
    # tiny: a few puzzles' text
    assert examples.CACHE.stat().st_size < 20_000


@pytest.mark.skipif(not os.environ.get("DEDUCER_LONG_GENERATE"),
                    reason="regenerates the cached examples (minutes): DEDUCER_LONG_GENERATE=1")
def test_the_cached_generated_examples_come_back_from_their_commands():
    from deducer.generator import examples

    for rid, entry in examples.read_cache().items():
        if entry["from"].startswith("puzzles/") or entry.get("kept"):
            continue  # a kept example is one the generator no longer makes
        size = entry["from"].split("--size ")[1].split()[0]
        got = api.generate(size, None, count=1, seed=1, needs=rid)
        assert formats.dumps(got[0].puzzle, "pipe") == entry["puzzle"], rid


# ---------------------------------------------------------------------------- walkthroughs
@pytest.fixture(scope="module")
def chained():
    """deducer-trial.txt: a walkthrough with forcing chains and a dozen other rules."""
    p = formats.load(PUZZLES / "deducer-trial.txt")
    return p, api.explain(p)


def test_html_walkthrough_has_a_card_for_every_technique_it_uses(chained):
    from deducer.render import get

    p, exp = chained
    assert "forcing-chain" in exp.rating.rules
    page = get("html").walkthrough(p, exp)
    cards = re.findall(r'<details class="tech" id="technique-([^"]+)"', page)
    assert sorted(cards) == sorted(exp.rating.rules)
    # every step's rule name opens its card
    links = re.findall(r'<li data-step="(\d+)"[^>]*>.*?<a class="rule" href="#technique-([^"]+)"',
                       page)
    assert [(int(n), rid) for n, rid in links] == [(s.n, s.rule) for s in exp.steps]
    assert "Whip, Contradiction chain" in page


def test_markdown_and_pdf_walkthroughs_end_with_a_glossary(chained, tmp_path):
    from deducer.render import get

    p, exp = chained
    md = get("markdown").walkthrough(p, exp)
    glossary = md.split("## Glossary of the techniques used", 1)[1]
    names = re.findall(r"^### (.+)$", glossary, flags=re.M)
    used = {s.rule: s.name for s in exp.steps}
    assert sorted(names) == sorted(used.values())
    assert "**What to look for:**" in glossary and "A case of " in glossary
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        pytest.skip("cairosvg or libcairo missing (pip install '.[png]')")
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils missing (scripts/install-browser.sh installs it)")
    out = tmp_path / "w.pdf"
    out.write_bytes(get("pdf").walkthrough(p, exp))
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True,
                          check=True).stdout
    tail = text.split("Glossary of the techniques used", 1)[1]
    for name in used.values():
        assert name in tail
    assert "Also called: Whip, Contradiction" in tail


def test_a_card_opens_from_a_step_in_a_browser(chained, tmp_path, browser):
    from deducer.render import get

    p, exp = chained
    path = tmp_path / "w.html"
    path.write_text(get("html").walkthrough(p, exp), encoding="utf-8")
    n = next(s.n for s in exp.steps if s.rule == "forcing-chain")
    for size in ({"width": 1366, "height": 768}, {"width": 390, "height": 844}):
        pg = browser.new_page(viewport=size)
        errors: list[str] = []
        pg.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        pg.goto(path.as_uri())
        pg.wait_for_selector("body.ready")
        card = "#technique-forcing-chain"
        assert pg.evaluate(f"document.querySelector('{card}').open") is False
        pg.click(f'#steps li[data-step="{n}"] a.rule')
        assert pg.evaluate(f"document.querySelector('{card}').open") is True
        assert pg.is_visible(f"{card} summary")
        # the keyboard: the current step's rule name in the panel is a link too
        pg.evaluate(f"document.querySelector('{card}').open = false")
        pg.keyboard.press("End")
        pg.keyboard.press("Home")
        pg.keyboard.press("ArrowRight")
        first = exp.steps[0].rule
        pg.focus("#cur-rule a")
        pg.keyboard.press("Enter")
        assert pg.evaluate(f"document.querySelector('#technique-{first}').open") is True
        assert pg.evaluate("document.activeElement.tagName") == "SUMMARY"
        pg.screenshot(path=str(ARTIFACTS / f"walk-card-{size['width']}.png"))
        pg.close()
        assert errors == []


ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
ARTIFACTS.mkdir(exist_ok=True)


def test_technique_pages_read_at_both_sizes(pages, browser):
    out, _ = pages
    for size in ({"width": 1366, "height": 768}, {"width": 390, "height": 844}):
        pg = browser.new_page(viewport=size)
        for rid in ("index", "region-sum-one", "forcing-chain"):
            pg.goto((out / f"{rid}.html").as_uri())
            # nothing wider than the window: no sideways scrolling on a phone
            width = pg.evaluate("document.documentElement.scrollWidth")
            assert width <= size["width"], (rid, width)
            pg.screenshot(path=str(ARTIFACTS / f"technique-{rid}-{size['width']}.png"),
                          full_page=True)
        pg.close()


def test_technique_pages_leave_a_disabled_rule_out(tmp_path):
    """``rules --pages --disable ID``: no page for the rule, and the index does not name it
    (issue 53: the pages once ignored --disable and no test saw it)."""
    made = api.technique_pages(tmp_path / "off", disable=["hidden-single"], generate=False)
    names = {p.name for p in made.files}
    assert "hidden-single.html" not in names and "naked-single.html" in names
    assert "hidden-single" not in (tmp_path / "off" / "index.html").read_text(encoding="utf-8")
    # the control: without --disable, the same call writes its page
    full = api.technique_pages(tmp_path / "on", generate=False)
    assert "hidden-single.html" in {p.name for p in full.files}
