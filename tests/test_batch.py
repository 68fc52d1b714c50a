"""The batch path: ``deducer rate`` over folders, globs and standard input, rows written as
they come and resumed after a crash, and the batch engines (local pool, Dask) that survive
dying workers and puzzles that overrun their time limit.

Inputs are kept tiny: CI has two cores.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from deducer.app.batch import Settings, run
from deducer.app.batch.inputs import expand
from deducer.app.cli import main
from tests.support.timing import Stopwatch

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
K2 = (PUZZLES / "seed000-k2.j").read_text(encoding="utf-8")  # unique, Easy, ~0.1 s
FOUR = "\\|5\\|16\\\n\\| | \n\\12| | \n"  # unique, 4 cells
MULTI = "\\|4\\|16\\|6\\\n\\12| | | \n\\14| | | \n"  # three solutions
NONE = "\\|3\\|3\\\n\\3| | \n\\4| | \n"  # no solution
URL = "https://puzz.link/p?kakuro/2/2/n5g-c"  # the four-cell puzzle above, as a URL


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def rows_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def env() -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


# ------------------------------------------------------------------------- inputs and rows
def mixed_folder(tmp_path: Path) -> Path:
    d = tmp_path / "in"
    (d / "sub" / "deeper").mkdir(parents=True)
    (d / ".git").mkdir()
    (d / "a.txt").write_text(FOUR, encoding="utf-8")
    (d / "b-multi.txt").write_text(MULTI, encoding="utf-8")
    (d / "c-none.txt").write_text(NONE, encoding="utf-8")
    (d / "d-garbage.txt").write_text("\\|46\\\n\\| \n", encoding="utf-8")  # clue too big
    (d / "e-binary.bin").write_bytes(b"\x00\x01\x02")
    (d / "f-empty.txt").write_bytes(b"")
    (d / "sub" / "k2.j").write_text(K2, encoding="utf-8")
    (d / "sub" / "deeper" / "url.txt").write_text(URL + "\n", encoding="utf-8")
    (d / ".hidden.txt").write_text(FOUR, encoding="utf-8")
    (d / ".git" / "HEAD").write_text("ref: x\n", encoding="utf-8")
    return d


def test_a_folder_of_good_and_bad_files_rates_to_one_row_each(tmp_path, capsys):
    d = mixed_folder(tmp_path)
    out = tmp_path / "r.jsonl"
    code, said, _ = cli(capsys, "rate", d, "--out", out, "--jobs", "2")
    rows = rows_of(out)
    by = {Path(r["source"]).relative_to(d).as_posix(): r for r in rows}
    # a folder's files that hold no puzzle are skipped (tests/test_hostile.py), not rows
    assert list(by) == ["a.txt", "b-multi.txt", "c-none.txt", "d-garbage.txt",
                        "sub/deeper/url.txt", "sub/k2.j"]
    assert by["a.txt"]["status"] == "solved" and by["a.txt"]["level"] in ("Easy", "Medium")
    assert by["sub/k2.j"]["level"] == "Easy" and by["sub/k2.j"]["effort"] > 0
    assert by["sub/deeper/url.txt"]["status"] == "solved"
    # an unrated row has no level and says why
    assert by["b-multi.txt"]["level"] is None
    assert by["b-multi.txt"]["error"].startswith("not unique")
    assert by["c-none.txt"]["level"] is None and by["c-none.txt"]["error"].startswith(
        "no solution")
    bad = "d-garbage.txt"
    assert by[bad]["status"] == "unreadable" and by[bad]["level"] is None
    assert by[bad]["error"].startswith(str(d / bad) + ":")
    for r in rows:
        assert list(r) == ["source", "status", "level", "hardest", "weight", "effort", "steps",
                           "chain", "trial", "guessing", "rows", "cols", "cells", "rater",
                           "seconds", "error", "score", "notes", "why", "rules"]
        assert r["rater"]
        # a rated row counts the steps of each technique (issue 39), an unrated one none
        assert (r["rules"] is None) == (r["level"] is None)
        # the chance of pencil marks: a probability for a rated row, none for the others
        assert (r["notes"] is None) == (r["level"] is None)
        assert r["notes"] is None or 0 <= r["notes"] <= 1
    assert by["a.txt"]["chain"] == 0 and by["a.txt"]["seconds"] >= 0
    assert code == 2  # an unreadable row is bad input, whatever else happened
    assert said.startswith("6 puzzles: ") and "1 unreadable" in said
    assert "2 files skipped (no puzzle)" in said


def test_stdin_lines_jsonl_files_and_globs(tmp_path, capsys, monkeypatch):
    from deducer.puzzle import formats

    puzzle_json = json.loads(formats.dumps(formats.loads(FOUR), "json"))
    lines = [URL, "# a comment", "", json.dumps(puzzle_json),
             json.dumps({"seed": 7, "rating": {}, "puzzle": puzzle_json}),  # as generate writes
             json.dumps({"seed": 8, "puzzle": URL}), "{not json", '{"seed": 9}']
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("\n".join(lines).encode())))
    (tmp_path / "g.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "x1.txt").write_text(FOUR, encoding="utf-8")
    (tmp_path / "x2.txt").write_text(MULTI, encoding="utf-8")
    code, out, _ = cli(capsys, "rate", "-", tmp_path / "g.jsonl", str(tmp_path / "x*.txt"),
                       str(tmp_path / "nothing*.txt"), "--json")
    rows = json.loads(out)["puzzles"]
    labels = [r["file"] for r in rows]
    assert labels == ["<stdin>:1", "<stdin>:4", "<stdin>:5", "<stdin>:6", "<stdin>:7",
                      "<stdin>:8", *(f"{tmp_path / 'g.jsonl'}:{n}" for n in (1, 4, 5, 6, 7, 8)),
                      str(tmp_path / "x1.txt"), str(tmp_path / "x2.txt"),
                      str(tmp_path / "nothing*.txt")]
    status = [r["status"] for r in rows]
    assert status[:6] == ["solved"] * 4 + ["unreadable"] * 2
    assert rows[4]["error"].startswith("<stdin>:7: not a JSON line")
    assert rows[5]["error"].startswith("<stdin>:8: ") and "'puzzle'" in rows[5]["error"]
    assert rows[10]["error"].startswith(f"{tmp_path / 'g.jsonl'}:7: ")
    assert status[12:] == ["solved", "multiple", "unreadable"]
    assert rows[14]["error"].endswith("no file matches")
    assert code == 2


@pytest.mark.parametrize("texts, code", [
    ((FOUR,), 0), ((FOUR, MULTI), 1), ((NONE, FOUR), 1), ((MULTI, NONE, FOUR), 1),
])
def test_exit_code_follows_the_worst_row(tmp_path, capsys, texts, code):
    files = []
    for k, text in enumerate(texts):
        (tmp_path / f"{k}.txt").write_text(text, encoding="utf-8")
        files.append(tmp_path / f"{k}.txt")
    assert cli(capsys, "rate", *files, "--csv")[0] == code


def test_rows_count_the_techniques_each_puzzle_used(tmp_path, capsys):
    # issue 39: --out, --json and --csv rows carry the walkthrough's technique counts,
    # the very counts explain --json rates the puzzle with
    from deducer import api

    k2, four = tmp_path / "k2.j", tmp_path / "four.txt"
    k2.write_text(K2, encoding="utf-8")
    four.write_text(FOUR, encoding="utf-8")
    want = {str(f): api.explain(api.load(f)).rating.rules for f in (k2, four)}
    assert all(want.values()) and sum(want[str(k2)].values()) > 20
    assert cli(capsys, "rate", k2, four, "--out", tmp_path / "rows.jsonl")[0] == 0
    rows = rows_of(tmp_path / "rows.jsonl")
    assert {r["source"]: r["rules"] for r in rows} == want
    assert all(sum(r["rules"].values()) == r["steps"] for r in rows)
    code, out, _ = cli(capsys, "rate", k2, four, "--json")
    assert {r["file"]: r["rules"] for r in json.loads(out)["puzzles"]} == want
    # CSV: one last column of id:count pairs, most used first (docs/json-contract.md)
    code, out, _ = cli(capsys, "rate", k2, four, "--csv")
    import csv

    got = {row["file"]: row["rules"] for row in csv.DictReader(io.StringIO(out))}
    parsed = {f: {k: int(n) for k, n in (pair.split(":") for pair in cell.split(";"))}
              for f, cell in got.items()}
    assert parsed == want
    assert list(parsed[str(k2)]) == list(want[str(k2)])  # the rating's order kept


def test_timed_out_puzzle_is_unrated_and_exits_4(tmp_path, capsys):
    big = tmp_path / "big.j"
    big.write_text(K2, encoding="utf-8")
    (tmp_path / "multi.txt").write_text(MULTI, encoding="utf-8")
    code, out, _ = cli(capsys, "rate", big, tmp_path / "multi.txt", "--csv",
                       "--timeout", "0.0001")
    head, *rows = out.splitlines()
    assert head.split(",")[13:] == ["rater_version", "error", "effort", "why", "rules",
                                    "notes"]
    assert rows[0].split(",")[4:6] == ["timeout", ""]  # not rated "Medium"
    assert rows[0].endswith("timed out after 0.0001 s,,,,")
    assert code == 4  # a time-out outranks "not unique"


def test_a_rule_stuck_in_a_loop_is_stopped_by_the_timeout(tmp_path, capsys):
    (tmp_path / "loop.py").write_text(
        "from deducer.rules import rule\n\n\n@rule\n"
        "def loop(view):\n    while True:\n        pass\n    yield\n", encoding="utf-8")
    (tmp_path / "loop.yaml").write_text(
        "rules:\n  - id: loop\n    name: Loop\n    priority: 1\n    weight: 1\n    score: 1\n"
        "    scope: global\n    implementation: loop.py:loop\n    explain: \"never\"\n",
        encoding="utf-8")
    (tmp_path / "a.txt").write_text(FOUR, encoding="utf-8")
    with Stopwatch() as sw:
        code, out, _ = cli(capsys, "rate", tmp_path / "a.txt", "--rules",
                           tmp_path / "loop.yaml", "--timeout", "0.5", "--out",
                           tmp_path / "r.jsonl")
    assert sw.within(10), sw  # the worker is killed 1 s (wall) after the limit
    (row,) = rows_of(tmp_path / "r.jsonl")
    assert row["status"] == "timeout" and row["level"] is None
    assert row["error"] == "timed out after 0.5 s"
    assert code == 4


def test_stdout_formats_are_the_same_for_every_engine_and_job_count(tmp_path, capsys):
    files = []
    for k, text in enumerate((FOUR, MULTI, "garbage|x\n", NONE, FOUR)):
        (tmp_path / f"{k}.txt").write_text(text, encoding="utf-8")
        files.append(tmp_path / f"{k}.txt")
    for fmt in ("--csv", "--json"):
        one = cli(capsys, "rate", *files, fmt)
        two = cli(capsys, "rate", *files, fmt, "--jobs", "2", "--chunk", "1")
        assert one == two
    rows = json.loads(one[1])["puzzles"]
    assert [r["level"] is None for r in rows] == [False, True, True, True, False]
    assert rows[0]["rater"] and rows[0]["chain"] == 0 and "seconds" not in rows[0]


# ------------------------------------------------------------------------- output files
def test_out_refuses_to_replace_and_resume_checks_the_inputs(tmp_path, capsys):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(FOUR, encoding="utf-8")
    b.write_text(MULTI, encoding="utf-8")
    out = tmp_path / "r.jsonl"
    assert cli(capsys, "rate", a, b, "--out", out)[0] == 1
    code, _, err = cli(capsys, "rate", a, b, "--out", out)
    assert code == 2 and "already exists" in err and "--resume" in err
    c = tmp_path / "c.txt"
    c.write_text(NONE, encoding="utf-8")
    code, _, err = cli(capsys, "rate", a, c, "--out", out, "--resume")
    assert code == 2 and "row 2 is for" in err and "not the same inputs" in err
    # rows are written as they finish, so a rows file in any order resumes
    code, said, _ = cli(capsys, "rate", b, a, "--out", out, "--resume")
    assert code == 1 and "(2 kept from before)" in said and len(rows_of(out)) == 2
    assert [r["source"] for r in rows_of(out)] == [str(b), str(a)]  # sorted to input order
    out.write_text('{"source": "x"}\nnot json\n', encoding="utf-8")
    code, _, err = cli(capsys, "rate", a, "--out", out, "--resume")
    assert code == 2 and ":2: " in err and "cannot resume" in err
    code, _, err = cli(capsys, "rate", a, "--resume")
    assert code == 2 and "go with --out" in err


def test_a_crash_mid_line_resumes_to_the_same_file(tmp_path, capsys):
    files = []
    for k, text in enumerate((FOUR, MULTI, NONE, FOUR, "bad|\n", FOUR)):
        (tmp_path / f"{k}.txt").write_text(text, encoding="utf-8")
        files.append(tmp_path / f"{k}.txt")
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    cli(capsys, "rate", *files, "--out", full, "--no-timing")
    data = full.read_bytes()
    cut = data.index(b"\n", data.index(b"\n") + 1) + 25  # two rows and a half
    part.write_bytes(data[:cut])
    code, said, _ = cli(capsys, "rate", *files, "--out", part, "--no-timing", "--resume",
                        "--jobs", "2")
    assert "(2 kept from before)" in said and code == 2
    assert part.read_bytes() == data


def test_a_run_killed_half_way_and_resumed_gives_the_same_file(tmp_path):
    d = tmp_path / "in"
    d.mkdir()
    for k in range(24):
        (d / f"{k:02d}.j").write_text(K2, encoding="utf-8")
    (d / "24.txt").write_text(MULTI, encoding="utf-8")
    (d / "25.txt").write_text("bad|\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "deducer", "rate", str(d), "--jobs", "2", "--no-timing",
           "--chunk", "2", "--out"]
    out = tmp_path / "killed.jsonl"
    proc = subprocess.Popen(cmd + [str(out)], cwd=tmp_path, env=env(),
                            start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= 4:
            break
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)  # no goodbye: as a crash or the OOM killer would
    proc.wait()
    rows_before = out.read_bytes().count(b"\n")
    assert 4 <= rows_before < 26, "the run was not killed half-way"
    again = subprocess.run(cmd + [str(out), "--resume"], cwd=tmp_path, env=env(),
                           capture_output=True, text=True, timeout=300)
    assert f"({rows_before} kept from before)" in again.stdout, again.stderr
    whole = tmp_path / "whole.jsonl"
    subprocess.run(cmd + [str(whole)], cwd=tmp_path, env=env(), capture_output=True,
                   timeout=300)
    assert out.read_bytes() == whole.read_bytes()
    assert len(rows_of(whole)) == 26


SLOW_RULE = """\
import os
import time

