"""Hostile input, round two: timeouts that hold everywhere, no orphaned workers, nothing
destroyed, folders of real files (docs/bad-input.md lists every case and its answer).

Tests that start processes bound their time and clean up after themselves; servers listen
on 127.0.0.1 only. Inputs are tiny: CI has two cores.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from deducer.app.cli import main
from tests.fuzz.bad_input_table import islands_text
from tests.support.timing import (
    Stopwatch,
    cpu_budget,
    cpu_of_children,
    cpu_of_this_process,
    stretch,
)

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
K2 = (PUZZLES / "seed000-k2.j").read_text(encoding="utf-8")  # unique, Easy, ~0.1 s
FOUR = "\\|5\\|16\\\n\\| | \n\\12| | \n"  # unique, 4 cells
MULTI = "\\|4\\|16\\|6\\\n\\12| | | \n\\14| | | \n"  # three solutions


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def env() -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
                DEDUCER_DEBUG="")


def deducer(*argv, cwd=None, timeout=60, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "deducer", *map(str, argv)], cwd=cwd,
                          env=env(), capture_output=True, text=True, timeout=timeout, **kw)


def rows_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def no_traceback(err: str) -> None:
    assert "Traceback" not in err and "internal error" not in err, err


# ------------------------------------------------------------------ workers and their parent
def group_alive(pgid: int) -> list[int]:
    """The processes still in process group ``pgid`` (zombies left out)."""
    alive = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            alive.append(int(entry))
    return alive


def busy_folder(tmp_path: Path, n: int = 60) -> Path:
    d = tmp_path / "in"
    d.mkdir()
    for k in range(n):
        (d / f"{k:03d}.j").write_text(K2, encoding="utf-8")
    return d


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
@pytest.mark.parametrize("sig, jobs, command", [
    (signal.SIGTERM, 2, "rate"), (signal.SIGKILL, 2, "rate"), (signal.SIGHUP, 2, "rate"),
    (signal.SIGKILL, 1, "rate"), (signal.SIGTERM, 2, "generate"),
])
def test_killing_the_parent_leaves_no_worker(tmp_path, sig, jobs, command):
    if command == "rate":
        argv = ["rate", busy_folder(tmp_path), "--out", tmp_path / "r.jsonl"]
    else:
        argv = ["generate", "--size", "12x12", "--count", "50", "--seed", "1", "--out",
                tmp_path / "gen"]
    # the caller's pipes: a worker that outlives the parent keeps them open
    proc = subprocess.Popen([sys.executable, "-m", "deducer", *map(str, argv), "-j", str(jobs),
                             "--no-progress"], cwd=tmp_path, env=env(),
                            start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(group_alive(proc.pid)) < 1 + jobs:
            time.sleep(0.05)
        assert len(group_alive(proc.pid)) >= 1 + jobs, "the workers never started"
        time.sleep(0.5)
        os.kill(proc.pid, sig)
        proc.communicate(timeout=10)  # hangs while a worker holds the pipes
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and group_alive(proc.pid):
            time.sleep(0.05)
        assert group_alive(proc.pid) == []
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=10)


def test_jobs_are_capped_with_a_message(tmp_path, capsys):
    from deducer.app.batch import MAX_JOBS_PER_CORE
    from deducer.app.batch.pool import cpu_count

    with Stopwatch() as sw:
        code, out, err = cli(capsys, "rate", PUZZLES / "seed002-four.txt", "-j", "100000",
                             "--csv")
    assert code == 0 and sw.within(60), sw
    cap = MAX_JOBS_PER_CORE * cpu_count()
    assert f"--jobs 100000 is more than this machine can use; using {cap}" in err
    assert len(err.splitlines()) == 1


def test_a_batch_starts_no_more_workers_than_items(monkeypatch):
    from deducer.app.batch import Settings, run
    from deducer.app.batch.pool import PoolEngine

    started = []
    real = PoolEngine._start

    def counting(self, *args, **kwargs):
        started.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(PoolEngine, "_start", counting)
    out = list(run(abs, [-3], Settings(jobs=8), lambda *a: None))
    assert out == [3] and len(started) == 1


# ------------------------------------------------------------------ FIFOs and special files
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_a_folder_is_an_unreadable_row_not_a_hang(tmp_path):
    d = tmp_path / "d"
    d.mkdir()
    os.mkfifo(d / "pipe.txt")
    (d / "a.txt").write_text(FOUR, encoding="utf-8")
    for argv in (["rate", d, "--timeout", "5"], ["rate", str(d / "*.txt"), "--csv"],
                 ["rate", d, "--out", tmp_path / "r.jsonl"]):
        r = deducer(*argv, cwd=tmp_path, timeout=30)
        no_traceback(r.stderr)
        assert r.returncode == 2, (argv, r.stderr)
    rows = rows_of(tmp_path / "r.jsonl")
    assert [Path(r["source"]).name for r in rows] == ["a.txt", "pipe.txt"]
    assert rows[1]["status"] == "unreadable" and "not a regular file (a FIFO)" in rows[1]["error"]


# ------------------------------------------------------------------ standard input
def test_standard_input_is_bounded_like_a_file(capsys, monkeypatch):
    from deducer.puzzle.fileio import MAX_BYTES

    class Endless(io.RawIOBase):  # /dev/zero without the device: reads never end
        read_bytes = 0

        def readable(self):
            return True

        def readinto(self, b):
            Endless.read_bytes += len(b)
            b[:] = b"0" * len(b)
            return len(b)

    stdin = io.TextIOWrapper(io.BufferedReader(Endless()))
    monkeypatch.setattr(sys, "stdin", stdin)
    code, out, err = cli(capsys, "rate", "-", "--csv")
    assert code == 2
    assert f"<stdin>:1: line holds more than {MAX_BYTES} bytes" in out
    assert Endless.read_bytes < 2 * MAX_BYTES


def test_a_long_line_on_stdin_stops_the_reading_but_not_the_rows_before(capsys, monkeypatch):
    from deducer.puzzle.fileio import MAX_BYTES

    data = (PUZZLES / "seed002-four.txt").read_text()
    from deducer.puzzle import formats

    url = formats.dumps(formats.loads(data), "puzzlink").strip()
    text = url + "\n" + "x" * (MAX_BYTES + 10) + "\n" + url + "\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    code, out, _ = cli(capsys, "rate", "-", "--json")
    rows = json.loads(out)["puzzles"]
    assert [r["status"] for r in rows] == ["solved", "unreadable"]
    assert code == 2


# ------------------------------------------------------------------ outputs onto inputs
def test_out_onto_an_input_is_refused_even_with_force(tmp_path, capsys):
    gen = tmp_path / "gen.jsonl"
    from deducer.puzzle import formats

    line = json.dumps({"puzzle": json.loads(formats.dumps(formats.loads(FOUR), "json"))})
    gen.write_text(line + "\n", encoding="utf-8")
    before = gen.read_bytes()
    for extra in ((), ("--force",), ("--resume",)):
        code, _, err = cli(capsys, "rate", gen, "--out", gen, *extra)
        assert code == 2 and "is also an input" in err, err
        assert gen.read_bytes() == before
    link = tmp_path / "link.jsonl"
    link.symlink_to(gen)
    code, _, err = cli(capsys, "rate", link, "--out", gen, "--force")
    assert code == 2 and "is also an input" in err
    assert gen.read_bytes() == before


def test_out_with_a_name_too_long_is_a_one_line_error(tmp_path, capsys):
    (tmp_path / "a.txt").write_text(FOUR, encoding="utf-8")
    for out in ("x" * 300 + ".jsonl", "x" * 300 + ".parquet"):
        code, _, err = cli(capsys, "rate", tmp_path / "a.txt", "--out", tmp_path / out)
        assert code == 2 and "file name is too long" in err and len(err.splitlines()) == 1


def test_out_inside_the_rated_folder_is_not_rated_and_resumes(tmp_path, capsys):
    d = tmp_path / "d"
    d.mkdir()
    (d / "a.txt").write_text(FOUR, encoding="utf-8")
    (d / "b.txt").write_text(MULTI, encoding="utf-8")
    out = d / "rows.jsonl"
    code, said, _ = cli(capsys, "rate", d, "--out", out)
    assert code == 1 and said.startswith("2 puzzles")
    code, said, err = cli(capsys, "rate", d, "--out", out, "--resume")
    assert code == 1 and "(2 kept from before)" in said, err
    assert [Path(r["source"]).name for r in rows_of(out)] == ["a.txt", "b.txt"]
    # a rows file from another run is no puzzle either: skipped, not unreadable
    code, said, err = cli(capsys, "rate", d, "--out", tmp_path / "again.jsonl")
    assert code == 1 and said.startswith("2 puzzles") and "skipped 1 file" in err


# ------------------------------------------------------------------ folders of real files
def real_folder(tmp_path: Path) -> Path:
    d = tmp_path / "real"
    d.mkdir()
    (d / "a.txt").write_text(FOUR, encoding="utf-8")
    (d / "k2.j").write_text(K2, encoding="utf-8")
    (d / "SOURCE.md").write_text("# Where these come from\n\nA site.\n", encoding="utf-8")
    (d / "page.html").write_text("<!doctype html><title>x</title>\n", encoding="utf-8")
    (d / "shot.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (d / "print.pdf").write_bytes(b"%PDF-1.7\n\xe2\xe3\xcf\xd3\n")
    (d / "solver.py").write_text("print('hello')\n", encoding="utf-8")
    (d / "rules.yaml").write_text("rules: []\n", encoding="utf-8")
    (d / "expected.json").write_text('{"a.txt": "unique"}\n', encoding="utf-8")
    (d / "empty.txt").write_bytes(b"")
    return d


def test_a_folder_reads_its_puzzles_and_skips_the_rest(tmp_path, capsys):
    d = real_folder(tmp_path)
    code, out, err = cli(capsys, "rate", d, "--csv")
    assert code == 0, err
    files = [line.split(",")[0] for line in out.splitlines()[1:]]
    assert files == [str(d / "a.txt"), str(d / "k2.j")]
    assert err.startswith(f"deducer: skipped 8 files that hold no puzzle in a format deducer "
                          f"reads: {d / 'SOURCE.md'}, ") and err.endswith(" and 3 more\n")
    assert len(err.splitlines()) == 1
    # a file named on the command line is read whatever it is
    code, out, err = cli(capsys, "rate", d / "SOURCE.md", "--csv")
    assert code == 2 and "unreadable" in out


def test_a_broken_puzzle_in_a_folder_is_still_unreadable(tmp_path, capsys):
    d = real_folder(tmp_path)
    (d / "bad.txt").write_text("\\|46\\\n\\| \n", encoding="utf-8")  # a puzzle, clue too big
    code, out, err = cli(capsys, "rate", d, "--csv")
    assert code == 2
    assert "out of range" in out and "bad.txt" in out


def test_the_bundled_puzzles_folder_rates_without_bad_input(capsys):
    # bounded in CPU time (about 7 s of it): a --timeout in wall time cut puzzles short
    # (exit 4) on a loaded machine, which says nothing about reading the folder
    with cpu_budget(120):
        code, out, err = cli(capsys, "rate", PUZZLES, "--csv")
    assert code in (0, 1), err
    assert "unreadable" not in out
    assert "skipped" in err and "expected.json" in err


CORPUS = Path(os.environ.get("DEDUCER_CORPUS") or ROOT.parent / "shared" / "corpus")
#: a few folders of the corpus, in different notations (the full sweep: DEDUCER_CORPUS_RATE=1)
#: the one corpus file that is broken as its source says: its stored grid repeats a digit
#: in a run (tests/test_formats.py), so it is rightly unreadable
BROKEN = "ifilot-cx16-kakuro/031.puz"
SAMPLE = ("adi7em-kakuro-solver", "marcelgarus-kakuro", "puzzlink-urls", "pzprjs",
          "minizinc-benchmarks")


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the corpus is absent (set DEDUCER_CORPUS)")
def test_corpus_folders_rate_without_an_unreadable_row(tmp_path):
    folders = sorted(p for p in CORPUS.iterdir() if p.is_dir())
    if not os.environ.get("DEDUCER_CORPUS_RATE"):
        folders = [p for p in folders if p.name in SAMPLE]
    out = tmp_path / "r.jsonl"
    r = deducer("rate", *folders, "--out", out, "--timeout", "0.2", "-j", "2", "--no-progress",
                cwd=tmp_path, timeout=3600)
    no_traceback(r.stderr)
    rows = rows_of(out)
    # a folder whose notation deducer does not read (two grids, Prolog terms) is one row
    # saying so, not a row per file
    nothing = [row for row in rows if row["status"] == "unreadable"
               and f"no puzzle in {row['source']}" in row["error"]]
    assert all(Path(row["source"]).parent == CORPUS for row in nothing)
    bad = [row for row in rows if row["status"] in ("unreadable", "failed")
           and not row["source"].endswith(BROKEN) and row not in nothing]
    assert bad == [], bad[:5]
    broken = any(row["source"].endswith(BROKEN) for row in rows)
    assert r.returncode in ((2,) if broken or nothing else (0, 1, 4)), r.stderr


# ------------------------------------------------------------------ generate's outputs
def puzzle_files(folder: Path) -> list[Path]:
    """The files of a generate --out folder but its (hidden) manifest of runs."""
    return [p for p in folder.iterdir() if not p.name.startswith(".")]


@pytest.mark.parametrize("argv, says", [
    (["--out", "/proc/gen"], "cannot write"),
    (["--out", "/sys/x"], "cannot write"),
    (["--jsonl", "/proc/x.jsonl"], "cannot write"),
    (["--jsonl", "/nonexist/x.jsonl"], "does not exist"),
    (["--out", "x" * 300], "file name is too long"),
    (["--jsonl", "y" * 300 + ".jsonl"], "file name is too long"),
    (["--count", "9223372036854775808"], "--count must be 1..1000000"),
])
def test_generate_refuses_bad_output_places(tmp_path, argv, says):
    r = deducer("generate", "--size", "6x6", "--seed", "1", *argv, cwd=tmp_path)
    no_traceback(r.stderr)
    assert r.returncode == 2 and says in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr


def test_generate_adds_a_second_batch_after_the_first(tmp_path, capsys):
    """A folder that holds a batch is refused with the number to go on from; --first N
    numbers the new files from N and leaves the first batch as it was."""
    lib = tmp_path / "lib"
    code, _, err = cli(capsys, "generate", "--size", "6x6", "--seed", "1", "--count", "2",
                       "--out", lib, "--no-progress")
    assert code == 0, err
    before = {p.name: p.read_bytes() for p in puzzle_files(lib)}
    code, _, err = cli(capsys, "generate", "--size", "6x6", "--seed", "2", "--count", "2",
                       "--out", lib, "--no-progress")
    assert code == 2 and "pass --first 3 to add the new puzzles after them" in err
    code, _, err = cli(capsys, "generate", "--size", "6x6", "--seed", "1", "--count", "2",
                       "--out", lib, "--first", "3", "--no-progress")
    assert code == 0, err
    assert sorted(p.name for p in puzzle_files(lib)) == ["0001.txt", "0002.txt", "0003.txt",
                                                         "0004.txt"]
    assert all((lib / n).read_bytes() == b for n, b in before.items())
    # with the same seed, the puzzles a run of four makes (not copies of the first two)
    whole = tmp_path / "whole"
    code, _, err = cli(capsys, "generate", "--size", "6x6", "--seed", "1", "--count", "4",
                       "--out", whole, "--no-progress")
    assert code == 0, err
    assert [(lib / n).read_bytes() for n in ("0003.txt", "0004.txt")] == \
        [(whole / n).read_bytes() for n in ("0003.txt", "0004.txt")]
    assert (lib / "0003.txt").read_bytes() != (lib / "0001.txt").read_bytes()
    code, _, err = cli(capsys, "generate", "--size", "6x6", "--first", "0", "--out", lib)
    assert code == 2 and "--first must be 1 or more" in err


def test_generate_checks_every_output_before_making_any(tmp_path, capsys):
    ex = tmp_path / "ex"
    ex.mkdir()
    (ex / "0002.txt").write_text("mine\n", encoding="utf-8")
    code, _, err = cli(capsys, "generate", "--size", "6x6", "--seed", "1", "--count", "3",
                       "--out", ex, "--no-progress")
    assert code == 2 and "already holds 0002.txt" in err
    assert sorted(p.name for p in ex.iterdir()) == ["0002.txt"]
    code, _, err = cli(capsys, "generate", "--size", "6x6", "--seed", "1", "--out",
                       tmp_path / "same1", "--jsonl", tmp_path / "same1" / "0001.txt")
    assert code == 2 and "--jsonl names one of the puzzle files" in err
    assert not (tmp_path / "same1").exists()


def test_generate_resumes_an_interrupted_run(tmp_path, capsys):
    common = ["generate", "--size", "7x7", "--seed", "4", "--count", "3", "--no-progress"]
    a, b = tmp_path / "a", tmp_path / "b"
    assert cli(capsys, *common, "--out", a, "--jsonl", tmp_path / "a.jsonl")[0] == 0
    assert cli(capsys, *common, "--out", b, "--jsonl", tmp_path / "b.jsonl")[0] == 0
    # b as an interrupt leaves it: two puzzle files, a line and a half
    (b / "0003.txt").unlink()
    data = (tmp_path / "b.jsonl").read_bytes()
    (tmp_path / "b.jsonl").write_bytes(data[:data.index(b"\n") + 30])
    code, _, err = cli(capsys, *common, "--out", b, "--jsonl", tmp_path / "b.jsonl")
    assert code == 2 and "--resume" in err
    code, _, err = cli(capsys, *common, "--out", b, "--jsonl", tmp_path / "b.jsonl",
                       "--resume")
    assert code == 0 and "1 of 3 puzzles were made before" in err, err
    untimed = [{**row, "seconds": None} for row in rows_of(tmp_path / "a.jsonl")]
    assert [{**row, "seconds": None} for row in rows_of(tmp_path / "b.jsonl")] == untimed
    for name in ("0001.txt", "0002.txt", "0003.txt"):
        assert (b / name).read_bytes() == (a / name).read_bytes()
    code, _, err = cli(capsys, "generate", "--size", "7x7", "--count", "3", "--out", b,
                       "--resume")
    assert code == 2 and "needs the --seed" in err


# ------------------------------------------------------------------ timeouts that hold
def test_solve_keeps_its_timeout_while_listing_solutions(tmp_path):
    from deducer import api
    from deducer.puzzle import formats

    puzzle = formats.loads(islands_text())
    with cpu_of_this_process() as used:
        r = api.solve(puzzle, max_solutions=100000, timeout=0.5)
    assert used() < 0.5 + 2.0, used()  # CPU time: the clock was looked at
    assert not r.complete and r.timed_out
    (tmp_path / "islands.txt").write_text(islands_text(), encoding="utf-8")
    run = deducer("solve", "islands.txt", "--json", "--max-solutions", "100000", "--timeout",
                  "1", cwd=tmp_path)
    # what was found when the time ran out, listed: on a machine too loaded to find one
    # in the second, none (exit 4), but the JSON all the same
    data = json.loads(run.stdout)
    assert data["complete"] is False and data["timed_out"] is True
    assert (run.returncode, data["solution_count"] > 0) in ((0, True), (4, False)), run.stderr


def unclued_text(n: int = 170) -> str:
    """An n x n grid of 9-cell runs with no clue: every hint rule has a lot to look at."""
    return "\n".join("|".join("\\" if r % 10 == 0 or c % 10 == 0 else " " for c in range(n))
                     for r in range(n)) + "\n"


def test_hint_keeps_its_timeout(tmp_path):
    from deducer import api
    from deducer.puzzle import formats

    puzzle = formats.loads(unclued_text())
    with cpu_of_this_process() as used:
        h = api.hint(puzzle, "full", timeout=1)
    assert used() < 1 + 1.5, used()  # CPU time: the clock was looked at
    assert h.kind == "timeout" and "time limit" in h.text
    (tmp_path / "u.txt").write_text(unclued_text(), encoding="utf-8")
    r = deducer("hint", "u.txt", "--timeout", "1", cwd=tmp_path)
    # the hint's own answer, or on a loaded machine the backstop's line a second later:
    # either way exit 4 and the time limit named
    assert r.returncode == 4 and "time limit" in r.stdout + r.stderr, r.stderr


# ------------------------------------------------------------------ the play server
@pytest.fixture()
def served(tmp_path, monkeypatch):
    """A real play server on 127.0.0.1 (any free port), stopped after the test."""
    import threading

    from deducer.app.play import limits
    from deducer.app.play import server as play

    monkeypatch.setattr(limits, "TIMEOUT", 3.0)  # each hint's limit, short for the test
    root = tmp_path / "root"
    root.mkdir()
    made = []

    def start(**kw):
        srv = play.make_server(play.create_app(root, None), 0, **kw)
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        made.append((srv, thread))
        return srv.effective_port

    yield start
    for srv, thread in made:
        play.stop_server(srv)
        thread.join(5)


def _get_start(port: int, timeout: float = 5) -> float:
    """Seconds /api/start took to answer 200."""
    import urllib.request

    t = time.monotonic()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/start", timeout=timeout) as r:
        assert r.status == 200
    return time.monotonic() - t


def test_play_answers_start_while_four_slow_hints_run(served, monkeypatch):
    """Four long computations at once leave the page's quick requests a thread: /api/start
    is answered while all four hints are still running. The hints are held at a gate (as
    a slow machine holds them) until the starts have been answered, so the test measures
    the order of events, not seconds: a start blocked behind the hints would never be
    answered and time out; then each hint stops at its own time limit."""
    import threading
    import urllib.request

    from deducer import api
    from deducer.puzzle import formats

    real_hint = api.hint
    entered = threading.Semaphore(0)
    release = threading.Event()

    def held_hint(*a, **k):
        entered.release()
        release.wait(120)
        return real_hint(*a, **k)

    monkeypatch.setattr(api, "hint", held_hint)
    port = served()
    body = json.dumps({"puzzle": json.loads(formats.dumps(formats.loads(unclued_text()),
                                                          "json")), "level": "full"}).encode()
    answers: list = []

    def ask():
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/hint", data=body,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=240) as r:
            answers.append(json.load(r)["kind"])

    hints = [threading.Thread(target=ask) for _ in range(4)]
    for h in hints:
        h.start()
    try:
        for _ in range(4):  # all four are in their computation now
            assert entered.acquire(timeout=120), "a hint never started"
        for _ in range(3):
            _get_start(port, timeout=120)  # answered while the four are held
    finally:
        release.set()
        for h in hints:
            h.join(240)
    assert answers == ["timeout"] * 4  # each hint stopped at its limit, and answered


def test_play_keeps_answering_with_200_slow_clients(served):
    import socket

    port = served(request_timeout=2)
    slow = []
    try:
        for _ in range(200):  # each sends its body a byte at a time, never idle for long
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"POST /api/parse HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
            slow.append(s)
        for _ in range(3):
            with Stopwatch() as sw:
                _get_start(port, timeout=60)
            assert sw.within(1.0), sw
        for s in slow[:20]:
            s.sendall(b" ")
        deadline = time.monotonic() + 6
        for s in slow:  # hung up on once their request has taken over 2 s to arrive
            s.settimeout(max(0.1, deadline - time.monotonic()))
            assert s.recv(1024) == b""
    finally:
        for s in slow:
            s.close()


def test_play_save_refuses_a_name_too_long(tmp_path):
    from deducer.app.play.server import create_app
    from deducer.puzzle import formats

    root = tmp_path / "root"
    root.mkdir()
    client = create_app(root, None).test_client()
    puzzle = json.loads(formats.dumps(formats.loads(FOUR), "json"))
    resp = client.post("/api/save", json={"puzzle": puzzle, "format": "pipe",
                                          "path": "x" * 300 + ".txt"})
    assert resp.status_code == 400 and "too long" in resp.get_json()["error"]


# ------------------------------------------------------------------ a timeout inside cairo
CAIRO_LIKE = """
import sys, time
import deducer.render.svg as svg

