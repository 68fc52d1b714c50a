"""Every command output pasted in docs/rule-authors-guide.md is what the command prints
today: each ``$ deducer ...`` line of a ``text`` block is run (in-process, from the
repository root) and its output compared with the lines under it, ``...`` standing for any
lines; ``$ echo $?`` checks the exit code; ``for P in ...; do deducer ... $P | grep -E
'...'; done`` runs each priority and keeps the matching lines. The error examples' files
(``r.yaml`` with a key too many, ``typo.yaml`` with a misspelt field) are made from the
example rule in a temporary folder."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from deducer.app.cli import main

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "rule-authors-guide.md"
EXAMPLE = ROOT / "docs" / "example-rule"
LOOP = re.compile(r"for (\w+) in ([^;]+); do (.+?) \| grep -E '([^']+)'; done")


def commands() -> list[tuple[int, str, list[str]]]:
    """(line number, command, expected output lines) of every pasted run."""
    out = []
    lines = GUIDE.read_text(encoding="utf-8").splitlines()
    k = 0
    while k < len(lines):
        if lines[k].strip() != "```text":
            k += 1
            continue
        end = lines.index("```", k + 1)
        block = lines[k + 1:end]
        j = 0
        while j < len(block):
            if block[j].startswith("$ ") and "deducer" in block[j] or block[j] == "$ echo $?":
                nxt = next((n for n in range(j + 1, len(block)) if block[n].startswith("$ ")),
                           len(block))
                out.append((k + 2 + j, block[j][2:], block[j + 1:nxt]))
                j = nxt
            else:
                j += 1
        k = end + 1
    return out


CASES = commands()


def _files(tmp: Path) -> dict[str, str]:
    """The error examples' rule files, made from the example rule."""
    text = (EXAMPLE / "sum_parity.yaml").read_text(encoding="utf-8")
    shutil.copy(EXAMPLE / "sum_parity.py", tmp / "sum_parity.py")
    (tmp / "r.yaml").write_text(text.replace("    scope: run", "    scope: run\n    colour: red"),
                                encoding="utf-8")
    (tmp / "typo.yaml").write_text(text.replace("{need}", "{nede}", 1), encoding="utf-8")
    (tmp / "r2.yaml").write_text(text.replace("sum_parity.py:sum_parity",
                                              "sum_parity.py:sum_party"), encoding="utf-8")
    return {"r.yaml": str(tmp / "r.yaml"), "typo.yaml": str(tmp / "typo.yaml")}


def run(capsys, argv: list[str]) -> tuple[int, list[str]]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, (out + err).splitlines()


def matches(expected: list[str], got: list[str]) -> bool:
    """``expected`` with ``...`` lines standing for any run of lines."""
    pattern = "\n".join(".*?" if e.strip() == "..." else re.escape(e) for e in expected)
    return re.fullmatch(pattern.replace("\n.*?\n", "(?:\n.*?)*\n"), "\n".join(got),
                        re.S) is not None


def test_the_guide_pastes_runs():
    assert len(CASES) >= 10  # the parser still finds them


def test_every_pasted_output_is_what_the_command_prints(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    names = _files(tmp_path)
    last = 0
    wrong = []
    for line, command, expected in CASES:
        if command == "echo $?":
            if expected != [str(last)]:
                wrong.append(f"line {line}: exit code {last}, the guide says {expected}")
            continue
        loop = LOOP.fullmatch(command)
        if loop:
            var, values, inner, pat = loop.groups()
            got = []
            for v in values.split():
                argv = shlex.split(inner.replace(f"${var}", v))[1:]
                _, out = run(capsys, argv)
                got += [x for x in out if re.search(pat, x)]
        else:
            argv = shlex.split(command)
            assert argv[0] == "deducer", command
            argv = [names.get(a, str(tmp_path / a) if a == "fired" or a.startswith("fired/")
                              else a) for a in argv[1:]]
            if "r.yaml" in command and "explain" in command:  # the missing function
                argv = [str(tmp_path / "r2.yaml") if a == names["r.yaml"] else a for a in argv]
            last, got = run(capsys, argv)
            got = [x.replace(str(tmp_path / "r2.yaml"), "r.yaml").replace(f"{tmp_path}/", "")
                   for x in got]
        if not matches(expected, got):
            wrong.append(f"line {line}: $ {command}\n  guide:\n    " + "\n    ".join(expected)
                         + "\n  now:\n    " + "\n    ".join(got))
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("expected, got, ok", [
    (["a", "...", "d"], ["a", "b", "c", "d"], True),
    (["a", "d"], ["a", "b", "d"], False),
    (["a"], ["a"], True),
])
def test_the_matcher(expected, got, ok):
    assert matches(expected, got) is ok
