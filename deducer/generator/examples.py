"""A worked example of each technique: a puzzle whose walkthrough uses it, and the steps up
to its first use (for ``deducer rules --pages``).

Examples come, in this order, from the cache the package carries (``deducer/data/
examples.yaml``: for each core rule, the bundled puzzle or the generate request whose
walkthrough uses it soonest, written by ``scripts/technique_examples.py``), from the bundled
puzzles, and from the generator (``generate --needs RULE``, seeded, so the same request
gives the same puzzle). A cached example is used only while the walkthrough of its puzzle
still reaches the rule; every example's steps are checked by the proof checker before it
is used.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path

from ..clock import NO_LIMITS, Limits
from ..engine.registry import CORE as CORE_LADDER
from ..engine.ruleyaml import load_yaml
from ..engine.walk import Engine, Step, WalkOptions
from ..errors import DeducerError
from ..proofcheck import check_walkthrough
from ..puzzle import formats
from ..puzzle.bundled import bundled_puzzles
from ..puzzle.model import Puzzle
from .core import generate_one
from .request import check_request, make_request

DATA = Path(__file__).resolve().parents[1] / "data"
CACHE = DATA / "examples.yaml"
#: the grids the generator tries for a rule no bundled puzzle uses, smallest first
SIZES = ("8x8", "10x10")
#: seconds the generator may spend on one rule's example, all sizes together
GENERATE_SECONDS = 120.0
#: seconds one walk of the example search may take at least (``--seconds`` if more): a
#: walk that takes longer is stopped and its rule named (a rule that loops)
WALK_SECONDS = 10.0
#: rules of these kinds get no example: they are fallbacks, not techniques to learn
NO_EXAMPLE_KINDS = ("trial", "guess")


@dataclass
class Example:
    """A puzzle and its walkthrough's steps up to and including the first step of
    ``rule``."""

    rule: str
    puzzle: Puzzle
    steps: list[Step]
    #: where the puzzle comes from: a bundled file (``puzzles/seed000-k.j:k1``) or the
    #: command that makes it again (``generate --size 8x8 --needs naked-pair --seed 1``)
    source: str
    #: the step the walkthrough itself takes on that board, where it is not the rule's
    #: (a chain rule whose chain is open there while a shorter chain of another rule is
    #: what the walkthrough shows); None when the last step is the walkthrough's own
    instead: Step | None = None
    #: a generated example kept from an earlier version of the generator, whose command
    #: no longer makes it (the cache's ``kept: true``; :func:`cache_text`)
    kept: bool = False
    #: walked with the core ladder's rules alone: the user's extra rules take the step that
    #: needed the technique on the cached puzzle, and ``--seconds 0`` allows no search for
    #: another (the page and its JSON, ``"ladder": "core"``, say so)
    core_ladder: bool = False

    @property
    def step(self) -> Step:
        """The step of ``rule``: the last one."""
        return self.steps[-1]

    def to_json(self) -> dict:
        """``{"puzzle": <deducer JSON puzzle>, "steps": [<explain --json steps>]}``, plus
        ``"walkthrough_step"`` where the walkthrough takes another step at the last one
        (docs/json-contract.md, technique pages)."""

        out = {"puzzle": json.loads(formats.dumps(self.puzzle, "json")),
               "steps": [s.to_json() for s in self.steps]}
        if self.instead is not None:
            out["walkthrough_step"] = self.instead.to_json()
        if self.core_ladder:
            out["ladder"] = "core"
        return out


@dataclass
class Search:
    """What a search for examples found: an example per rule, or why there is none."""

    examples: dict[str, Example] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)  # rule id -> the reason


def wanted(rules) -> list[str]:
    """The ids of the rules that get an example: every rule of the ladder but the
    fallbacks (trial, backtracking)."""
    return [r.id for r in rules if r.kind not in NO_EXAMPLE_KINDS]


# ---------------------------------------------------------------------------- walking
@dataclass
class Use:
    """A rule's first use in a walk: the steps up to and including it, and the step the
    walkthrough takes there instead when that is another rule's (see :func:`first_uses`)."""

    steps: list[Step]
    instead: Step | None = None


