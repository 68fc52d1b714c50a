"""``deducer play`` on any device, in a real headless Chromium (Playwright, as
test_play_browser.py): a phone-sized touch screen played with the on-screen pad, what a
screen reader hears of each cell, messages that go when their cause does, no praise after
Solve, the editor's rating, and a hint's chain walked link by link on the board.

Screenshots go to tests/artifacts/ (play-phone*.png, play-chain*.png).
"""

from __future__ import annotations

from pathlib import Path

from browserkit import playwright_or_skip

sync_api = playwright_or_skip()
import test_play_browser as play  # noqa: E402
from test_play_browser import ARTIFACTS, cell, message, state, wait_idle  # noqa: E402

from deducer import api  # noqa: E402
from deducer.engine import registry  # noqa: E402
from deducer.engine.walk import Engine  # noqa: E402
from deducer.puzzle import formats  # noqa: E402

# the play folder and the server of test_play_browser.py, shared
root, server = play.root, play.server

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


def pad(pg, label: str):
    return pg.locator("#pad button", has_text=label)


def on_screen(pg, selector: str) -> bool:
    box = pg.locator(selector).bounding_box()
    view = pg.viewport_size
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= view["width"]
            and box["y"] + box["height"] <= view["height"])


def ax_names(pg, role: str) -> list[str]:
    """The names Chromium's accessibility tree (what a screen reader reads) gives ``role``."""
    cdp = pg.context.new_cdp_session(pg)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    return [n["name"]["value"] for n in nodes
            if n.get("role", {}).get("value") == role and "name" in n]


def test_phone_plays_to_the_end_with_taps_on_the_pad(phone):
    pg = phone
    # board, pad and the play buttons all fit on the screen without scrolling; the file
    # buttons fold away behind "Files"
    for sel in ("#board", "#pad", "#btn-check", "#hint-full", "#btn-menu"):
        assert on_screen(pg, sel), sel
    assert pg.is_hidden("#btn-save")
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    assert cell(pg, 1, 1).bounding_box()["width"] >= 44  # a finger's target
    pg.tap("#btn-menu")
    assert pg.is_visible("#btn-save")
    pg.tap("#btn-menu")
    assert pg.is_hidden("#btn-save")
    # a wrong digit, then two pencil marks under it, by taps
    cell(pg, 1, 1).tap()
    pad(pg, "4").tap()
    pad(pg, "Pencil").tap()
    assert pg.get_attribute("#pad-pencil", "aria-pressed") == "true"
    pad(pg, "2").tap()
    pad(pg, "4").tap()
    s = state(pg)["1,1"]
    assert s["digit"] == "4" and s["marks"] == "24" and not s["marksShown"]
    assert pg.get_attribute("#pad-digits button[data-d='2']", "aria-pressed") == "true"
    pg.tap("#btn-check")
    assert "1 wrong entry" in message(pg)
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / "play-phone.png"))
    pad(pg, "Undo").tap()
    assert state(pg)["1,1"]["marks"] == "2"
    pad(pg, "Erase").tap()  # the entry goes, the mark underneath shows
    s = state(pg)["1,1"]
    assert s["digit"] == "" and s["marks"] == "2" and s["marksShown"]
    pad(pg, "Pencil").tap()
    for (r, c), d in {(1, 1): "2", (1, 2): "7", (2, 2): "9", (2, 1): "3"}.items():
        cell(pg, r, c).tap()
        pad(pg, d).tap()
    pg.wait_for_function("() => document.querySelector('#message').textContent"
                         ".includes('Well done')")
    assert {k: v["digit"] for k, v in state(pg).items()} == {
        "1,1": "2", "1,2": "7", "2,1": "3", "2,2": "9"}
    assert pg.get_by_role("gridcell", name="r3c3, across 12 in 2 cells, down 16 in 2 cells: 9",
                          exact=True).count() == 1
    pg.screenshot(path=str(ARTIFACTS / "play-phone-solved.png"))


def test_a_big_puzzle_on_a_phone_keeps_the_pad_on_screen(phone):
    pg = phone
    pg.tap("#btn-menu")
    pg.select_option("#server-files", "big.txt")
    wait_idle(pg)
    assert pg.is_hidden("#btn-save")  # the file row folds away once a puzzle opens
    assert on_screen(pg, "#pad")
    assert cell(pg, 1, 1).bounding_box()["width"] >= 30  # scrolls rather than shrinks
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    pg.screenshot(path=str(ARTIFACTS / "play-phone-big.png"))


