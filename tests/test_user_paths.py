"""The paths users walk off the README's exact lines (issue 15): a publisher, a rule author
and a hostile input. Each test failed before its fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from deducer.app.backstop import GRACE, HARD_AFTER
from deducer.app.cli import main
from deducer.engine import registry
from deducer.errors import RuleError
from tests.support.timing import cpu_of_children

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
FOUR = PUZZLES / "seed002-four.txt"  # unique: 2 7 / 3 9
K2 = PUZZLES / "seed000-k2.j"
EXAMPLE = ROOT / "docs" / "example-rule"
URL = "https://puzz.link/p?kakuro/2/2/n5g-c"  # the four-cell puzzle of seed 002


def run(capsys, *argv) -> tuple[int, str, str]:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:  # usage errors exit the argparse way
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def deducer(*argv, cwd=None, timeout=120) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DEDUCER_DEBUG": ""}
    return subprocess.run([sys.executable, "-m", "deducer", *map(str, argv)], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, env=env)


def one_line_error(err: str, *words: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "internal error" not in err and "Traceback" not in err, err
    for w in words:
        assert w in err, (w, err)


IMPL = '''\
from deducer.engine.state import Deduction
from deducer.rules import rule


def _first_open(view):
    return next(i for i in range(len(view.masks)) if not view.is_placed(i))


@rule
def cells_out_of_range(view):
    yield Deduction(eliminations={_first_open(view): 1}, cells=(10**6,))


@rule
def runs_out_of_range(view):
    yield Deduction(eliminations={_first_open(view): 1}, runs=(-1,))


@rule
def heavy(view):
    yield Deduction(eliminations={_first_open(view): 1}, weight="heavy")


@rule
def nan_weight(view):
    yield Deduction(eliminations={_first_open(view): 1}, weight=float("nan"))


@rule
def number_text(view):
    yield Deduction(eliminations={_first_open(view): 1}, text=5)


@rule
def negative_drop(view):
    yield Deduction(drop_combos={-1: (0b11,)})


@rule
def boom(view):
    raise ValueError("my rule broke")
    yield


@rule
def false_elimination(view):
    """Removes r2c2's solution digit (2) at the start: false, but nothing breaks at once."""
    i = view.puzzle.index[(1, 1)]
    if view.mask(i) & 0b10:
        yield Deduction(eliminations={i: 0b10}, cells=(i,))


def not_marked(view):
    return ()