from deducer.rules import rule


@rule
def slow(view):
    if len(view.masks) > 30:  # the big puzzle only: its row comes long after the others
        open(os.environ["DEDUCER_TEST_MARK"], "a").close()
        time.sleep(0.01)
    return
    yield
"""


def slow_batch(tmp_path: Path, small: int = 8) -> tuple[list[str], Path]:
    """A folder whose first puzzle (input order), the largest, is slowed down by a rule
    that sleeps (wall time, whatever the load): the batch starts it first, and the small
    ones finish meanwhile. The command (without its output options) and the marker file
    the rule touches once the big puzzle is under way."""
    d = tmp_path / "in"
    d.mkdir()
    (d / "00-big.txt").write_text((PUZZLES / "deducer-trial.txt").read_text(encoding="utf-8"),
                                  encoding="utf-8")
    for k in range(1, small + 1):
        (d / f"{k:02d}.j").write_text(K2, encoding="utf-8")
    (tmp_path / "slow.py").write_text(SLOW_RULE, encoding="utf-8")
    (tmp_path / "slow.yaml").write_text(
        "rules:\n  - id: slow\n    name: Slow\n    priority: 1\n    weight: 1\n"
        "    score: 1\n    scope: global\n    implementation: slow.py:slow\n"
        "    explain: \"never\"\n", encoding="utf-8")
    return ([sys.executable, "-m", "deducer", "rate", str(d), "--rules", "slow.yaml",
             "--jobs", "2", "--chunk", "1"], tmp_path / "mark")


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines() if path.exists() else []


def test_rows_are_kept_as_they_finish_and_survive_sigint_and_sigkill(tmp_path):
    cmd, mark = slow_batch(tmp_path)
    run_env = dict(env(), DEDUCER_TEST_MARK=str(mark))
    whole = tmp_path / "whole.jsonl"
    cmd += ["--no-timing"]
    res = subprocess.run(cmd + ["--out", str(whole)], cwd=tmp_path, env=run_env,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert [json.loads(r)["source"].rsplit("/", 1)[1] for r in _lines(whole)] == \
        ["00-big.txt"] + [f"{k:02d}.j" for k in range(1, 9)]  # sorted back to input order
    for sig in (signal.SIGINT, signal.SIGKILL):
        out = tmp_path / f"cut-{sig.name}.jsonl"
        proc = subprocess.Popen(cmd + ["--out", str(out)], cwd=tmp_path, env=run_env,
                                start_new_session=True, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None and len(_lines(out)) < 2:
            time.sleep(0.01)
        # read mid-run: small puzzles' rows are there while the big one, first in input
        # order, is still being rated (in input order they would all wait for it)
        seen = _lines(out)
        assert proc.poll() is None and len(seen) >= 2, "the rows file did not grow mid-run"
        assert not any(b"00-big" in line for line in seen)
        os.killpg(proc.pid, sig)  # SIGINT: a Ctrl-C at the terminal reaches the group
        _, err = proc.communicate(timeout=120)
        kept = _lines(out)
        assert len(kept) >= len(seen) and all(json.loads(line) for line in kept)
        if sig == signal.SIGINT:
            assert proc.returncode == 130, err
            assert f"keeps the {len(kept)} finished rows of 9" in err and "--resume" in err
            assert "Traceback" not in err
        again = subprocess.run(cmd + ["--out", str(out), "--resume"], cwd=tmp_path,
                               env=run_env, capture_output=True, text=True, timeout=300)
        assert f"({len(kept)} kept from before)" in again.stdout, again.stderr
        assert out.read_bytes() == whole.read_bytes()


def test_ctrl_c_without_out_prints_the_rows_finished_so_far(tmp_path):
    cmd, mark = slow_batch(tmp_path, small=6)
    proc = subprocess.Popen(cmd + ["--csv"], cwd=tmp_path,
                            env=dict(env(), DEDUCER_TEST_MARK=str(mark)),
                            start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None and not mark.exists():
        time.sleep(0.01)
    time.sleep(2.0)  # the small ones finish meanwhile (the big one sleeps for longer)
    assert proc.poll() is None
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "Traceback" not in err, err
    lines = out.splitlines()
    assert lines[0].startswith("file,")  # the CSV header, then the finished rows
    names = [line.split(",")[0].rsplit("/", 1)[1] for line in lines[1:]]
    assert names and names == sorted(names) and "00-big.txt" not in names
    assert f"interrupted: {len(names)} of 7 puzzles rated" in err


def test_parquet_out(tmp_path, capsys):
    pq = pytest.importorskip("pyarrow.parquet")
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(FOUR, encoding="utf-8")
    b.write_text(MULTI, encoding="utf-8")
    code, said, _ = cli(capsys, "rate", a, b, "--out", tmp_path / "r.parquet")
    assert code == 1 and "rows in" in said
    table = pq.read_table(tmp_path / "r.parquet").to_pylist()
    assert [r["source"] for r in table] == [str(a), str(b)]
    assert table[0]["level"] and table[1]["level"] is None
    assert table[1]["error"].startswith("not unique")
    # technique counts are a map column: rule id -> steps (none for the unrated row)
    from deducer import api

    steps = len(api.explain(api.load(a)).steps)  # the walkthrough's own count
    assert sum(n for _rid, n in table[0]["rules"]) == steps and table[1]["rules"] is None
    # the score, the chance of pencil marks and the why are columns too
    assert table[0]["score"] is not None and 0 <= table[0]["notes"] <= 1
    assert table[1]["notes"] is None and table[0]["why"]
    assert not (tmp_path / "r.parquet.partial.jsonl").exists()
    # the spelling: --format parquet names the output format
    assert cli(capsys, "rate", a, "--out", tmp_path / "s.pq", "--format", "parquet")[0] == 0
    assert pq.read_table(tmp_path / "s.pq").num_rows == 1


def test_plain_rate_never_imports_dask(tmp_path):
    (tmp_path / "a.txt").write_text(FOUR, encoding="utf-8")
    code = ("import sys; from deducer.app.cli import main; "
            f"main(['rate', {str(tmp_path / 'a.txt')!r}, '--jobs', '2']); "
            "print(sorted(m for m in ('dask', 'distributed', 'pyarrow') if m in sys.modules))")
    res = subprocess.run([sys.executable, "-c", code], env=env(), capture_output=True,
                         text=True, timeout=120)
    assert res.stdout.splitlines()[-1] == "[]", res.stderr


# ------------------------------------------------------------------------- the engines
def slow_square(x: int) -> int:
    time.sleep(0.05)
    return x * x


def killer(x: int) -> int:
    if x == 5:
        os.kill(os.getpid(), signal.SIGKILL)  # as the OOM killer would
    if x == 7:
        time.sleep(60)  # overruns its time limit, as a rule stuck in a loop would
    return x * x


def fail(item, kind, message):
    return (item, kind, message)


def test_a_worker_killed_mid_chunk_loses_nothing():
    import multiprocessing

    killed = []

    def tick(done):
        if done >= 3 and not killed:  # the workers are mid-chunk (chunks of 6)
            victim = multiprocessing.active_children()[0]
            os.kill(victim.pid, signal.SIGKILL)
            killed.append(victim.pid)

    items = list(range(30))
    got = list(run(slow_square, items, Settings(jobs=2, chunk=6), fail, tick=tick))
    assert killed
    assert got == [x * x for x in items]
    assert not multiprocessing.active_children()


# Run in a child process under a time limit: a Dask run that hung would otherwise hang the
# suite. Its items record their worker's pid, so the test can kill one mid-chunk.
DASK_KILL = r"""
import os, signal, sys, time
from pathlib import Path
from deducer.app.batch import Settings, run

