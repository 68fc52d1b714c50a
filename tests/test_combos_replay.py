"""The combination helper (``deducer combos``, deducer.assist.combos) and replaying a solving
record (``deducer replay``, deducer.assist.replay), from the command line and through the
play server's routes (/api/combos, /api/replay)."""

from __future__ import annotations

import bz2
import itertools
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deducer.app.cli import main
from deducer.assist import combos as helper
from deducer.assist import replay
from deducer.puzzle import formats, records
from deducer.puzzle.combos import ALL, BIT, DIGITS, mask_of
from tests.support import corpus

ROOT = Path(__file__).resolve().parents[1]
FOUR = ROOT / "puzzles" / "seed002-four.txt"


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# ---- deducer combos ---------------------------------------------------------------------------
def test_combos_23_in_3_is_6_8_9(capsys):
    code, out, _ = run(capsys, "combos", "23", "3")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "23 in 3: 1 combination"
    assert lines[1] == "6+8+9"
    assert lines[2] == "every one has 6 8 9; none has 1 2 3 4 5 7"


def test_combos_filters_as_players_use_them(capsys):
    # 20 in 4 has 12 combinations; with a 9 and no 5 or 6 two are left
    code, out, _ = run(capsys, "combos", "20", "4", "--allow", "1234789", "--need", "9")
    assert code == 0
    assert out.splitlines()[1:3] == ["1+2+8+9", "1+3+7+9"]
    assert "every one has 1 9; none has 4 5 6" in out
    code, out, _ = run(capsys, "combos", "7", "3", "--need", "5", "--json")
    assert code == 1  # none left
    assert json.loads(out)["combos"] == []


@pytest.mark.parametrize("argv,msg", [
    (["50", "3"], "3 distinct digits sum to 6..24, not 50"),
    (["10", "0"], "a run has 1 to 9 cells"),
    (["10", "3", "--allow", "1x"], "--allow takes digits 1-9"),
    (["10", "3", "--need", "0"], "--need takes digits 1-9"),
])
def test_combos_bad_input_is_one_line(capsys, argv, msg):
    code, out, err = run(capsys, "combos", *argv)
    assert code == 2 and not out
    assert msg in err and err.count("\n") == 1


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 45), st.integers(1, 9), st.integers(0, ALL), st.integers(0, ALL))
def test_combos_match_a_brute_force_count(total, length, allow, need):
    """The helper against itertools: every set of distinct digits, filtered by hand."""
    want = [mask_of(ds) for ds in itertools.combinations(range(1, 10), length)
            if sum(ds) == total and not mask_of(ds) & ~allow and not need & ~mask_of(ds)]
    got = helper.run_combos(total, length, allow=allow, need=need)
    assert sorted(c.mask for c in got.combos) == sorted(want)
    if want:
        both, either = ALL, 0
        for m in want:
            both &= m
            either |= m
        assert got.needed == both
        assert got.unused == ALL & ~either


def _fits_brute(mask: int, allowed: list[int]) -> bool:
    return any(all(a & BIT[d] for a, d in zip(allowed, perm, strict=True))
               for perm in itertools.permutations(DIGITS[mask]))


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 5).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.sampled_from([None, None, 1, 2, 3, 5, 7, 9]),
                                   st.integers(0, ALL)), min_size=n, max_size=n),
    st.integers(3, 35))))
def test_a_combination_is_struck_exactly_when_the_cells_cannot_hold_it(case):
    """Struck against brute force: the digits written, then the marks, must fit one to one."""
    n, cells, total = case
    named = [(d, m, f"r1c{i + 2}") for i, (d, m) in enumerate(cells)]
    got = helper.run_combos(total, n, named)
    allowed = [BIT[d] if d else (m or ALL) for d, m in cells]
    for c in got.combos:
        assert c.live == _fits_brute(c.mask, allowed), (c, cells)
        assert c.live == (c.reason == "")


def test_struck_reasons_name_the_cell():
    # 16 in 2: 7+9 only; 10 in 3 with r2c2 = 1 and r2c3 marked 2 3
    cells = [(1, 0, "r2c2"), (None, mask_of([2, 3]), "r2c3"), (None, 0, "r2c4")]
    res = helper.run_combos(10, 3, cells)
    by = {c.text: c for c in res.combos}
    assert by["1+2+7"].live and by["1+3+6"].live
    assert by["2+3+5"].reason == "r2c2 holds 1"
    assert by["1+4+5"].reason == "the marks of r2c3 have none of its digits"
    assert res.needed == BIT[1] and res.unused & BIT[9]


