"""One rule for every output (issue 41, items 8-10): nothing but a puzzle replaces a
puzzle, a symbolic link is never written through, a resumed run is the same run, and any
name the file system takes is taken."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from deducer.app.cli import main

ROOT = Path(__file__).resolve().parents[1]
FOUR = ROOT / "puzzles" / "seed002-four.txt"
GENERATE = ["generate", "--size", "6x6", "--seed", "1", "--no-progress"]


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


def one_line(err: str, *words: str) -> None:
    assert err.startswith("deducer: error: ") and len(err.splitlines()) == 1, err
    for w in words:
        assert w in err, (w, err)


# ------------------------------------------------------------------ item 8: over a puzzle
@pytest.mark.parametrize("through_a_link", [False, True])
def test_generate_jsonl_never_writes_over_a_puzzle(tmp_path, capsys, through_a_link):
    puzzle = tmp_path / "mine.txt"
    puzzle.write_bytes(FOUR.read_bytes())
    name = puzzle
    if through_a_link:
        name = tmp_path / "rows.jsonl"
        name.symlink_to(puzzle)
    for extra in ((), ("--force",), ("--resume",)):
        code, out, err = cli(capsys, *GENERATE, "--jsonl", name, *extra)
        assert code == 2, err
        one_line(err, "holds a puzzle", "--jsonl would replace")
        assert puzzle.read_bytes() == FOUR.read_bytes() and out == ""
        assert name.is_symlink() == through_a_link


def test_generate_jsonl_force_replaces_its_own_records_and_rows(tmp_path, capsys):
    """Records an earlier generate --jsonl wrote, or rows of rate --out, are no puzzle file
    the user keeps: --force replaces them (rate --out --force does not, as they hold
    puzzles)."""
    gen = tmp_path / "gen.jsonl"
    assert cli(capsys, *GENERATE, "--jsonl", gen)[0] == 0
    code, _, err = cli(capsys, "generate", "--size", "6x6", "--seed", "2", "--no-progress",
                       "--jsonl", gen, "--force")
    assert code == 0, err
    assert [json.loads(x)["seed"] for x in gen.read_text().splitlines()] == ["2:0"]
    code, _, err = cli(capsys, "rate", FOUR, "--out", gen, "--force")
    one_line(err, "holds a puzzle", "--out would replace")
    rows = tmp_path / "rows.jsonl"
    assert cli(capsys, "rate", FOUR, "--out", rows)[0] == 0
    assert cli(capsys, *GENERATE, "--jsonl", rows, "--force")[0] == 0


# ------------------------------------------------------------------ item 8: symbolic links
WRITERS = {
    "explain --html": ["explain", FOUR, "--html", "{o}"],
    "explain --markdown": ["explain", FOUR, "--markdown", "{o}"],
    "convert -o": ["convert", FOUR, "--to", "json", "-o", "{o}"],
    "render --svg": ["render", FOUR, "--svg", "{o}"],
    "render --html": ["render", FOUR, "--html", "{o}"],
    "rate --out": ["rate", FOUR, "--out", "{o}"],
    "generate --jsonl": [*GENERATE, "--jsonl", "{o}"],
}


@pytest.mark.parametrize("writer", WRITERS)
def test_every_output_treats_a_link_the_same(tmp_path, capsys, writer):
    """Without --force a link (dangling or not) is an existing name; with --force the file
    replaces the link and the file it pointed to is left as it was."""
    target, link = tmp_path / "target.out", tmp_path / "link.out"
    argv = [str(a).format(o=link) for a in WRITERS[writer]]
    dangling = tmp_path / "dangling.out"
    dangling.symlink_to(tmp_path / "nowhere")
    code, _, err = cli(capsys, *[a.replace(str(link), str(dangling)) for a in argv])
    assert code == 2 and "already exists" in err, err
    assert not (tmp_path / "nowhere").exists() and dangling.is_symlink()
    target.write_text("the user's\n", encoding="utf-8")
    link.symlink_to(target)
    code, _, err = cli(capsys, *argv)
    assert code == 2 and "already exists" in err, err
    code, _, err = cli(capsys, *argv, "--force")
    assert code == 0, err
    assert target.read_text(encoding="utf-8") == "the user's\n"
    assert not link.is_symlink() and link.stat().st_size > 0


@pytest.mark.parametrize("argv", [["rate", FOUR, "--out", "{o}", "--resume"],
                                  [*GENERATE, "--jsonl", "{o}", "--resume"]])
def test_going_on_with_a_link_is_refused(tmp_path, capsys, argv):
    target, link = tmp_path / "target.jsonl", tmp_path / "link.jsonl"
    target.write_text("", encoding="utf-8")
    link.symlink_to(target)
    code, _, err = cli(capsys, *[str(a).format(o=link) for a in argv])
    assert code == 2
    one_line(err, "is a symbolic link", "name the file itself")
    assert target.read_text(encoding="utf-8") == "" and link.is_symlink()


# ------------------------------------------------------------------ item 9: resume = same run
def made(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def a_run(tmp_path_factory):
    """An --out folder and --jsonl file of --seed 1 --count 2, as an interrupt leaves them
    (the second puzzle's file gone, its record half written)."""
    import subprocess
    import sys

    base = tmp_path_factory.mktemp("run")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "deducer", *GENERATE, "--count", "2", "--out",
                        str(base / "out"), "--jsonl", str(base / "g.jsonl")], env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    (base / "out" / "0002.txt").unlink()
    data = (base / "g.jsonl").read_bytes()
    (base / "g.jsonl").write_bytes(data[:data.index(b"\n") + 20])
    return base


