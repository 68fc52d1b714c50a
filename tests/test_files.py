"""Files: outputs are written atomically and never over an existing file without --force;
input files are never modified; a failed write leaves nothing behind."""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from pathlib import Path

import pytest

from deducer.app.cli import COMMANDS, main
from deducer.errors import DeducerError
from deducer.puzzle import fileio

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
FOUR = PUZZLES / "seed002-four.txt"


def cli(argv, capsys) -> tuple[int, str, str]:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def digest(path: Path) -> tuple[str, int]:
    st = path.stat()
    return hashlib.sha256(path.read_bytes()).hexdigest(), stat.S_IMODE(st.st_mode)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def one_error_line(err: str, *words: str) -> None:
    assert err.startswith("deducer: error: ") and len(err.splitlines()) == 1, err
    for w in words:
        assert w in err, (w, err)


# ------------------------------------------------------------------------------ no clobbering
def test_convert_refuses_to_overwrite(tmp_path, capsys):
    target = tmp_path / "existing.json"
    target.write_text("precious\n")
    before = digest(target)
    code, out, err = cli(["convert", FOUR, "--to", "json", "-o", target], capsys)
    assert code == 2
    one_error_line(err, str(target), "already exists", "--force")
    assert digest(target) == before and out == ""
    assert leftovers(tmp_path) == []


def test_explain_names_every_existing_output_at_once(tmp_path, capsys):
    """Run twice, explain --html A --markdown B refuses naming both files (one --force
    decision covers them) and writes neither; a new name beside an existing one is not
    written either."""
    html, md = tmp_path / "a.html", tmp_path / "b.md"
    code, _, err = cli(["explain", FOUR, "--html", html, "--markdown", md], capsys)
    assert code == 0 and html.exists() and md.exists(), err
    before = digest(html), digest(md)
    code, out, err = cli(["explain", FOUR, "--html", html, "--markdown", md], capsys)
    assert code == 2 and out == ""
    one_error_line(err, str(html), str(md), "already exists", "--force")
    fresh = tmp_path / "c.md"
    code, _, err = cli(["explain", FOUR, "--html", html, "--markdown", fresh], capsys)
    assert code == 2 and not fresh.exists()
    one_error_line(err, str(html), "already exists")
    assert (digest(html), digest(md)) == before and leftovers(tmp_path) == []


def test_convert_force_replaces(tmp_path, capsys):
    target = tmp_path / "existing.json"
    target.write_text("precious\n")
    os.chmod(target, 0o640)
    code, out, err = cli(["convert", FOUR, "--to", "json", "-o", target, "--force"], capsys)
    assert code == 0 and err == ""
    code2, expected, _ = cli(["convert", FOUR, "--to", "json"], capsys)
    assert target.read_text() == expected
    assert stat.S_IMODE(target.stat().st_mode) == 0o640, "a replaced file keeps its mode"
    assert leftovers(tmp_path) == []


def test_new_output_file_gets_normal_permissions(tmp_path, capsys):
    """Regression: the file kept mkstemp's 0600, unreadable to anyone else."""
    target = tmp_path / "new.json"
    old = os.umask(0o022)
    try:
        code, _, err = cli(["convert", FOUR, "--to", "json", "-o", target], capsys)
    finally:
        os.umask(old)
    assert code == 0, err
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_output_is_the_same_as_stdout(tmp_path, capsys):
    for fmt in ("json", "pipe", "backslash", "puzzlink"):
        target = tmp_path / f"out.{fmt}"
        code, _, err = cli(["convert", FOUR, "--to", fmt, "-o", target], capsys)
        assert code == 0, err
        _, expected, _ = cli(["convert", FOUR, "--to", fmt], capsys)
        assert target.read_text() == expected
    assert leftovers(tmp_path) == []


def test_output_over_the_input_is_refused(tmp_path, capsys):
    src = tmp_path / "four.txt"
    src.write_bytes(FOUR.read_bytes())
    before = digest(src)
    code, _, err = cli(["convert", src, "--to", "json", "-o", src], capsys)
    assert code == 2
    one_error_line(err, "is also an input", "name another output file")
    assert digest(src) == before


@pytest.mark.parametrize("force", [False, True])
def test_output_is_a_directory_or_in_a_missing_folder(tmp_path, capsys, force):
    extra = ["--force"] if force else []
    code, _, err = cli(["convert", FOUR, "--to", "json", "-o", tmp_path, *extra], capsys)
    assert code == 2
    one_error_line(err, str(tmp_path))
    missing = tmp_path / "no" / "such" / "out.json"
    code, _, err = cli(["convert", FOUR, "--to", "json", "-o", missing, *extra], capsys)
    assert code == 2
    one_error_line(err, "does not exist")
    assert leftovers(tmp_path) == []