# ---- deducer replay ---------------------------------------------------------------------------
SAVED = """begin
puzzle kakuro
rows 3
cols 3
problem
x 500 1600
x - -
12 - -
moves
Z1;bb,4@2104;cb,-,,7@3310;cb,-,,79@3650;bb,2@5020;cb,7,,79@7400;cc,9@9100;bc,3@20000;
end
"""


def test_replay_steps_through_a_saved_solve_with_its_times(tmp_path, capsys):
    f = tmp_path / "four-solve.x-janko"
    f.write_text(SAVED, encoding="utf-8")
    code, out, _ = run(capsys, "replay", f)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].endswith(": 7 moves")
    assert lines[1].split() == ["1", "0:02.1", "r2c2", "=", "4", "<-", "wrong"]
    assert lines[3].split()[:4] == ["3", "0:03.6", "r2c3:", "marks"]
    assert "Took longest over: r3c2 10.9 s (1 move)" in out  # 9100 ms to 20000 ms
    # the board as it was after move 3: 4 written, 7 9 pencilled
    code, out, _ = run(capsys, "replay", f, "--at", "3")
    assert code == 0
    assert out.splitlines()[0] == "after move 3 of 7 (r2c3: marks 7 9, 0:03.6)"
    assert "marks: r2c3 79" in out
    grid = out.splitlines()[1:4]
    assert grid[1].split() == ["#", "4", "."]
    code, out, err = run(capsys, "replay", f, "--at", "8")
    assert code == 2 and "the record has moves 1..7" in err


def test_replay_refuses_a_file_without_moves(capsys):
    code, out, err = run(capsys, "replay", FOUR)
    assert code == 2 and not out
    assert "holds no solving record" in err and err.count("\n") == 1


def _janko_file() -> Path:
    base = corpus.corpus_root()
    if base is None or not (base / corpus.JANKO).is_dir():
        pytest.skip("no corpus (set DEDUCER_CORPUS)")
    return base / corpus.JANKO / "Kakuro.jsonl.bz2"


def test_replay_steps_through_a_janko_record_of_the_corpus(capsys):
    path = _janko_file()
    code, out, _ = run(capsys, "replay", path, "--name", "2")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("janko 002 (10x12), solved by Angela Janko: 70 moves")
    assert lines[1].split() == ["1", "r7c8", "=", "1"]  # hg,1: column 7, row 6
    assert len([ln for ln in lines if ln[:3].strip().isdigit()]) == 70
    assert "cells the solver filled for good kept to the walkthrough's order" in out
    # every parting named is a move whose cell is not among the walkthrough's next five
    code, out, _ = run(capsys, "replay", path, "--name", "2", "--json")
    data = json.loads(out)
    assert len(data["moves"]) == 70 and data["placed"] == 70
    parted = [m for m in data["moves"] if m["part"]]
    assert data["follows"] == 70 - len(parted)
    for m in parted:
        assert m["part"]["walk_rank"] >= 0 and m["final"]


