"""Determinism: the same input and options give byte-identical output whatever the hash seed
(PYTHONHASHSEED) and whatever ``rate --jobs`` is.

Each hash seed runs in its own interpreter (the seed is fixed at start-up): one subprocess
per seed runs every command of the matrix through ``deducer.cli.main`` and returns the
outputs, and a few commands also run as plain ``deducer ...`` processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from deducer.app.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
CORPUS = Path(os.environ.get("DEDUCER_CORPUS") or ROOT.parent / "shared" / "corpus")
SEEDS = ("0", "1", "12345")

INPUTS = [
    [str(PUZZLES / "seed000-k2.j")],
    [str(PUZZLES / "seed000-k.j"), "--name", "k5"],
    [str(PUZZLES / "seed001-small.kakuro")],
    [str(PUZZLES / "seed002-four.txt")],
    [str(PUZZLES / "seed003-example.txt")],  # two solutions: their order must be stable
]
for _rel in ("marcelgarus-kakuro/15x15.kakuro", "ifilot-cx16-kakuro/001.puz"):
    if (CORPUS / _rel).is_file():
        INPUTS.append([str(CORPUS / _rel)])


def matrix() -> list[list[str]]:
    runs = []
    for inp in INPUTS:
        runs += [
            ["solve", inp[0], "--json", "--max-solutions", "5", *inp[1:]],
            ["solve", inp[0], *inp[1:]],
            ["convert", inp[0], "--to", "json", *inp[1:]],
            ["convert", inp[0], "--to", "pipe", *inp[1:]],
            ["convert", inp[0], "--to", "puzzlink", *inp[1:]],
        ]
        if "explain" in COMMANDS:
            runs += [["explain", inp[0], "--json", *inp[1:]],
                     ["explain", inp[0], "--markdown", "-", *inp[1:]],
                     ["explain", inp[0], *inp[1:]]]
        if "hint" in COMMANDS:
            runs.append(["hint", inp[0], "--level", "full", "--json", *inp[1:]])
    if "rate" in COMMANDS:
        files = [str(PUZZLES / n) for n in ("seed000-k2.j", "seed000-k.j", "seed001-small.kakuro",
                                            "seed002-four.txt", "seed003-example.txt")]
        for jobs in ("1", "2"):
            runs += [["rate", *files, "--json", "--jobs", jobs],
                     ["rate", *files, "--csv", "--jobs", jobs],
                     ["rate", *files, "--jobs", jobs]]
    return runs


RUNNER = r"""
import contextlib, io, json, sys
from deducer.app.cli import main
out = []
for argv in json.loads(sys.stdin.read()):
    buf, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code
    out.append([argv, code, buf.getvalue(), err.getvalue()])
sys.stdout.write(json.dumps(out))
"""


def run_matrix(seed: str, runs: list[list[str]]) -> list:
    env = {**os.environ, "PYTHONHASHSEED": seed, "DEDUCER_DEBUG": ""}
    r = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(runs),
                       capture_output=True, text=True, env=env, timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def outputs() -> dict[str, list]:
    runs = matrix()
    return {seed: run_matrix(seed, runs) for seed in SEEDS}


def test_outputs_do_not_depend_on_the_hash_seed(outputs):
    base = outputs[SEEDS[0]]
    for seed in SEEDS[1:]:
        for a, b in zip(base, outputs[seed], strict=True):
            assert a[0] == b[0]
            assert a[1:] == b[1:], f"{' '.join(a[0])}: output differs with PYTHONHASHSEED={seed}"


def test_commands_succeed(outputs):
    for argv, code, out, err in outputs[SEEDS[0]]:
        assert code in (0, 1, 2), (argv, code, err)
        assert "internal error" not in err and len(err.splitlines()) <= 1, (argv, err)
        if code == 2:  # a format that cannot hold the puzzle (e.g. givens in a URL)
            assert argv[0] == "convert" and "cannot" in err, (argv, err)
        else:
            assert out, argv


@pytest.mark.skipif("rate" not in COMMANDS, reason="'deducer rate' is not registered")
def test_rate_jobs_do_not_change_the_output(outputs):
    rows = [r for r in outputs[SEEDS[0]] if r[0][0] == "rate"]
    by_jobs: dict[tuple, dict[str, str]] = {}
    for argv, _code, out, _err in rows:
        jobs = argv[argv.index("--jobs") + 1]
        key = tuple(a for a in argv if a not in ("--jobs", jobs))
        by_jobs.setdefault(key, {})[jobs] = out
    assert by_jobs
    for key, outs in by_jobs.items():
        assert outs["1"] == outs["2"], f"rate {key[-1]} differs between --jobs 1 and 2"


@pytest.mark.parametrize("cmd", [
    ["solve", "--json"],
    ["convert", "--to", "puzzlink"],
    ["explain", "--json"],
])
def test_real_processes_agree(cmd):
    """The plain command line, once per hash seed: byte-identical stdout."""
    if cmd[0] not in COMMANDS:
        pytest.skip(f"'deducer {cmd[0]}' is not registered")
    got = set()
    for seed in SEEDS:
        env = {**os.environ, "PYTHONHASHSEED": seed}
        r = subprocess.run([sys.executable, "-m", "deducer", cmd[0],
                            str(PUZZLES / "seed000-k2.j"), *cmd[1:]],
                           capture_output=True, env=env, timeout=120)
        assert r.returncode == 0, r.stderr
        got.add(r.stdout)
    assert len(got) == 1
