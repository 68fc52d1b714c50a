"""Hostile input, round three: time limits that deliver their answer on big grids and loaded
machines, readers that stay linear, digits that are ASCII, a full disk, chains with a cap.

Tests that start processes bound their time in CPU time or with slack scaled to the
machine (tests/support/timing.py); inputs are small or built in the test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from deducer.app.cli import main
from tests.fuzz.bad_input_table import islands_text
from tests.support.timing import cpu_budget, cpu_of_this_process

ROOT = Path(__file__).resolve().parents[1]
FOUR = "\\|5\\|16\\\n\\| | \n\\12| | \n"  # unique, 4 cells


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def env() -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
                DEDUCER_DEBUG="")


def deducer(*argv, cwd=None, timeout=120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "deducer", *map(str, argv)], cwd=cwd,
                          env=env(), capture_output=True, text=True, timeout=timeout)


def no_traceback(err: str) -> None:
    assert "Traceback" not in err and "internal error" not in err, err


# ------------------------------------------------------------ 1. timeouts keep their answer
@pytest.mark.parametrize("command, argv, target", [
    ("solve", ["--json"], "deducer.api.solve"),
    ("explain", ["--json"], "deducer.api.explain"),
    ("hint", [], "deducer.api.hint"),
    ("check", [], "deducer.api.check"),
    ("why", ["r2c2", "1"], "deducer.api.why"),
])
def test_the_api_gets_the_time_loading_left(command, argv, target, tmp_path, capsys,
                                            monkeypatch):
    """--timeout counts from the command's start: the API is given what reading the puzzle
    left, so its stop and the backstop's fall on the same clock."""
    import importlib

    from deducer.puzzle import formats

    path = tmp_path / "four.txt"
    path.write_text(FOUR, encoding="utf-8")
    real_load = formats.load

    def slow_load(*a, **k):  # a big grid takes a while to read
        time.sleep(0.6)
        return real_load(*a, **k)

    monkeypatch.setattr(formats, "load", slow_load)
    module, name = target.rsplit(".", 1)
    real = getattr(importlib.import_module(module), name)
    given: list = []

    def spy(*a, **k):
        given.append(k["timeout"])
        return real(*a, **k)

    monkeypatch.setattr(importlib.import_module(module), name, spy)
    # the command's module holds the API's function by name (imported at its top)
    cmd = importlib.import_module(f"deducer.app.commands.{command}")
    if getattr(cmd, name, None) is real:
        monkeypatch.setattr(cmd, name, spy)
    code, out, err = cli(capsys, command, path, *argv, "--timeout", "5")
    no_traceback(err)
    assert given and given[0] <= 5 - 0.6, given


def test_solve_combines_thousands_of_islands_in_linear_time():
    """6600 two-way islands: combining them recomputed a product over every island for
    each one, with no look at the clock (5 s of CPU time here, 40 s under a profiler)."""
    from deducer import api
    from deducer.puzzle import formats

    puzzle = formats.loads(islands_text(200, 200))
    with cpu_of_this_process() as used:
        r = api.solve(puzzle, max_solutions=2)
    assert len(r.solutions) == 2 and not r.complete
    assert used() < 2.5, used()  # CPU time: about 0.5 s


def test_a_big_grid_answers_with_what_it_found(tmp_path):
    """The promise of docs/bad-input.md on a 200x200 grid: a solve cut short prints its
    solutions with "complete": false, never only the backstop's line."""
    (tmp_path / "islands.txt").write_text(islands_text(200, 200), encoding="utf-8")
    r = deducer("solve", "islands.txt", "--json", "--max-solutions", "100000", "--timeout",
                "1", cwd=tmp_path)
    no_traceback(r.stderr)
    assert r.returncode in (0, 4), r.stderr
    data = json.loads(r.stdout)
    assert data["complete"] is False and data["timed_out"] is True


def _run_patched(tmp_path: Path, patch: str, *argv) -> subprocess.CompletedProcess:
    """``deducer ARGV`` as the program (the backstop armed), after running ``patch``."""
    script = tmp_path / "patched.py"
    script.write_text(textwrap.dedent(patch) + textwrap.dedent("""
        import sys
        from deducer.app.cli import main
        sys.argv = ["deducer", *sys.argv[1:]]
        sys.exit(main())
        """), encoding="utf-8")
    return subprocess.run([sys.executable, str(script), *map(str, argv)], cwd=tmp_path,
                          env=env(), capture_output=True, text=True, timeout=120)