@pytest.mark.parametrize(("other", "says"), [
    (["--seed", "2"], "--seed 1; this one asks --seed 2"),
    (["--size", "7x7"], "--size 6x6; this one asks --size 7x7"),
    (["--level", "Easy"], "--level (none); this one asks --level Easy"),
    (["--count", "3"], "--count 2; this one asks --count 3"),
    (["--count", "1"], "--count 2; this one asks --count 1"),
])
@pytest.mark.parametrize("output", ["out", "jsonl"])
def test_a_resume_with_other_options_is_refused(a_run, tmp_path, capsys, other, says,
                                                output):
    import shutil

    shutil.copytree(a_run, tmp_path / "run")
    base = tmp_path / "run"
    where = ["--out", base / "out"] if output == "out" else ["--jsonl", base / "g.jsonl"]
    before = (made(base / "out"), (base / "g.jsonl").read_bytes())
    argv = [*GENERATE, "--count", "2", *where, "--resume"]
    for k in range(0, len(other), 2):  # the option replaced, not given twice
        if other[k] in argv:
            at = argv.index(other[k])
            del argv[at:at + 2]
    code, _, err = cli(capsys, *argv, *other)
    assert code == 2
    one_line(err, "was made by a run with", says, "would mix two runs")
    assert (made(base / "out"), (base / "g.jsonl").read_bytes()) == before


def test_the_same_run_resumes_and_the_manifest_says_what_made_it(a_run, tmp_path, capsys):
    import shutil

    shutil.copytree(a_run, tmp_path / "run")
    base = tmp_path / "run"
    code, _, err = cli(capsys, *GENERATE, "--count", "2", "--out", base / "out", "--jsonl",
                       base / "g.jsonl", "--resume")
    assert code == 0 and "1 of 2 puzzles were made before" in err, err
    runs = json.loads((base / "out" / ".deducer-generate.json").read_text())["runs"]
    assert [(r["seed"], r["size"], r["first"], r["count"]) for r in runs] == [(1, "6x6", 1, 2)]
    records = [json.loads(x) for x in (base / "g.jsonl").read_text().splitlines()]
    assert [r["seed"] for r in records] == ["1:0", "1:1"]
    assert all(r["run"] == runs[0] for r in records)


def test_a_folder_without_a_record_of_its_run_is_not_resumed(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "0001.txt").write_bytes(FOUR.read_bytes())  # an older deducer's, or put there
    code, _, err = cli(capsys, *GENERATE, "--count", "2", "--out", out, "--resume")
    assert code == 2
    one_line(err, "no record of the run that made them", "--first N")
    assert sorted(p.name for p in out.iterdir()) == ["0001.txt"]


# ------------------------------------------------------------------ item 10: long names
def name_max() -> int:
    try:
        return os.pathconf(".", "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


@pytest.mark.parametrize("length", [242, 250, "max"])
@pytest.mark.parametrize("argv", [
    ["convert", FOUR, "--to", "json", "-o", "{o}.json"],
    ["explain", FOUR, "--html", "{o}.html"],
    ["explain", FOUR, "--markdown", "{o}.md"],
    ["render", FOUR, "--svg", "{o}.svg"],
    ["rate", FOUR, "--out", "{o}.parquet"],
])
def test_every_name_the_file_system_takes_is_taken(tmp_path, capsys, length, argv):
    if "parquet" in argv[-1]:
        pytest.importorskip("pyarrow")
    suffix = argv[-1].split("}", 1)[1]
    n = (name_max() if length == "max" else length) - len(suffix)
    stem = "é" * (n // 2) + "x" * (n % 2)  # two bytes a character: bytes count, not characters
    name = tmp_path / (stem + suffix)
    assert len(os.fsencode(name.name)) == (name_max() if length == "max" else length)
    code, _, err = cli(capsys, *[str(a).replace("{o}" + suffix, str(name)) for a in argv])
    assert code == 0, err
    assert name.is_file() and name.stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [name.name]  # no temporary left


def test_play_saves_under_the_longest_name(tmp_path):
    from deducer.app.play.server import create_app
    from deducer.puzzle import formats

    root = tmp_path / "root"
    root.mkdir()
    client = create_app(root, None).test_client()
    puzzle = json.loads(formats.dumps(formats.load(FOUR), "json"))
    name = "p" * (name_max() - 4) + ".txt"
    resp = client.post("/api/save", json={"puzzle": puzzle, "format": "pipe", "path": name})
    assert resp.status_code == 200, resp.get_json()
    assert formats.load(root / name).squares == formats.load(FOUR).squares
