"""Solving records (deducer.puzzle.records): janko.at's ``moves`` notation, read and written."""

from __future__ import annotations

import pytest

from deducer.errors import DeducerError
from deducer.puzzle import records
from deducer.puzzle.records import CONTROL, DIGIT, ERASE, PENCIL, Move, Record
from tests.support import corpus


# ---- hand-made records ------------------------------------------------------------------------
def test_a_plain_record_reads_to_typed_moves():
    rec = records.parse("Z1;hg,1;gg,-,,13;gg,3;ic,-;Q0;ii,4,,34;")
    assert rec.header == "Z1"
    assert rec.moves == (
        Move(DIGIT, (6, 7), 1),
        Move(PENCIL, (6, 6), None, "13"),
        Move(DIGIT, (6, 6), 3),
        Move(ERASE, (2, 8)),
        Move(CONTROL, text="Q0"),
        Move(DIGIT, (8, 8), 4, "34"),  # a digit written over marks that stay
    )
    assert rec.moves[1].candidates == (1, 3)


def test_cell_names_are_column_then_row():
    assert records.parse_cell("hg") == (6, 7)
    assert records.parse_cell("ba") == (0, 1)
    assert records.parse_cell("2819") == (19, 28)  # four digits: a column past z
    assert records.parse_cell("104007") == (7, 104)  # deducer's six-digit names
    for cell in [(6, 7), (0, 0), (25, 25), (19, 28), (26, 3), (99, 99), (7, 104), (199, 0)]:
        assert records.parse_cell(records.cell_token(cell)) == cell
    assert records.cell_token((19, 28)) == "2819"
    assert records.cell_token((25, 25)) == "zz"
    assert records.cell_token((26, 0)) == "0026"


@pytest.mark.parametrize("text", [
    "Z1;hg,1;gg,-,,13;gg,3;ic,-;Q0;ii,4,,34;",
    "Z2;2819,-,,78;2819,7;db,4;",
    "Z2;nk,,,d;ic,-,,E;nk,,,12;",  # janko's empty value and stray letters, kept as written
    "hg,1;",  # no header
    "",
])
def test_write_gives_back_the_text_read(text):
    assert records.write(records.parse(text)) == text


def test_the_closing_semicolon_and_whitespace_are_optional():
    a = records.parse("Z2;hg,1;gg,2;")
    assert records.parse("Z2; hg,1;\n gg,2") == a  # an x-janko file breaks moves over lines
    assert records.write(records.parse("Z2;hg,1;gg,2")) == "Z2;hg,1;gg,2;"


def test_an_empty_value_equals_a_dash():
    assert records.parse("hg,,,12;") == records.parse("hg,-,,12;")


def test_times_ride_on_moves_and_round_trip():
    text = "hg,1@0;gg,-,,13@250;Q0@300;gg,3@900;"
    rec = records.parse(text)
    assert rec.header is None  # a control token with a time is a move, not a header
    assert [m.ms for m in rec.moves] == [0, 250, 300, 900]
    assert records.write(rec) == text
    # a plain record has no times, and writing one without them gives the plain record
    plain = Record(tuple(Move(m.kind, m.cell, m.digit, m.marks, m.text) for m in rec.moves))
    assert records.write(plain) == "hg,1;gg,-,,13;Q0;gg,3;"
    assert records.write(plain, header="Z2") == "Z2;hg,1;gg,-,,13;Q0;gg,3;"


def test_the_writer_refuses_what_the_reader_would():
    bad = [
        Move(DIGIT, (1, 1), 0),
        Move(DIGIT, None, 3),
        Move(PENCIL, (1, 1)),
        Move(ERASE, (1, 1), None, "12"),
        Move(CONTROL, text="q0"),
        Move("note", (1, 1)),
        Move(DIGIT, (1, 1), 3, ms=-1),
        Move(DIGIT, (1, 1), 3, "1;2"),
        Move(DIGIT, (200, 1), 3),
    ]
    for mv in bad:
        with pytest.raises(records.RecordError):
            records.write([mv])
    with pytest.raises(records.RecordError, match="before"):
        records.write([Move(DIGIT, (1, 1), 3, ms=5), Move(DIGIT, (1, 2), 4, ms=2)])
    with pytest.raises(records.RecordError, match="header"):
        records.write([], header="Z1;")


