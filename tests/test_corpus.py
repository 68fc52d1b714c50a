"""The solver over the shared corpus: stored solutions reproduced, SOURCE.md notes reproduced.

Skips cleanly when the corpus is absent. The loader tests at the bottom need no corpus.
"""

from __future__ import annotations

import bz2
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deducer.clock import Limits
from deducer.errors import PuzzleError
from deducer.puzzle.model import check_solution
from deducer.solver.search import solve
from tests.support import corpus

WITH_SOLUTIONS = [corpus.JANKO, corpus.KRAZYDAD, corpus.CX16, corpus.MARCELGARUS,
                  corpus.MARCIZHU, corpus.PAUCUESTA9]
WITHOUT_SOLUTIONS = [corpus.GECODE, corpus.MINIZINC, corpus.PANPAPAG, corpus.ZWVISTA]

COUNTS = {corpus.JANKO: 960, corpus.KRAZYDAD: 200, corpus.CX16: 97, corpus.MARCELGARUS: 10,
          corpus.GECODE: 10, corpus.MINIZINC: 6, corpus.PANPAPAG: 3, corpus.MARCIZHU: 62,
          corpus.PAUCUESTA9: 151, corpus.ZWVISTA: 131}

#: puzzles whose solution count no source states and that a plain solver cannot settle quickly
UNSETTLED = {(corpus.MARCELGARUS, "huge")}


def _load(name):
    return list(corpus.load_source(name))


def _check_source(name: str) -> list[str]:
    """Solve every puzzle of a source; return what disagrees with the stored data / notes."""
    problems = []
    for cp in _load(name):
        if (cp.source, cp.id) in UNSETTLED:
            continue
        where = cp.key
        if cp.solution is not None:
            bad = check_solution(cp.puzzle, cp.solution)
            if bad:
                problems.append(f"{where}: stored solution is invalid: {bad}")
                continue
        r = solve(cp.puzzle, max_solutions=2, limits=Limits.within(60))
        if r.timed_out:
            problems.append(f"{where}: timed out")
            continue
        for values in r.solutions:
            assert check_solution(cp.puzzle, values) is None
        if cp.expected is not None and r.status != cp.expected:
            problems.append(f"{where}: {r.status}, SOURCE.md says {cp.expected}")
            continue
        if r.status in ("unique", "none") and not r.complete:
            problems.append(f"{where}: {r.status} but not complete")
        if cp.solution is None:
            continue
        if r.status == "unique":
            if r.solutions[0] != cp.solution:
                problems.append(f"{where}: unique solution differs from the stored one")
        elif r.status == "multiple":
            # the stored solution must be among them (these puzzles are small or few)
            r_all = solve(cp.puzzle, max_solutions=200, limits=Limits.within(60))
            if cp.solution not in r_all.solutions and r_all.complete:
                problems.append(f"{where}: stored solution not among the {r_all.solution_count}")
        else:
            problems.append(f"{where}: no solution, but one is stored")
    return problems


@pytest.mark.parametrize("name", WITH_SOLUTIONS + WITHOUT_SOLUTIONS)
def test_source_solved_as_documented(corpus_dir, name):
    if name not in corpus.sources():
        pytest.skip(f"{name} not in the corpus")
    problems = _check_source(name)
    assert not problems, "\n".join(problems[:30])


def test_sources_listed(corpus_dir):
    assert set(corpus.sources()) == set(corpus.LOADERS)


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_counts(corpus_dir, name):
    assert len(_load(name)) == COUNTS[name]


def test_labels(corpus_dir):
    def tally(name):
        out: dict = {}
        for cp in _load(name):
            out[cp.label] = out.get(cp.label, 0) + 1
        return out

    assert tally(corpus.CX16) == {"2*": 75, "3*": 21, None: 1}
    assert tally(corpus.GECODE) == {"Easy": 4, "Medium": 2, "Hard": 4}
    assert tally(corpus.MINIZINC) == {"easy": 2, "hard": 2, "super": 2}
    assert tally(corpus.PANPAPAG) == {"easy": 1, "intermediate": 1, "hard": 1}
    stored = {cp.id: cp.solution is not None for cp in _load(corpus.MARCELGARUS)}
    assert {k for k, v in stored.items() if v} == {"20x20", "30x30"}


def test_janko_257_multiple(corpus_dir):
    cp = corpus.get("janko", "257")
    assert cp.expected == "multiple"
    assert solve(cp.puzzle, max_solutions=2).status == "multiple"
    r = solve(cp.puzzle, max_solutions=200)
    assert cp.solution in r.solutions


def test_cx16_notes(corpus_dir):
    status = {cp.id: solve(cp.puzzle, max_solutions=2).status for cp in _load(corpus.CX16)}
    assert {k for k, v in status.items() if v == "multiple"} == corpus.CX16_MULTIPLE
    assert {k for k, v in status.items() if v == "none"} == {"031"}
    assert sum(v == "unique" for v in status.values()) == 68
    p1 = corpus.get("cx16", "001")
    r = solve(p1.puzzle, max_solutions=100)
    assert r.complete and r.solution_count == 3 and p1.solution in r.solutions  # "P1 has 3"


def test_marcizhu_two_sol_and_no_sol(corpus_dir):
    two = corpus.get("marcizhu", "unsolved/two-sol")
    r = solve(two.puzzle, max_solutions=10)
    assert r.complete and r.solution_count == 2
    solved = corpus_dir / corpus.MARCIZHU / "kakuros" / "solved"
    want = {tuple(corpus._fib_solution(solved / f"two-sol-{k}.kak", two.puzzle)) for k in (1, 2)}
    assert {tuple(s) for s in r.solutions} == want
    none = corpus.get("marcizhu", "unsolved/no-sol")
    r = solve(none.puzzle)
    assert r.status == "none" and r.complete


