"""The ``deducer play`` server through Flask's test client: every endpoint, the guards
(remote address, Host, Origin, body size, content type), malformed requests, paths that
try to leave the root folder, and the editor's uniqueness check."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from deducer.app.cli import build_parser
from deducer.app.play.limits import MAX_BODY
from deducer.app.play.server import create_app
from deducer.puzzle import formats
from tests.support.timing import Stopwatch, stretch

ROOT = Path(__file__).resolve().parents[1]
FOUR = (ROOT / "puzzles" / "seed002-four.txt").read_text(encoding="utf-8")
FOUR_SOLUTION = {(1, 1): 2, (1, 2): 7, (2, 1): 3, (2, 2): 9}
# a 2x2 block where every run sums to 4: {1,3} twice, the two diagonals swap
TWO = "\\|4\\|4\\\n\\4||\n\\4||\n"
TWO_GRID = [["\\", "4\\", "4\\"], ["\\4", "", ""], ["\\4", "", ""]]
# the fix: the second row and column sum to 11, which only 3+8 (not 1+10) reaches
FIXED_GRID = [["\\", "4\\", "11\\"], ["\\4", "", ""], ["\\11", "", ""]]


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    d = tmp_path / "root"
    d.mkdir()
    (d / "four.txt").write_text(FOUR, encoding="utf-8")
    (d / "two.txt").write_text(TWO, encoding="utf-8")
    (d / "sub").mkdir()
    (d / "sub" / "also.txt").write_text(FOUR, encoding="utf-8")
    (d / ".hidden").mkdir()
    (d / ".hidden" / "secret.txt").write_text(FOUR, encoding="utf-8")
    (d / "notes.md").write_text("not a puzzle", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "theirs.txt").write_text(FOUR, encoding="utf-8")
    os.symlink(outside, d / "escape")
    os.symlink(outside / "theirs.txt", d / "link.txt")
    return d


@pytest.fixture()
def client(root: Path):
    app = create_app(root, str(root / "four.txt"))
    return app.test_client()


@pytest.fixture()
def bare_client(root: Path):
    return create_app(root, None).test_client()


def four(**extra) -> dict:
    obj = json.loads(formats.dumps(formats.loads(FOUR, "pipe"), "json"))
    obj.update(extra)
    return obj


def two(**extra) -> dict:
    obj = json.loads(formats.dumps(formats.loads(TWO, "pipe"), "json"))
    obj.update(extra)
    return obj


def assert_error(resp, status: int, fragment: str = "") -> dict:
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert resp.is_json
    body = resp.get_json()
    assert isinstance(body.get("error"), str) and body["error"]
    assert "Traceback" not in body["error"]
    assert fragment.lower() in body["error"].lower(), body["error"]
    return body


# ---- page and start ---------------------------------------------------------------------------
def test_page_and_static_files(client):
    r = client.get("/")
    assert r.status_code == 200 and b"deducer play" in r.data
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    # every script and style sheet the page names is served (chainstep.js, the chain
    # walker the HTML walkthrough shares, from the render layer's static folder)
    named = re.findall(r'(?:src|href)="/static/([^"]+)"', r.get_data(as_text=True))
    assert {"play.css", "chainstep.js", "state.js", "board.js", "editor.js", "chainwalk.js",
            "play.js"} <= set(named)
    for name in named:
        served = client.get(f"/static/{name}")
        assert served.status_code == 200 and len(served.data) > 100, name
    assert_error(client.get("/static/nothing.js"), 404)
    assert_error(client.get("/no/such/page"), 404, "no such page")


def test_start_with_the_command_line_puzzle(client, root):
    r = client.get("/api/start")
    assert r.status_code == 200
    body = r.get_json()
    start = body["start"]
    assert start["status"] == "unique"
    assert start["source"] == "four.txt"
    assert start["puzzle"]["grid"][0] == ["\\", "5\\", "16\\"]
    assert {run["name"] for run in start["runs"]} >= {"r1c2↓ 5/2", "r3c1→ 12/2"}
    assert body["root"] == str(root.resolve())
    assert body["save_formats"] == ["json", "pipe"]


def test_start_without_a_puzzle(bare_client):
    assert bare_client.get("/api/start").get_json()["start"] is None


def test_an_unsolvable_command_line_puzzle_is_refused(tmp_path):
    from deducer.errors import DeducerError

    bad = tmp_path / "bad.txt"
    bad.write_text("\\|5\\|16\\\n\\||\n\\3||\n", encoding="utf-8")
    with pytest.raises(DeducerError, match="no solution"):
        create_app(tmp_path, str(bad))


# ---- files ----------------------------------------------------------------------------------
def test_files_lists_puzzles_inside_the_root_only(bare_client):
    files = bare_client.get("/api/files").get_json()["files"]
    assert "four.txt" in files and "two.txt" in files and "sub/also.txt" in files
    assert "notes.md" not in files
    assert not any(f.startswith(".hidden") for f in files)
    assert "link.txt" not in files  # a link to a file outside
    assert not any(f.startswith("escape/") for f in files)


def test_files_lists_only_files_that_read_as_puzzles(root):
    # what a project folder holds beside its puzzles: the issue's egg-info and expected.json
    egg = root / "deducer.egg-info"
    egg.mkdir()
    (egg / "SOURCES.txt").write_text("README.md\npyproject.toml\ndeducer/__init__.py\n")
    (root / "expected.json").write_text('{"seed000-k2.j": {"status": "unique"}}')
    (root / "requirements.txt").write_text("flask>=3.0\nwaitress\n")
    (root / "k.j").write_text((ROOT / "puzzles" / "seed000-k.j").read_text())
    (root / "mine.json").write_text(formats.dumps(formats.loads(FOUR, "pipe"), "json"))
    files = create_app(root, None).test_client().get("/api/files").get_json()["files"]
    assert sorted(files) == ["four.txt", "k.j", "mine.json", "sub/also.txt", "two.txt"]


def test_a_file_of_several_puzzles_offers_a_choice(root):
    (root / "k.j").write_text((ROOT / "puzzles" / "seed000-k.j").read_text())
    client = create_app(root, None).test_client()
    body = client.get("/api/open?path=k.j").get_json()
    assert body["choose"] == [f"k{i}" for i in range(8)] and "pick one" in body["message"]
    assert "--name" not in json.dumps(body)
    picked = client.get("/api/open?path=k.j&name=k3").get_json()
    assert picked["puzzle"]["name"] == "k3" and picked["status"] == "multiple"
    text = (root / "k.j").read_text()
    body = client.post("/api/parse", json={"text": text, "filename": "k.j"}).get_json()
    assert body["choose"][:2] == ["k0", "k1"]
    picked = client.post("/api/parse", json={"text": text, "filename": "k.j", "name": "k2"})
    assert picked.get_json()["puzzle"]["name"] == "k2"


def test_open_a_file_in_the_root(bare_client):
    r = bare_client.get("/api/open?path=sub/also.txt")
    assert r.status_code == 200
    assert r.get_json()["status"] == "unique"
    # a puzzle opened from a file is rated too: the header shows its level and notes
    rated = r.get_json()["rating"]
    assert rated["level"] and rated["notes_text"].startswith("pencil marks: ")
    r = bare_client.get("/api/open", query_string={"path": "two.txt"})
    body = r.get_json()
    assert body["status"] == "multiple"
    assert "more than one solution" in body["message"]
    assert sorted(map(tuple, body["cells"])) == [(1, 1), (1, 2), (2, 1), (2, 2)]


@pytest.mark.parametrize("path, status, fragment", [
    ("../outside/theirs.txt", 403, "'..'"),
    ("sub/../../outside/theirs.txt", 403, "'..'"),
    ("/etc/passwd", 403, "absolute"),
    ("~/x.txt", 403, "absolute"),
    ("escape/theirs.txt", 403, "outside the folder"),
    ("link.txt", 403, "outside the folder"),
    ("sub\\..\\..\\x.txt", 400, "/"),
    ("", 400, "file name"),
    ("missing.txt", 404, "no such file"),
    ("sub", 404, "no such file"),
])
def test_open_refuses_paths_outside_the_root(bare_client, path, status, fragment):
    assert_error(bare_client.get("/api/open", query_string={"path": path}), status, fragment)


def test_open_needs_a_path_and_reports_bad_files(bare_client, root):
    assert_error(bare_client.get("/api/open"), 400, "path")
    (root / "broken.txt").write_text("\\|5\\|16\\\n\\|x|\n", encoding="utf-8")
    body = assert_error(bare_client.get("/api/open?path=broken.txt"), 400, "broken.txt")
    assert "line 2" in body["error"] or "broken.txt:2" in body["error"]
    (root / "nul.txt").write_bytes(b"\\|5\x00")
    assert_error(bare_client.get("/api/open?path=nul.txt"), 400, "NUL")


# ---- parse (upload / drag and drop) ---------------------------------------------------------
def test_parse_any_format(bare_client):
    r = bare_client.post("/api/parse", json={"text": FOUR, "filename": "C:\\x\\four.txt"})
    assert r.status_code == 200
    assert r.get_json()["source"] == "four.txt"
    as_json = formats.dumps(formats.loads(FOUR, "pipe"), "json")
    r = bare_client.post("/api/parse", json={"text": as_json, "filename": "four.json"})
    assert r.status_code == 200 and r.get_json()["status"] == "unique"
    r = bare_client.post("/api/parse", json={"text": FOUR, "format": "pipe"})
    assert r.status_code == 200


def test_parse_keeps_entries_and_pencil_marks(bare_client):
    text = "\\|5\\|16\\\n\\|2(1,2)|\n\\12||(7,9)\n"
    p = bare_client.post("/api/parse", json={"text": text}).get_json()["puzzle"]
    assert p["entries"] == [[1, 1, 2]]
    assert p["pencil"] == [[1, 1, [1, 2]], [2, 2, [7, 9]]]


@pytest.mark.parametrize("body, status, fragment", [
    ({"text": "garbage", "filename": "x.txt"}, 400, "cannot tell which puzzle format"),
    ({"text": "   "}, 400, "empty"),
    ({"text": FOUR, "format": "nope"}, 400, "unknown format"),
    ({"text": "\\|5\\|16\\\n\\||\n\\3||\n"}, 422, "no solution"),
    ({"filename": "x.txt"}, 400, "missing field 'text'"),
    ({"text": 5}, 400, "'text' must be a string"),
    ({"text": FOUR, "filename": 3}, 400, "'filename' must be a string"),
    ({"text": "\\|5\\|16\\\n\\|x|\n", "filename": "bad.txt"}, 400, "bad.txt:2"),
])
def test_parse_errors(bare_client, body, status, fragment):
    assert_error(bare_client.post("/api/parse", json=body), status, fragment)


# ---- create (editor) ------------------------------------------------------------------------
def test_create_refuses_two_solutions_then_accepts_the_fix(bare_client):
    r = bare_client.post("/api/create", json={"grid": TWO_GRID, "name": "mine"})
    body = assert_error(r, 422, "more than one solution")
    assert body["kind"] == "multiple"
    assert sorted(map(tuple, body["cells"])) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    r = bare_client.post("/api/create", json={"grid": FIXED_GRID, "name": "mine"})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["status"] == "unique"
    assert body["puzzle"]["name"] == "mine"
    assert body["puzzle"]["grid"] == FIXED_GRID


def test_create_answers_with_the_raters_level_and_score(bare_client):
    from deducer import api

    body = bare_client.post("/api/create", json={"grid": FIXED_GRID}).get_json()
    rated = api.rate(api.load(str_grid(FIXED_GRID)))
    assert (body["rating"]["level"], body["rating"]["score"]) == (rated.level, rated.score)
    assert f"Rated {rated.level} (score {rated.score:g}; {rated.notes_text()})." in body["message"]
    # the chance of pencil marks, as the rater gives it, for the page's header
    assert body["rating"]["notes"] == rated.notes
    assert body["rating"]["notes_text"] == rated.notes_text()


def test_generate_answers_with_the_raters_level_and_score(bare_client):
    body = bare_client.post("/api/generate", json={"size": "6x6", "seed": 1}).get_json()
    rated = body["rating"]
    assert isinstance(rated["score"], int | float) and rated["level"]
    assert f"rated {rated['level']} (seed " in body["message"]
    assert rated["text"] == (f"Rated {rated['level']} (score {rated['score']:g}; "
                             f"{rated['notes_text']}).")
    assert 0 <= rated["notes"] <= 1 and rated["notes_text"].startswith("pencil marks: ")


def str_grid(grid) -> str:
    """The | format of an editor grid."""
    return "".join("|".join(t or " " for t in row) + "\n" for row in grid)


@pytest.mark.parametrize("grid, kind, fragment", [
    ([["\\", "5\\", "16\\"], ["\\", "", ""], ["\\3", "", ""]], "none", "no solution"),
    ([["\\", "50\\"], ["\\", ""]], "invalid", "r1c2: the down sum '50' is not a whole"),
    ([["\\", "5\\x"], ["\\", ""]], "invalid", "r1c2: the across sum 'x'"),
    ([["\\", "5"], ["\\", ""]], "invalid", "r1c2: '5' is not a white square"),
    ([["\\", "\\"], ["\\", "\\"]], "invalid", "no white cells"),
    ([["\\", "5\\"], ["\\"]], "invalid", "ragged"),
    ([["\\5", "\\"], ["\\", ""]], "invalid", "no run behind it"),
])
def test_create_refuses_bad_grids(bare_client, grid, kind, fragment):
    body = assert_error(bare_client.post("/api/create", json={"grid": grid}), 422, fragment)
    assert body["kind"] == kind


@pytest.mark.parametrize("body, fragment", [
    ({}, "missing field 'grid'"),
    ({"grid": "x"}, "'grid' must be a list"),
    ({"grid": []}, "list of rows"),
    ({"grid": [[1, 2]]}, "list of rows"),
    ({"grid": [["", ""]], "name": 7}, "'name' must be a string"),
])
def test_create_malformed(bare_client, body, fragment):
    assert_error(bare_client.post("/api/create", json=body), 400, fragment)


# ---- check ----------------------------------------------------------------------------------
def test_check_flags_a_wrong_entry(client):
    r = client.post("/api/check", json={"puzzle": four(entries=[[1, 1, 4], [1, 2, 7]])})
    body = r.get_json()
    assert r.status_code == 200
    assert body["status"] == "wrong"
    assert body["wrong_entries"] == [[1, 1]]
    assert not body["solved"] and not body["filled"]


def test_check_a_solved_grid(client):
    entries = [[r, c, d] for (r, c), d in FOUR_SOLUTION.items()]
    body = client.post("/api/check", json={"puzzle": four(entries=entries)}).get_json()
    assert body["status"] == "ok" and body["filled"] and body["solved"]


def test_check_flags_wrong_pencil_marks(client):
    body = client.post("/api/check", json={"puzzle": four(pencil=[[1, 1, [5, 6]]])}).get_json()
    assert body["status"] == "wrong"
    assert body["wrong_pencil"] == [[1, 1]] and body["wrong_entries"] == []


def test_check_on_a_puzzle_with_two_solutions(client):
    # r2c2 = 3 belongs to the second solution: not wrong, though the first has 1 there
    body = client.post("/api/check", json={"puzzle": two(entries=[[1, 1, 3]])}).get_json()
    assert body["status"] == "ok" and body["wrong_entries"] == []
    assert body["solutions_found"] == 2
    body = client.post("/api/check", json={"puzzle": two(entries=[[1, 1, 1]])}).get_json()
    assert body["status"] == "ok"
    body = client.post("/api/check", json={"puzzle": two(entries=[[1, 1, 2]])}).get_json()
    assert body["status"] == "wrong" and body["wrong_entries"] == [[1, 1]]
    # each entry fits a solution, but not the same one
    body = client.post("/api/check",
                       json={"puzzle": two(entries=[[1, 1, 1], [2, 2, 3]])}).get_json()
    assert body["status"] == "conflict" and body["wrong_entries"] == []


# ---- hints ----------------------------------------------------------------------------------
def test_hint_tiers(client):
    vague = client.post("/api/hint", json={"puzzle": four(), "level": "vague"}).get_json()
    assert vague["kind"] == "deduction" and vague["text"].startswith("Look for")
    assert vague["highlight"] == {"cells": [], "runs": []}  # a vague hint gives nothing away
    concrete = client.post("/api/hint", json={"puzzle": four(), "level": "concrete"}).get_json()
    # without pencil marks the hint leads to a digit (r3c2 = 3), through r1c3↓ 16/2 first
    assert concrete["text"].startswith("First unique combination at r1c3↓ 16/2")
    hl = concrete["highlight"]
    assert [2, 1] in hl["cells"] and [1, 2] in hl["cells"]
    assert {"name": "r1c3↓ 16/2", "cells": [[1, 2], [2, 2]], "clue": [0, 2]} in hl["runs"]
    full = client.post("/api/hint", json={"puzzle": four(), "level": "full"}).get_json()
    assert "7+9" in full["text"] and full["step"]["rule"] == full["rule"]
    default = client.post("/api/hint", json={"puzzle": four()}).get_json()
    assert default["level"] == "vague"


def test_apply_hint(client):
    body = client.post("/api/hint", json={"puzzle": four(), "level": "vague",
                                          "apply": True}).get_json()
    assert body["level"] == "full"
    # no marks appear unasked: the pair complement's step writes r3c2 and r3c3 itself
    assert body["edits"] == [{"cell": [2, 1], "entry": 3}, {"cell": [2, 2], "entry": 9}]
    marked = four(pencil=[[1, 2, [1, 7, 9]], [2, 2, [7, 8, 9]]])
    body = client.post("/api/hint", json={"puzzle": marked, "apply": True}).get_json()
    assert body["edits"] == [{"cell": [1, 2], "pencil": [7, 9]},
                             {"cell": [2, 2], "pencil": [7, 9]}]


def test_apply_a_hint_that_places_a_digit(client):
    entries = [[1, 1, 2], [1, 2, 7], [2, 1, 3]]
    body = client.post("/api/hint", json={"puzzle": four(entries=entries),
                                          "apply": True}).get_json()
    assert body["kind"] == "deduction"
    assert {"cell": [2, 2], "entry": 9} in body["edits"]


def test_hint_on_a_mistake_and_applying_it(client):
    body = client.post("/api/hint", json={"puzzle": four(entries=[[1, 1, 4]]),
                                          "level": "concrete"}).get_json()
    assert body["kind"] == "mistake" and "r2c2" in body["text"]
    assert body["highlight"]["cells"] == [[1, 1]]
    body = client.post("/api/hint", json={"puzzle": four(entries=[[1, 1, 4]]),
                                          "apply": True}).get_json()
    assert body["edits"] == [{"cell": [1, 1], "entry": None}]


def test_hint_bad_level(client):
    assert_error(client.post("/api/hint", json={"puzzle": four(), "level": "loud"}), 400,
                 "one of vague, concrete, full")
    assert_error(client.post("/api/hint", json={"puzzle": four(), "apply": "yes"}), 400,
                 "true or false")


def test_why_not_a_pencilled_digit(client):
    # r2c3 is 7 in the one solution (r1c3↓ 16/2 is 7+9): why not 9, which is pencilled?
    marked = four(pencil=[[1, 2, [7, 9]]])
    body = client.post("/api/why", json={"puzzle": marked, "cell": [1, 2], "digit": 9}).get_json()
    assert body["kind"] == "explained" and body["steps"]
    assert body["text"].startswith("Why 9 cannot go in r2c3")
    assert [1, 2] in body["highlight"]["cells"]
    from deducer import proofcheck

    p = formats.loads(json.dumps(marked), "json")
    assert proofcheck.check_walkthrough(p, body["steps"]) == []
    solution = client.post("/api/why", json={"puzzle": marked, "cell": [1, 2],
                                             "digit": 7}).get_json()
    assert solution["kind"] == "solution" and "solution digit" in solution["text"]
    must = client.post("/api/why", json={"puzzle": marked, "cell": [1, 2], "digit": 7,
                                         "must": True}).get_json()
    assert must["kind"] == "explained" and must["must"] is True


def test_why_not_a_digit_already_written_in_the_run(client):
    """"Why not?" on a stale pencil mark: the run already holds the digit, so the grid as
    given answers (it was an internal error, HTTP 500)."""
    entered = four(entries=[[1, 1, 2]])
    resp = client.post("/api/why", json={"puzzle": entered, "cell": [2, 1], "digit": 2})
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["kind"] == "explained" and body["steps"] == []
    assert "r2c2, in the same run r1c2↓ 5/2, holds it" in body["text"]


@pytest.mark.parametrize("extra, fragment", [
    ({"cell": [0, 0], "digit": 3}, "not a white cell"),
    ({"cell": [1], "digit": 3}, "[row, column]"),
    ({"cell": [1, 2], "digit": 12}, "1-9"),
    ({"cell": [1, 2], "digit": "3"}, "whole number"),
    ({"digit": 3}, "missing field 'cell'"),
])
def test_why_bad_requests(client, extra, fragment):
    assert_error(client.post("/api/why", json={"puzzle": four(), **extra}), 400, fragment)


def test_the_page_loads_the_why_script(client):
    page = client.get("/").get_data(as_text=True)
    assert '<script src="/static/why.js" defer></script>' in page
    script = client.get("/static/why.js").get_data(as_text=True)
    assert "/api/why" in script and "whyRefresh" in script


# ---- solve / candidates -----------------------------------------------------------------------
def test_solve(client):
    body = client.post("/api/solve", json={"puzzle": four()}).get_json()
    assert {(r, c): d for r, c, d in body["entries"]} == FOUR_SOLUTION
    # wrong entries: replaced by the solution, and said so
    body = client.post("/api/solve", json={"puzzle": four(entries=[[1, 1, 4]])}).get_json()
    assert {(r, c): d for r, c, d in body["entries"]} == FOUR_SOLUTION
    assert "fit no solution" in body["message"]


def test_solve_follows_the_entries_on_a_two_solution_puzzle(client):
    body = client.post("/api/solve", json={"puzzle": two(entries=[[1, 1, 3]])}).get_json()
    assert {(r, c): d for r, c, d in body["entries"]} == {
        (1, 1): 3, (1, 2): 1, (2, 1): 1, (2, 2): 3}
    assert "more than one solution" in body["message"]


def test_candidates(client):
    body = client.post("/api/candidates", json={"puzzle": two()}).get_json()
    assert sorted(map(tuple, (x[:2] for x in body["pencil"]))) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert all(ds == [1, 3] for _, _, ds in body["pencil"])
    body = client.post("/api/candidates", json={"puzzle": two(entries=[[1, 1, 3]])}).get_json()
    got = {(r, c): ds for r, c, ds in body["pencil"]}
    assert (1, 1) not in got  # cells with entries get no marks
    # a player pencils in what the runs allow beside the written 3, and no more: r3c3 keeps
    # 1 and 3 (propagation would leave 3 alone, since r2c3 can only be 1)
    assert got == {(1, 2): [1], (2, 1): [1], (2, 2): [1, 3]}


def test_auto_marks_are_what_a_player_pencils_in_not_the_solution(client):
    body = client.post("/api/candidates", json={"puzzle": four()}).get_json()
    got = {(r, c): ds for r, c, ds in body["pencil"]}
    # r2c2: 5/2 down is 1+4 or 2+3 (the unclued across allows all); r3c2: 5/2 and 12/2
    # (3+9, 4+8, 5+7) share 3 and 4; 16/2 is 7+9 only, and 12/2 keeps both
    assert got == {(1, 1): [1, 2, 3, 4], (1, 2): [7, 9], (2, 1): [3, 4], (2, 2): [7, 9]}


def test_auto_marks_on_a_real_puzzle_do_not_give_it_away(client):
    from tests.support import corpus

    if corpus.corpus_root() is None:
        pytest.skip("no corpus")
    [cp] = corpus.janko(ids=["16"])
    obj = json.loads(formats.dumps(cp.puzzle, "json"))
    got = {(r, c): ds for r, c, ds in
           client.post("/api/candidates", json={"puzzle": obj}).get_json()["pencil"]}
    assert len(got) == len(cp.puzzle.whites)
    for i, rc in enumerate(cp.puzzle.whites):
        assert cp.solution[i] in got[rc]  # never wrong
    singles = sum(len(ds) == 1 for ds in got.values())
    assert singles < len(got) // 4, singles  # full propagation put one digit in every cell


def test_candidates_on_contradictory_entries(client):
    body = assert_error(client.post("/api/candidates",
                                    json={"puzzle": four(entries=[[1, 1, 9]])}), 422,
                        "without a combination")
    assert body["cells"]


# ---- export / save ----------------------------------------------------------------------------
def test_export_pipe_and_json(client):
    p = four(entries=[[1, 1, 2]], pencil=[[1, 1, [1, 2]], [2, 2, [7, 9]]], name="four")
    body = client.post("/api/export", json={"puzzle": p, "format": "pipe"}).get_json()
    assert body["text"] == "\\|5\\|16\\\n\\|2(1,2)|\n\\12||(7,9)\n"
    assert body["filename"] == "four.txt"
    back = formats.loads(body["text"])
    assert back.entries == {(1, 1): 2} and back.pencil == {(1, 1): 3, (2, 2): 0b101000000}
    body = client.post("/api/export", json={"puzzle": p, "format": "json"}).get_json()
    assert body["filename"] == "four.json" and body["mime"] == "application/json"
    assert formats.loads(body["text"]).entries == {(1, 1): 2}
    assert_error(client.post("/api/export", json={"puzzle": p, "format": "svg"}), 400,
                 "one of json, pipe")


def test_save_writes_inside_the_root_and_never_overwrites_unasked(client, root):
    p = four(entries=[[1, 1, 2]], pencil=[[2, 2, [7, 9]]])
    r = client.post("/api/save", json={"puzzle": p, "format": "pipe", "path": "sub/mine.txt"})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["saved"] == "sub/mine.txt"
    assert (root / "sub" / "mine.txt").read_text() == "\\|5\\|16\\\n\\|2|\n\\12||(7,9)\n"
    p2 = four(entries=[[1, 1, 4]])
    body = assert_error(client.post("/api/save", json={"puzzle": p2, "path": "sub/mine.txt"}),
                        409, "already exists")
    assert body["exists"] is True
    assert "2" in (root / "sub" / "mine.txt").read_text().split("\n")[1]
    r = client.post("/api/save", json={"puzzle": p2, "path": "sub/mine.txt", "overwrite": True})
    assert r.status_code == 200
    assert (root / "sub" / "mine.txt").read_text().split("\n")[1] == "\\|4|"
    # reopen what was saved
    body = client.get("/api/open?path=sub/mine.txt").get_json()
    assert body["puzzle"]["entries"] == [[1, 1, 4]]
    r = client.post("/api/save", json={"puzzle": p, "format": "json", "path": "mine.json"})
    assert r.status_code == 200
    assert formats.load(root / "mine.json").entries == {(1, 1): 2}
    leftovers = [f for f in os.listdir(root) if f.endswith(".tmp")]
    assert leftovers == []


@pytest.mark.parametrize("path, status, fragment", [
    ("../x.txt", 403, "'..'"),
    ("/tmp/x.txt", 403, "absolute"),
    ("escape/x.txt", 403, "outside the folder"),
    ("link.txt", 403, "outside the folder"),
    ("nofolder/x.txt", 400, "does not exist"),
    ("x.py", 400, "must end in"),
    ("sub", 400, "must end in"),
    ("", 400, "file name"),
])
def test_save_refuses_paths_outside_the_root(client, root, tmp_path, path, status, fragment):
    before = sorted(p.name for p in (tmp_path / "outside").iterdir())
    assert_error(client.post("/api/save", json={"puzzle": four(), "path": path,
                                                "overwrite": True}), status, fragment)
    assert sorted(p.name for p in (tmp_path / "outside").iterdir()) == before
    assert (tmp_path / "outside" / "theirs.txt").read_text() == FOUR


def test_save_pipe_refuses_a_json_name(client):
    assert_error(client.post("/api/save", json={"puzzle": four(), "format": "pipe",
                                                "path": "x.json"}), 400, "must end in")


# ---- guards ---------------------------------------------------------------------------------
@pytest.mark.parametrize("addr", ["10.0.0.2", "192.168.1.5", "8.8.8.8", "::2"])
def test_remote_addresses_are_refused(client, addr):
    env = {"REMOTE_ADDR": addr}
    assert_error(client.get("/", environ_base=env), 403, "only answers requests from this")
    assert_error(client.get("/api/start", environ_base=env), 403)
    assert_error(client.post("/api/check", json={"puzzle": four()}, environ_base=env), 403)


@pytest.mark.parametrize("addr", ["127.0.0.1", "::1"])
def test_loopback_addresses_are_served(client, addr):
    assert client.get("/api/start", environ_base={"REMOTE_ADDR": addr}).status_code == 200


def test_foreign_host_and_origin_are_refused(client):
    assert_error(client.get("/api/start", headers={"Host": "evil.example:8765"}), 403, "Host")
    assert client.get("/api/start", headers={"Host": "127.0.0.1:8765"}).status_code == 200
    assert client.get("/api/start", headers={"Host": "[::1]:8765"}).status_code == 200
    assert_error(client.post("/api/check", json={"puzzle": four()},
                             headers={"Origin": "https://evil.example"}), 403, "other web sites")
    r = client.post("/api/check", json={"puzzle": four()},
                    headers={"Origin": "http://127.0.0.1:8765", "Host": "127.0.0.1:8765",
                             "Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 200


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site"},  # <img src="http://127.0.0.1:8765/api/open?...">
    {"Sec-Fetch-Site": "same-site"},  # a page on another port of 127.0.0.1
    {"Origin": "http://127.0.0.1:9999"},
    {"Origin": "null"},
    {"Referer": "https://evil.example/page"},
])
def test_cross_site_requests_of_any_method_are_refused_before_any_work(root, monkeypatch,
                                                                      headers):
    from deducer.app.play import answers

    client = create_app(root, None).test_client()
    solved = []
    monkeypatch.setattr(answers, "solvability", lambda p: solved.append(p) or {})
    headers = {"Host": "127.0.0.1:8765", **headers}
    assert_error(client.get("/api/open?path=four.txt", headers=headers), 403, "other web sites")
    assert_error(client.post("/api/check", json={"puzzle": four()}, headers=headers), 403,
                 "other web sites")
    assert solved == []
    # the page itself (same origin, or a typed-in address) is served
    for ok in ({"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"},
               {"Origin": "http://127.0.0.1:8765"}, {}):
        assert client.get("/api/files", headers={"Host": "127.0.0.1:8765", **ok}).status_code \
            == 200


def test_deeply_nested_json_is_a_400_not_a_500(client):
    for depth in (100_000, 2_000, 65):
        body = "[" * depth + "]" * depth
        for url in ("/api/check", "/api/parse"):
            assert_error(client.post(url, data=body, content_type="application/json"), 400,
                         "levels deep")
    deep = {"puzzle": four(name="x")}
    inner: list = []
    deep["puzzle"]["extra"] = inner
    for _ in range(70):
        inner.append([])
        inner = inner[0]
    assert_error(client.post("/api/check", json=deep), 400, "levels deep")
    # brackets inside strings are text, not nesting
    ok = client.post("/api/parse", json={"text": "[" * 1000 + FOUR})
    assert ok.status_code in (200, 400) and "levels deep" not in ok.get_data(as_text=True)


def test_body_size_limit(client):
    big = json.dumps({"text": "x" * (MAX_BODY + 10)})
    body = assert_error(client.post("/api/parse", data=big, content_type="application/json"),
                        413, "larger than 1 MiB")
    assert set(body) == {"error"}


@pytest.mark.parametrize("data, content_type, status, fragment", [
    ("{not json", "application/json", 400, "not valid JSON"),
    ("[1, 2]", "application/json", 400, "must be a JSON object"),
    ('"text"', "application/json", 400, "must be a JSON object"),
    ("text=abc", "application/x-www-form-urlencoded", 415, "as JSON"),
    ("{}", "text/plain", 415, "as JSON"),
])
def test_malformed_bodies(client, data, content_type, status, fragment):
    for url in ("/api/parse", "/api/check", "/api/hint", "/api/solve", "/api/candidates",
                "/api/export", "/api/save", "/api/create"):
        assert_error(client.post(url, data=data, content_type=content_type), status, fragment)


@pytest.mark.parametrize("puzzle, fragment", [
    (None, "missing field 'puzzle'"),
    ("grid", "'puzzle' must be an object"),
    ({"grid": [["\\", "5\\"], ["\\", ""]], "entries": [[1, 1, 10]]}, "not valid"),
    ({"grid": [["\\", "5\\"], ["\\", ""]], "entries": [[0, 0, 3]]}, "not valid"),
    ({"grid": [["\\", "5\\"], ["\\", ""]], "entries": "x"}, "not valid"),
    ({"grid": "nope"}, "not valid"),
    ({}, "not valid"),
    ({"grid": [["\\", "4\\", "4\\"], ["\\4", "", ""], ["\\4", "", ""]],
      "givens": [[1, 1, 1], [1, 2, 1]]}, "twice"),
])
def test_bad_puzzles_in_requests(client, puzzle, fragment):
    for url in ("/api/check", "/api/hint", "/api/solve", "/api/candidates", "/api/export"):
        body = {} if puzzle is None else {"puzzle": puzzle}
        assert_error(client.post(url, json=body), 400, fragment)


def test_a_digit_twice_in_a_run_is_a_located_mistake(client):
    # the player's entries (not givens) repeat 1 in r2c1→ 4/2: a mistake to show, not a 400
    puzzle = {"grid": [["\\", "4\\", "4\\"], ["\\4", "", ""], ["\\4", "", ""]],
              "entries": [[1, 1, 1], [1, 2, 1]]}
    resp = client.post("/api/check", json={"puzzle": puzzle})
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["status"] == "wrong" and body["wrong_entries"]
    resp = client.post("/api/hint", json={"puzzle": puzzle, "level": "concrete"})
    assert resp.status_code == 200 and resp.get_json()["kind"] == "mistake"


def test_wrong_methods(client):
    assert_error(client.get("/api/check"), 405, "not allowed")
    assert_error(client.post("/api/start", json={}), 405, "not allowed")


def test_internal_errors_carry_no_traceback(root, monkeypatch):
    from deducer import api

    app = create_app(root, None)

    def boom(*a, **k):
        raise RuntimeError("secret detail /home/someone")

    monkeypatch.setattr(api, "check", boom)
    body = assert_error(app.test_client().post("/api/check", json={"puzzle": four()}), 500,
                        "internal error")
    assert "secret" not in body["error"] and "File " not in body["error"]


# ---- the command ------------------------------------------------------------------------------
def test_play_command_is_registered():
    args = build_parser().parse_args(["play", "p.txt", "--port", "0", "--no-browser",
                                      "--root", "/tmp"])
    assert args.command == "play" and args.puzzle == "p.txt" and args.port == 0
    assert args.no_browser and args.root == "/tmp"
    args = build_parser().parse_args(["play"])
    assert args.puzzle is None and args.root == "."


def test_play_command_errors_are_one_line(tmp_path, capsys):
    from deducer.app.cli import main

    assert main(["play", "--root", str(tmp_path / "nope"), "--no-browser"]) == 2
    assert "not a folder" in capsys.readouterr().err
    assert main(["play", str(tmp_path / "missing.txt"), "--root", str(tmp_path),
                 "--no-browser"]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["play", "--port", "70000", "--no-browser", "--root", str(tmp_path)]) == 2


def test_play_command_serves_on_loopback_and_stops_on_ctrl_c(tmp_path):
    import signal
    import subprocess
    import sys
    import urllib.request

    (tmp_path / "four.txt").write_text(FOUR, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "deducer", "play", "four.txt", "--port", "0", "--no-browser",
         "--root", str(tmp_path)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("deducer play: serving http://127.0.0.1:"), line
        url = line.split()[3]
        # a loaded machine stretches the answer and the stop in wall time; a hang still fails
        slow = max(3.0, stretch())
        with urllib.request.urlopen(url + "api/start", timeout=10 * slow) as resp:
            body = json.loads(resp.read())
        assert body["start"]["source"] == "four.txt"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20 * slow)
        assert proc.returncode == 0
        assert "stopped" in err and "Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


#: a process that does not end after Ctrl+C (as a server might not), with play's Ctrl+C
#: backstop armed: the interrupt ends its main thread, and then the interpreter waits for
#: a thread that never ends (a hang at exit; catching KeyboardInterrupt in a loop instead
#: would race: the interrupt can land outside the try). It prints "ready", then waits.
_SWALLOWER = """
import sys, threading, time
from deducer.app.commands.play import ctrl_c_stops
ctrl_c_stops(float(sys.argv[1]))
threading.Thread(target=time.sleep, args=(3600,)).start()  # not a daemon: exit waits
print("ready", flush=True)
while True:
    time.sleep(0.05)
