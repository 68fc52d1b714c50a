"""Coverage-guided fuzzing of every puzzle reader with atheris (optional; not run by pytest).

    pip install atheris
    python tests/fuzz/atheris_readers.py -max_total_time=600 [-dict=...] [corpus_dir]

The oracle is the one of tests/test_fuzz.py: reading bytes gives a Puzzle or a PuzzleError
whose message is one line; anything else (another exception, or a read over the time
budget) crashes the fuzzer with the input saved for reproduction. The first byte picks the
format (detection or one reader); the rest is the file.
"""

from __future__ import annotations

import signal
import sys
import time

try:
    import atheris
except ImportError:  # pragma: no cover - optional tool
    sys.exit("atheris is not installed (pip install atheris)")

with atheris.instrument_imports():
    from deducer.errors import PuzzleError
    from deducer.puzzle import formats
    from deducer.puzzle.model import Puzzle

FORMATS = [None, *formats.names()]
BUDGET = 5  # seconds per input


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang(f"a read took over {BUDGET} s")


def test_one_input(data: bytes) -> None:
    if not data:
        return
    fmt = FORMATS[data[0] % len(FORMATS)]
    signal.alarm(BUDGET)
    t0 = time.perf_counter()
    try:
        text = formats.decode(data[1:], "<fuzz>")
        out = formats.loads(text, fmt, path="<fuzz>")
    except PuzzleError as e:
        msg = str(e)
        if not msg or "\n" in msg or len(msg.splitlines()) != 1:
            raise AssertionError(f"error message is not one line: {msg!r}") from None
        return
    finally:
        signal.alarm(0)
    if not isinstance(out, Puzzle):
        raise AssertionError(f"reader returned {type(out).__name__}")
    for target in formats.writable():  # what was read must also be writable or refused
        try:
            formats.dumps(out, target)
        except PuzzleError:
            pass
    if time.perf_counter() - t0 > BUDGET:
        raise Hang("slow read")


def main() -> None:
    signal.signal(signal.SIGALRM, _alarm)
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