def test_paucuesta9_invalids(corpus_dir):
    got = {cp.id: solve(cp.puzzle, max_solutions=10) for cp in _load(corpus.PAUCUESTA9)
           if cp.id.startswith("Invalids/")}
    assert got["Invalids/0"].status == "none" and got["Invalids/0"].complete
    assert got["Invalids/1"].solution_count == 2 and got["Invalids/1"].complete
    assert got["Invalids/2"].status == "multiple"
    for path in corpus.paucuesta9_malformed():
        with pytest.raises(PuzzleError) as e:
            corpus.load_fib(path)
        assert path.name in str(e.value)


def test_marcelgarus_small_big_multiple(corpus_dir):
    for pid in ("small", "big"):
        assert solve(corpus.get("marcelgarus", pid).puzzle).status == "multiple"


# ----------------------------------------------------------------------- loaders, no corpus
def test_corpus_root_env(tmp_path, monkeypatch):
    monkeypatch.setenv("DEDUCER_CORPUS", str(tmp_path))
    assert corpus.corpus_root() == tmp_path
    assert corpus.sources() == []
    with pytest.raises(PuzzleError):
        list(corpus.janko())
    monkeypatch.setenv("DEDUCER_CORPUS", str(tmp_path / "absent"))
    assert corpus.corpus_root() is None and corpus.sources() == []
    with pytest.raises(PuzzleError):
        corpus.get("nosuchsource", "1")


def _put_file(root, folder, name, text, *, binary=False):
    d = root / folder
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(text if binary else text.encode())


MALFORMED = [
    (corpus.JANKO, "Kakuro.jsonl.bz2", bz2.compress(b'{"file": "/Kakuro/001.a", "data": {}}\n')),
    (corpus.JANKO, "Kakuro.jsonl.bz2", bz2.compress(b"not json\n")),
    (corpus.JANKO, "Kakuro.jsonl.bz2", b"not bzip2 at all"),
    (corpus.JANKO, "Kakuro.jsonl.bz2", bz2.compress(
        b'{"file": "/Kakuro/002.a", "data": {"solution": [["-", "-"], ["-", "x"]]}}\n')),
    (corpus.KRAZYDAD, "krazydad_puzzles.tsv", "kind\tvolume\tbook\tnumber\tspec\n6\t1\t1\t1\t12\n"),
    (corpus.CX16, "001.puz", "# B5/P1/2*\n0 0 0\n0 1 x\n"),
    (corpus.CX16, "002.puz", "# B5/P2/2*\n0 0 0\n0 1 1\n0 2\n"),
    (corpus.GECODE, "gecode_kakuro_instances.txt", "[k0]\nints = 3 3 0 0 2 3 -1\n"),
    (corpus.GECODE, "gecode_kakuro_instances.txt", "[k0]\nints = 3 3 0 0 5 3 -1 -1\n"),
    (corpus.MINIZINC, "kakuro_6_6_easy.dzn", "h = 2;\nw = 2;\n"),
    (corpus.PANPAPAG, "panpapag_puzzles.txt", "easy_2 = [['B', 'Q']]\n"),
    (corpus.PANPAPAG, "panpapag_puzzles.txt", "easy_2 = [[\n"),
    (corpus.ZWVISTA, "Kakuro.xml", "<puzzle><levels><level id='1'>00000400`\n"
                                   "0004 x  `</level></levels></puzzle>"),
    (corpus.ZWVISTA, "Kakuro.xml", "<puzzle><levels"),
]


@pytest.mark.parametrize("folder,name,text", MALFORMED)
def test_malformed_entries_raise_puzzle_error(tmp_path, folder, name, text):
    _put_file(tmp_path, folder, name, text, binary=isinstance(text, bytes))
    with pytest.raises(PuzzleError):
        list(corpus.LOADERS[folder](tmp_path))


def test_small_valid_entries(tmp_path):
    grid = [["-", "-", "-"], ["-", "1", "2"], ["-", "3", "1"]]
    line = json.dumps({"file": "/Kakuro/007.a.x-janko", "data": {"solution": grid}})
    _put_file(tmp_path, corpus.JANKO, "Kakuro.jsonl.bz2", bz2.compress(line.encode()), binary=True)
    (cp,) = corpus.janko(tmp_path)
    assert cp.id == "007" and cp.solution == [1, 2, 3, 1] and cp.expected == "unique"
    assert cp.puzzle.squares[0][1].down == 4 and cp.puzzle.squares[1][0].across == 3
    assert solve(cp.puzzle).solutions == [cp.solution]
    _put_file(tmp_path, corpus.CX16, "005.puz", "# B5/P5/3*\n0 0 0\n0 #1 2\n0 3 1")
    (cp,) = corpus.cx16(tmp_path)
    assert cp.label == "3*" and cp.puzzle.givens == {(1, 1): 1}
    _put_file(tmp_path, corpus.ZWVISTA, "Kakuro.xml",
           "<puzzle><levels><level id='3'><![CDATA[\n  000004000200`\n  0003        `\n"
           "  0003    0000`\n]]></level></levels></puzzle>")
    (cp,) = corpus.zwvista(tmp_path)
    assert cp.puzzle.rows == 3 and len(cp.puzzle.whites) == 3
    assert solve(cp.puzzle).status == "unique"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="CF?*0123456789,\n #x", max_size=80))
def test_read_fib_only_raises_puzzle_error(text):
    try:
        corpus.read_fib(text)
    except PuzzleError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-2, 12), max_size=30))
def test_gecode_ints_only_raise_puzzle_error(ints):
    try:
        corpus._gecode_puzzle(" ".join(map(str, ints)), "kx")
    except PuzzleError:
        pass