'''


def rule_file(tmp_path: Path, impl: str, *, extra: str = "", explain: str = "{effect}",
              priority: int = 1, name: str = "mine.yaml") -> Path:
    (tmp_path / "impl.py").write_text(IMPL)
    text = textwrap.dedent(f"""\
        rules:
          - id: my-rule
            name: My rule
            priority: {priority}
            weight: 1.0
            score: 1
            implementation: "{impl}"
            explain: "{explain}"
        """) + extra
    path = tmp_path / name
    path.write_text(text)
    return path


# ---------------------------------------------------------------------------- a publisher
def test_a_url_argument_is_read_as_a_url(capsys):
    code, out, err = run(capsys, "solve", URL)
    assert code == 0, err
    assert "unique solution" in out
    code, out, _ = run(capsys, "convert", URL, "--to", "pipe")
    assert code == 0 and out.splitlines()[0] == "\\|5\\|16\\"


def test_a_file_named_like_a_url_still_wins(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    odd = tmp_path / "https:" / "x"
    odd.mkdir(parents=True)
    (odd / "p.txt").write_text(FOUR.read_text())
    code, out, err = run(capsys, "solve", "https://x/p.txt")
    assert code == 0 and "unique solution" in out, err


def test_options_between_file_arguments(capsys):
    code, out, err = run(capsys, "rate", FOUR, "--csv", K2)
    assert code == 0, err
    assert len(out.strip().splitlines()) == 3  # header + both files
    code, out, err = run(capsys, "rules", "test", EXAMPLE / "sum_parity.yaml", "--count", 0,
                         FOUR)
    assert code == 0, err
    assert "1 puzzles" in out


@pytest.mark.parametrize("argv, help_of", [
    (["rate", str(FOUR), "--bogus"], "deducer rate --help"),
    (["rules", "test", "x.yaml", "--bogus"], "deducer rules test --help"),
    (["solve", str(FOUR), "extra-file"], "deducer solve --help"),
    (["nosuch"], "deducer --help"),
])
def test_a_usage_error_points_to_the_right_help(argv, help_of, capsys):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert f"(see {help_of})" in err and len(err.strip().splitlines()) == 1


def test_bare_deducer_prints_help_and_exits_0(capsys):
    code, out, err = run(capsys)
    assert code == 0 and err == ""
    assert "usage: deducer" in out and "solve" in out and "docs/json-contract.md" in out


# ---------------------------------------------------------------------------- a rule author
def test_bundled_puzzles_live_inside_the_package():
    """rules test reads them from deducer/data/puzzles, which a wheel carries."""
    import deducer
    from deducer.puzzle.bundled import BUNDLED

    pkg = Path(deducer.__file__).resolve().parent
    assert Path(str(BUNDLED)).parent == pkg / "data" and (BUNDLED / "expected.json").is_file()
    listed = json.loads((BUNDLED / "expected.json").read_text())["puzzles"]
    assert all((BUNDLED / e["file"]).is_file() for e in listed)
    assert "data/puzzles/*" in (ROOT / "pyproject.toml").read_text()


def test_a_template_typo_is_refused_when_the_file_loads(tmp_path, capsys):
    path = rule_file(tmp_path, "deducer.rules.basic:lone_cell", explain="{cell} needs {sume}")
    with pytest.raises(RuleError) as ei:
        registry.load(extra=[path])
    assert "{sume}" in str(ei.value) and str(path) in str(ei.value)
    code, _, err = run(capsys, "rules", "--rules", path)
    assert code == 2
    one_line_error(err, str(path), "my-rule", "{sume}")


def test_a_rule_that_raises_is_not_also_never_fired(tmp_path, capsys):
    path = rule_file(tmp_path, "impl.py:boom")
    code, out, _ = run(capsys, "rules", "test", path, "--count", 0, FOUR)
    assert code == 1
    assert "ValueError" in out and "my rule broke" in out
    assert "never fired" not in out


def test_rules_test_priority_shows_where_a_rule_can_fire(capsys):
    sp = EXAMPLE / "sum_parity.yaml"
    code, top, _ = run(capsys, "rules", "test", sp, "--count", 0, "--priority", 1)
    assert code == 0 and "never fired" not in top
    code, low, _ = run(capsys, "rules", "test", sp, "--count", 0, "--priority", 500)
    assert code == 0 and "sum-parity never fired" in low
    guide = (ROOT / "docs" / "rule-authors-guide.md").read_text()
    assert "Where can it fire" in guide and "--priority" in guide


def test_fixture_helper_builds_a_position_from_text():
    from deducer.rules.fixture import fire, load_rule, position

    rule = load_rule(EXAMPLE / "sum_parity.yaml", "sum-parity")
    view = position((EXAMPLE / "sum-parity-position.txt").read_text())
    (found,) = fire(rule, view, run="r2c1>")
    assert found.eliminations == {"r2c4": [1, 5]}
    assert "r2c4 must be even" in found.text
    assert fire(rule, view, run="r1c2v") == [] and fire(rule, view, run="r1c4↓") == []
    # a written digit leaves its runs' other cells and kills their combinations without it
    view = position(r"""
        \|4\|16\|6\
        \12|(1,3)|(7,9)|(1,2,4,5)
        \14|(1,3)|(7,9)|2
    """)
    assert fire(rule.func, view, run="r2c1>")[0].eliminations == {"r2c4": [1, 5]}


def test_the_guide_fixture_snippet_uses_no_internals():
    guide = (ROOT / "docs" / "rule-authors-guide.md").read_text()
    start = guide.index("```python\nfrom pathlib import Path\n\nfrom deducer.rules.fixture")
    snippet = guide[start:guide.index("```", start + 3)]
    for internal in ("State", "View", "Context", "0b", "0x", "p.index", "run_of"):
        assert internal not in snippet


@pytest.mark.parametrize("func, words", [
    ("cells_out_of_range", ("cells naming 1000000",)),
    ("runs_out_of_range", ("runs naming -1",)),
    ("heavy", ("weight 'heavy'",)),
    ("nan_weight", ("weight nan",)),
    ("number_text", ("text 5",)),
    ("negative_drop", ("drop_combos for run -1",)),
])
def test_a_faulty_user_rule_is_a_one_line_error_of_that_rule(func, words, tmp_path, capsys):
    path = rule_file(tmp_path, f"impl.py:{func}")
    for argv in (["explain", FOUR, "--rules", path],
                 ["explain", FOUR, "--rules", path, "--json"]):
        code, out, err = run(capsys, *argv)
        assert code == 2, (out, err)
        one_line_error(err, str(path), "my-rule", *words)
        assert "NaN" not in out


def test_nan_weight_in_yaml_is_refused(tmp_path, capsys):
    path = rule_file(tmp_path, "impl.py:boom")
    path.write_text(path.read_text().replace("weight: 1.0", "weight: .nan"))
    code, out, err = run(capsys, "rules", "--rules", path, "--json")
    assert code == 2 and "NaN" not in out
    one_line_error(err, str(path), "bad weight")


def test_a_false_elimination_is_blamed_on_its_rule(tmp_path, capsys):
    path = rule_file(tmp_path, "impl.py:false_elimination")
    code, _, err = run(capsys, "explain", FOUR, "--rules", path)
    assert code == 2
    one_line_error(err, str(path), "my-rule", "false deduction")
    assert "lone-cell" not in err and "core.yaml" not in err


# ---------------------------------------------------------------------------- hostile input
def test_only_marked_functions_are_called(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = rule_file(tmp_path, "pydoc:pipepager", extra="    params: {cmd: 'touch PWNED'}\n")
    code, _, err = run(capsys, "explain", FOUR, "--rules", path)
    assert code == 2
    one_line_error(err, str(path), "pydoc:pipepager", "not a rule implementation")
    assert not (tmp_path / "PWNED").exists()
    path = rule_file(tmp_path, "impl.py:not_marked")
    code, _, err = run(capsys, "rules", "--rules", path)
    assert code == 2 and "not a rule implementation" in err
    core = registry.load()
    assert all(r.func is not None for r in core)  # every core function carries the mark


def test_readme_and_guide_say_rule_files_run_code():
    for doc in ("README.md", "docs/rule-authors-guide.md", "docs/rule-contract.md"):
        assert "load only rule files you trust" in (ROOT / doc).read_text().lower(), doc


def test_yaml_duplicate_keys_are_refused_with_the_line(tmp_path, capsys):
    path = rule_file(tmp_path, "impl.py:boom", extra="    weight: 2.0\n")
    code, _, err = run(capsys, "rules", "--rules", path)
    assert code == 2
    one_line_error(err, f"{path}:9:", "duplicate key 'weight'", "line 5")


def test_a_big_input_is_refused_before_it_is_read(tmp_path):
    """A sparse 3 GB file and /dev/zero cost no more memory than the 4 MiB limit."""
    import resource

    big = tmp_path / "big.txt"
    with open(big, "wb") as fh:
        fh.truncate(3 * 1024**3)

    def cap():  # far below what reading either whole would need
        resource.setrlimit(resource.RLIMIT_AS, (1024**3, 1024**3))

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for target in (big, "/dev/zero"):
        r = subprocess.run([sys.executable, "-m", "deducer", "solve", str(target)],
                           capture_output=True, text=True, timeout=60, env=env,
                           preexec_fn=cap)
        assert r.returncode == 2, r.stderr
        one_line_error(r.stderr, str(target), "limited to 4194304")


def test_read_limited_never_reads_past_the_limit(tmp_path):
    import io

    from deducer.errors import DeducerError
    from deducer.puzzle.fileio import read_limited

    class Endless(io.RawIOBase):
        asked = 0

        def readable(self):
            return True

        def readinto(self, b):
            Endless.asked += len(b)
            b[:] = b"x" * len(b)
            return len(b)

    with pytest.raises(DeducerError, match="limited to 100"):
        read_limited(io.BufferedReader(Endless()), "<stream>", limit=100)
    assert Endless.asked < 10_000
    (tmp_path / "ok.txt").write_bytes(b"abc")
    assert read_limited(tmp_path / "ok.txt", limit=3) == b"abc"


def test_play_open_reads_at_most_the_limit(tmp_path):
    import tracemalloc

    from deducer.app.play.server import create_app

    with open(tmp_path / "big.txt", "wb") as fh:
        fh.truncate(64 * 1024**2)
    client = create_app(tmp_path).test_client()
    tracemalloc.start()
    r = client.get("/api/open?path=big.txt", headers={"Sec-Fetch-Site": "same-origin"})
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert r.status_code == 400 and "limited to" in r.get_json()["error"]
    assert peak < 16 * 1024**2  # reading the 64 MB file whole would peak above 64 MB


LOOP = '''\
from deducer.rules import rule


