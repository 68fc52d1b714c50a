"""scripts/human.py: the solving-order and pencil-mark figures of reports/human.md, on a
small corpus made here (the real one is not needed, and its absence is a clean skip)."""

from __future__ import annotations

import bz2
import json

import pytest

from deducer.engine.walk import explain
from deducer.puzzle import formats
from scripts import human

SOLUTION = [["-", "-", "-"], ["-", "1", "2"], ["-", "3", "4"]]  # one solution: 1 2 / 3 4


def _corpus(tmp_path, records):
    folder = tmp_path / "janko-at-tkoz0"
    folder.mkdir()
    with bz2.open(folder / "Kakuro.jsonl.bz2", "wt", encoding="utf-8") as fh:
        for pid, solver, moves in records:
            data = {"puzzle": "kakuro", "author": "A. Uthor", "solver": solver, "rows": 3,
                    "cols": 3, "solution": SOLUTION}
            if moves is not None:
                data["moves"] = moves
            fh.write(json.dumps({"file": f"/Kakuro/{pid}.a.x-janko", "data": data}) + "\n")
    return tmp_path


RECORDS = [
    ("002", human.MAIN_SOLVER, "Z1;bb,1;cb,2;bc,3;cc,4;"),
    ("004", human.MAIN_SOLVER, "Z2;cc,-,,45;cc,4;bc,3;cb,2;bb,9;bb,1;"),
    ("006", "Someone", "Z2;bb,5;cb,6;bc,7;cc,8;"),  # not this puzzle's record
    ("008", "Someone", None),  # not test-solved
]


def test_the_report_is_built_from_the_records(tmp_path):
    root = _corpus(tmp_path, RECORDS)
    humans = human.load(root)
    assert [(h.id, h.fits) for h in humans] == [("002", True), ("004", True), ("006", False)]
    out = human.build(1, out=tmp_path / "human.md", root=root, cache=tmp_path / "c.json")
    text = out.read_text(encoding="utf-8")
    assert "janko 006 (Someone): left out, 4 of 4 cells" in text
    assert "| all | 2 |" in text
    assert f"{human.MAIN_SOLVER}'s records (2 rated" in text
    assert "1 use pencil marks" in text
    # the cache is read back: the same report, byte for byte
    again = human.build(1, out=tmp_path / "again.md", root=root, cache=tmp_path / "c.json")
    assert again.read_text(encoding="utf-8") == text


def test_orders_and_pencil_rows(tmp_path):
    root = _corpus(tmp_path, RECORDS)
    humans = [h for h in human.load(root) if h.fits]
    walks = {h.id: human.walk((h.id, h.puzzle)) for h in humans}
    rows = {r["id"]: r for r in human.order_rows(humans, walks)}
    # 004's person goes backwards through the reading order; 002's follows it
    assert rows["002"]["orders"]["person"] == {(1, 1): 0, (1, 2): 1, (2, 1): 2, (2, 2): 3}
    assert rows["004"]["orders"]["person"] == {(2, 2): 1, (2, 1): 2, (1, 2): 3, (1, 1): 5}
    assert rows["002"]["row-major"] == pytest.approx(1.0)
    assert rows["004"]["row-major"] == pytest.approx(-1.0)
    pencil = {r["id"]: r for r in human.pencil_rows(humans, walks)}
    assert (pencil["002"]["pencil"], pencil["004"]["pencil"]) == (False, True)
    assert pencil["004"]["share"] == 0.25


def test_odd_numbered_records_are_refused(tmp_path):
    root = _corpus(tmp_path, [("003", human.MAIN_SOLVER, "Z1;bb,1;")])
    with pytest.raises(SystemExit, match="held back"):
        human.load(root)


def test_no_corpus_no_report(tmp_path, capsys):
    assert human.load(tmp_path) == []
    assert human.build(1, out=tmp_path / "h.md", root=tmp_path) is None
    assert not (tmp_path / "h.md").exists()
    assert "not rebuilt" in capsys.readouterr().err


def test_rounds_place_every_cell_round_by_round(puzzles_dir):
    puzzle = formats.load(puzzles_dir / "seed000-k2.j")
    w = human.rounds_walk(puzzle)
    assert w["solved"]
    placed = {(r, c): k for r, c, k in w["placed"]}
    single = {(r, c): k for r, c, k in w["single"]}
    assert set(placed) == set(puzzle.whites)
    assert set(placed.values()) <= set(range(1, w["rounds"] + 1))
    # a cell is down to one candidate no later than the round that places it
    assert all(single[c] <= placed[c] for c in placed)
    # fewer rounds than the engine has steps: a round makes many of them at once
    steps = explain(puzzle).steps
    assert w["rounds"] < len(steps)


def test_engine_orders_follow_the_walkthrough(puzzles_dir):
    puzzle = formats.load(puzzles_dir / "seed000-k2.j")
    steps = explain(puzzle).steps
    placed, by, single = human.engine_orders(puzzle, steps)
    for st in steps:
        for r, c, _d in st.placements:
            assert placed[(r, c)] <= st.n
    first = steps[0]
    assert all(by[(r, c)] == first.rule for r, c, _d in first.placements)
    assert all(single[c] <= placed[c] for c in placed)
    assert human.order_rho(placed, placed) == pytest.approx(1.0)


def test_the_held_out_figures_read_only_the_odd_half(tmp_path):
    """scripts/held_out.py (run by whoever holds the odd half): it reads the odd-numbered
    puzzles' records only, fits nothing, and gives the notes' AUC and the order's rho."""
    from deducer.puzzle import records
    from scripts import held_out
    from scripts.stats import spearman

    root = _corpus(tmp_path, [
        ("001", human.MAIN_SOLVER, "Z1;bb,1;cb,2;bc,3;cc,4;"),
        ("003", human.MAIN_SOLVER, "Z2;cc,-,,45;cc,4;bc,3;cb,2;bb,9;bb,1;"),
        ("004", human.MAIN_SOLVER, "Z1;bb,1;cb,2;bc,3;cc,4;"),  # even: not read
        ("005", "Someone", "Z2;bb,5;cb,6;bc,7;cc,8;"),  # not this puzzle's record
    ])
    humans = held_out.odd_records(root)
    assert [h.id for h in humans] == ["001", "003"]
    rated = {h.id: held_out.rate((h.id, h.puzzle)) for h in humans}
    assert all(0 <= r["notes"] <= 1 for r in rated.values())
    text = "\n".join(held_out.figures(humans, rated))
    assert f"held-out records: 2 of {human.MAIN_SOLVER}'s, 0 of the others'" in text
    # 001's person follows the reading order, 003's goes backwards: a median of the two
    rhos = []
    for h in humans:
        person = records.entry_order(h.record, h.solution)
        placed = rated[h.id]["placed"]
        cells = sorted(person)
        rhos.append(spearman([placed[c] for c in cells], [person[c] for c in cells]))
    assert f"median rho {(rhos[0] + rhos[1]) / 2:.3f}" in text
    assert "notes of 2 rated puzzles within [0, 1]: True" in text