@pytest.mark.parametrize("text, where, what", [
    ("Z1;hg,10;", "move 2 (offset 3) 'hg,10'", "a digit 1-9 or '-'"),
    ("Z1;hg,0;", "move 2", "not '0'"),
    ("Z1;;hg,1;", "move 2 (offset 3)", "empty move"),
    ("Z1;hg,1,x,12;", "move 2", "third field"),
    ("Z1;hg,1,,;", "move 2", "pencil marks"),
    ("Z1;hg,1,,1 2;", "move 2", "pencil marks"),
    ("Z1;hg,-,;", "move 2", "2 or 4 comma-separated fields"),
    ("Z1;hg;", "move 2", "control token"),
    ("Z1;hG,1;", "move 2", "not a cell name"),
    ("Z1;h\x1bg,1;", "move 2 (offset 3) 'h\\x1bg,1'", "not a cell name"),  # escaped
    ("Z1;999999,1;", "move 2", "outside every grid"),
    ("Z1;123,1;", "move 2", "not a cell name"),
    ("Z1;hg,1@x;", "move 2", "whole milliseconds"),
    ("Z1;hg,1@12345678901;", "move 2", "whole milliseconds"),
    ("hg,1@5;hh,2@3;", "move 2 (offset 7) 'hh,2@3'", "before the move before it"),
    ("Z1;hg,;", "move 2", "a digit 1-9 or '-'"),  # an empty value needs marks
    ("Z1;hg,1,,1234567891234567891234567891234567891;", "move 2", "pencil marks in one cell"),
])
def test_bad_input_is_one_line_naming_the_move(text, where, what):
    with pytest.raises(DeducerError) as info:
        records.parse(text, path="rec.txt", line=4)
    msg = str(info.value)
    assert msg.startswith(f"rec.txt:4: {where}")
    assert what in msg
    assert "\n" not in msg and "\x1b" not in msg


def test_a_huge_record_is_refused_before_it_is_split():
    with pytest.raises(records.RecordError, match="at most"):
        records.parse("hg,1;" * (records.MAX_CHARS // 5 + 1))
    with pytest.raises(records.RecordError, match="text"):
        records.parse(b"hg,1;")  # type: ignore[arg-type]


# ---- what a record says about a solve ---------------------------------------------------------
SOLUTION = {(1, 1): 3, (1, 2): 1, (2, 1): 5}


def test_entry_order_counts_from_the_move_that_stays():
    rec = records.parse("Z2;bb,-,,35;cb,9;bb,3;cb,-;Q0;cb,1;bc,5;bc,2;bc,5;")
    # bb (1, 1) right at move 2; cb (1, 2) wrong, erased, right at 5; bc (2, 1) right,
    # overwritten, right again at 8
    assert records.entry_order(rec, SOLUTION) == {(1, 1): 2, (1, 2): 5, (2, 1): 8}
    assert records.final_digits(rec) == {(1, 1): 3, (1, 2): 1, (2, 1): 5}


def test_a_cell_left_wrong_or_empty_has_no_entry():
    rec = records.parse("bb,3;cb,4;bc,5;bc,-;")
    assert records.entry_order(rec, SOLUTION) == {(1, 1): 0}
    assert records.final_digits(rec) == {(1, 1): 3, (1, 2): 4}


def test_marked_cells_include_marks_that_came_with_a_digit():
    rec = records.parse("bb,-,,35;cb,5,,5;bc,1;ad,-,,E;")
    assert records.marked_cells(rec) == {(1, 1), (1, 2)}  # a stray letter is no mark


# ---- the janko.at records -----------------------------------------------------------------
def _janko():
    root = corpus.corpus_root()
    if root is None or not (root / corpus.JANKO).is_dir():
        pytest.skip("janko.at corpus not found (set DEDUCER_CORPUS)")
    return [cp for cp in corpus.janko(root) if cp.meta.get("moves")]


def test_every_janko_record_reads_and_writes_back_unchanged():
    found = _janko()
    assert len(found) == 479
    kinds = set()
    for cp in found:
        assert int(cp.id) % 2 == 0  # only the even half is in the corpus
        rec = records.parse(cp.meta["moves"])
        assert rec.header in ("Z1", "Z2")
        assert records.write(rec) == cp.meta["moves"]
        kinds.update(m.kind for m in rec.moves)
    assert kinds == {DIGIT, PENCIL, ERASE, CONTROL}


def test_janko_records_end_on_their_puzzles_solution():
    # column then row, counting the clue row and column from 0, is the reading under which
    # the recorded digits are the solution's: every record but one ends on it exactly
    apart = {}
    for cp in _janko():
        rec = records.parse(cp.meta["moves"])
        sol = dict(zip(cp.puzzle.whites, cp.solution, strict=True))
        final = records.final_digits(rec)
        wrong = sum(1 for rc, d in sol.items() if final.get(rc) != d)
        if wrong:
            apart[cp.id] = wrong
        order = records.entry_order(rec, sol)
        assert len(order) == len(sol) - wrong
    assert list(apart) == ["188"]  # that record is not this puzzle's (docs/formats.md)