def test_symlink_is_not_written_through(tmp_path, capsys):
    real = tmp_path / "real.txt"
    real.write_text("keep me\n")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    code, _, err = cli(["convert", FOUR, "--to", "json", "-o", link], capsys)
    assert code == 2 and real.read_text() == "keep me\n"
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "nowhere")
    code, _, err = cli(["convert", FOUR, "--to", "json", "-o", dangling], capsys)
    assert code == 2, "a dangling symlink is an existing name"
    assert not (tmp_path / "nowhere").exists()


def test_file_appearing_while_writing_is_not_clobbered(tmp_path, monkeypatch):
    """Between the existence check and the rename another process creates the file:
    without force it must survive (the temporary file is linked, not renamed, into place)."""
    target = tmp_path / "race.json"
    real_fsync = os.fsync

    def fsync_then_race(fd):
        real_fsync(fd)
        target.write_text("the other process\n")

    monkeypatch.setattr(fileio.os, "fsync", fsync_then_race)
    with pytest.raises(DeducerError, match="already exists"):
        fileio.write_output(target, "mine\n")
    assert target.read_text() == "the other process\n"
    assert leftovers(tmp_path) == []


# ------------------------------------------------------------------------------ failed writes
@pytest.mark.parametrize("where", ["mkstemp", "write", "fsync", "replace", "link"])
def test_failed_write_leaves_no_temp_file(tmp_path, monkeypatch, capsys, where):
    target = tmp_path / "out.json"

    def fail(*a, **k):
        raise OSError(28, "No space left on device")

    if where == "mkstemp":
        monkeypatch.setattr(tempfile, "mkstemp", fail)  # fileio imports it when writing
    elif where == "write":
        real_fdopen = os.fdopen

        class Full:
            def __init__(self, fh):
                self.fh = fh

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.fh.close()

            def write(self, data):
                fail()

        monkeypatch.setattr(fileio.os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    elif where == "fsync":
        monkeypatch.setattr(fileio.os, "fsync", fail)
    elif where == "replace":
        monkeypatch.setattr(fileio.os, "replace", fail)
        target.write_text("old\n")
    else:
        monkeypatch.setattr(fileio.os, "link", fail)
        monkeypatch.setattr(fileio.os, "replace", fail)
    before = target.read_bytes() if target.exists() else None
    force = ["--force"] if where == "replace" else []
    code, _, err = cli(["convert", FOUR, "--to", "json", "-o", target, *force], capsys)
    assert code == 2, err  # a disk error is the user's to fix: one line, not exit 3
    one_error_line(err, str(target), "cannot write", "No space left")
    assert leftovers(tmp_path) == []
    assert (target.read_bytes() if target.exists() else None) == before


def test_interrupted_write_leaves_no_temp_file(tmp_path, monkeypatch, capsys):
    def interrupt(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(fileio.os, "fsync", interrupt)
    target = tmp_path / "out.json"
    code, _, err = cli(["convert", FOUR, "--to", "json", "-o", target], capsys)
    assert code == 130
    assert not target.exists() and leftovers(tmp_path) == []


@pytest.mark.skipif("explain" not in COMMANDS, reason="'deducer explain' is not registered")
def test_explain_markdown_file_is_not_clobbered(tmp_path, capsys):
    target = tmp_path / "walk.md"
    target.write_text("notes\n")
    code, _, err = cli(["explain", FOUR, "--markdown", target], capsys)
    assert code == 2
    one_error_line(err, "already exists")
    assert target.read_text() == "notes\n"
    code, _, err = cli(["explain", FOUR, "--markdown", target, "--force"], capsys)
    assert code == 0, err
    assert target.read_text() != "notes\n"
    assert leftovers(tmp_path) == []


# ------------------------------------------------------------------------------ inputs untouched
def _commands(src: Path, out_dir: Path) -> list[list]:
    cmds = [
        ["solve", src], ["solve", src, "--json"], ["solve", src, "--max-solutions", "5"],
        ["solve", src, "--ignore-entries"],
        ["convert", src, "--to", "json"], ["convert", src, "--to", "pipe"],
        ["convert", src, "--to", "backslash"], ["convert", src, "--to", "puzzlink"],
        ["convert", src, "--to", "json", "-o", out_dir / "a.json"],
        ["convert", src, "--to", "json", "-o", src],  # refused: exists
        ["convert", src, "--to", "pipe", "-o", out_dir / "a.json", "--force"],
    ]
    optional = {
        "explain": [["explain", src], ["explain", src, "--json"],
                    ["explain", src, "--markdown", out_dir / "w.md", "--force"],
                    ["explain", src, "--markdown", src]],
        "rate": [["rate", src], ["rate", src, "--json"], ["rate", src, src, "--jobs", "2"]],
        "hint": [["hint", src], ["hint", src, "--level", "full", "--json"]],
        "check": [["check", src], ["check", src, "--json"]],
    }
    for name, more in optional.items():
        if name in COMMANDS:
            cmds += more
    return cmds


@pytest.mark.parametrize("seed", sorted(p.name for p in PUZZLES.glob("seed*")))
def test_inputs_are_never_modified(seed, tmp_path, capsys):
    src = tmp_path / seed
    src.write_bytes((PUZZLES / seed).read_bytes())
    os.chmod(src, 0o444)  # read-only, like a checked-out corpus; root ignores it anyway
    before = digest(src)
    mtime = src.stat().st_mtime_ns
    name = ["--name", "k3"] if seed == "seed000-k.j" else []
    for cmd in _commands(src, tmp_path):
        argv = cmd + (name if cmd[0] != "rate" else [])
        code, _, err = cli(argv, capsys)
        assert code in (0, 1, 2), (argv, code, err)
        assert "internal error" not in err, (argv, err)
        assert digest(src) == before and src.stat().st_mtime_ns == mtime, argv
    assert leftovers(tmp_path) == []


# ------------------------------------------------------------------------------ inputs
@pytest.mark.parametrize("argv", [
    ["explain", "{p}", "--markdown", "{p}"],
    ["explain", "{p}", "--html", "{p}", "--force"],
    ["render", "{p}", "--svg", "{p}", "--force"],
    ["convert", "{p}", "--to", "json", "-o", "{p}", "--force"],
    ["convert", "{p}", "--to", "json", "-o", "{link}", "--force"],
])
def test_an_output_that_is_the_input_is_refused_force_or_not(tmp_path, capsys, argv):
    """--force replaces an earlier output, never the puzzle being read (by any name)."""
    puzzle = tmp_path / "mine.txt"
    puzzle.write_bytes(FOUR.read_bytes())
    link = tmp_path / "link.txt"
    link.symlink_to(puzzle)
    before = digest(puzzle)
    code, out, err = cli([a.format(p=puzzle, link=link) for a in argv], capsys)
    assert code == 2 and out == ""
    one_error_line(err, "is also an input", "name another output file")
    assert digest(puzzle) == before and leftovers(tmp_path) == []


def test_rate_refuses_rows_over_a_puzzle_of_the_folder_it_rates(tmp_path, capsys):
    """rate FOLDER --out FOLDER/puzzle --force would have skipped that puzzle and written
    rows over it; rows over an earlier run's rows file in the folder stay allowed."""
    lib = tmp_path / "lib"
    lib.mkdir()
    for name in ("seed002-four.txt", "seed000-k2.j"):
        (lib / name).write_bytes((PUZZLES / name).read_bytes())
    before = digest(lib / "seed002-four.txt")
    for extra in ([], ["--force"]):
        code, out, err = cli(["rate", lib, "--out", lib / "seed002-four.txt", *extra], capsys)
        assert code == 2
        one_error_line(err, "is a puzzle in", "name another output file")
        assert digest(lib / "seed002-four.txt") == before
    rows = lib / "rows.jsonl"
    for extra in ([], ["--force"]):
        code, out, err = cli(["rate", lib, "--out", rows, *extra], capsys)
        assert code == 0, err
        assert len(rows.read_text().splitlines()) == 2  # the two puzzles, not the rows


@pytest.mark.parametrize("argv", [
    ["render", "{p}", "--svg", "{other}", "--force"],
    ["render", "{p}", "--svg", "{other}"],  # refused as a puzzle, not 'pass --force'
    ["explain", "{p}", "--markdown", "{other}", "--force"],
    ["explain", "{p}", "--markdown", "{other}"],
    ["rate", "{p}", "--out", "{other}", "--force"],
    ["rate", "{p}", "--out", "{other}"],
])
def test_a_picture_walkthrough_or_rows_never_replace_a_puzzle(tmp_path, capsys, argv):
    """A forgotten output name (render --pdf a.txt b.txt) made --force turn a puzzle into
    a PDF: outputs that are not puzzles are never written over one."""
    puzzle, other = tmp_path / "mine.txt", tmp_path / "other.kakuro"
    puzzle.write_bytes(FOUR.read_bytes())
    other.write_bytes((PUZZLES / "seed001-small.kakuro").read_bytes())
    before = digest(other)
    code, out, err = cli([a.format(p=puzzle, other=other) for a in argv], capsys)
    assert code == 2
    one_error_line(err, "holds a puzzle", "--force does not write over a puzzle")
    assert digest(other) == before


def test_force_still_replaces_an_earlier_walkthrough_and_rows(tmp_path, capsys):
    md, rows = tmp_path / "w.md", tmp_path / "r.jsonl"
    for _ in range(2):
        code, _, err = cli(["explain", FOUR, "--markdown", md, "--force"], capsys)
        assert code == 0, err
        code, _, err = cli(["rate", FOUR, "--out", rows, "--force"], capsys)
        assert code == 0, err