def test_replay_board_agrees_with_the_record_at_every_move():
    path = _janko_file()
    text = formats.decode(bz2.open(path).read(), "x")
    puzzle, rec, solver = replay.read(text, "janko", name="4")
    assert solver
    from deducer import api

    rep = replay.compare(puzzle, rec, api.explain(puzzle))
    assert rep.solution is not None
    final = rep.board_after(len(rec.moves))
    assert final.entries == records.final_digits(rec)
    assert all(rep.solution[c] == d for c, d in final.entries.items())
    # one move back undoes exactly that move's cell
    for k in (1, len(rec.moves) // 2, len(rec.moves)):
        before, after = rep.board_after(k - 1), rep.board_after(k)
        cell = rec.moves[k - 1].cell
        changed = {c for c in set(before.entries) | set(after.entries)
                   if before.entries.get(c) != after.entries.get(c)}
        assert changed <= {cell}


# capsys is read (and so emptied) on every example
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(noise=st.lists(st.sampled_from(list("abcdz019;,-@Z ")), max_size=30),
       at=st.integers(0, 80))
def test_a_damaged_record_is_one_line_never_a_traceback(noise, at, tmp_path_factory, capsys):
    """A saved solve whose moves are damaged anywhere: exit 0 or 2, at most one line on
    stderr (the move and what is wrong)."""
    start = SAVED.index("moves\n") + len("moves\n")
    end = SAVED.index("\nend")
    moves = SAVED[start:end]
    k = min(at, len(moves))
    text = SAVED[:start] + moves[:k] + "".join(noise) + moves[k:] + SAVED[end:]
    f = tmp_path_factory.mktemp("rec") / "r.x-janko"
    f.write_text(text, encoding="utf-8")
    code, _out, err = run(capsys, "replay", f)
    assert code in (0, 2), err
    assert "Traceback" not in err and "internal error" not in err
    assert len(err.splitlines()) <= (0 if code == 0 else 1)


# ---- the play server's routes -----------------------------------------------------------------
@pytest.fixture()
def client(tmp_path):
    from deducer.app.play.server import create_app

    (tmp_path / "four.txt").write_text(FOUR.read_text(), encoding="utf-8")
    (tmp_path / "four-solve.x-janko").write_text(SAVED, encoding="utf-8")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.x-janko"
    outside.write_text(SAVED, encoding="utf-8")
    (tmp_path / "link.x-janko").symlink_to(outside)
    return create_app(tmp_path, None).test_client()


def _four_json(**progress) -> dict:
    obj = json.loads(formats.dumps(formats.load(FOUR), "json"))
    obj.update(progress)
    return obj


def test_the_combos_route_strikes_what_the_board_rules_out(client):
    # r3c2 (row 2, col 1) pencilled 2 3: across 12 keeps 3+9, down 5 keeps 2+3
    res = client.post("/api/combos", json={"puzzle": _four_json(pencil=[[2, 1, [2, 3]]]),
                                           "cell": [2, 1]})
    assert res.status_code == 200
    runs = {(r["dir"], r["total"]): r for r in res.get_json()["runs"]}
    assert [(c["text"], c["live"]) for c in runs[("A", 12)]["combos"]] == \
        [("3+9", True), ("4+8", False), ("5+7", False)]
    assert runs[("A", 12)]["needed"] == [3, 9]
    assert runs[("D", 5)]["unused"] == [1, 4, 5, 6, 7, 8, 9]
    # a clue square is no cell to ask about; a cell outside the grid neither
    for cell in ([0, 1], [9, 9], "r1c1"):
        res = client.post("/api/combos", json={"puzzle": _four_json(), "cell": cell})
        assert res.status_code == 400 and "error" in res.get_json()


def test_the_replay_route_reads_a_record_as_the_command_does(client, capsys, tmp_path):
    res = client.post("/api/replay", json={"path": "four-solve.x-janko"})
    assert res.status_code == 200
    data = res.get_json()
    assert data["puzzle"]["rows"] == 3 and len(data["runs"]) == 4
    rep = data["replay"]
    assert len(rep["moves"]) == 7 and rep["timed"] and rep["moves"][0]["wrong"]
    assert rep["slowest"][0] == {"cell": [2, 1], "amount": 10900, "moves": 1}
    assert "7 moves" in data["message"]
    # the same answer from uploaded text, and as `deducer replay --json` prints it
    up = client.post("/api/replay", json={"text": SAVED, "filename": "x.x-janko"}).get_json()
    assert up["replay"] == rep
    code, out, _ = run(capsys, "replay", tmp_path / "four-solve.x-janko", "--json")
    assert code == 0 and json.loads(out) == rep


@pytest.mark.parametrize("body,status,words", [
    ({"path": "four.txt"}, 400, "holds no solving record"),
    ({"path": "../four.txt"}, 403, "'..' is not allowed"),
    ({"path": "link.x-janko"}, 403, "outside the folder"),
    ({"path": "none.x-janko"}, 404, "no such file"),
    ({"text": "  "}, 400, "the file is empty"),
    ({"link": "https://example.org/002"}, 400, "not a janko.at Kakuro address"),
    ({"link": "https://www.janko.at/Raetsel/Kakuro/002.a.htm"}, 404, "is not in the folder"),
    ({}, 400, "give the record"),
])
def test_the_replay_route_refuses_in_one_line(client, body, status, words):
    res = client.post("/api/replay", json=body)
    assert res.status_code == status, res.get_json()
    assert words in res.get_json()["error"]


def test_the_replay_route_finds_a_janko_address_in_the_folder(tmp_path):
    from deducer.app.play.server import create_app

    path = _janko_file()
    shutil.copy(path, tmp_path / "Kakuro.jsonl.bz2")
    client = create_app(tmp_path, None).test_client()
    res = client.post("/api/replay", json={"path": "Kakuro.jsonl.bz2"}).get_json()
    # only the records that carry moves are offered (the even half)
    assert len(res["choose"]) == 479 and all(int(n) % 2 == 0 for n in res["choose"])
    res = client.post("/api/replay", json={"link": "janko.at/Raetsel/Kakuro/004.a.htm"})
    assert res.status_code == 200
    data = res.get_json()
    assert data["source"] == "janko 004" and len(data["replay"]["moves"]) > 0
    res = client.post("/api/replay", json={"link": "https://www.janko.at/Raetsel/Kakuro/3"})
    assert res.status_code == 404  # odd: its record is held back