def test_the_backstop_waits_for_the_answer_to_be_printed(tmp_path):
    """Once the API has answered, printing the answer (deducer's renderers, no rule) is not
    cut short by the backstop, however close to the limit the answer came."""
    (tmp_path / "four.txt").write_text(FOUR, encoding="utf-8")
    r = _run_patched(tmp_path, """
        import time
        from deducer.render import jsonout
        real = jsonout.RENDERER.solve

        def slow(*a, **k):  # a big answer takes a while to print
            cpu = time.process_time()
            while time.process_time() - cpu < 1.5:
                pass
            return real(*a, **k)

        jsonout.RENDERER.solve = slow
        """, "solve", "four.txt", "--json", "--timeout", "0.3")
    no_traceback(r.stderr)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["status"] == "unique"


def test_the_backstop_grace_is_cpu_time(tmp_path):
    """A loaded machine stretches the command's own stop past the limit in wall time, not
    in CPU time; the backstop's grace is counted in CPU time, so it does not fire before
    the command could stop by itself (here a rule that waits 1.5 s without using the CPU,
    as a process the machine does not run)."""
    (tmp_path / "four.txt").write_text(FOUR, encoding="utf-8")
    (tmp_path / "slow.py").write_text(textwrap.dedent("""
        import time
        from deducer.rules import rule

        @rule
        def slow(view):
            time.sleep(1.5)
            return
            yield
        """), encoding="utf-8")
    (tmp_path / "slow.yaml").write_text(
        "rules:\n  - {id: slow, name: Slow, priority: 1, weight: 1, score: 1, "
        "implementation: 'slow.py:slow', explain: '{effect}'}\n", encoding="utf-8")
    r = deducer("explain", "four.txt", "--rules", "slow.yaml", "--json", "--timeout", "0.3",
                cwd=tmp_path)
    no_traceback(r.stderr)
    assert r.returncode == 4, r.stderr
    assert json.loads(r.stdout)["status"] == "timeout"


def test_a_hint_found_as_the_clock_runs_out_is_given(monkeypatch):
    """The rules found the next step just before the deadline; applying it must not ask
    them again (past the deadline they answer nothing, and the hint broke on None)."""
    from deducer import api
    from deducer.engine import walk
    from deducer.puzzle import formats

    real = walk.Engine.next_deduction

    def then_late(self):
        found = real(self)
        if found is not None and found[2].place:  # a digit to write: the hint
            self.context.deadline = 0.0  # the clock ran out just now
        return found

    monkeypatch.setattr(walk.Engine, "next_deduction", then_late)
    h = api.hint(formats.loads(FOUR), "full", timeout=60)
    assert h.kind in ("timeout", "deduction"), h


def test_rate_counts_reading_against_each_puzzles_timeout(monkeypatch):
    """A puzzle's --timeout covers its reading (format detection included): the walk is
    given what is left."""
    from deducer import api
    from deducer.app.batch import inputs
    from deducer.app.batch.inputs import Task
    from deducer.app.commands import rate

    real_load, real_explain = inputs.load, api.explain
    given: list = []

    def slow_load(*a, **k):
        time.sleep(0.6)
        return real_load(*a, **k)

    def spy(*a, **k):
        given.append(k["timeout"])
        return real_explain(*a, **k)

    monkeypatch.setattr(inputs, "load", slow_load)
    monkeypatch.setattr(api, "explain", spy)
    monkeypatch.setattr(rate, "explain", spy)  # rate holds the API's explain by name
    monkeypatch.setattr(rate, "load", slow_load)
    row = rate.rate_one((None, (), (), 5.0, False), Task("four", text=FOUR, line=None))
    assert row["status"] == "solved" and given and given[0] <= 5.0 - 0.6, (row, given)


# ------------------------------------------------------------- 2-4. readers stay linear
def test_every_reader_decides_64_kb_of_hostile_text_at_once():
    """Every fragment of every notation, repeated over 64 KB, read by detection and by each
    format: decided (a puzzle or one line of error) in well under 2 s of CPU time each.
    Quadratic scans took 3 to 11 s here (janko's ``<script`` and ``begin`` pages, .dzn
    assignments without ';'), and hours at 4 MiB (benchmarks/bench_readers.py checks
    those)."""
    from deducer.puzzle import formats
    from tests.support import hostile

    slow = []
    for label, head, fragment, tail in hostile.FRAGMENTS:
        text = hostile.text_of(head, fragment, tail, hostile.KB64)
        for fmt in (None, *formats.names()):
            with cpu_budget(20):
                took, answer = hostile.timed(text, fmt)
            if took > 2.0:
                slow.append((round(took, 2), label, fmt or "detected", answer[:60]))
    assert not slow, slow


