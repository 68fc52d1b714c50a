"""The play page's "Show all steps" (issue 39, point 3) in a real headless Chromium, on a
laptop (1366x768, keyboard) and a phone (390x844, taps): every deduction open on the board,
simplest first, as ``deducer hint --all`` lists them; picking one shows its sentence and
highlights what it looks at.

Screenshots go to tests/artifacts/ (play-all-steps-*.png).
"""

from __future__ import annotations

from pathlib import Path

from browserkit import playwright_or_skip

sync_api = playwright_or_skip()
import test_play_tools as tools  # noqa: E402
from test_play_tools import keys, press, wait_idle, write  # noqa: E402

from deducer import api  # noqa: E402
from deducer.puzzle import formats  # noqa: E402

# the play folder, its server (started on four.txt) and the person at each size, shared
root, server, person = tools.root, tools.server, tools.person

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
FOUR = Path(__file__).resolve().parents[1] / "puzzles" / "seed002-four.txt"


def items(pg) -> list[str]:
    return pg.eval_on_selector_all("#all-steps button", "bs => bs.map(b => b.textContent)")


def test_show_all_steps_then_pick_one(person):
    pg, size = person
    button = pg.get_by_role("button", name="Show all steps")
    assert button.count() == 1 and button.is_visible()
    want = api.all_steps(formats.load(FOUR)).steps
    assert len(want) > 1
    if size == "phone":
        button.tap()
    else:
        button.focus()
        pg.keyboard.press("Enter")
    wait_idle(pg)
    got = items(pg)
    assert len(got) == len(want)
    assert [g.split(" ")[0] for g in got] == [s.name.split(" ")[0] for s in want]
    assert pg.inner_text("#hint-level") == f"All steps ({len(want)})"
    assert "simplest first" in pg.inner_text("#hint-text")
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"play-all-steps-list-{size}.png"))
    # pick the second: its sentence, its cells on the board
    second = want[1]
    if size == "phone":
        pg.tap('#all-steps button[data-i="1"]')
    else:
        # the focus is on the first step; ↓ moves in the list (not on the board), Enter picks
        assert pg.evaluate("document.activeElement.dataset.i") == "0"
        sel_before = pg.evaluate("JSON.stringify(S.sel)")
        pg.keyboard.press("ArrowDown")
        assert pg.evaluate("document.activeElement.dataset.i") == "1"
        assert pg.evaluate("JSON.stringify(S.sel)") == sel_before
        pg.keyboard.press("Enter")
    assert pg.get_attribute('#all-steps button[data-i="1"]', "aria-pressed") == "true"
    assert pg.get_attribute('#all-steps button[data-i="0"]', "aria-pressed") == "false"
    assert pg.inner_text("#hint-text") == second.text
    assert pg.inner_text("#hint-level").startswith(f"Step 2 of {len(want)}: {second.name}")
    assert keys(pg, "hintcell") == {tuple(c) for c in second.cells}
    pg.screenshot(path=str(ARTIFACTS / f"play-all-steps-pick-{size}.png"))
    # a digit written changes what is open: asked again, the list follows the board
    write(pg, size, 1, 1, 2)  # r2c2 = 2: the four-cell puzzle's own digit there
    press(pg, size, "#hint-all")
    wait_idle(pg)
    after = api.all_steps(formats.load(FOUR).with_entries({(1, 1): 2})).steps
    assert after[0].rule != want[0].rule  # a lone cell now opens the list
    got = items(pg)
    assert len(got) == len(after) and got[0].startswith(after[0].name + " r3c2 = 3")
    # a hint of another kind takes the box over: the list goes
    press(pg, size, "#hint-vague")
    wait_idle(pg)
    assert pg.is_hidden("#all-steps") and items(pg) == []


def test_mistakes_come_first_in_the_list_too(person):
    pg, size = person
    write(pg, size, 1, 1, 9)  # no solution has 9 there
    press(pg, size, "#hint-all")
    wait_idle(pg)
    assert pg.is_hidden("#all-steps")
    assert "Fix them first" in pg.inner_text("#hint-text")
    assert (1, 1) in keys(pg, "wrong")