"""


@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_ends_play_even_when_its_stop_hangs(presses):
    import signal
    import subprocess
    import sys
    import time

    within = 1.0
    proc = subprocess.Popen([sys.executable, "-c", _SWALLOWER, str(within if presses == 1
                                                                   else 3600)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        began = time.monotonic()
        for _ in range(presses):
            proc.send_signal(signal.SIGINT)
            time.sleep(0.2)
        _, err = proc.communicate(timeout=30 * max(3.0, stretch()))
        # one press: ended by the backstop after `within`; two: at the second press (the
        # backstop was an hour away)
        assert proc.returncode == 0 and "deducer play: stopped" in err
        if presses == 1:
            assert time.monotonic() - began >= within
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_ctrl_c_backstop_leaves_an_ignored_sigint_alone():
    import subprocess
    import sys

    code = ("import signal; signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
            "from deducer.app.commands.play import ctrl_c_stops\n"
            "ctrl_c_stops(1.0)\n"
            "print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "True"


def test_play_command_reports_a_busy_port(tmp_path, capsys):
    import socket

    from deducer.app.cli import main

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        assert main(["play", "--port", str(port), "--no-browser", "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and "--port" in err


def test_hint_when_the_pencil_marks_already_show_everything(client):
    marks = [[r, c, [d]] for (r, c), d in FOUR_SOLUTION.items()]
    body = client.post("/api/hint", json={"puzzle": four(pencil=marks),
                                          "level": "full"}).get_json()
    # a cell holding one pencil mark is still empty: the hint is to write that digit
    assert body["kind"] == "deduction" and "write it in" in body["text"]
    body = client.post("/api/hint", json={"puzzle": four(pencil=marks), "apply": True}).get_json()
    assert body["edits"]  # the step's digits (one step may write several)
    for edit in body["edits"]:
        assert FOUR_SOLUTION[tuple(edit["cell"])] == edit["entry"]
    entries = [[r, c, d] for (r, c), d in FOUR_SOLUTION.items()]
    body = client.post("/api/hint", json={"puzzle": four(entries=entries)}).get_json()
    assert body["kind"] == "solved" and "complete and correct" in body["text"]


def test_idle_and_slow_connections_hold_no_thread_and_are_closed(root):
    import socket
    import threading
    import time
    import urllib.request

    from deducer.app.play.server import make_server, stop_server

    server = make_server(create_app(root, None), 0, idle_timeout=1)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    port = server.effective_port
    before = threading.active_count()
    slow = []
    try:
        for _ in range(20):  # each opens a request and never finishes its headers
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"GET /api/start HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            slow.append(s)
        time.sleep(0.3)
        assert threading.active_count() <= before + 1  # no thread per connection
        with Stopwatch() as sw:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/start",
                                        timeout=60) as r:
                assert r.status == 200
        assert sw.within(3), sw  # served at once, beside 20 slow clients
        deadline = time.monotonic() + 8
        for s in slow:  # the server hangs up on each of them (EOF, not our timeout)
            s.settimeout(max(0.1, deadline - time.monotonic()))
            assert s.recv(1024) == b""
    finally:
        for s in slow:
            s.close()
        stop_server(server)
        thread.join(5)


# ---- the player's tools: what if, link, save my solve -------------------------------------------
def test_what_if_a_wrong_digit_is_a_checked_chain(client):
    body = client.post("/api/whatif", json={"puzzle": four(), "cell": [1, 1],
                                            "digit": 4}).get_json()
    assert body["status"] == "contradiction" and body["cell"] == [1, 1]
    assert body["message"].endswith("4 cannot go in r2c2.")
    links = body["proof"]["links"]
    assert body["proof"]["assume"] == [1, 1, 4] and links[-1]["contradiction"]
    assert "(1) r1c2↓ 5/2 has one empty cell left" in body["text"]
    from deducer import proofcheck

    step = {"n": 1, "rule": "what-if", "placements": [], "eliminations": [[1, 1, [4]]],
            "proof": body["proof"]}
    assert proofcheck.check_walkthrough(formats.loads(FOUR, "pipe"), [step]) == []


def test_what_if_the_right_digit_and_an_entry_it_replaces(client):
    body = client.post("/api/whatif", json={"puzzle": four(entries=[[1, 1, 5]]),
                                            "cell": [1, 1], "digit": 2}).get_json()
    assert body["status"] == "solved"
    assert [p for lk in body["proof"]["links"] for p in lk["placements"]] == [
        [2, 1, 3], [2, 2, 9], [1, 2, 7]]


@pytest.mark.parametrize("extra, fragment", [
    ({"cell": [0, 0], "digit": 3}, "not a white cell"),
    ({"cell": [1, 1], "digit": 10}, "1-9"),
    ({"cell": [1, 1]}, "missing field 'digit'"),
    ({"cell": [1, True], "digit": 3}, "[row, column]"),
])
def test_what_if_bad_requests(client, extra, fragment):
    assert_error(client.post("/api/whatif", json={"puzzle": four(), **extra}), 400, fragment)


def test_what_if_refuses_a_given(client):
    body = four(givens=[[1, 1, 2]])
    assert_error(client.post("/api/whatif", json={"puzzle": body, "cell": [1, 1], "digit": 3}),
                 400, "holds a given")


def test_link_carries_entries_and_pencil_marks_and_reads_back(client, root):
    body = client.post("/api/link", json={"puzzle": four(
        entries=[[1, 1, 2]], pencil=[[1, 2, [7, 9]], [2, 1, [3]], [2, 2, [7, 9]]])}).get_json()
    link = body["link"]
    assert link == "https://puzz.link/p?kakuro/2/2/n5g-c#e=2&m=Aa004a0"
    assert "deducer play" in body["message"]
    # the page opens it as any puzzle text, position and all
    opened = client.post("/api/parse", json={"text": link, "format": "puzzlink"}).get_json()
    assert opened["puzzle"]["entries"] == [[1, 1, 2]]
    assert opened["puzzle"]["pencil"] == [[1, 2, [7, 9]], [2, 1, [3]], [2, 2, [7, 9]]]
    # and so does `deducer play 'LINK'`
    start = create_app(root, link).test_client().get("/api/start").get_json()["start"]
    assert start["puzzle"]["entries"] == [[1, 1, 2]] and start["source"] == "link"
    # a puzzle a puzz.link URL cannot hold says why
    assert_error(client.post("/api/link", json={"puzzle": four(givens=[[1, 1, 2]])}), 422,
                 "cannot hold givens")


def test_record_is_the_puzzle_in_janko_notation_with_the_moves(client):
    moves = "Z1;bb,2@1500;cb,-,,79@2300;cb,7,,79@4100;bc,3@5000;bb,-@6000;"
    body = client.post("/api/record", json={"puzzle": four(entries=[[1, 1, 9]]),
                                            "moves": moves}).get_json()
    assert body["moves"] == 5 and body["filename"] == "puzzle-solve.x-janko"
    text = body["text"]
    assert text.endswith("moves\n" + moves + "\nend\n")
    back = formats.loads(text, "janko")  # the janko reader reads the puzzle back, bare
    assert back.squares == formats.loads(FOUR, "pipe").squares and back.entries == {}


@pytest.mark.parametrize("moves, fragment", [
    ("Z1;bb,2;", "move 2 has no time"),
    ("bb,0@5;", "a digit 1-9 or '-'"),
    ("bb,2@5;\nend\nx", "line break"),  # it would end the record early
    ("b,2@5;", "not a cell name"),
    ("Z1;aa,2@5;", "move 2 is on r1c1, not a white cell"),
    ("bb,2@5;bc,3@4;", "before the move before it"),
])
def test_record_refuses_what_is_not_a_solving_record(client, moves, fragment):
    assert_error(client.post("/api/record", json={"puzzle": four(), "moves": moves}), 400,
                 "not a solving record: ").get("error")
    assert_error(client.post("/api/record", json={"puzzle": four(), "moves": moves}), 400,
                 fragment)


def test_the_page_loads_the_tools_script(client):
    page = client.get("/").get_data(as_text=True)
    assert '<script src="/static/tools.js" defer></script>' in page
    script = client.get("/static/tools.js").get_data(as_text=True)
    assert "/api/whatif" in script and "/api/link" in script and "/api/record" in script


def test_the_commands_read_a_link_with_its_position(capsys):
    from deducer.app.cli import main

    link = "https://puzz.link/p?kakuro/2/2/n5g-c#e=2&m=Aa004a0"
    assert main(["check", link]) == 0
    assert "checked 1 entry and 3 cells of pencil marks" in capsys.readouterr().out
    assert main(["hint", link, "--level", "full"]) == 0
    assert "r3c2 = 3" in capsys.readouterr().out  # the next step after the 2 in r2c2
    assert main(["convert", link, "--to", "pipe"]) == 0
    assert capsys.readouterr().out == "\\|5\\|16\\\n\\|2|(7,9)\n\\12|(3)|(7,9)\n"
    assert main(["solve", link[:-3] + "zz"]) == 2
    assert "<url>:1: the pencil marks after '#'" in capsys.readouterr().err


def test_opening_and_listing_count_among_the_long_computations(root, monkeypatch):
    # issue 54, finding 6: /api/parse and /api/open (a solve of up to 20 s each) and
    # /api/files ran outside the limit of long computations: eight of them starved the page
    from deducer.app.play import limits

    monkeypatch.setattr(limits, "HEAVY", 0)  # every long computation's place is taken
    busy = create_app(root, None).test_client()
    for resp in (busy.post("/api/parse", json={"text": (root / "four.txt").read_text()}),
                 busy.get("/api/open?path=four.txt"), busy.get("/api/files")):
        assert resp.status_code == 503 and "busy" in resp.get_json()["error"]
    assert busy.get("/").status_code == 200  # the page itself is never held up


def test_listing_a_folder_of_many_notes_keeps_its_time_and_sniffs_each_once(root,
                                                                            monkeypatch):
    # issue 54, finding 15: /api/files read 64 KB of every .txt under the root, with no
    # cap: 3,000 notes took 16-29 s a call. A listing now stops at LIST_SECONDS (truncated)
    # and a file is sniffed once while it is unchanged
    from deducer.app.play import files as server

    notes = root / "notes"
    notes.mkdir()
    for k in range(40):
        (notes / f"{k:03d}.txt").write_text("a note, not a puzzle\n" * 50, encoding="utf-8")
    sniffed = []
    real = server._sniff
    monkeypatch.setattr(server, "_sniff", lambda p, n: sniffed.append(p) or real(p, n))
    monkeypatch.setattr(server, "_SNIFFED", {})
    files, truncated = server.list_files(root)
    assert "four.txt" in files and not truncated and len(sniffed) >= 40
    again = len(sniffed)
    assert server.list_files(root) == (files, False) and len(sniffed) == again  # cached
    monkeypatch.setattr(server, "LIST_SECONDS", -1.0)  # the time is up at once
    monkeypatch.setattr(server, "_SNIFFED", {})
    files, truncated = server.list_files(root)
    assert truncated and files == []