def first_uses(puzzle: Puzzle, rules, ids: Iterable[str], *,
               limits: Limits = NO_LIMITS) -> dict[str, Use]:
    """Walk ``puzzle`` with ``rules`` (as ``explain`` does) until every rule of ``ids`` has
    made a step or the walk ends; for each rule that did, the steps up to and including
    its first. Cheap rules first means the walk stops as soon as the last one shows."""
    todo = set(ids)
    eng = Engine(puzzle, rules, WalkOptions(limits=limits))
    chains = [r for r in rules if r.kind == "chain"]
    chain_only = {r.id for r in rules if not r.walk}
    found: dict[str, Use] = {}
    while todo and eng.open_count:
        nxt = eng.next_deduction()
        if nxt is None:
            break
        instead: Step | None = None
        if nxt[0].kind == "chain" and nxt[0].id not in todo:
            # the walk takes the shortest chain any chain rule offers, so a chain rule whose
            # chains are seldom the shortest (a bivalue chain is a forcing chain too) may
            # never show; where it offers one here, the example takes it instead (a true,
            # proved step, at a board where the walkthrough would show a shorter chain)
            # (the example says so: ``instead`` is the step the walkthrough takes)
            for rule in chains:
                offer = eng.offer(rule) if rule.id in todo and rule is not nxt[0] else None
                if offer is not None:
                    instead = eng.preview(*nxt)
                    nxt = (rule, *offer)
                    break
        step = eng.step(nxt)
        if step is None:
            break
        for rid in sorted(uses(step, chain_only) & todo):
            todo.discard(rid)
            found[rid] = Use(list(eng.steps), instead)
        if instead is not None:
            break  # the board is no longer the walkthrough's: later uses would not be
    return found


def uses(step: Step, chain_only: Collection[str] = ()) -> set[str]:
    """The rules a step shows: its own, and those of ``chain_only`` (``walk: false`` rules,
    never a step of their own) that make one of its chain's links. (A link rule the walk
    also takes is shown by its first step of its own, as before.)"""
    proof = step.proof or {}
    cases = proof.get("cases") or [proof]
    return {step.rule} | {lk["rule"] for case in cases for lk in case.get("links", ())
                          if lk.get("rule") in chain_only}


def proof_problems(puzzle: Puzzle, steps: list[Step]) -> list[str]:
    """What the independent proof checker finds wrong with the steps (empty: all proved)."""

    return [str(p) for p in check_walkthrough(puzzle, steps)]


# ---------------------------------------------------------------------------- sources
def bundled() -> Iterator[tuple[str, Puzzle]]:
    """(label, puzzle) of every bundled puzzle with one solution (puzzles/expected.json)."""

    for b in bundled_puzzles():
        yield b.label, b.puzzle


def bundled_puzzle(label: str) -> Puzzle | None:
    """The bundled puzzle ``label`` names (None: no such puzzle)."""
    return next((p for lab, p in bundled() if lab == label), None)


def read_cache(path: Path = CACHE) -> dict[str, dict]:
    """rule id -> ``{"from": source, "puzzle": pipe text (generated puzzles only)}``."""

    if not path.is_file():
        return {}
    data = load_yaml(path)
    got = data.get("examples") if isinstance(data, dict) else None
    if not isinstance(got, dict):
        raise DeducerError("the example cache must hold an 'examples:' mapping", path=str(path))
    return {str(k): v for k, v in got.items() if isinstance(v, dict) and "from" in v}


def cached_puzzle(entry: dict) -> Puzzle | None:
    text = entry.get("puzzle")
    if isinstance(text, str):
        return formats.loads(text, "pipe", path="<example cache>")
    return bundled_puzzle(str(entry["from"]))


def generate_for(rule_id: str, rules, seconds: float,
                 sizes: Iterable[str] = SIZES, seed: int = 1) -> tuple[str, Puzzle] | None:
    """A generated puzzle whose walkthrough uses ``rule_id`` (seeded: the same call gives
    the same puzzle), and the command that makes it again; None when ``seconds`` (for all
    sizes) ran out first."""

    sizes = list(sizes)
    end = time.perf_counter() + seconds
    for k, size in enumerate(sizes):
        left = end - time.perf_counter()
        if left <= 0:
            break
        # the smaller grid gets half the time, so that a rule it cannot hold leaves room
        share = left if k == len(sizes) - 1 else left / 2
        req = make_request(size, None, seed=seed, needs=rule_id, timeout=share)
        check_request(req, rules)
        res = generate_one(req, 0, rules)
        if res.puzzle is not None:
            return f"generate --size {size} --needs {rule_id} --seed {seed}", res.puzzle
    return None


# ---------------------------------------------------------------------------- finding
class _RanOut(Exception):
    """A walk or a generation ran past its time: the search ends (see :func:`find`)."""