def test_a_screen_reader_hears_the_cell_its_two_clues_and_its_digit_or_marks(laptop):
    pg = laptop
    # four.txt: r2c2 lies in row 2's unclued across run and in the down run of 5
    name = "r2c2, across without a clue in 2 cells, down 5 in 2 cells: empty"
    assert pg.get_by_role("gridcell", name=name, exact=True).count() == 1
    assert pg.get_by_role("gridcell", name="r3c3, across 12 in 2 cells, down 16 in 2 cells: "
                                           "empty", exact=True).count() == 1
    cell(pg, 1, 1).click()
    pg.keyboard.press("Shift+Digit1")
    pg.keyboard.press("Shift+Digit3")
    assert pg.get_by_role("gridcell", name=name.replace("empty", "pencil marks 1 3"),
                          exact=True).count() == 1
    pg.keyboard.press("4")
    pg.click("#btn-check")
    assert "wrong" in message(pg)
    heard = name.replace("empty", "4, wrong")
    # in Chromium's own accessibility tree too, as rows of cells of a grid
    assert heard in ax_names(pg, "gridcell")
    cdp = pg.context.new_cdp_session(pg)
    roles = [n.get("role", {}).get("value")
             for n in cdp.send("Accessibility.getFullAXTree")["nodes"]]
    assert roles.count("row") == 3 and roles.count("gridcell") == 9
    # the selected cell is the grid's active descendant (what arrow keys announce)
    assert pg.get_attribute("#board", "aria-activedescendant") == "sq-1-1"
    pg.keyboard.press("ArrowRight")
    assert pg.get_attribute("#board", "aria-activedescendant") == "sq-1-2"
    assert pg.get_by_role("gridcell", name="r1c3: clue, down 16").count() == 1
    assert pg.get_by_role("button", name="digit 7").count() == 1


def test_messages_go_when_their_cause_does(laptop):
    pg = laptop
    cell(pg, 1, 1).click()
    pg.keyboard.press("4")
    cell(pg, 1, 2).click()
    pg.keyboard.press("8")
    pg.click("#btn-check")
    assert "2 wrong entries" in message(pg)
    assert "r2c2" in message(pg) and "r2c3" in message(pg)
    pg.keyboard.press("7")  # one fixed: only the other is still to fix
    left = message(pg)
    assert "Still to fix" in left and "r2c2" in left and "r2c3" not in left
    cell(pg, 1, 1).click()
    pg.keyboard.press("2")  # both fixed: the error message is gone
    assert message(pg) == ""
    # a hint about a mistake goes once the mistake is mended
    pg.keyboard.press("5")
    pg.click("#hint-concrete")
    wait_idle(pg)
    assert pg.is_visible("#hint-box") and "r2c2" in pg.inner_text("#hint-text")
    pg.keyboard.press("Delete")
    assert pg.is_hidden("#hint-box")
    # a full hint goes once its digit is written (and not before)
    pg.click("#hint-full")
    wait_idle(pg)
    assert pg.is_visible("#hint-box")
    four = api.load((PUZZLES / "seed002-four.txt").read_text()).with_entries({(1, 2): 7})
    r, c, d = api.hint(four, "full").step.placements[0]
    cell(pg, r, c).click()
    pg.keyboard.press(str(d % 9 + 1))
    assert pg.is_visible("#hint-box")
    pg.keyboard.press(str(d))
    assert pg.is_hidden("#hint-box")
    # "Solved" goes when the grid is no longer solved; the save note when a name is typed
    for (r, c), d in {(1, 1): 2, (2, 1): 3, (2, 2): 9}.items():
        cell(pg, r, c).click()
        pg.keyboard.press(str(d))
    pg.wait_for_function("() => document.querySelector('#message').textContent.includes('Solved')")
    pg.keyboard.press("Delete")
    assert message(pg) == ""
    pg.click("#btn-save")
    assert "Type a file name" in message(pg)
    pg.fill("#save-path", "x.txt")
    assert message(pg) == ""


def test_no_praise_after_solve(laptop):
    pg = laptop
    pg.click("#btn-solve")
    pg.wait_for_function("() => document.querySelector('#message').textContent.includes('Solved')")
    wait_idle(pg)
    pg.wait_for_timeout(300)  # the check a full grid starts on its own
    wait_idle(pg)
    assert [v["digit"] for v in state(pg).values()] == ["2", "7", "3", "9"]
    assert "Well done" not in message(pg)
    # nor once the player, having seen the solution, fills a cell back in
    cell(pg, 1, 1).click()
    pg.keyboard.press("Delete")
    pg.keyboard.press("2")
    pg.wait_for_function("() => document.querySelector('#message').textContent.includes('Solved')")
    assert "Well done" not in message(pg)
    pg.reload()  # remembered with the progress
    pg.wait_for_selector("body[data-ready='1']")
    cell(pg, 1, 1).click()
    pg.keyboard.press("Delete")
    pg.keyboard.press("2")
    pg.wait_for_function("() => document.querySelector('#message').textContent.includes('Solved')")
    assert "Well done" not in message(pg)