PIDS = Path(sys.argv[1])

def slow_square(x, pids=PIDS):
    (pids / str(os.getpid())).touch()
    time.sleep(0.05)
    return x * x

def fail(item, kind, message):
    return (item, kind, message)

killed = []

def tick(done):
    if done >= 3 and not killed:  # the workers are mid-chunk (chunks of 6)
        victim = int(next(PIDS.iterdir()).name)
        os.kill(victim, signal.SIGKILL)
        killed.append(victim)

if __name__ == "__main__":
    items = list(range(30))
    got = list(run(slow_square, items, Settings(engine="dask", jobs=2, chunk=6), fail,
                   tick=tick))
    print(len(killed), got == [x * x for x in items], len(list(PIDS.iterdir())))
"""


def test_a_dask_worker_killed_mid_chunk_loses_nothing(tmp_path):
    pytest.importorskip("distributed")
    script, pids = tmp_path / "kill.py", tmp_path / "pids"
    script.write_text(DASK_KILL, encoding="utf-8")
    pids.mkdir()
    try:
        res = subprocess.run([sys.executable, str(script), str(pids)], env=env(),
                             capture_output=True, text=True, timeout=180)
    except subprocess.TimeoutExpired:
        pytest.fail("the Dask run did not finish within 180 s of a worker being killed")
    killed, right, workers = res.stdout.split()
    assert (killed, right) == ("1", "True"), res.stderr[-2000:]
    assert int(workers) >= 2


def test_a_puzzle_that_keeps_killing_workers_fails_and_the_rest_is_done():
    items = list(range(12))
    got = list(run(killer, items, Settings(jobs=2, chunk=4, timeout=0.5, retries=1), fail))
    assert got[5][:2] == (5, "died") and "died 2 times" in got[5][2]
    assert "signal 9" in got[5][2]
    assert got[7] == (7, "timeout", "timed out after 0.5 s")
    assert [g for k, g in enumerate(got) if k not in (5, 7)] == \
        [x * x for x in items if x not in (5, 7)]


def test_dask_local_cluster_gives_the_pools_rows_byte_for_byte(tmp_path, capsys):
    pytest.importorskip("distributed")
    d = mixed_folder(tmp_path)
    pool, dask = tmp_path / "pool.jsonl", tmp_path / "dask.jsonl"
    assert cli(capsys, "rate", d, "--out", pool, "--jobs", "2", "--no-timing")[0] == 2
    code, said, _ = cli(capsys, "rate", d, "--out", dask, "--jobs", "2", "--no-timing",
                        "--engine", "dask", "--chunk", "3")
    assert code == 2 and said.startswith("6 puzzles")
    assert dask.read_bytes() == pool.read_bytes()


def test_expand_orders_folders_naturally(tmp_path):
    for name in ("10.txt", "2.txt", "1.txt"):
        (tmp_path / name).write_text(FOUR, encoding="utf-8")
    assert [Path(t.label).name for t in expand([str(tmp_path)])] == ["1.txt", "2.txt",
                                                                     "10.txt"]


def test_usage_errors_are_one_line(tmp_path, capsys, monkeypatch):
    a = tmp_path / "a.txt"
    a.write_text(FOUR, encoding="utf-8")
    for argv, says in [
        (("--scheduler", "tcp://x:1"), "goes with --engine dask"),
        (("--out", tmp_path / "no" / "r.jsonl"), "does not exist"),
        (("--out", tmp_path), "is a folder"),
        (("--jobs", "0"), "--jobs must be"),
        (("--chunk", "0"), "--chunk must be"),
        (("--engine", "dask", "--scheduler", "nonsense", "--out", tmp_path / "r.jsonl"),
         "cannot reach the Dask scheduler"),
    ]:
        if "nonsense" in argv:
            pytest.importorskip("distributed")
        code, out, err = cli(capsys, "rate", a, *argv)
        assert code == 2 and says in err and len(err.splitlines()) == 1, (argv, err)
    assert not (tmp_path / "r.jsonl").exists()  # a run that wrote no row leaves no file
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    code, _, err = cli(capsys, "rate", a, "--engine", "dask")
    assert code == 2 and "pip install 'deducer[dask]'" in err


def test_a_url_argument_is_rated_as_the_puzzle_it_encodes(capsys):
    # a puzz.link URL holds '?', which must not make it a glob that matches no file
    code, out, _ = cli(capsys, "rate", URL, "--json")
    (row,) = json.loads(out)["puzzles"]
    assert row["file"] == URL and row["status"] == "solved" and row["level"]
    assert code == 0


# ------------------------------------------------------------------------- the schedule
def test_tasks_are_sized_from_the_workers():
    """At least four tasks a worker, never fewer tasks than workers (issue 40: Dask's
    chunks of 64 gave 16 workers 15 tasks over 960 puzzles)."""
    from deducer.app.batch.schedule import chunk_size, plan

    for engine in ("pool", "dask"):
        for n in (1, 3, 15, 16, 64, 960, 10_000, 200_000):
            for workers in (1, 2, 16, 64):
                size = chunk_size(n, workers, engine=engine)
                assert 1 <= size <= {"pool": 16, "dask": 64}[engine]
                tasks = list(plan(list(range(n)), workers, engine))
                assert len(tasks) >= min(n, 4 * workers), (engine, n, workers)
                assert sorted(k for t in tasks for k, _ in t) == list(range(n))


def test_the_largest_items_go_first_and_the_schedule_ends_near_its_bound():
    from deducer.app.batch.schedule import bound, makespan, plan

    times = [0.02 + 0.0001 * k for k in range(960)]  # a collection that grows as it goes
    times[-1] = 2.0  # the largest puzzle last, as in janko's
    tasks = [[k for k, _ in t] for t in plan(list(range(960)), 16, "dask", costs=times)]
    assert tasks[0][0] == 959  # the largest first
    assert makespan(times, tasks, 16) <= 1.10 * bound(times, 16)
    # the order of input: the largest last, the makespan well past the bound
    in_order = [[k for k, _ in t] for t in plan(list(range(960)), 16, "dask")]
    assert makespan(times, in_order, 16) > 1.10 * bound(times, 16)


def record_order(path: Path, x: int) -> int:
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(f"{x}\n")
    return x * x


_WARMED: list[int] = []


def warm(path: Path) -> None:
    _WARMED.append(1)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(f"{os.getpid()}\n")


def count_warm(x: int) -> int:
    return len(_WARMED)


def test_the_pool_hands_out_the_largest_first_and_gives_rows_in_input_order(tmp_path):
    from functools import partial

    log = tmp_path / "order"
    items = list(range(12))
    costs = [1, 5, 2, 9, 0, 3, 7, 4, 8, 6, 11, 10]
    got = list(run(partial(record_order, log), items, Settings(jobs=1), fail, costs=costs))
    assert got == [x * x for x in items]  # input order whatever the schedule
    done = [int(x) for x in log.read_text().split()]
    assert done == sorted(items, key=lambda k: -costs[k])


def test_workers_start_warm_once_each(tmp_path):
    from functools import partial

    log = tmp_path / "warm"
    got = list(run(count_warm, list(range(20)), Settings(jobs=2, chunk=1), fail,
                   init=partial(warm, log)))
    assert got == [1] * 20  # every item found its worker warmed, once
    pids = log.read_text().split()
    assert len(pids) == len(set(pids)) == 2


def noting(x: int) -> int:
    from deducer.app.batch.notes import note

    note(f"half way through {x}")
    return x


def test_an_item_s_notes_reach_the_caller():
    notes: list = []
    got = list(run(noting, [1, 2, 3], Settings(jobs=2, chunk=1), fail,
                   note=lambda idx, what: notes.append((idx, what))))
    assert got == [1, 2, 3]
    assert sorted(notes) == [(0, "half way through 1"), (1, "half way through 2"),
                             (2, "half way through 3")]


def test_rows_are_the_same_whatever_the_worker_count_and_schedule(tmp_path, capsys):
    """Puzzles of different sizes (the big one last, so it is rated first): the rows file
    is the same byte for byte with one worker and with three."""
    d = tmp_path / "in"
    d.mkdir()
    for k, text in enumerate((FOUR, MULTI, FOUR, NONE, "garbage|x\n", K2)):
        (d / f"{k}.txt").write_text(text, encoding="utf-8")
    outs = []
    for jobs in ("1", "3"):
        out = tmp_path / f"rows{jobs}.jsonl"
        cli(capsys, "rate", d, "--jobs", jobs, "--out", out, "--no-timing")
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert [r["source"] for r in rows_of(tmp_path / "rows1.jsonl")] == \
        [str(d / f"{k}.txt") for k in range(6)]