@pytest.mark.parametrize("label, head, fragment, tail, fmt", [
    ("janko <script", "", "<script ", "", "janko"),
    ("janko begin and blank lines", "begin\n", "\n", "", None),
    ("dzn assignments without ';'", "", "a =\n", "", "dzn"),
    ("dzn clue numbers", "h = 200;\nw = 200;\nv_clue = [| |];\nh_clue = [|", "1, 1, 1, 1,\n",
     "|];\n", "dzn"),
])
def test_a_4_mib_hostile_file_is_decided_in_seconds(label, head, fragment, tail, fmt):
    """The worst shapes at the size limit: decided in under 5 s of CPU time (generous: a
    second at most here; they were hours, or never)."""
    from tests.support import hostile

    text = hostile.text_of(head, fragment, tail, hostile.MIB4)
    with cpu_budget(30):
        took, _ = hostile.timed(text, fmt)
    assert took < 5.0, (label, took)


def test_a_big_dzn_file_reads_in_linear_time():
    """A 200x200 grid's MiniZinc data, 600 KB: every number once counted the lines before it
    (such a file took 204 s)."""
    from deducer.puzzle import formats
    from tests.support.grids import tiled

    block = formats.loads("\\|3\\|4\\\n\\3| | \n\\4| | \n")
    big = tiled(block, 66, 66)  # 198x198 squares, 17424 runs
    # a number a line, as some writers lay data out: every token counted the lines before it
    text = formats.dumps(big, "dzn").replace(", ", ",\n  ")
    assert len(text) > 500_000 and text.count("\n") > 100_000
    with cpu_budget(60), cpu_of_this_process() as used:
        back = formats.loads(text, "dzn")
    assert back.squares == big.squares
    assert used() < 5.0, used()


@pytest.mark.parametrize("text", [
    "h = 3;\nw = 3;\nh_clue = [| 2, 1, 2, {big} |];\nv_clue = [| 1, 2, 2, 3 |];\n",
    "h = 3;\nw = 3;\nh_clue = [(row: 2, col: 1, len: 2, sum: {big})];\nv_clue = [];\n",
    "h = {big};\nw = 3;\nh_clue = [| |];\nv_clue = [| |];\n",
])
def test_a_huge_number_in_dzn_is_bad_input(text, tmp_path, capsys):
    path = tmp_path / "big.dzn"
    path.write_text(text.format(big="7" * 5000), encoding="utf-8")
    code, out, err = cli(capsys, "solve", path)
    no_traceback(err)
    assert code == 2 and err.startswith(f"deducer: error: {path}:") and \
        len(err.strip().splitlines()) == 1, err
    assert "5000 digits" in err and "is out of range" in err, err


def test_a_huge_number_in_a_janko_record_is_bad_input(tmp_path, capsys):
    path = tmp_path / "rec.jsonl"
    path.write_text('{"puzzle": "kakuro", "problem": [["-", %s]]}\n' % ("7" * 5000),
                    encoding="utf-8")
    code, out, err = cli(capsys, "solve", path)
    no_traceback(err)
    assert code == 2 and "more than 4300 digits" in err and "sys." not in err, err


def test_a_dzn_row_and_column_on_one_line_are_both_read():
    """``h = 6;  w = 6;`` on one line (as the model's own comments write it): the second
    assignment was skipped, and the file refused for want of ``w``."""
    from deducer.puzzle import formats

    text = ("h = 3;  w = 3;\ngrid_data = [| 0,0,0 | 0,1,1 | 0,1,1 |];\n"
            "h_clue = [| 2, 1, 2, 3 | 3, 1, 2, 4 |];  v_clue = [| 1, 2, 2, 3 | 1, 3, 2, 4 |];\n")
    p = formats.loads(text, "dzn")
    assert (p.rows, p.cols, len(p.whites)) == (3, 3, 4)


# ------------------------------------------------------------- 5. only ASCII digits
K2 = ROOT / "puzzles" / "seed000-k2.j"


@pytest.mark.parametrize("digit", ["²", "³", "¹", "⑤", "٣", "５", "0", "10", "", " 3"])
def test_why_takes_only_an_ascii_digit(digit, capsys):
    code, out, err = cli(capsys, "why", K2, "r4c3", digit)
    no_traceback(err)
    assert code == 2 and "is not a digit 1-9" in err and len(err.strip().splitlines()) == 1
    assert out == ""