def test_the_editor_shows_the_rating_of_the_puzzle_it_accepts(laptop):
    pg = laptop
    pg.click("#btn-new")
    pg.fill("#ed-rows", "3")
    pg.fill("#ed-cols", "3")
    pg.click("#ed-grid")
    ed = "#editor-board .ecell[data-r='{}'][data-c='{}']"
    pg.check("input[name=tool][value=clue]")
    for (r, c), (field, value) in {(0, 1): ("down", "4"), (0, 2): ("down", "11"),
                                   (1, 0): ("across", "4"), (2, 0): ("across", "11")}.items():
        pg.click(ed.format(r, c))
        pg.fill(ed.format(r, c) + f" .in-{field}", value)
    pg.click("#ed-create")
    pg.wait_for_selector("#play-view:not([hidden])")
    rated = api.rate(api.load("\\|4\\|11\\\n\\4| | \n\\11| | \n"))
    # scores read as everywhere else (7.0 as "7", as Python's :g and JavaScript's numbers)
    # rater v8: the header also says how likely pencil marks are, as the rating words it
    assert rated.notes is not None and rated.notes_text()
    assert pg.inner_text("#rating") == \
        f"{rated.level} · score {rated.score:g} · {rated.notes_text()}"
    assert f"Rated {rated.level} (score {rated.score:g}; {rated.notes_text()})." in message(pg)
    pg.screenshot(path=str(ARTIFACTS / "play-rated.png"))
    # another puzzle, opened from a file, shows its own rating (rater v8: files opened are
    # rated too), not the editor puzzle's
    pg.select_option("#server-files", "four.txt")
    wait_idle(pg)
    four = api.rate(api.load(play.FOUR).without_progress())
    assert pg.is_visible("#rating")
    assert pg.inner_text("#rating") == \
        f"{four.level} · score {four.score:g} · {four.notes_text()}"


def chain_state(root_dir: Path) -> dict:
    """deducer-trial.txt filled in (entries, pencil marks) up to its first chain step, saved
    in the play folder as chain.txt; returns the proof the full hint gives there."""
    p = formats.load(PUZZLES / "deducer-trial.txt")
    eng = Engine(p, registry.load())
    while True:
        masks = list(eng.state.masks)
        step = eng.step()
        assert step is not None, "the walkthrough has no chain step"
        if step.proof and "assume" in step.proof:
            break
    entries, pencil = {}, {}
    for i, rc in enumerate(p.whites):
        if rc in p.givens:
            continue
        if masks[i] & (masks[i] - 1):
            pencil[rc] = masks[i]
        else:
            entries[rc] = masks[i].bit_length()
    q = p.with_entries(entries, pencil)
    (root_dir / "chain.txt").write_text(formats.dumps(q, "pipe"), encoding="utf-8")
    h = api.hint(q, "full").to_json()
    assert "assume" in h.get("proof", {}), "the full hint there is not the chain step"
    return h["proof"]


def board_keys(pg, cls: str) -> set[tuple[int, int]]:
    return {tuple(map(int, k.split(","))) for k in pg.eval_on_selector_all(
        f"#board .{cls}", "es => es.map(e => e.dataset.r + ',' + e.dataset.c)")}