def rule_in(tb, rules) -> str | None:
    """The id of the innermost rule function running in traceback ``tb`` (where a time
    limit stopped a walk), or None when no rule's code was running."""
    codes: dict = {}
    for r in rules:
        code = getattr(r.func, "__code__", None)
        if code is not None:
            codes.setdefault(code, r.id)
    found = None
    while tb is not None:
        found = codes.get(tb.tb_frame.f_code, found)
        tb = tb.tb_next
    return found


#: a hard stop around one walk (the CLI's backstop): given the seconds, a context manager
#: yielding a dict, which holds the stopping exception's ``traceback`` if it stopped
Guard = Callable[[float], AbstractContextManager]


def find(rules, ids: Iterable[str] | None = None, *, cache: Path | None = CACHE,
         use_bundled: bool = True, generate: bool = True,
         seconds: float = GENERATE_SECONDS,
         progress: Callable[[str], None] | None = None, guard: Guard | None = None) -> Search:
    """An example for each rule of ``ids`` (default :func:`wanted`) on the ladder
    ``rules``: from the cache, else the bundled puzzle whose walkthrough uses the rule
    soonest, else a generated one. Every example's steps pass the proof checker; a rule
    without one is in ``missing`` with the reason.

    Each walk and each generation is bounded by ``seconds`` (a deadline the walk checks;
    ``guard`` also stops a rule that never looks at the clock, a ``while True`` body): when
    one runs out, the search ends, and the rules still without an example say which rule
    was running."""
    say = progress or (lambda _msg: None)
    todo = list(wanted(rules) if ids is None else ids)
    known = {r.id for r in rules}
    out = Search()
    stop: dict[str, str] = {}

    def bounded(what: str, fn, *args, **kw):
        """``fn(*args, **kw)`` within its time: a generation ``seconds``, a walk
        ``WALK_SECONDS`` at least (``seconds`` 0 asks for no generation, not for no walk)."""
        if "why" in stop:
            raise _RanOut
        limit = seconds
        if fn is first_uses:
            limit = max(seconds, WALK_SECONDS)
            kw["limits"] = Limits.within(limit)
        if guard is None or limit <= 0:
            return fn(*args, **kw)
        got: dict = {}
        with guard(limit) as caught:
            got["value"] = fn(*args, **kw)
        if "value" in got:
            return got["value"]
        rid = rule_in(caught.get("traceback"), rules)
        who = f"in rule {rid}" if rid else "in the walk"
        stop["why"] = f"the time limit ({limit:g} s) ran out {who} ({what})"
        stop["rest"] = f"not looked for: the search stopped when the time ran out {who}"
        raise _RanOut

    try:
        _find(rules, todo, known, out, cache, use_bundled, generate, seconds, say, bounded)
    except _RanOut:
        why = stop["why"]
        for rid in todo:
            if rid not in out.examples and rid not in out.missing:
                out.missing[rid], why = why, stop["rest"]  # told in full once
    return out