@pytest.mark.parametrize("cell", ["r٤c3", "r4c３", "r²c3"])
def test_why_takes_only_an_ascii_cell(cell, capsys):
    code, out, err = cli(capsys, "why", K2, cell, "4")
    no_traceback(err)
    assert code == 2 and "is not a cell like r3c4" in err, err


@pytest.mark.parametrize("argv", [
    ["solve", K2, "--timeout", "٣"],
    ["solve", K2, "--max-solutions", "５"],
    ["solve", K2, "--max-solutions", "1_0"],
    ["solve", K2, "--timeout", "nan"],
    ["explain", K2, "--max-steps", "²"],
    ["explain", K2, "--max-chain", "٣"],
    ["rate", K2, "--jobs", "２"],
    ["generate", "--size", "٨x٨", "--seed", "1"],
    ["generate", "--size", "8x8", "--count", "１"],
    ["generate", "--size", "8x8", "--score", "٣-6"],
])
def test_options_take_only_ascii_digits(argv, capsys):
    """int() and float() read any script's digits (and '1_0', 'nan'): an option's number is
    written in 0-9, else the command says so (exit 2)."""
    try:
        code, out, err = cli(capsys, *argv)
    except SystemExit as e:  # argparse's own refusal
        code = e.code
        out, err = capsys.readouterr()
    no_traceback(err)
    assert code == 2 and len(err.strip().splitlines()) == 1, err


def test_a_folder_with_a_file_named_by_a_superscript_is_rated(tmp_path, capsys):
    """Files are sorted by the numbers in their names: '²' is a digit to str.isdigit() and
    not to int(), and sorting crashed (exit 3)."""
    d = tmp_path / "lib"
    d.mkdir()
    for name in ("²", "a²b.txt", "٣.txt", "10.txt", "9.txt"):
        (d / name).write_text(FOUR, encoding="utf-8")
    code, out, err = cli(capsys, "rate", d, "--csv")
    no_traceback(err)
    assert code == 0, err
    files = [line.split(",")[0] for line in out.splitlines()[1:]]
    assert [Path(f).name for f in files[:2]] == ["9.txt", "10.txt"], files
    assert len(files) == 5