def walk_the_chain(pg, proof: dict, shots: str) -> None:
    pg.reload()  # the folder's list now has chain.txt
    pg.wait_for_selector("body[data-ready='1']")
    pg.wait_for_function("() => document.querySelectorAll('#server-files option').length > 1")
    if pg.is_visible("#btn-menu"):
        pg.tap("#btn-menu")
    pg.select_option("#server-files", "chain.txt")
    wait_idle(pg)
    pg.click("#hint-full")
    wait_idle(pg)
    assert pg.is_visible("#chain")
    (ar, ac, ad), links = proof["assume"], proof["links"]
    # first the assumption: the digit drawn in its cell
    assert f"if r{ar + 1}c{ac + 1} were {ad}" in pg.inner_text("#chain-head").lower()
    assert board_keys(pg, "assume") == {(ar, ac)}
    assert pg.inner_text(f"#sq-{ar}-{ac} .ghost.assumed") == str(ad)
    assert pg.is_disabled("#chain-prev")
    written = []
    count = sum(1 for link in links if not link.get("contradiction"))  # the end is no link
    for n, link in enumerate(links, 1):
        pg.click("#chain-next")
        head = pg.inner_text("#chain-head")
        if link.get("contradiction"):
            assert ": the contradiction" in head and n == len(links) == count + 1
            assert pg.inner_text("#chain-text").startswith("✗ ")
        else:
            assert f"link {n} of {count}" in head
            assert pg.inner_text("#chain-text").startswith(f"({n}) ")
        # the link's cells and runs highlighted, its number on the board
        cells = {tuple(f["cell"]) for f in link["facts"] if "cell" in f}
        cells |= {(r, c) for r, c, _ in link["placements"]}
        cells |= {(r, c) for r, c, _ in link["eliminations"]}
        assert board_keys(pg, "hintcell") == cells
        clues = {(r, c) for r, c, _ in link["runs"]}
        assert board_keys(pg, "hintclue") == clues
        badge = pg.locator("#board .link-no")
        mark = "✗" if link.get("contradiction") else str(n)
        assert badge.count() == 1 and badge.inner_text() == mark
        if link["placements"]:
            r, c, d = link["placements"][0]
            assert pg.inner_text(f"#sq-{r}-{c} .link-no") == str(n)
            assert pg.inner_text(f"#sq-{r}-{c} .ghost.now") == str(d)
        for r, c, d in written:  # what earlier links wrote stays drawn
            assert pg.inner_text(f"#sq-{r}-{c} .ghost.earlier") == str(d)
        written += link["placements"]
        if n == 1:
            pg.screenshot(path=str(ARTIFACTS / f"{shots}-link1.png"))
    assert "contra" in badge.get_attribute("class")  # the last link breaks a rule
    pg.screenshot(path=str(ARTIFACTS / f"{shots}-contradiction.png"))
    pg.click("#chain-next")
    assert pg.inner_text("#chain-text").startswith("So ")
    assert f"leaves r{ar + 1}c{ac + 1}" in pg.inner_text("#chain-text")
    assert pg.is_disabled("#chain-next")
    pg.click("#chain-prev")
    assert pg.locator("#board .link-no").inner_text() == mark  # back on the last frame
    pg.click("#chain-end")
    assert pg.is_hidden("#chain") and pg.locator("#board .ghost, #board .link-no").count() == 0
    assert pg.locator("#board .hintcell").count() > 0  # the hint's own highlights are back


def test_a_chain_hint_is_walked_link_by_link_on_the_board(laptop, root):
    ARTIFACTS.mkdir(exist_ok=True)
    walk_the_chain(laptop, chain_state(root), "play-chain")


def test_a_chain_hint_on_a_phone(phone, root):
    pg = phone
    proof = chain_state(root)
    walk_the_chain(pg, proof, "play-chain-phone")


def test_a_proof_by_cases_is_walked_case_by_case(laptop):
    """No rule of the ladder proves by cases yet; the JSON contract allows it, so the
    stepper walks each case's assumption and links, then the conclusion."""
    link = {"text": "r2c3 = 9", "placements": [[1, 2, 9]], "eliminations": [], "facts": [],
            "runs": [[0, 2, "down"]]}
    bad = dict(link, text="r1c3↓ 16/2 is full but adds up to 18", placements=[],
               contradiction=True)
    hint = {"kind": "deduction", "level": "full", "text": "...", "step": {
        "placements": [[2, 2, 9]], "eliminations": [],
        "proof": {"cases": [{"assume": [1, 1, 1], "links": [link, bad]},
                            {"assume": [1, 1, 2], "links": [link]}]}}}
    frames = laptop.evaluate("(res) => ChainStep.frames(res)", hint)
    assert [(f["kind"], f["head"]) for f in frames] == [
        ("assume", "Case 1 of 2, if r2c2 were 1"),
        ("link", "Case 1 of 2, if r2c2 were 1: link 1 of 1"),
        ("contradiction", "Case 1 of 2, if r2c2 were 1: the contradiction"),
        ("assume", "Case 2 of 2, if r2c2 were 2"),
        ("link", "Case 2 of 2, if r2c2 were 2: link 1 of 1"),
        ("end", "Conclusion")]
    assert frames[2]["text"] == "✗ r1c3↓ 16/2 is full but adds up to 18: a contradiction."
    assert frames[-1]["text"] == "Every case agrees, so r3c3 = 9."
    assert frames[4]["written"] == [] and frames[2]["written"] == [[1, 2, 9]]


def test_pencil_mode_of_the_pad_turns_the_digit_keys_into_marks(laptop):
    pg = laptop
    cell(pg, 1, 2).click()
    pg.click("#pad-pencil")
    assert pg.get_by_role("button", name="pencil mark 7").count() == 1
    pg.keyboard.press("7")
    pg.keyboard.press("9")
    pg.keyboard.press("Shift+Digit9")  # Shift is the other way round in pencil mode
    s = state(pg)["1,2"]
    assert s["marks"] == "79" and s["digit"] == "9"
    assert pg.get_attribute("#pad-digits button[data-d='7']", "aria-pressed") == "true"
    assert pg.get_attribute("#pad-digits button[data-d='8']", "aria-pressed") == "false"
    pg.click("#pad-pencil")
    pg.click("#pad-digits button[data-d='7']")
    assert state(pg)["1,2"]["digit"] == "7"
    assert "on" in pg.get_attribute("#pad-digits button[data-d='7']", "class").split()
