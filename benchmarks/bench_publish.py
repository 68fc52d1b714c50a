"""Publishers at scale (issue 55): a collection converted in one run, and a walkthrough
booklet, each against the way it was done before, measured in the same run.

    python benchmarks/bench_publish.py [--sample 8] [--book 5]

1. ``convert COLLECTION --to pipe --out DIR`` on the 960-puzzle janko.at file, one process,
   against the baseline of one ``deducer convert`` process a puzzle (timed on ``--sample``
   puzzles and scaled to the 960). Target: the whole file within 60 s.
2. ``render --pdf --walkthroughs`` of ``--book`` 12x12 janko.at puzzles, one process,
   against its pages drawn by cairosvg (the drawing before issue 55) in this process.
   Target: at most 2 CPU seconds a 12x12 puzzle with its walkthrough.

CPU seconds throughout (a loaded machine stretches wall time, not CPU time); the wall time
is printed beside them. Needs the corpus (DEDUCER_CORPUS or ../shared/corpus) and the
optional cairosvg.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: tests.support lives beside the package
    sys.path.insert(0, str(ROOT))

from tests.support.corpus import corpus_root  # noqa: E402
from tests.support.timing import cpu_of_children  # noqa: E402

DEDUCER = [sys.executable, "-m", "deducer"]


def _run(argv: list[str]) -> tuple[float, float]:
    """CPU and wall seconds of one ``deducer`` process."""
    wall = time.perf_counter()
    with cpu_of_children() as used:
        subprocess.run(DEDUCER + argv, check=True, cwd=ROOT, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return used(), time.perf_counter() - wall


def convert(janko: Path, sample: int, tmp: Path) -> None:
    from deducer.app.batch.inputs import find

    tasks = find([str(janko)]).tasks
    # the baseline: one process a puzzle (--name picks the record), on a sample
    step = max(1, len(tasks) // sample)
    picked = tasks[::step][:sample]
    cpu = wall = 0.0
    for k, t in enumerate(picked):
        # janko.at's records are named by their number, line N of the file holding N
        c, w = _run(["convert", str(janko), "--name", f"{t.line:03d}", "--to", "pipe", "-o",
                     str(tmp / f"one-{k}.txt")])
        cpu, wall = cpu + c, wall + w
    scale = len(tasks) / len(picked)
    c, w = _run(["convert", str(janko), "--to", "pipe", "--out", str(tmp / "all"),
                 "--no-progress"])
    n = len(list((tmp / "all").glob("*.txt")))
    print(f"convert {len(tasks)} janko.at puzzles to pipe files ({n} written)")
    print(f"  before, a process a puzzle: {cpu / len(picked):.2f} CPU s a puzzle "
          f"({len(picked)} timed) -> {cpu * scale:.0f} CPU s, {wall * scale:.0f} s wall for all")
    print(f"  one run (convert --out):   {c:.1f} CPU s, {w:.1f} s wall "
          f"(ratio {cpu * scale / c:.0f}x; target: within 60 s)")


def _twelve(janko: Path, count: int, tmp: Path) -> list[Path]:
    from deducer.app.batch.inputs import find, load

    out = []
    for t in find([str(janko)]).tasks:
        p = load(t, None)
        if (p.rows, p.cols) == (12, 12):
            from deducer.puzzle.formats import dumps

            f = tmp / f"b{len(out)}.txt"
            f.write_text(dumps(p, "pipe"))
            out.append(f)
            if len(out) == count:
                break
    return out


def _cairosvg_pages(pages) -> None:
    """The pages drawn as before issue 55: every page's boards through cairosvg."""
    import io

    import cairocffi
    import cairosvg.parser
    import cairosvg.surface

    out = io.BytesIO()
    target = cairocffi.PDFSurface(out, 595.28, 841.89)

    class OnePage(cairosvg.surface.PDFSurface):
        def _create_surface(self, width, height):
            return target, width, height

    ctx = cairocffi.Context(target)
    for page in pages:
        target.set_size(page.w, page.h)
        if page.boards:
            svg = page.svg(with_text=False)
            OnePage(cairosvg.parser.Tree(bytestring=svg.encode("utf-8")), None, 96)
        page.draw_text(ctx, cairocffi)
        target.show_page()
    target.finish()


def booklet(janko: Path, count: int, tmp: Path) -> None:
    from deducer.api import explain
    from deducer.puzzle.formats import load
    from deducer.render.pdf import Entry, book_pages, pdf_bytes

    files = _twelve(janko, count, tmp)
    c, w = _run(["render", "--pdf", str(tmp / "book.pdf"), "--walkthroughs",
                 *map(str, files)])
    entries = []
    for f in files:
        p = load(f)
        exp = explain(p)
        entries.append(Entry("x", p, exp.solution, "", exp))
    pages = book_pages(entries, walkthroughs=True)
    t = time.process_time()
    pdf_bytes(pages)
    now = time.process_time() - t
    t = time.process_time()
    _cairosvg_pages(pages)
    before = time.process_time() - t
    print(f"walkthrough booklet of {len(files)} 12x12 janko.at puzzles ({len(pages)} pages)")
    print(f"  render --pdf --walkthroughs: {c:.1f} CPU s, {w:.1f} s wall: "
          f"{c / len(files):.2f} CPU s a puzzle (target: at most 2)")
    print(f"  drawing the pages: {now:.1f} CPU s by cairo directly, {before:.1f} CPU s "
          f"through cairosvg as before (ratio {before / now:.1f}x)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", type=int, default=8, help="single converts timed")
    ap.add_argument("--book", type=int, default=5, help="12x12 puzzles in the booklet")
    args = ap.parse_args()
    root = corpus_root()
    if root is None:
        print("the corpus is not here (set DEDUCER_CORPUS)", file=sys.stderr)
        return 2
    janko = root / "janko-at-tkoz0" / "Kakuro.jsonl.bz2"
    with tempfile.TemporaryDirectory() as d:
        convert(janko, args.sample, Path(d))
        booklet(janko, args.book, Path(d))
    return 0


if __name__ == "__main__":
    sys.exit(main())