# ------------------------------------------------------------- 6. a full disk
class Quota:
    """A file that takes ``room`` more bytes, then refuses with ENOSPC (a full disk),
    having written what fitted (as write(2) does)."""

    def __init__(self, raw, room: list[int]):
        self.raw, self.room = raw, room

    def write(self, data):
        import errno

        if isinstance(data, str):
            data = data.encode("utf-8")
        data = bytes(data)
        if not self.room[0]:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = min(len(data), self.room[0])
        self.raw.write(data[:n])
        self.room[0] -= n
        return n

    def __getattr__(self, name):
        return getattr(self.raw, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.raw.close()


def full_disk_after(monkeypatch, room: int) -> None:
    """Outputs opened by ``deducer.puzzle.fileio.open_output`` (rows, records) hold
    ``room`` more bytes in all."""
    import builtins

    from deducer.puzzle import fileio

    left = [room]

    def fake_open(path, mode="r", *a, **k):
        if "r" in mode and "+" not in mode:
            return builtins.open(path, mode, *a, **k)
        return Quota(builtins.open(path, mode.replace("b", "") + "b", buffering=0), left)

    monkeypatch.setattr(fileio, "open", fake_open, raising=False)


def test_a_full_disk_during_rate_out_keeps_whole_rows(tmp_path, capsys, monkeypatch):
    d = tmp_path / "lib"
    d.mkdir()
    for k in range(12):
        (d / f"{k:02d}.txt").write_text(FOUR, encoding="utf-8")
    whole = tmp_path / "whole.jsonl"
    assert cli(capsys, "rate", d, "--out", whole, "--no-timing")[0] == 0
    lines = whole.read_bytes().splitlines(keepends=True)
    rows = tmp_path / "rows.jsonl"
    full_disk_after(monkeypatch, len(b"".join(lines[:5])) + len(lines[5]) // 2)
    code, out, err = cli(capsys, "rate", d, "--out", rows, "--no-timing")
    no_traceback(err)
    assert code == 2 and err.strip() == (f"deducer: error: {rows}: cannot write: no space "
                                         "left on device; 5 rows kept, --resume goes on"), err
    assert rows.read_bytes() == b"".join(lines[:5])  # whole rows only: no cut line
    monkeypatch.undo()
    code, out, err = cli(capsys, "rate", d, "--out", rows, "--no-timing", "--resume")
    assert code == 0, err
    assert rows.read_bytes() == whole.read_bytes()


def test_a_full_disk_during_generate_jsonl_keeps_whole_lines(tmp_path, capsys, monkeypatch):
    common = ["generate", "--size", "6x6", "--seed", "3", "--count", "3", "--no-progress"]
    whole = tmp_path / "whole.jsonl"
    assert cli(capsys, *common, "--jsonl", whole)[0] == 0
    lines = whole.read_bytes().splitlines(keepends=True)
    part = tmp_path / "part.jsonl"
    full_disk_after(monkeypatch, len(lines[0]) + 10)
    code, out, err = cli(capsys, *common, "--jsonl", part)
    no_traceback(err)
    assert code == 2 and err.strip().endswith(
        f"deducer: error: {part}: cannot write: no space left on device; 1 puzzle kept, "
        "--resume goes on"), err
    assert part.read_bytes().count(b"\n") == 1 and part.read_bytes().endswith(b"\n")
    monkeypatch.undo()
    code, out, err = cli(capsys, *common, "--jsonl", part, "--resume")
    assert code == 0, err
    untimed = [{**json.loads(x), "seconds": None} for x in lines]
    assert [{**json.loads(x), "seconds": None}
            for x in part.read_bytes().splitlines()] == untimed


@pytest.fixture()
def tiny_disk(tmp_path):
    """A 16 KiB tmpfs (root, Linux), unmounted afterwards; skipped where it cannot be made."""
    where = tmp_path / "tiny"
    where.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(where)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({r.stderr.strip()[:60]})")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], capture_output=True)


def test_rate_out_on_a_really_full_disk(tiny_disk, tmp_path):
    d = tmp_path / "lib"
    d.mkdir()
    for k in range(60):
        (d / f"{k:02d}.txt").write_text(FOUR, encoding="utf-8")
    rows = tiny_disk / "rows.jsonl"
    r = deducer("rate", d, "--out", rows)
    no_traceback(r.stderr)
    assert r.returncode == 2 and "cannot write: no space left on device;" in r.stderr
    kept = int(r.stderr.split("; ")[1].split()[0])
    data = rows.read_bytes()
    assert 0 < kept < 60 and data.count(b"\n") == kept and data.endswith(b"\n")


# ------------------------------------------------------------- 7. chains have a cap
#: a 4x4 block of 10-sum runs: a Latin square of 1-4, every digit possible in every cell
LATIN4 = "\\|10\\|10\\|10\\|10\\\n" + "\\10| | | | \n" * 4


def test_a_whip_search_with_nothing_to_find_ends_whatever_its_max_len():
    """Every candidate left fits a solution: every search ends without a whip, and the loop
    over the lengths (range(max_len)) went on to 10**12 without looking at the clock."""
    from deducer.engine import registry
    from deducer.engine.walk import Engine
    from deducer.puzzle import formats
    from deducer.rules.chains import forcing_chain

    rules = [r for r in registry.load() if r.priority < 180]  # the rungs below chains
    eng = Engine(formats.loads(LATIN4), rules)
    assert eng.run() == "stalled"
    with cpu_budget(30), cpu_of_this_process() as used:
        found = list(forcing_chain(eng.view, max_len=10**12))
    assert found == [] and used() < 5, used()


def test_the_api_timeout_holds_with_a_huge_max_len():
    """Through the API, a chain rule's max_len of 10**20: timeout=2 is honoured."""
    from dataclasses import replace

    from deducer import api
    from deducer.puzzle import formats

    chain = next(r for r in api.ladder() if r.id == "forcing-chain")
    rules = [replace(chain, params={**chain.params, "max_len": 10**20})]
    with cpu_budget(60), cpu_of_this_process() as used:
        exp = api.explain(formats.load(K2), rules, timeout=2)
    assert exp.status in ("stalled", "timeout"), exp.status
    assert used() < 2 + 3, used()  # CPU time: the clock was looked at


@pytest.mark.parametrize("n", ["0", "39602", "100000000000000000000"])
def test_max_chain_is_capped(n, capsys):
    code, out, err = cli(capsys, "explain", K2, "--max-chain", n)
    no_traceback(err)
    assert code == 2 and "--max-chain must be 1..39601" in err, err


def test_a_rule_files_max_len_is_capped(tmp_path):
    import yaml

    from deducer.engine import registry
    from deducer.errors import RuleError

    data = yaml.safe_load(open(registry.CORE, encoding="utf-8"))
    (entry,) = [e for e in data["rules"] if e["id"] == "forcing-chain"]
    for bad in (10**20, 0, "12", True):
        entry["params"] = {"max_len": bad}
        f = tmp_path / "r.yaml"
        f.write_text(yaml.safe_dump({"rules": [entry]}), encoding="utf-8")
        with pytest.raises(RuleError, match="max_len .* is not a chain length 1..39601"):
            registry.load([f])


def test_render_draws_the_walkthrough_a_timeout_cut_short(tmp_path):
    """render --html on a grid whose walkthrough the limit cuts short: the page of the steps
    so far is written, one line says so, exit 4 (the backstop once ended it with no page)."""
    from tests.fuzz.bad_input_table import unclued_text

    (tmp_path / "u.txt").write_text(unclued_text(), encoding="utf-8")
    r = deducer("render", "u.txt", "--html", "u.html", "--timeout", "1", cwd=tmp_path)
    no_traceback(r.stderr)
    assert r.returncode == 4, r.stderr
    assert "stopped the walkthrough after 0 steps" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert (tmp_path / "u.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_the_grace_starts_when_the_api_call_starts(monkeypatch):
    """A limit that passes while the command starts up or reads (a loaded machine stretches
    both) leaves the API call the whole grace to return its answer: the grace is counted
    again from :func:`time_left` (before, start-up had spent it and the answer was lost)."""
    import time

    from deducer.app import backstop

    def spin(seconds):  # CPU time, as imports and reading spend it
        t = time.process_time()
        while time.process_time() - t < seconds:
            pass

    monkeypatch.setitem(backstop.PROGRAM, "on", True)
    with backstop.time_limit(0.05):
        time.sleep(0.2)  # the limit passes: the grace (0.7 s of CPU time) begins
        assert backstop._CLOCK["phase"] == "grace"
        spin(0.5)  # start-up and reading
        assert backstop.time_left() == pytest.approx(backstop.MIN_LEFT)
        spin(0.5)  # the call returns what it has, within its own grace


def test_a_big_board_draws_in_time_linear_in_its_cells():
    """The walkthrough page's board for a 200x200 grid (32,400 cells, each with nine
    candidate nodes) costs a fraction of a second of CPU: render draws it after the walk,
    past --timeout's wall clock on a loaded machine (issue 41: 2 s of CPU, +2.6 s)."""
    from deducer.puzzle import formats
    from deducer.render.position import position_digits, start_position
    from deducer.render.svg import board_svg
    from tests.fuzz.bad_input_table import unclued_text

    puzzle = formats.loads(unclued_text(200))
    assert len(puzzle.whites) == 32400
    digits = position_digits(start_position(puzzle))
    with cpu_budget(0.6):  # 0.9 s before; 0.25 s now
        text = board_svg(puzzle, digits=digits, interactive=True, ident="board",
                         standalone=False)
    assert text.count('data-d="9"') == 32400


def test_a_walkthrough_page_reads_the_run_references_once(monkeypatch):
    """Drawing a step's proof marks looks its runs up in a table built once a puzzle, not
    rebuilt each step (10,963 cells, 1,062 steps: 4.5 s of the page's 4.8 s)."""
    from deducer.api import explain
    from deducer.puzzle import formats, model
    from deducer.render import get

    puzzle = formats.load(str(ROOT / "puzzles" / "seed000-k2.j"))
    explanation = explain(puzzle)
    assert len(explanation.steps) > 20 and all(s.proof for s in explanation.steps)
    reads = {"n": 0}
    ref = model.Run.ref

    def counted(run):
        reads["n"] += 1
        return ref.fget(run)

    monkeypatch.setattr(model.Run, "ref", property(counted))
    get("html").walkthrough(puzzle, explanation)
    assert reads["n"] <= 2 * len(puzzle.runs), (reads, len(puzzle.runs))


def test_render_keeps_the_drawing_time_scaled_to_the_load():
    """render keeps from the walk's share of --timeout what drawing the page takes, in wall
    seconds on this machine now: a loaded machine (a CPU second taking 3) keeps 3 times as
    much, so that the page arrives within the limit's slack."""
    from deducer.app.commands.render import draw_reserve

    idle = draw_reserve(32400)
    assert 0.5 < idle < 3  # 200x200: about a second, not the whole limit
    assert draw_reserve(32400, 3.0) == pytest.approx(3 * idle)
    assert draw_reserve(32400, 0.5) == idle  # never less than the CPU time itself
