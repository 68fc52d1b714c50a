"""What a learner reads: every deduction at a position, the ladder's techniques, a worked
example of each, and the technique pages written to a folder."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..errors import DeducerError
from ..puzzle.fileio import check_name, check_outputs, write_output
from .ladders import RulesArg, ladder
from .limits import limits_from

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing on solve's start-up
if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from ..assist.allsteps import AllSteps
    from ..engine.teaching import Technique
    from ..generator.examples import Search as ExampleSearch
    from ..puzzle.model import Puzzle


def all_steps(puzzle: Puzzle, rules: RulesArg = None, *, disable: Sequence[str] = (),
              timeout: float | None = None) -> AllSteps:
    """Every deduction the ladder finds at the position (the grid as the player has it),
    simplest first, each a :class:`Step` with its sentence, effect and proof, as if it
    were the next step (``deducer hint --all``). Mistakes in the player's entries come
    first, as for :func:`hint`.

    Returns an :class:`AllSteps`: ``kind`` (``steps``, ``mistake``, ``solved``,
    ``unsolvable``, ``conflict``, ``timeout``), ``steps``, ``text`` and ``to_json()``
    (``{"steps": [...]}`` and the rest, docs/json-contract.md)."""
    from ..assist.allsteps import all_steps as _all_steps

    started = time.perf_counter()
    active = ladder(rules, disable)
    return _all_steps(puzzle, active, limits=limits_from(started, timeout))


def techniques(rules: RulesArg = None, *, disable: Sequence[str] = ()) -> list[Technique]:
    """The ladder's rules as a learner sees them (:class:`Technique`: names, explanation,
    level, what each is a case of), in ladder order."""
    from ..engine.teaching import techniques as _techniques

    return _techniques(ladder(rules, disable))


def technique_examples(rules: RulesArg = None, *, disable: Sequence[str] = (),
                       ids: Sequence[str] | None = None, generate: bool = True,
                       seconds: float | None = None, cached: bool = True,
                       progress: Callable[[str], None] | None = None) -> ExampleSearch:
    """A worked example of each rule of ``ids`` (default: every rule of the ladder but
    trial and backtracking): a puzzle and its walkthrough's steps up to and including
    the rule's first step, every step proved by the proof checker. From the package's
    cache, the bundled puzzles, else the generator (``generate``: at most ``seconds`` a
    rule). Returns ``.examples`` (rule id -> example, ``.to_json()``) and ``.missing``
    (rule id -> why it has none)."""
    from ..generator import examples

    return examples.find(ladder(rules, disable), ids,
                         cache=examples.CACHE if cached else None, generate=generate,
                         seconds=examples.GENERATE_SECONDS if seconds is None else seconds,
                         progress=progress)


def _only_pages(flag: str, path: str) -> None:
    """``--force`` replaces a technique page, never another file that has a page's name
    (a notes.html of one's own in the folder)."""

    p = Path(path)
    if not p.exists():
        return
    try:
        with open(p, "rb") as fh:
            head = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        head = ""
    if p.suffix == ".html":
        ours = '<meta name="generator" content="deducer">' in head
    else:
        ours = re.match(r'\s*\{\s*"puzzle"\s*:', head) is not None
    if not ours:
        raise DeducerError(f"{flag}: is not a technique page deducer wrote; --force "
                           "replaces pages only: move this file away or pick another folder",
                           path=path)


class TechniquePages:
    """What :func:`technique_pages` wrote: ``files`` (paths), ``missing`` (rule id -> why
    its page has no example)."""

    def __init__(self, directory: Path, files: list[Path], missing: dict[str, str]):
        self.directory, self.files, self.missing = directory, files, missing


def technique_pages(directory: str | Path, rules: RulesArg = None, *,
                    disable: Sequence[str] = (), force: bool = False, generate: bool = True,
                    seconds: float | None = None,
                    progress: Callable[[str], None] | None = None,
                    guard: Callable[[float], AbstractContextManager] | None = None
                    ) -> TechniquePages:
    """Write the technique pages into ``directory`` (made if missing): ``index.html``
    and, for every rule of the ladder but trial and backtracking, ``<id>.html`` and
    (when it has a worked example) ``<id>.json`` = ``{"puzzle": ..., "steps": [...]}`` (and
    ``"walkthrough_step"`` where the walkthrough takes another step at the last one).
    Every page name is checked before any page is written (a rule id ``index`` would be
    the index's name; one too long for the file system); no file is written over unless
    ``force``, and ``force`` replaces only pages (a file that is not one is refused);
    nothing is written when one would be refused. ``seconds`` bounds each walk and
    generation of the example search (``guard(seconds)``, a context manager yielding a
    dict, may stop a rule that never looks at the clock: see
    :func:`deducer.generator.examples.find`)."""
    from ..engine.teaching import technique
    from ..generator import examples
    from ..render import teach
    from ..render.jsonout import dumps

    lad = ladder(rules, disable)
    techs = [technique(r, lad) for r in lad]
    paged = [t for t in techs if t.kind not in examples.NO_EXAMPLE_KINDS]
    out = Path(directory)
    if out.exists() and not out.is_dir():
        raise DeducerError("is not a directory (--pages names the folder the pages go in)",
                           path=str(out))
    for t in paged:
        if t.id.lower() == "index":  # its page would be the site's index page
            raise DeducerError(f"rule {t.id!r}: 'index' names the pages' index "
                               "(index.html); give the rule another id", path=t.source)
    names = ["index.html"] + [f"{t.id}{ext}" for t in paged for ext in (".html", ".json")]
    for n in names:  # every name, in a new folder too: none fails half way through
        check_name(out / n)
    if out.is_dir():  # a new folder is made once the pages are ready
        check_outputs({f"--pages {n}": str(out / n) for n in names}, force=force,
                      guard=_only_pages if force else None)
    found = examples.find(lad, [t.id for t in paged], generate=generate,
                          seconds=examples.GENERATE_SECONDS if seconds is None else seconds,
                          progress=progress, guard=guard)
    pages: dict[str, str] = {"index.html": teach.index_page(
        paged, found.missing, no_page=[t for t in techs if t not in paged])}
    for k, t in enumerate(paged):
        ex = found.examples.get(t.id)
        pages[f"{t.id}.html"] = teach.technique_page(
            t, ex, missing=found.missing.get(t.id, ""),
            prev=paged[k - 1] if k else None,
            next_=paged[k + 1] if k + 1 < len(paged) else None, rules=lad)
        if ex is not None:
            pages[f"{t.id}.json"] = dumps(ex.to_json())
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise DeducerError(f"cannot make the folder: {e.strerror or e}", path=str(out)) from None
    written = []
    for name, text in pages.items():
        write_output(out / name, text, force=force)
        written.append(out / name)
    return TechniquePages(out, written, dict(found.missing))