@rule
def spin(view):
    while True:
        pass


@rule
def stubborn(view):  # swallows the first stop too
    while True:
        try:
            while True:
                pass
        except BaseException:
            pass
'''


@pytest.mark.parametrize("func, argv", [
    ("spin", ["explain", FOUR]),
    ("spin", ["hint", FOUR]),
    ("stubborn", ["explain", FOUR, "--json"]),
    ("spin", ["rules", "test", "RULES", "--count", 0, FOUR]),
])
def test_timeout_stops_a_looping_rule(func, argv, tmp_path):
    (tmp_path / "loop.py").write_text(LOOP)
    rules = tmp_path / "loop.yaml"
    rules.write_text(f"rules:\n  - {{id: loop, name: Loop, priority: 1, weight: 1, score: 1, "
                     f"implementation: 'loop.py:{func}', explain: '{{effect}}'}}\n")
    argv = [rules if a == "RULES" else a for a in argv]
    if argv[0] != "rules":
        argv += ["--rules", rules]
    with cpu_of_children() as startup:
        deducer(*argv[:2], "--help")
    with cpu_of_children() as used:
        r = deducer(*argv, "--timeout", 1, timeout=300)
    assert r.returncode == 4, (r.stdout, r.stderr)
    # the rule spins from the start: a second at most before the limit, the backstop's
    # grace and hard stop after it (CPU time, which a loaded machine does not stretch;
    # without the stop it never ends: the subprocess timeout would fire)
    assert used() - startup() < 1 + GRACE + HARD_AFTER + 1.0, (used(), startup())
    if argv[0] == "rules":
        assert "timeout" in r.stdout
    else:
        # the backstop's line; or, when the puzzle's check took the whole second on a
        # loaded machine, the command's own answer that the time ran out
        assert "time limit" in r.stderr + r.stdout, r.stderr
        assert len(r.stderr.strip().splitlines()) <= 1, r.stderr


def test_render_takes_a_timeout(tmp_path, capsys):
    out = tmp_path / "k2.html"
    code, _, err = run(capsys, "render", K2, "--html", out, "--timeout", 60)
    assert code == 0 and out.is_file(), err
    code, _, err = run(capsys, "render", K2, "--svg", tmp_path / "x.svg", "--timeout", -1)
    assert code == 2 and "--timeout" in err


def test_outputs_are_checked_before_any_is_written(tmp_path, capsys):
    same = tmp_path / "same.out"
    code, _, err = run(capsys, "explain", FOUR, "--markdown", same, "--html", same)
    assert code == 2 and not same.exists()
    one_line_error(err, "--markdown and --html name the same file")
    long = tmp_path / ("x" * 300 + ".md")
    code, _, err = run(capsys, "explain", FOUR, "--markdown", long)
    assert code == 2
    one_line_error(err, "too long")
    code, _, err = run(capsys, "render", FOUR, "--svg", tmp_path / "a.svg",
                       "--html", tmp_path / ("y" * 300))
    assert code == 2 and not (tmp_path / "a.svg").exists()
    one_line_error(err, "too long")


def test_an_output_ending_in_a_slash_is_a_folder(tmp_path, capsys):
    for argv in (["convert", FOUR, "--to", "json", "-o", f"{tmp_path}/newdir/"],
                 ["render", FOUR, "--svg", f"{tmp_path}/newdir/"]):
        code, _, err = run(capsys, *argv)
        assert code == 2
        one_line_error(err, "names a folder")
        assert not (tmp_path / "newdir").exists()
    (tmp_path / "there").mkdir()
    code, _, err = run(capsys, "convert", FOUR, "--to", "json", "-o", tmp_path / "there")
    assert code == 2 and "is a folder" in err


def test_control_characters_in_a_name_are_escaped(tmp_path, capsys):
    data = json.loads(main_out(capsys, "convert", FOUR, "--to", "json"))
    data["name"] = "evil\x1b[31mRED\nline2\x07"
    f = tmp_path / "evil.json"
    f.write_text(json.dumps(data))
    code, out, _ = run(capsys, "explain", f, "--markdown", "-")
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out
    assert out.splitlines()[0].startswith("# Walkthrough: evil") and "line2" in out.splitlines()[0]
    urls = tmp_path / "urls.txt"  # a URL list names each puzzle by its line's first word
    urls.write_text(f"ev\x1b[31mil {URL}\nok {URL}\n")
    code, out, _ = run(capsys, "rules", "test", EXAMPLE / "sum_parity.yaml", urls, "-v")
    assert code == 0 and "\x1b" not in out and "ev\\x1b[31mil" in out
    bad = tmp_path / "no\x1b[2Jsuch\n.txt"
    code, _, err = run(capsys, "solve", bad)
    assert code == 2 and "\x1b" not in err
    one_line_error(err, "no\\x1b[2Jsuch\\n.txt")


def main_out(capsys, *argv) -> str:
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    return out


# ---------------------------------------------------------------------------- the house
def test_docs_document_the_contracts_and_every_format():
    from deducer.puzzle import formats

    docs = ROOT / "docs"
    fmt = (docs / "formats.md").read_text()
    for name in formats.names():
        assert f"`{name}`" in fmt, name
    assert "#d" in fmt and "one character per square" in fmt  # the solved format's syntax
    contract = (docs / "json-contract.md").read_text()
    for field in ("solution_count", "combos_removed", "proof", "max_weight", "available"):
        assert field in contract
    assert "implementation" in (docs / "rule-contract.md").read_text()
    for where in ("README.md", "docs/rule-authors-guide.md", "docs/example-rule/sum_parity.yaml",
                  "deducer/app/cli.py", "deducer/app/commands/solve.py",
                  "deducer/app/commands/explain.py"):
        assert "DESIGN.md" not in (ROOT / where).read_text(), where