def to_png(text, scale=2.0):  # as cairo does: Python callbacks inside C, errors swallowed
    end = time.process_time() + 3  # cairo's work is CPU time, which the backstop counts
    while time.process_time() < end:
        try:
            sum(range(1000))
        except BaseException:
            print("Exception ignored from cffi callback", file=sys.stderr)
            raise RuntimeError("cairo: WRITE_ERROR") from None
    return b"png"

svg.to_png = to_png
from deducer.app.cli import main
sys.exit(main())
"""


def test_a_timeout_while_writing_a_png_stops_cleanly(tmp_path):
    with cpu_of_children() as used:
        r = subprocess.run([sys.executable, "-c", CAIRO_LIKE, "render", str(PUZZLES /
                            "seed002-four.txt"), "--png", "o.png", "--timeout", "0.3"],
                           cwd=tmp_path, env=env(), capture_output=True, text=True,
                           timeout=120)
    assert r.returncode == 4, r.stderr
    assert "stopped: the time limit" in r.stderr and "ignored" not in r.stderr
    assert used() < 2.5, used()  # CPU time: stopped long before the 3 s "cairo" wanted
    assert not (tmp_path / "o.png").exists()


# ------------------------------------------------------------------ rule files
@pytest.mark.parametrize("text", [
    "rules: " + "[" * 50000 + "]" * 50000 + "\n",
    "rules: " + "{a: " * 20000 + "1" + "}" * 20000 + "\n",
    "rules:\n" + "".join(" " * k + f"a{k}:\n" for k in range(1, 1500)) + " " * 1500 + "x: 1\n",
])
def test_deeply_nested_rule_yaml_is_a_one_line_error(tmp_path, capsys, text):
    (tmp_path / "r.yaml").write_text(text, encoding="utf-8")
    code, _, err = cli(capsys, "explain", PUZZLES / "seed000-k2.j", "--rules",
                       tmp_path / "r.yaml", "--json")
    assert code == 2 and "nested too deeply" in err and len(err.splitlines()) == 1, err


# ------------------------------------------------------------------ control characters
EVIL = "evil\x1b]0;TITLE\x07"


def test_control_characters_never_reach_the_terminal(tmp_path, capsys):
    d = tmp_path / "d"
    d.mkdir()
    (d / f"{EVIL}.txt").write_text(FOUR, encoding="utf-8")
    (d / f"{EVIL}-bad.txt").write_text("\\|46\\\n\\| \n", encoding="utf-8")
    for fmt in ((), ("--csv",)):
        code, out, err = cli(capsys, "rate", d, *fmt)
        assert code == 2
        assert "\x1b" not in out + err and "\x07" not in out + err
        assert "evil\\x1b]0;TITLE\\x07.txt" in out
    code, _, err = cli(capsys, "solve", d / f"{EVIL}-bad.txt")
    assert code == 2 and "\x1b" not in err and "evil\\x1b" in err


def test_control_characters_in_a_puzzle_name_stay_out_of_html(tmp_path, capsys):
    from deducer.puzzle import formats

    obj = json.loads(formats.dumps(formats.loads(FOUR), "json"))
    obj["name"] = EVIL
    (tmp_path / "p.json").write_text(json.dumps(obj), encoding="utf-8")
    code, _, err = cli(capsys, "explain", tmp_path / "p.json", "--html", tmp_path / "p.html")
    assert code == 0, err
    page = (tmp_path / "p.html").read_text(encoding="utf-8")
    assert "\x1b" not in page and "\x07" not in page and "evil\ufffd]0;TITLE\ufffd" in page


# ------------------------------------------------------------------ a lost Dask scheduler
def test_a_dask_scheduler_killed_mid_run_is_one_line_and_keeps_the_rows(tmp_path):
    pytest.importorskip("distributed")
    d = busy_folder(tmp_path, 300)
    spawn = dict(cwd=tmp_path, env=env(), start_new_session=True, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL)
    sched_file = tmp_path / "sched.json"
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                                  "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                  "--scheduler-file", str(sched_file)], **spawn)
    procs = [scheduler]
    try:
        deadline = time.monotonic() + 60
        while not sched_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.3)
        address = json.loads(sched_file.read_text())["address"]
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker",
                                       address, "--nworkers", "1", "--nthreads", "1",
                                       "--no-dashboard"], **spawn))
        out = tmp_path / "r.jsonl"
        rate = subprocess.Popen([sys.executable, "-m", "deducer", "rate", str(d), "--out",
                                 str(out), "--engine", "dask", "--scheduler", address,
                                 "--no-progress"], cwd=tmp_path, env=env(),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        procs.append(rate)
        while time.monotonic() < deadline and not (out.exists() and
                                                    out.read_bytes().count(b"\n") >= 5):
            time.sleep(0.05)
        os.killpg(scheduler.pid, signal.SIGKILL)
        _, err = rate.communicate(timeout=120)
        assert rate.returncode == 2, err
        assert err.startswith("deducer: error: lost the Dask scheduler at ") and \
            len(err.splitlines()) == 1, err
        rows = rows_of(out)
        assert 5 <= len(rows) < 300
    finally:
        for proc in procs:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            proc.wait(timeout=10)


def test_explain_keeps_its_timeout_on_a_huge_grid():
    from deducer import api
    from deducer.puzzle import formats

    puzzle = formats.loads(unclued_text())
    with cpu_of_this_process() as used:
        exp = api.explain(puzzle, timeout=1)
    assert used() < 1 + 1.5, used()  # CPU time: the clock was looked at
    assert exp.status == "timeout"


def test_deep_rule_yaml_is_refused_whatever_the_recursion_limit(tmp_path, capsys):
    """The depth is counted from the parser's events, not left to a RecursionError: with a
    high recursion limit (another library may raise it) the answer is the same."""
    import sys

    deep = "rules:\n" + "".join(" " * (k + 1) + f"a{k + 1}:\n" for k in range(1500))
    (tmp_path / "r.yaml").write_text(deep + " " * 1501 + "x: 1\n", encoding="utf-8")
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(100_000)
    try:
        code, _, err = cli(capsys, "explain", PUZZLES / "seed000-k2.j", "--rules",
                           tmp_path / "r.yaml", "--json")
    finally:
        sys.setrecursionlimit(old)
    assert code == 2 and "nested too deeply" in err and len(err.splitlines()) == 1, err


# ------------------------------------------------------------------ Ctrl-C: the answer so far
def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has used so far (Linux)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tiled_trial(k: int = 12) -> str:
    """``k`` x ``k`` copies of the bundled puzzle that needs forcing chains, side by side:
    unique, and its walkthrough takes minutes (each copy's chains)."""
    lines = [line.split("|") for line in
             (ROOT / "puzzles" / "deducer-trial.txt").read_text(encoding="utf-8").splitlines()
             if not line.startswith("#")]
    return "".join("|".join(row * k) + "\n" for _ in range(k) for row in lines)


def test_ctrl_c_prints_the_answer_so_far_for_every_one_puzzle_command(tmp_path):
    # issue 54: Ctrl-C gave "deducer: interrupted" and nothing else, where the --timeout
    # form prints the answer so far. Each command here works for long (a walkthrough of
    # 144 copies of a puzzle that needs chains; 600 two-way islands to list; an unclued
    # 170x170 grid's open steps): interrupted after 2 s of CPU time, each prints what its
    # --timeout form would, says it was cut short, and exits 130. why and check answer
    # these grids within 2 s now (they were minutes): one that finishes first has nothing
    # to cut short, and gives its whole answer
    from tests.fuzz.bad_input_table import unclued_text

    (tmp_path / "unclued.txt").write_text(unclued_text(), encoding="utf-8")
    (tmp_path / "islands.txt").write_text(islands_text(), encoding="utf-8")
    (tmp_path / "tiled.txt").write_text(tiled_trial(), encoding="utf-8")
    commands = {
        "solve": ["solve", "islands.txt", "--json", "--max-solutions", "100000"],
        "explain": ["explain", "tiled.txt", "--json"],
        "hint": ["hint", "unclued.txt", "--all"],
        "why": ["why", "unclued.txt", "r2c2", "1"],
        "check": ["check", "unclued.txt"],
        "render": ["render", "tiled.txt", "--html", "page.html"],
    }
    long = ("solve", "explain", "hint", "render")
    procs = {name: subprocess.Popen([sys.executable, "-m", "deducer", *argv], cwd=tmp_path,
                                    env=env(), stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
             for name, argv in commands.items()}
    # each is interrupted once it has had 2 s of CPU time (well past starting and reading
    # its input, whatever the load)
    waiting = dict(procs)
    finished = set()
    deadline = time.monotonic() + 300
    while waiting and time.monotonic() < deadline:
        for name, proc in list(waiting.items()):
            if proc.poll() is not None:
                finished.add(name)
                del waiting[name]
            elif cpu_seconds(proc.pid) >= 2.0:
                proc.send_signal(signal.SIGINT)
                del waiting[name]
        time.sleep(0.05)
    assert not finished & set(long), finished
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=120)
        no_traceback(err)
        if name in finished:
            assert proc.returncode in (0, 1, 4) and out.strip(), (name, proc.returncode, err)
            continue
        assert proc.returncode == 130, (name, proc.returncode, err)
        assert "interrupted (Ctrl-C): what is printed above is the answer so far, cut short" \
            in err, (name, err)
        if name == "render":
            assert (tmp_path / "page.html").read_text(encoding="utf-8").startswith("<!")
        else:
            assert out.strip(), name  # the answer so far, as --timeout prints it
        if name == "solve":
            data = json.loads(out)
            assert data["complete"] is False and data["solution_count"] >= 1
        if name == "explain":
            data = json.loads(out)
            assert data["status"] == "timeout" and "interrupted" in data["message"]
            assert data["steps"]  # the walkthrough so far


# ------------------------------------------------------------------ resumes that read records
def test_generate_resume_goes_by_the_records_indices_not_their_count(tmp_path, capsys):
    # issue 54, finding 7: --resume counted the --jsonl file's lines; a record copied twice
    # (or one missing) had it skip or repeat a puzzle. The indices are checked now
    common = ["generate", "--size", "6x6", "--seed", "3", "--count", "3", "--no-progress"]
    whole = tmp_path / "whole.jsonl"
    assert cli(capsys, *common, "--jsonl", whole)[0] == 0
    lines = whole.read_bytes().splitlines(keepends=True)
    part = tmp_path / "part.jsonl"
    part.write_bytes(lines[0] + lines[0])  # two lines, but only puzzle 0 made
    code, _, err = cli(capsys, *common, "--jsonl", part, "--resume")
    no_traceback(err)
    assert code == 2 and f"{part}:2: record 2 is puzzle 0 again" in err, err
    assert part.read_bytes() == lines[0] + lines[0]  # a refused resume leaves it as it was
    # puzzles are written as they are made: any order, any gaps resume the missing ones
    part.write_bytes(lines[2] + lines[0][:25])
    code, _, err = cli(capsys, *common, "--jsonl", part, "--resume")
    assert code == 0 and "1 of 3 puzzles were made before" in err, err
    untimed = [{**json.loads(x), "seconds": None} for x in lines]
    assert [{**json.loads(x), "seconds": None} for x in part.read_bytes().splitlines()] == \
        untimed  # sorted back to index order


def test_a_rows_line_nested_thousands_deep_is_bad_input(tmp_path, capsys):
    # issue 54, finding 8: json.loads raises RecursionError, not ValueError, on such a
    # line: `rate --resume` exited 3 (internal error)
    (tmp_path / "a.txt").write_text(FOUR, encoding="utf-8")
    out = tmp_path / "r.jsonl"
    out.write_text('{"source": "x"}\n' + "[" * 100_000 + "]" * 100_000 + "\n",
                   encoding="utf-8")
    code, _, err = cli(capsys, "rate", tmp_path / "a.txt", "--out", out, "--resume")
    no_traceback(err)
    assert code == 2 and f"{out}:2: " in err and "cannot resume" in err, err


# ------------------------------------------------------------------ the API's wrong values
@pytest.mark.parametrize("cell", [(1,), (1, 2, 3), None, ("a", 1), (1.5, 2), (True, 2)])
def test_a_wrong_cell_given_to_the_api_is_its_documented_error(cell):
    # issue 54, finding 9: a 1-tuple escaped as IndexError, None as TypeError, ("a", 1) as
    # ValueError, and (1.5, 2) was read as (1, 2)
    from deducer import api
    from deducer.errors import PuzzleError

    p = api.load(PUZZLES / "seed000-k2.j")
    for ask in (api.why, api.what_if):
        with pytest.raises(PuzzleError, match="is not a cell"):
            ask(p, cell, 3)
    with pytest.raises(PuzzleError, match="not a digit"):
        api.why(p, (3, 2), True)


def test_a_huge_or_wrong_timeout_given_to_the_api_is_no_overflow():
    # issue 54, finding 9: timeout=2**2000 raised OverflowError inside the solver
    from deducer import api
    from deducer.errors import DeducerError

    p = api.load(PUZZLES / "seed002-four.txt")
    assert api.solve(p, timeout=2**2000).status == "unique"
    assert api.explain(p, timeout=float("inf")).status == "solved"
    for wrong in ("3", float("nan"), [1]):
        with pytest.raises(DeducerError, match="not a number of seconds"):
            api.solve(p, timeout=wrong)


def test_ctrl_c_during_generate_keeps_and_counts_every_puzzle_written(tmp_path):
    recs = tmp_path / "g.jsonl"
    argv = [sys.executable, "-m", "deducer", "generate", "--size", "6x6", "--seed", "4",
            "--count", "500", "--no-progress", "--jsonl", str(recs)]
    proc = subprocess.Popen(argv, cwd=tmp_path, env=env(), start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None and \
            (not recs.exists() or recs.read_bytes().count(b"\n") < 2):
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    no_traceback(err)
    kept = recs.read_bytes().count(b"\n")
    assert proc.returncode == 130 and 2 <= kept < 500, err
    assert f"interrupted: {kept} of 500 puzzles made and kept (--resume goes on" in err, err
    made = [json.loads(x)["index"] for x in recs.read_bytes().splitlines()]
    assert len(set(made)) == kept and all(0 <= k < 500 for k in made)

# ------------------------------------------- issue 54: rules --pages and rules test (1-4, 11-13)
def _rule_file(folder: Path, rid: str = "no-half", body: str = "", name: str = "r") -> Path:
    """A user rule file (``rid``) whose function is ``body`` (default: a sound run rule)."""
    body = body or (
        "    run = view.run(rid)\n"
        "    if run.length == 2 and run.total % 2 == 0 and view.run(rid).total < 19:\n"
        "        for i in view.open_cells(rid):\n"
        "            if view.mask(i) & BIT[run.total // 2]:\n"
        "                yield Deduction(eliminations={i: BIT[run.total // 2]}, cells=(i,),\n"
        "                                runs=(rid,), proof=Proof(runs=(rid,)))\n")
    (folder / f"{name}.py").write_text(
        "from deducer.rules.api import BIT, Deduction, Proof, rule\n\n\n@rule\n"
        f"def f(view, rid):\n{body}", encoding="utf-8")
    path = folder / f"{name}.yaml"
    path.write_text(f"rules:\n  - id: {rid}\n    name: N\n    priority: 10\n    weight: 1.0\n"
                    f"    score: 5\n    scope: run\n    implementation: {name}.py:f\n"
                    "    explain: \"{run}: {effect}.\"\n", encoding="utf-8")
    return path


def test_pages_refuse_a_rule_named_index_and_write_nothing(tmp_path, capsys):
    rules = _rule_file(tmp_path, "index")
    code, out, err = cli(capsys, "rules", "--pages", tmp_path / "site", "--rules", rules,
                         "--seconds", "1")
    assert code == 2 and "'index' names the pages' index" in err
    assert not (tmp_path / "site").exists()


def test_pages_check_every_name_before_writing_any(tmp_path, capsys):
    rules = _rule_file(tmp_path, "x" * 300)
    code, _, err = cli(capsys, "rules", "--pages", tmp_path / "site", "--rules", rules,
                       "--seconds", "1")
    assert code == 2 and "too long" in err and err.count("\n") == 1
    assert not (tmp_path / "site").exists()  # no half site to block the rerun


def test_pages_force_replaces_pages_never_other_files(tmp_path, capsys):
    site = tmp_path / "site"
    site.mkdir()
    mine = site / "naked-single.html"
    mine.write_text("my notes", encoding="utf-8")
    code, _, err = cli(capsys, "rules", "--pages", site, "--force", "--seconds", "1")
    assert code == 2 and "is not a technique page" in err
    assert mine.read_text(encoding="utf-8") == "my notes" and len(list(site.iterdir())) == 1
    mine.unlink()
    # (the cached examples' walks take a fraction of a second; 60 s holds on a busy machine)
    assert cli(capsys, "rules", "--pages", site, "--seconds", "60")[0] == 0
    assert cli(capsys, "rules", "--pages", site, "--force", "--seconds", "60")[0] == 0


def test_pages_bound_a_looping_rule_and_name_it(tmp_path):
    rules = _rule_file(tmp_path, "spin", "    while True:\n        pass\n    yield\n")
    with Stopwatch() as sw:
        res = deducer("rules", "--pages", tmp_path / "site", "--rules", rules, "--seconds",
                      "1", timeout=300)
    no_traceback(res.stderr)
    assert res.returncode == 1, res.stderr
    assert "no example for spin: the time limit (10 s) ran out in rule spin" in res.stderr
    assert (tmp_path / "site" / "index.html").exists()
    assert sw.within(60), sw  # one walk's 10 s and the backstop's grace, not forever


def test_rules_test_checks_save_failing_before_the_audit(tmp_path, capsys):
    taken = tmp_path / "a-file"
    taken.write_text("mine", encoding="utf-8")
    rules = _rule_file(tmp_path)
    code, out, err = cli(capsys, "rules", "test", rules, "--save-failing", taken)
    assert code == 2 and "is a file" in err and out == ""
    assert taken.read_text(encoding="utf-8") == "mine"
    code, out, err = cli(capsys, "rules", "test", rules, "--save-fired", taken / "sub")
    assert code == 2 and out == ""


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes anywhere")
def test_rules_test_refuses_an_unwritable_save_failing(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, out, err = cli(capsys, "rules", "test", _rule_file(tmp_path), "--save-failing",
                             locked / "out")
    finally:
        locked.chmod(0o700)
    assert code == 2 and "permission denied" in err and out == ""


def test_rules_test_caps_count(tmp_path, capsys):
    code, out, err = cli(capsys, "rules", "test", _rule_file(tmp_path), "--count",
                         "99999999999999999999")
    assert code == 2 and "--count must be 0..1000000" in err and out == ""


def test_rules_test_keeps_its_report_on_ctrl_c(tmp_path):
    (tmp_path / "four.txt").write_text(FOUR, encoding="utf-8")
    (tmp_path / "k2.j").write_text(K2, encoding="utf-8")
    rules = _rule_file(tmp_path, "spin-big", "    if len(view.puzzle.whites) > 4:\n"
                       "        while True:\n            pass\n    yield from ()\n")
    proc = subprocess.Popen([sys.executable, "-m", "deducer", "rules", "test", str(rules),
                             str(tmp_path / "four.txt"), str(tmp_path / "k2.j"), "-v",
                             "--no-impact", "--priority", "1"], env=env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(4 * stretch())  # start-up and the 4-cell puzzle's audit
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    no_traceback(err)
    assert proc.returncode == 130, err
    assert re.search(r"solved +\S*four\.txt: \d+ steps", out), out  # audited before Ctrl-C
    assert "interrupted (Ctrl-C): the report covers the 1 puzzle(s) audited" in out


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_an_interrupted_generate_keeps_every_puzzle_and_resumes_to_the_same_files(tmp_path,
                                                                                  sig):
    # issue 54, item 1: generate wrote its puzzles in index order, so one made ahead of a
    # slower earlier one was lost on Ctrl-C or a kill; each is written as it is made now
    common = [sys.executable, "-m", "deducer", "generate", "--size", "6x6", "--seed", "5",
              "--count", "6", "--jobs", "2", "--no-progress"]
    whole, part = tmp_path / "whole", tmp_path / "part"
    subprocess.run(common + ["--out", str(whole), "--jsonl", str(whole) + ".jsonl"],
                   cwd=tmp_path, env=env(), check=True, capture_output=True, timeout=300)
    recs = Path(str(part) + ".jsonl")
    proc = subprocess.Popen(common + ["--out", str(part), "--jsonl", str(recs)],
                            cwd=tmp_path, env=env(), start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None and \
            (not recs.exists() or recs.read_bytes().count(b"\n") < 2):
        time.sleep(0.01)
    os.killpg(proc.pid, sig)
    _, err = proc.communicate(timeout=60)
    made = {json.loads(x)["index"] for x in recs.read_bytes().splitlines()}
    files = {int(p.stem) - 1 for p in part.glob("*.txt")}
    assert made <= files and len(made) >= 2  # every puzzle its line tells of is kept
    if sig == signal.SIGINT:
        no_traceback(err)
        assert proc.returncode == 130, err
        assert f"interrupted: {len(made)} of 6 puzzles made and kept (--resume goes on" \
            in err, err
    done = subprocess.run(common + ["--out", str(part), "--jsonl", str(recs), "--resume"],
                          cwd=tmp_path, env=env(), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    for p in whole.glob("*.txt"):
        assert (part / p.name).read_bytes() == p.read_bytes()
    assert sorted(p.name for p in part.iterdir()) == sorted(p.name for p in whole.iterdir())
    untimed = [{**json.loads(x), "seconds": None}
               for x in Path(str(whole) + ".jsonl").read_bytes().splitlines()]
    assert [{**json.loads(x), "seconds": None} for x in recs.read_bytes().splitlines()] == \
        untimed
