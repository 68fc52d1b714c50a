"""Fixtures for rules' unit tests: a position from text, and what a rule does there.

One kit for rule authors and for deducer's own tests. A position is written as a puzzle
(any format deducer reads; the ``|`` format shows it best): ``(1,3)`` pencil marks are the
cell's candidates, a digit is written in, an empty cell may hold 1..9. No internal
classes, no bit masks::

    from deducer.rules.fixture import fire, position

    view = position(r'''
        \\|4\\|16\\|6\\
        \\12|(1,3)|(7,9)|(1,2,4,5)
        \\14|(1,3)|(7,9)|(1,2,4,5)
    ''')
    (found,) = fire(sum_parity, view, run="r2c1>")
    assert found.eliminations == {"r2c4": [1, 5]}
    assert fire(sum_parity, view, run="r1c2v") == []

Cells are named ``r2c4`` (1-based, as in the sentences); runs by their clue square and an
arrow: ``r2c1>`` (across) or ``r1c2v`` (down); ``→`` and ``↓`` work too. A position may
also set candidates, written digits and live combinations by name (``position(p,
cands={"r2c2": "13"}, placed={"r2c3": 2}, live={"r2c1>": ["1+9", "2+8"]})``), and a rule
is a ``@rule`` function, a :class:`Rule` from :func:`load_rule`, or a built-in rule's id.

What a deduction changes, and the board it leaves, are the engine's own
(:mod:`deducer.engine.kernel`): a malformed deduction is refused as the engine refuses it,
and a deduction's text is the sentence the walkthrough would print.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from ..engine import kernel
from ..engine.registry import RULE_MARK, Rule, all_rules, load_file
from ..engine.sentences import effect_text, worded
from ..engine.state import Context, Deduction, State, View, resolve_proof
from ..errors import DeducerError
from ..puzzle import formats
from ..puzzle.combos import BIT, DIGITS, mask_of
from ..puzzle.fileio import read_input
from ..puzzle.model import Puzzle

__all__ = ["FIXTURE_SUFFIX", "Found", "FixtureResult", "cell_id", "core_rule", "fire", "first",
           "fixture_path", "load_rule", "position", "puzzle", "read_fixtures", "run_fixtures",
           "run_id"]

_ARROWS = {">": "→", "v": "↓", "→": "→", "↓": "↓"}


def puzzle(text: str, *, format: str | None = None) -> Puzzle:  # noqa: A002 (like --format)
    """A puzzle from its text (any format deducer reads; indentation ignored)."""
    return formats.loads(textwrap.dedent(text).strip("\n"), format)


def position(source: str | Puzzle, *, format: str | None = None,  # noqa: A002
             cands: dict[str, str | int] | None = None, placed: dict[str, int] | None = None,
             live: dict[str, list[str]] | None = None, sync: bool = True) -> View:
    """The read-only view a rule function receives, for the position ``source`` (a
    puzzle's text, or a :class:`Puzzle`) describes.

    Pencil marks are the candidates of their cell; a digit (an entry or a given) is written
    in, and leaves the other cells of its runs, and every combination of its runs without
    it dies, as in the engine; any other cell may hold 1..9 (its parity, in a parity
    puzzle). A file's text works too: ``position(Path("pos.txt").read_text())``.

    ``cands``: cell name -> the digits it may still hold (``"139"``); ``placed``: cell
    name -> a digit written in; ``live``: run label -> the combinations still possible
    (``["1+9", "2+8"]``). Without ``sync`` written digits take nothing from their runs.
    """
    p = source if isinstance(source, Puzzle) else puzzle(source, format=format)
    masks = p.initial_masks(with_entries=True)
    for rc, m in p.pencil.items():
        masks[p.index[rc]] = m
    for name, ds in (cands or {}).items():
        masks[cell_id(p, name)] = BIT[ds] if isinstance(ds, int) else mask_of(
            int(ch) for ch in str(ds) if ch.isdigit())
    state = State(p, masks)
    fixed = {cell_id(p, name): d for name, d in (placed or {}).items()}
    for rc, d in {**p.entries, **p.givens}.items():
        fixed.setdefault(p.index[rc], d)
    for label, cs in (live or {}).items():
        state.live[run_id(p, label)] = tuple(mask_of(map(int, c.split("+"))) for c in cs)
    for i, d in fixed.items():
        if sync:
            kernel.write(state, i, d)
        else:
            masks[i], state.placed[i] = BIT[d], True
    return View(state, Context(p))


def _puzzle_of(where: View | Puzzle) -> Puzzle:
    return where if isinstance(where, Puzzle) else where.puzzle


def cell_id(where: View | Puzzle, name: str) -> int:
    """The cell index of ``r3c4`` (what a Deduction's ``cells`` hold)."""
    try:
        r, c = name.lower().lstrip("r").split("c")
        return _puzzle_of(where).index[(int(r) - 1, int(c) - 1)]
    except (ValueError, KeyError):
        raise DeducerError(f"no white cell {name!r} in this position") from None


def run_id(where: View | Puzzle, label: str) -> int:
    """The run id of ``r2c1>`` (across) or ``r1c2v`` (down), named by its clue square."""
    runs = _puzzle_of(where).runs
    label = label.strip()
    want = label[:-1] + _ARROWS.get(label[-1:], label[-1:])
    for r in runs:
        if r.label == want:
            return r.id
    raise DeducerError(f"no run {label!r}; the runs are {', '.join(r.label for r in runs)}")


def load_rule(rule_file: str | Path, rule_id: str) -> Rule:
    """A rule of a YAML rule file, as the engine loads it (for :func:`fire`)."""
    for r in load_file(rule_file):
        if r.id == rule_id:
            return r
    raise DeducerError(f"no rule {rule_id!r} in this file", path=str(rule_file))


@lru_cache(maxsize=1)
def _core() -> dict[str, Rule]:
    return {r.id: r for r in all_rules()}


def core_rule(rule_id: str) -> Rule:
    """A built-in rule (rules/core.yaml) by id, enabled or not."""
    got = _core().get(rule_id)
    if got is None:
        raise DeducerError(f"no built-in rule {rule_id!r}")
    return got


@dataclass
class Found:
    """What one deduction really changes in the position, in names."""

    placements: dict[str, int] = field(default_factory=dict)  # "r2c3" -> 7
    eliminations: dict[str, list[int]] = field(default_factory=dict)  # "r2c3" -> [1, 5]
    dropped: dict[str, list[str]] = field(default_factory=dict)  # "r2c1→" -> ["1+9"]
    values: dict = field(default_factory=dict)  # the template values the rule gave
    #: the sentence a walkthrough prints for the step (the rule's ``text``, or its YAML
    #: template filled in; empty for a bare function that gives none)
    text: str = ""
    deduction: Deduction | None = None  # as the rule yielded it (its proof, its size)
    #: the whole case analysis (the rule's ``detail`` template; "" when it has none or it
    #: says no more than ``text``)
    detail: str = ""

    @property
    def full(self) -> str:
        """The sentence and its detail: everything a reader can unfold."""
        return f"{self.text} {self.detail}".strip()


def fire(rule: Callable | Rule | str, view: View, run: str | int | None = None,
         **params: Any) -> list[Found]:
    """Every deduction ``rule`` yields in ``view`` that changes something, in order (the
    engine applies the first). ``rule`` is a rule function (``@rule``-marked), a
    :class:`Rule` from :func:`load_rule` or a built-in rule's id; ``run`` names the run a
    ``scope: run`` rule is asked about (a label, or a run id); ``params`` are its keyword
    arguments (over the rule file's)."""
    return list(_found(rule, view, run, params))


def first(rule: Callable | Rule | str, view: View, run: str | int | None = None,
          **params: Any) -> Found | None:
    """The deduction the engine would take from ``rule`` here (the first that changes
    something; None: the rule does not fire). Arguments as for :func:`fire`."""
    return next(_found(rule, view, run, params), None)


def _as_rule(rule: Callable | Rule | str) -> Rule:
    if isinstance(rule, str):
        return core_rule(rule)
    if isinstance(rule, Rule):
        assert rule.func is not None  # resolved by load_rule
        return rule
    if not isinstance(getattr(rule, RULE_MARK, None), tuple):
        raise DeducerError(f"{getattr(rule, '__name__', rule)!r} is not marked with @rule")
    # a bare function: a rule of its own, with no template (its deductions are checked
    # as any rule's are, and named after it)
    name = getattr(rule, "__qualname__", getattr(rule, "__name__", "rule"))
    return Rule(id=name, name=name, priority=0, weight=0.0, score=0,
                implementation=f"{getattr(rule, '__module__', '?')}:{name}", explain="",
                func=rule)


def _found(rule: Callable | Rule | str, view: View, run: str | int | None,
           params: dict) -> Iterator[Found]:
    r = _as_rule(rule)
    rid = run_id(view, run) if isinstance(run, str) else run
    func = r.func
    assert func is not None
    kw = {**r.params, **params}
    out = func(view, **kw) if rid is None else func(view, rid, **kw)
    state = view.suppose()  # the position as the rule saw it, to measure on
    for ded in out or ():
        eff = kernel.effect(state, r, ded)
        if eff is not None:
            yield _named(r, view, ded, eff)


def _named(rule: Rule, view: View, ded: Deduction, eff: kernel.Effect) -> Found:
    """``ded`` in names, worded as the engine words it: its proof built on the position it
    was found in, its sentence on the board it leaves (a copy: the position stays)."""
    resolve_proof(ded)
    after = view.suppose()
    kernel.apply(after, eff)
    text, detail = ded.text or "", ""
    if not text and rule.explain:
        shown = View(after, view.context)
        text, detail = worded(rule, ded, shown, effect_text(shown, dict(eff.place),
                                                            dict(eff.elim), dict(eff.drop)))
    return Found(
        placements={view.cell_name(i): d for i, d in eff.place},
        eliminations={view.cell_name(i): list(DIGITS[m]) for i, m in eff.elim},
        dropped={view.puzzle.runs[r].label: sorted(view.combo(c) for c in cs)
                 for r, cs in eff.drop},
        values=dict(ded.values), text=text, deduction=ded, detail=detail)


# ---------------------------------------------------------------------------- fixture files
#: the name of a rule file's fixture file beside it: ``sum_parity.yaml`` ->
#: ``sum_parity.fixtures.yaml`` (``deducer rules test`` runs it)
FIXTURE_SUFFIX = ".fixtures.yaml"
_CASE_KEYS = {"rule", "position", "cands", "placed", "live", "makes", "silent", "note"}
_MAKE_KEYS = {"run", "placements", "eliminations", "dropped"}


def fixture_path(rule_file: str | Path) -> Path:
    """Where the fixture file of ``rule_file`` lives (it may not exist)."""
    p = Path(rule_file)
    return p.with_name(p.name.removesuffix(".yaml").removesuffix(".yml") + FIXTURE_SUFFIX)


@dataclass
class FixtureResult:
    """What one fixture file's cases came to: ``checked`` claims (a deduction made, a run
    silent) and the ``problems`` (one line each, naming the case and the rule)."""

    path: str
    checked: int = 0
    problems: list[str] = field(default_factory=list)
    rules: set[str] = field(default_factory=set)


def read_fixtures(path: str | Path) -> list[dict]:
    """The cases of a fixture file (``fixtures:``, a list of mappings: ``rule``,
    ``position``, optional ``cands``/``placed``/``live``, ``makes``, ``silent``), checked
    for their shape; a one-line :class:`DeducerError` naming the file otherwise."""

    where = str(path)
    try:
        data = yaml.safe_load(read_input(path).decode("utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError, RecursionError) as e:
        raise DeducerError(f"not a fixture file (YAML): {str(e).splitlines()[0]}",
                           path=where) from None
    cases = data.get("fixtures") if isinstance(data, dict) else None
    if not isinstance(cases, list):
        raise DeducerError("a fixture file holds 'fixtures:', a list of cases", path=where)
    for k, case in enumerate(cases, 1):
        if not isinstance(case, dict) or not isinstance(case.get("rule"), str) \
                or not isinstance(case.get("position"), str):
            raise DeducerError(f"case {k}: needs 'rule' (an id) and 'position' (the "
                               "puzzle text, pencil marks as candidates)", path=where)
        unknown = set(case) - _CASE_KEYS
        if unknown:
            raise DeducerError(f"case {k}: unknown key(s) {', '.join(sorted(unknown))} "
                               f"(allowed: {', '.join(sorted(_CASE_KEYS))})", path=where)
        makes = case.get("makes") or []
        silent = case.get("silent") or []
        if not isinstance(makes, list) or not all(
                isinstance(m, dict) and not set(m) - _MAKE_KEYS for m in makes):
            raise DeducerError(f"case {k}: 'makes' is a list of deductions (keys: "
                               f"{', '.join(sorted(_MAKE_KEYS))})", path=where)
        if not (silent is True or isinstance(silent, list)):
            raise DeducerError(f"case {k}: 'silent' is a list of runs (r1c2v, r2c1>) or "
                               "true (the rule makes no deduction at all)", path=where)
    return cases


def run_fixtures(path: str | Path, rules: dict[str, Rule] | None = None) -> FixtureResult:
    """Check every case of the fixture file ``path``: each deduction of ``makes`` is one
    the rule yields there (its placements, eliminations and dropped combinations, as
    :func:`fire` names them: effects, never the sentence), and the rule yields nothing that
    changes anything on each run of ``silent`` (``true``: anywhere). ``rules``: the rules
    by id (a rule file's); a built-in rule's id is found in the core ladder otherwise."""
    out = FixtureResult(str(path))
    ladder = list(_core().values())
    for k, case in enumerate(read_fixtures(path), 1):
        rid = case["rule"]
        rule = (rules or {}).get(rid) or _core().get(rid)
        if rule is None:
            out.problems.append(f"case {k}: no rule {rid!r} (neither the file's nor a "
                                "built-in one)")
            continue
        out.rules.add(rid)
        try:
            view = position(case["position"], cands=case.get("cands"),
                            placed=case.get("placed"), live=case.get("live"))
            view.context.rules = [*(rules or {}).values(), *ladder]  # chains find links
            _check_case(out, k, rule, view, case)
        except DeducerError as e:
            out.problems.append(f"case {k} ({rid}): {e}")
    return out


def _effect_of(m: dict) -> tuple:
    return ({str(c): int(d) for c, d in (m.get("placements") or {}).items()},
            {str(c): sorted(int(d) for d in ds)
             for c, ds in (m.get("eliminations") or {}).items()},
            {run_label(str(r)): sorted(str(x) for x in cs)
             for r, cs in (m.get("dropped") or {}).items()})


def run_label(label: str) -> str:
    """``r2c1>`` as the sentences write it (``r2c1→``)."""
    label = label.strip()
    return label[:-1] + _ARROWS.get(label[-1:], label[-1:])


def _check_case(out: FixtureResult, k: int, rule: Rule, view: View, case: dict) -> None:
    rid = rule.id
    for m in case.get("makes") or []:
        run = m.get("run")
        if (run is None) != (rule.scope != "run"):
            out.problems.append(f"case {k} ({rid}): a deduction of a "
                                f"{'run' if rule.scope == 'run' else 'global'} rule "
                                f"{'needs' if rule.scope == 'run' else 'takes no'} 'run'")
            continue
        want = _effect_of(m)
        got = [(f.placements, {c: sorted(ds) for c, ds in f.eliminations.items()},
                {run_label(r): sorted(cs) for r, cs in f.dropped.items()})
               for f in fire(rule, view, run=run)]
        out.checked += 1
        if want not in got:
            shown = "; ".join(_said(g) for g in got[:3]) or "nothing"
            out.problems.append(f"case {k} ({rid}{' on ' + run if run else ''}): must make "
                                f"{_said(want)}, but makes {shown}")
    silent = case.get("silent") or []
    if silent is True:
        runs: list[str | None] = ([r.label for r in view.puzzle.runs]
                                  if rule.scope == "run" else [None])
    else:
        runs = [str(r) for r in silent]
    for run in runs:
        f = first(rule, view, run=run)
        out.checked += 1
        if f is not None:
            made = _said((f.placements, f.eliminations, f.dropped))
            out.problems.append(f"case {k} ({rid}{' on ' + run if run else ''}): must not "
                                f"fire, but makes {made}")


def _said(effect: tuple) -> str:
    place, elim, drop = effect
    parts = [f"{c} = {d}" for c, d in place.items()]
    parts += [f"{', '.join(map(str, ds))} leave {c}" for c, ds in elim.items()]
    parts += [f"{', '.join(cs)} ruled out for {r}" for r, cs in drop.items()]
    return ", ".join(parts) or "no change"