def _find(rules, todo, known, out, cache, use_bundled, generate, seconds, say, bounded):
    for rid in todo:
        if rid not in known:
            out.missing[rid] = "no rule of the ladder has that id"
    todo = [rid for rid in todo if rid in known]
    rejected: dict[str, str] = {}

    def take(rid: str, puzzle: Puzzle, use: Use, source: str, kept: bool = False,
             core_ladder: bool = False) -> bool:
        problems = proof_problems(puzzle, use.steps)
        if problems:
            rejected[rid] = (f"the steps of {source} do not pass the proof checker: "
                             + "; ".join(problems[:3]))
            return False
        out.examples[rid] = Example(rid, puzzle, use.steps, source, use.instead, kept,
                                    core_ladder)
        rejected.pop(rid, None)
        return True

    # 1. the cache: one short walk per rule, to its puzzle's first step of the rule
    entries = read_cache(cache) if cache is not None else {}
    core = [r for r in rules if Path(r.source).resolve() == CORE_LADDER]
    for rid in todo:
        entry = entries.get(rid)
        if entry is None:
            continue
        puzzle = cached_puzzle(entry)
        if puzzle is None:
            continue
        say(f"{rid}: the cached example ({entry['from']})")
        use = bounded(f"walking {entry['from']}", first_uses, puzzle, rules, [rid]).get(rid)
        alone = False
        if use is None and len(core) < len(rules) and any(r.id == rid for r in core):
            # the cache holds the core ladder's examples: a user's extra rule may take the
            # step that needed the technique, and the example then shows it as the core
            # ladder's walk has it (its steps are proved all the same; the page says so)
            use = bounded(f"walking {entry['from']}", first_uses, puzzle, core, [rid]).get(rid)
            alone = use is not None
        if use is not None:
            take(rid, puzzle, use, str(entry["from"]), bool(entry.get("kept")), alone)
    todo = [rid for rid in todo if rid not in out.examples]
    # 2. the bundled puzzles: for each rule, the one that uses it soonest
    if todo and use_bundled:
        seen = _bundled_uses(rules, todo, say, bounded)
        for rid in todo:
            # the soonest use whose steps are proved, a step the walkthrough takes itself
            # before one it passes over (sorted so, then by length, then label)
            for _o, _n, label, puzzle, use in sorted(seen.get(rid, []), key=lambda t: t[:3]):
                if take(rid, puzzle, use, label):
                    break
        todo = [rid for rid in todo if rid not in out.examples]
    # 3. the generator
    for rid in todo:
        if not generate:
            out.missing[rid] = rejected.get(rid, "no bundled or cached puzzle uses it")
            continue
        say(f"{rid}: generating a puzzle that needs it (at most {seconds:g} s)")
        try:
            made = bounded(f"generating a puzzle for {rid}", generate_for, rid, rules,
                           seconds)
        except DeducerError as e:
            out.missing[rid] = f"the generator cannot make a puzzle that needs it: {e}"
            continue
        if made is None:
            out.missing[rid] = rejected.get(
                rid, f"no bundled puzzle uses it, and the generator found none in {seconds:g} s")
            continue
        source, puzzle = made
        use = bounded(f"walking {source}", first_uses, puzzle, rules, [rid]).get(rid)
        if use is None:  # the generator's rating walk and this one disagree
            out.missing[rid] = f"the walkthrough of the puzzle of {source} does not use it"
        elif not take(rid, puzzle, use, source):
            out.missing[rid] = rejected[rid]


def _bundled_uses(rules, todo: list[str], say, bounded) -> dict[str, list]:
    """For each rule of ``todo``, where the bundled puzzles' walkthroughs first use it:
    ``(passed over, steps, label, puzzle, use)`` per puzzle."""
    seen: dict[str, list[tuple[bool, int, str, Puzzle, Use]]] = {}
    walked = list(bundled())
    for label, puzzle in walked:
        say(f"walking {label}")
        for rid, use in bounded(f"walking {label}", first_uses, puzzle, rules,
                                todo).items():
            seen.setdefault(rid, []).append(
                (use.instead is not None, len(use.steps), label, puzzle, use))
    # a walk for all rules at once takes a chain step the walkthrough makes for one
    # wanted chain rule as that rule's first use, so a rung offering a chain only beside
    # it (a bivalue chain beside a shorter forcing chain) is asked there on its own
    kinds = {r.id: r.kind for r in rules}
    for rid in [r for r in todo if kinds[r] == "chain" and r not in seen]:
        for label, puzzle in walked:
            say(f"walking {label} for {rid} alone")
            use = bounded(f"walking {label}", first_uses, puzzle, rules, [rid]).get(rid)
            if use is not None:
                seen.setdefault(rid, []).append(
                    (use.instead is not None, len(use.steps), label, puzzle, use))
    return seen


def cache_text(search: Search) -> str:
    """The example cache's text for ``search``'s examples (scripts/technique_examples.py):
    a bundled puzzle by its label, a generated one by its command and its text."""

    lines = [
        "# Technique examples for `deducer rules --pages` (written by",
        "# scripts/technique_examples.py; do not edit by hand). For each rule, the puzzle whose",
        "# walkthrough shows it: a bundled puzzle (`from` its label) or a generated one (`from`",
        "# the command that makes it again, and its text, so that pages need not generate it).",
        "# `kept: true`: made by an earlier generator, whose command no longer makes it; kept",
        "# because this one finds none (the script says so) and the example still holds.",
        "version: 1",
        "examples:",
    ]
    for rid, ex in search.examples.items():
        lines.append(f"  {rid}:")
        lines.append(f"    from: {json.dumps(ex.source)}")
        if not ex.source.startswith("puzzles/"):
            lines.append("    puzzle: |")
            lines += ["      " + ln for ln in formats.dumps(ex.puzzle, "pipe").splitlines()]
        if ex.kept:
            lines.append("    kept: true")
    return "\n".join(lines) + "\n"
