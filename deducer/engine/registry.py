"""Rules declared in YAML: load, validate, order, and resolve their implementations.

The contract is docs/rule-contract.md: the keys of a rule entry, plus ``scope`` (``run``:
the function is called as ``f(view, rid)`` for runs touched since it last looked, which
keeps explain fast; ``global``: ``f(view)``) and ``params`` (keyword arguments passed to
the function, so one implementation can serve several rungs, e.g. naked pairs/triples).

A rule file runs code: its ``implementation`` is imported and called. Only functions
marked with :func:`deducer.rules.rule` are called (never an arbitrary library function
like ``pydoc:pipepager``), but importing a module runs it: load only rule files you trust.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FunctionType

from ..errors import RuleError
from ..puzzle.model import MAX_CELLS

REQUIRED = ("id", "name", "priority", "weight", "score", "implementation", "explain")
OPTIONAL = ("enabled", "scope", "params", "description", "tier", "hint", "kind", "growth",
            "aka", "teach", "case_of", "detail", "walk")
#: teaching keys (technique pages, walkthrough cards): the most names ``aka:`` lists, the
#: longest of them, and the longest ``teach:`` and ``case_of:`` texts
AKA_MAX, AKA_LEN, TEACH_MAX, CASE_OF_MAX = 12, 80, 3000, 400
#: the longest vague hint (one or two sentences a player reads at a glance)
HINT_MAX = 300
#: keys of a rule's ``growth:`` mapping: what one unit of the deduction's size
#: (``Deduction.size``: a chain's links, a region sum's runs beyond two) adds to the rule's
#: weight and score, and at most how many units count
GROWTH_KEYS = ("weight", "score", "max")
SCOPES = ("run", "global")
#: what a rule's steps are to the rating (docs/rule-contract.md): a plain step (simple, or
#: link: one a chain may also use), a chain of steps on an assumption (its length counted
#: against the rule's ``max_len``), trial (Extreme), a guess (Unreasonable)
KINDS = ("simple", "link", "chain", "trial", "guess")
#: the levels a rating names, easiest first; the rule file's ``rating: levels:`` gives the
#: hardest step's weight at most for the first four
LEVELS = ("Easy", "Medium", "Hard", "Expert", "Extreme", "Unreasonable")
#: the score model's features, in the order the rule file lists their coefficients
FEATURES = ("hardest", "effort", "size", "narrow", "scarcity", "bottlenecks", "hard_effort",
            "thinking", "chain", "scan", "scan_mean", "rounds", "round_scan")
#: the features the ``notes`` figure (the chance a solver needs pencil marks) may weigh:
#: the score's and the no-notes solver's (deducer.engine.inhead), docs/rating.md
NOTES_FEATURES = FEATURES + ("held", "head_rounds", "mean_weight", "eliminating")
#: the attribute :func:`deducer.rules.rule` sets on a rule function: the names of the
#: template values it provides (in ``Deduction.values``)
RULE_MARK = "__deducer_rule_values__"
#: the attribute ``@rule(searches=True)`` sets: the rule's steps may rest on trying a run's
#: arrangements (the rating's search floor applies to them)
RULE_SEARCHES = "__deducer_rule_searches__"
#: template fields the engine fills for every rule (from the deduction's cells and runs)
STANDARD_FIELDS = ("effect", "changes", "cell", "cells", "run", "runs", "sum", "length")

# rules/core.yaml at the repository's top is the one source; deducer/data/core.yaml links to
# it, and a wheel carries the file itself, so plain (non-editable) installs find it too
CORE = (Path(__file__).parents[1] / "data" / "core.yaml").resolve()


@dataclass
class Rule:
    """One rule of the ladder as its YAML file declares it (docs/rule-contract.md), with
    its function once loaded."""

    # (every dataclass on a walk's path has a docstring: dataclasses would load inspect to
    # write one, a millisecond and a megabyte of every explain)
    id: str
    name: str
    priority: float
    weight: float
    score: int
    implementation: str
    explain: str
    enabled: bool = True
    scope: str = "global"
    params: dict = field(default_factory=dict)
    description: str = ""
    tier: int | None = None
    #: the vague hint for players: what to look for, naming no cell (``deducer hint``)
    hint: str = ""
    #: the whole case analysis behind the short ``explain`` sentence, a template with the
    #: same fields ("" : the sentence says it all); a step's ``detail`` in the JSON
    detail: str = ""
    kind: str = "simple"
    #: ``walk: false``: a link rule only chains use; the walkthrough (and hints, ``why``,
    #: every step list) never takes one of its steps on the board itself
    walk: bool = True
    #: weight and score one unit of a deduction's size adds, and the units that count
    #: (None: all); see :meth:`weight_of`
    growth_weight: float = 0.0
    growth_score: int = 0
    growth_max: int | None = None
    #: for learners (technique pages, walkthrough cards): the names players use for the
    #: technique, a longer explanation, and what more general technique it is a case of
    aka: tuple[str, ...] = ()
    teach: str = ""
    case_of: str = ""
    source: str = ""  # file it was declared in
    func: Callable | None = field(default=None, repr=False)

    @property
    def searches(self) -> bool:
        """May the rule's steps ask a reader to try a run's arrangements (so weigh at least
        the ladder's permutation check of that run)? Its function says so
        (``@rule(searches=True)``)."""
        return bool(getattr(self.func, RULE_SEARCHES, False))

    @property
    def link(self) -> bool:
        """May the rule be a link of a chain (run on a hypothetical state)? Its ``kind``
        says so: ``link``."""
        return self.kind == "link"

    def to_json(self) -> dict:
        """The rule as ``deducer rules --json`` lists it."""
        return {"id": self.id, "priority": self.priority, "weight": self.weight,
                "score": self.score, "name": self.name, "enabled": self.enabled,
                "scope": self.scope, "source": self.source,
                "implementation": self.implementation, "kind": self.kind,
                "walk": self.walk}

    def _units(self, ded) -> int:
        size = getattr(ded, "size", 0) or 0
        return size if self.growth_max is None else min(size, self.growth_max)

    def weight_of(self, ded) -> float:
        """A deduction's weight: the one it gives, else the rule's weight plus its growth
        for each unit of the deduction's size (a chain's links, a region's extra runs)."""
        if ded.weight is not None:
            return float(ded.weight)
        return round(self.weight + self.growth_weight * self._units(ded), 3)

    def score_of(self, ded) -> int:
        """A deduction's score: the one it gives, else the rule's score plus its growth."""
        if ded.score is not None:
            return int(ded.score)
        return self.score + self.growth_score * self._units(ded)

    def call(self, view, rid: int | None = None):
        func = self.func
        assert func is not None, "a rule's function is resolved when its file is loaded"
        try:
            if self.scope == "run":
                return func(view, rid, **self.params)
            return func(view, **self.params)
        except TypeError as e:
            raise RuleError(f"rule {self.id!r}: calling {self.implementation} failed: {e}",
                            path=self.source) from None


#: nesting a rule file may have (a ladder needs four levels); deeper is refused before the
#: recursive composer sees it, whatever the interpreter's recursion limit is at the time
MAX_NESTING = 100


class _TooDeep(Exception):
    pass


def _refuse_deep(text: str) -> None:
    """Raise _TooDeep when collections nest over MAX_NESTING levels: the parser's events
    come from a loop, so counting them is safe where composing the nodes would recurse."""
    import yaml

    depth = 0
    for ev in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(ev, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_NESTING:
                raise _TooDeep
        elif isinstance(ev, yaml.CollectionEndEvent):
            depth -= 1


def _loader(fast: bool = False):
    """A safe YAML loader that refuses a key given twice in one mapping (YAML says keys are
    unique; PyYAML would silently keep the last, hiding a typo or a merge slip). ``fast``:
    on libyaml's parser where PyYAML has it (ten times faster; only for the bundled core
    file, whose data it reads the same: a user's file keeps the pure-Python parser, whose
    error messages docs/rule-contract.md shows)."""
    import yaml

    base = yaml.CSafeLoader if fast and getattr(yaml, "__with_libyaml__", False) \
        else yaml.SafeLoader

    class Loader(base):  # type: ignore[valid-type,misc]
        pass

    def mapping(loader, node, deep=False):
        seen: dict = {}
        for key_node, _value in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":  # `<<: *base` may be overridden
                continue
            key = loader.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            try:
                if key in seen:
                    raise _Duplicate(key, line, seen[key])
                seen[key] = line
            except TypeError:  # an unhashable key: PyYAML reports it as usual below
                continue
        return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    return Loader


class _Duplicate(Exception):
    def __init__(self, key, line: int, first: int):
        super().__init__(key)
        self.key, self.line, self.first = key, line, first


def _load_yaml(path: Path):
    import yaml

    from ..puzzle.fileio import read_limited

    try:
        data = read_limited(path, str(path), error=RuleError, what="rule files")
    except RuleError as e:
        if e.message == "no such file":
            raise RuleError("rule file not found", path=str(path)) from None
        raise RuleError(f"cannot read rule file: {e.message}", path=str(path)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RuleError(f"cannot read rule file: not UTF-8 text (byte offset {e.start})",
                        path=str(path)) from None
    try:
        core = path == CORE  # the bundled file: its nesting is known, libyaml may read it
        if not core:
            _refuse_deep(text)
        return yaml.load(text, Loader=_loader(core))  # noqa: S506 (a SafeLoader subclass)
    except _Duplicate as e:
        raise RuleError(f"duplicate key {_short(e.key)} (also on line {e.first}); a key "
                        "may appear once per entry", path=str(path), line=e.line) from None
    except yaml.YAMLError as e:
        line = getattr(getattr(e, "problem_mark", None), "line", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise RuleError(f"malformed YAML: {problem}", path=str(path),
                        line=None if line is None else line + 1) from None
    except (RecursionError, _TooDeep):  # the composer recurses once a level
        raise RuleError("malformed YAML: nested too deeply (a rule file needs a few levels)",
                        path=str(path)) from None
    except (ValueError, OverflowError, TypeError) as e:
        # safe_load's constructors raise these for values they cannot build: an integer of
        # over 4300 digits, a date like 2024-13-45, a timestamp offset out of range
        raise RuleError(f"malformed YAML: a value cannot be read ({type(e).__name__}: {e})",
                        path=str(path)) from None


def _short(v) -> str:
    """A bounded repr for messages (a YAML alias bomb must not be printed in full)."""
    import reprlib

    r = reprlib.Repr()
    r.maxlevel = 2
    r.maxlist = r.maxtuple = r.maxdict = r.maxset = r.maxfrozenset = 4
    r.maxstring = r.maxother = r.maxlong = 40
    text = r.repr(v)
    return text if len(text) <= 80 else text[:77] + "..."


def _number(v, *, signed: bool = False) -> bool:
    """A finite number >= 0, or of any sign when ``signed`` (a huge integer is no number of
    ours either)."""
    if isinstance(v, bool) or not isinstance(v, int | float):
        return False
    try:
        f = float(v)
    except OverflowError:
        return False
    return math.isfinite(f) and (signed or f >= 0)


def _resolve(impl: str, base: Path, rule_id: str, source: str) -> Callable:
    target, sep, fname = impl.rpartition(":")
    if not sep or not target or not fname:
        raise RuleError(f"rule {rule_id!r}: implementation {impl!r} must be "
                        "'module:function' or 'file.py:function'", path=source)
    try:
        if target.endswith(".py"):
            file = (base / target).resolve()
            if not file.is_file():
                raise RuleError(f"rule {rule_id!r}: implementation file {target!r} not found "
                                f"(looked at {file})", path=source)
            modname = f"deducer_user_rules_{abs(hash(str(file)))}"
            module = sys.modules.get(modname)
            if module is None:
                spec = importlib.util.spec_from_file_location(modname, file)
                assert spec is not None and spec.loader is not None  # a .py file path
                module = importlib.util.module_from_spec(spec)
                sys.modules[modname] = module
                try:
                    spec.loader.exec_module(module)
                except BaseException:  # no half-imported module left for the next load
                    sys.modules.pop(modname, None)
                    raise
        else:
            module = importlib.import_module(target)
    except RuleError:
        raise
    except (Exception, SystemExit) as e:  # a user's module may fail in any way; name the rule
        raise RuleError(f"rule {rule_id!r}: importing {target!r} failed: "
                        f"{type(e).__name__}: {e}", path=source) from None
    func = getattr(module, fname, None)
    if not callable(func):
        raise RuleError(f"rule {rule_id!r}: {target!r} has no function {fname!r}", path=source)
    if not isinstance(getattr(func, RULE_MARK, None), tuple):
        # only declared rule functions run: a YAML file alone must not be able to call an
        # arbitrary library function (pydoc:pipepager would run a shell command)
        raise RuleError(f"rule {rule_id!r}: {impl} is not a rule implementation (mark the "
                        "function with @rule from deducer.rules); refusing to call it",
                        path=source)
    return func


def load_file(path: str | Path) -> list[Rule]:
    """Read and validate one rule file."""
    p = Path(path)
    src = str(p)
    data = _load_yaml(p)
    _keep_sections(p, data)
    if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
        raise RuleError("a rule file must be a mapping with a 'rules:' list", path=src)
    unknown_top = set(data) - {"rules", "version", "rating", "order"}
    if unknown_top:
        raise RuleError(f"unknown top-level key(s): {', '.join(sorted(unknown_top))}", path=src)
    out: list[Rule] = []
    seen: set[str] = set()
    for k, entry in enumerate(data["rules"], start=1):
        where = f"entry {k}"
        if not isinstance(entry, dict):
            raise RuleError(f"{where}: must be a mapping of keys", path=src)
        rid = entry.get("id")
        if isinstance(rid, str):
            where = f"rule {rid!r}"
        unknown = set(entry) - set(REQUIRED) - set(OPTIONAL)
        if unknown:
            raise RuleError(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))} "
                            f"(allowed: {', '.join(REQUIRED + OPTIONAL)})", path=src)
        missing = [x for x in REQUIRED if x not in entry]
        if missing:
            raise RuleError(f"{where}: missing key(s) {', '.join(missing)}", path=src)
        if not isinstance(rid, str) or not rid or not rid.replace("-", "").isalnum():
            raise RuleError(f"{where}: id must be a word like 'unique-combination'", path=src)
        if rid in seen:
            raise RuleError(f"{where}: duplicate id in this file", path=src)
        seen.add(rid)
        for key in ("priority", "weight"):
            v = entry[key]
            if not _number(v):
                raise RuleError(f"{where}: bad {key} {_short(v)} (a number >= 0)", path=src)
        score = entry["score"]
        if isinstance(score, bool) or not isinstance(score, int) or not 0 <= score <= 10**9:
            raise RuleError(f"{where}: bad score {_short(score)} (a whole number 0..10**9)",
                            path=src)
        for key in ("name", "implementation", "explain"):
            if not isinstance(entry[key], str) or not entry[key].strip():
                raise RuleError(f"{where}: {key} must be non-empty text", path=src)
        detail = entry.get("detail", "")
        if not isinstance(detail, str) or ("detail" in entry and not detail.strip()):
            raise RuleError(f"{where}: detail must be non-empty text", path=src)
        enabled = entry.get("enabled", True)
        if not isinstance(enabled, bool):
            raise RuleError(f"{where}: enabled must be true or false", path=src)
        scope = entry.get("scope", "global")
        if scope not in SCOPES:
            raise RuleError(f"{where}: scope must be one of {', '.join(SCOPES)}", path=src)
        params = entry.get("params") or {}
        if not isinstance(params, dict):
            raise RuleError(f"{where}: params must be a mapping", path=src)
        if "max_len" in params:
            max_len = params["max_len"]
            if isinstance(max_len, bool) or not isinstance(max_len, int) \
                    or not 1 <= max_len <= MAX_CELLS:
                raise RuleError(f"{where}: params: max_len {_short(max_len)} is not a chain "
                                f"length 1..{MAX_CELLS} (a link per white cell at most)",
                                path=src)
        tier = entry.get("tier")
        if tier is not None and (isinstance(tier, bool) or not isinstance(tier, int)):
            raise RuleError(f"{where}: tier must be a whole number", path=src)
        kind = entry.get("kind", "simple")
        if kind not in KINDS:
            raise RuleError(f"{where}: kind must be one of {', '.join(KINDS)}", path=src)
        walk = entry.get("walk", True)
        if not isinstance(walk, bool):
            raise RuleError(f"{where}: walk must be true or false", path=src)
        if not walk and kind != "link":
            # a rule neither the walk nor a chain asks would never be used
            raise RuleError(f"{where}: walk: false is for rules of kind: link (chains use "
                            f"them), not kind: {kind}", path=src)
        description = entry.get("description", "")
        if description is None:
            description = ""
        if not isinstance(description, str):  # str() of an alias bomb would never finish
            raise RuleError(f"{where}: description must be text", path=src)
        hint = _hint(entry.get("hint"), where, src)
        growth = _growth(entry.get("growth"), where, src)
        aka, teach, case_of = _teaching(entry, where, src)
        rule = Rule(
            id=rid, name=entry["name"], priority=float(entry["priority"]),
            weight=float(entry["weight"]), score=score,
            implementation=entry["implementation"], explain=entry["explain"],
            enabled=enabled, scope=scope, params=dict(params),
            description=description, tier=tier, hint=hint, kind=kind, walk=walk, source=src,
            detail=detail,
            growth_weight=growth[0], growth_score=growth[1], growth_max=growth[2],
            aka=aka, teach=teach, case_of=case_of,
        )
        _check_template(rule)
        rule.func = _resolve(rule.implementation, p.parent, rid, src)
        _check_fields(rule)
        _check_params(rule)
        out.append(rule)
    return out


def _hint(value, where: str, src: str) -> str:
    """The ``hint:`` key: absent, or one short piece of text without template fields (a
    vague hint names no cell, so nothing is filled in)."""
    if value is None:
        return ""
    if not isinstance(value, str) or not value.strip():
        raise RuleError(f"{where}: hint must be non-empty text", path=src)
    if len(value) > HINT_MAX:
        raise RuleError(f"{where}: hint is {len(value)} characters long (at most {HINT_MAX})",
                        path=src)
    if "{" in value or "}" in value or "\n" in value.strip():
        raise RuleError(f"{where}: hint must be one line of plain text (no {{fields}}: a "
                        "vague hint names no cell)", path=src)
    return " ".join(value.split())


def _teaching(entry: dict, where: str, src: str) -> tuple[tuple[str, ...], str, str]:
    """The optional ``aka:``, ``teach:`` and ``case_of:`` keys, checked: names are a list
    of short one-line texts, ``teach`` is plain text (blank lines part paragraphs),
    ``case_of`` one line; all shown as written, never filled in like a template."""
    aka = entry.get("aka")
    if aka is None:
        aka = []
    if not isinstance(aka, list) or len(aka) > AKA_MAX or not all(
            isinstance(a, str) and a.strip() and "\n" not in a.strip()
            and len(a.strip()) <= AKA_LEN for a in aka):
        raise RuleError(f"{where}: aka must be a list of at most {AKA_MAX} names, each one "
                        f"line of text of at most {AKA_LEN} characters", path=src)
    names = tuple(" ".join(a.split()) for a in aka)
    texts = []
    for key, most, lines in (("teach", TEACH_MAX, True), ("case_of", CASE_OF_MAX, False)):
        v = entry.get(key)
        if v is None:
            texts.append("")
            continue
        if not isinstance(v, str) or not v.strip():
            raise RuleError(f"{where}: {key} must be non-empty text", path=src)
        if len(v) > most:
            raise RuleError(f"{where}: {key} is {len(v)} characters long (at most {most})",
                            path=src)
        if not lines and "\n" in v.strip():
            raise RuleError(f"{where}: {key} must be one line of text", path=src)
        # paragraphs kept, each one's own line breaks and runs of spaces made single
        # spaces: a folded (>-) or quoted text parts paragraphs with one line break, a
        # literal (|) one with a blank line
        sep = "\n\n" if "\n\n" in v.strip() else "\n"
        paras = [" ".join(p.split()) for p in v.strip().split(sep)]
        texts.append("\n\n".join(p for p in paras if p))
    return names, texts[0], texts[1]


def _growth(g, where: str, src: str) -> tuple[float, int, int | None]:
    """(weight, score, max) of a ``growth:`` mapping, checked."""
    if g is None:
        return 0.0, 0, None
    if not isinstance(g, dict):
        raise RuleError(f"{where}: growth must be a mapping like {{weight: 0.05, score: 20}}",
                        path=src)
    unknown = set(g) - set(GROWTH_KEYS)
    if unknown:
        raise RuleError(f"{where}: unknown growth key(s) {', '.join(sorted(map(str, unknown)))}"
                        f" (allowed: {', '.join(GROWTH_KEYS)})", path=src)
    weight = g.get("weight", 0.0)
    if not _number(weight):
        raise RuleError(f"{where}: bad growth weight {_short(weight)} (a number >= 0)",
                        path=src)
    out: list[int | None] = []
    for key, default in (("score", 0), ("max", None)):
        v = g.get(key, default)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)
                              or not 0 <= v <= 10**6):
            raise RuleError(f"{where}: bad growth {key} {_short(v)} (a whole number "
                            "0..10**6)", path=src)
        out.append(v)
    return float(weight), out[0] or 0, out[1]


def _templates(rule: Rule) -> list[tuple[str, str]]:
    """(key, template) of the rule's sentence templates: ``explain`` and ``detail``."""
    return [("explain", rule.explain)] + ([("detail", rule.detail)] if rule.detail else [])


def _check_fields(rule: Rule) -> None:
    """Every field of the templates is one the engine fills or one the function declares
    (``@rule(values=...)``): a typo is reported when the file is loaded, not when the rule
    first fires."""
    provided = set(STANDARD_FIELDS) | set(getattr(rule.func, RULE_MARK, ()))
    for key, template in _templates(rule):
        _check_fields_of(rule, key, template, provided)


def _check_fields_of(rule: Rule, key: str, template: str, provided: set[str]) -> None:
    import string

    for _text, fname, _spec, _conv in string.Formatter().parse(template):
        if fname is not None and fname not in provided:
            declared = ", ".join(getattr(rule.func, RULE_MARK, ())) or "none"
            raise RuleError(f"rule {rule.id!r}: {key} template field {{{fname}}} is neither "
                            f"a standard field ({', '.join(STANDARD_FIELDS)}) nor a value "
                            f"{rule.implementation} declares with @rule(values=...) (it "
                            f"declares: {declared})", path=rule.source)


def _check_params(rule: Rule) -> None:
    """The ``params`` are keywords the function takes, and it gets every one it needs: a
    misspelt limit (``serach_nodes``) is reported when the file is loaded, not when the
    rule first runs (or silently never)."""
    positional = 2 if rule.scope == "run" else 1  # the view, and the run id of a run rule
    if _plainly_binds(rule.func, positional, rule.params):
        return  # the usual case, told without inspect (a megabyte, loaded for nothing)
    import inspect

    try:
        sig = inspect.signature(rule.func)  # type: ignore[arg-type]  # resolved above
    except (TypeError, ValueError):  # a builtin without a signature: found out when called
        return
    try:
        sig.bind(None, *([0] if rule.scope == "run" else []), **rule.params)
    except TypeError as e:
        raise RuleError(f"rule {rule.id!r}: params {_short(rule.params)} do not fit "
                        f"{rule.implementation}: {e}", path=rule.source) from None


#: code-object flags (inspect.CO_VARARGS, CO_VARKEYWORDS; stable since Python 2), named here
#: so that checking a rule's signature does not import inspect
_CO_VARARGS, _CO_VARKEYWORDS = 0x04, 0x08


def _plainly_binds(func, positional: int, params: dict) -> bool:
    """Does a plain Python function certainly take ``positional`` arguments and ``params``
    as keywords? Read from its code object; False for anything else (a wrapped or built-in
    function, a partial, a signature that does not fit), which inspect then decides (and
    words the error)."""
    if (not isinstance(func, FunctionType) or hasattr(func, "__wrapped__")
            or hasattr(func, "__signature__")):
        return False  # (a bound method's code counts its self, for one)
    code = func.__code__
    flags = code.co_flags
    if flags & _CO_VARARGS:  # *args: left to inspect
        return False
    names = code.co_varnames
    npos, nkw = code.co_argcount, code.co_kwonlyargcount
    if positional > npos or code.co_posonlyargcount > positional:
        return False
    by_keyword = set(names[positional:npos + nkw])
    if any(key not in by_keyword for key in params) and not flags & _CO_VARKEYWORDS:
        return False
    defaults = func.__defaults__ or ()
    kwdefaults = func.__kwdefaults__ or {}
    required = list(names[positional:npos - len(defaults)])
    required += [n for n in names[npos:npos + nkw] if n not in kwdefaults]
    return all(n in params for n in required)


def _check_template(rule: Rule) -> None:
    for key, template in _templates(rule):
        _check_template_of(rule, key, template)


def _check_template_of(rule: Rule, key: str, template: str) -> None:
    import string

    try:
        parts = list(string.Formatter().parse(template))
    except ValueError as e:
        raise RuleError(f"rule {rule.id!r}: {key} template is malformed: {e}",
                        path=rule.source) from None
    for _text, fname, spec, _conv in parts:
        if fname is None:
            continue
        # {cell[x]} or {run.attr} fail with errors the sentence builder does not expect, and
        # {cell:>999999999} builds a gigabyte string: only plain names and small specs
        if not fname.isidentifier():
            raise RuleError(f"rule {rule.id!r}: {key} template field {{{_short(fname)[1:-1]}}} "
                            "must be a plain name like {cell} (no index, attribute or position)",
                            path=rule.source)
        if spec and ("{" in spec or any(len(n) > 3 for n in re.findall(r"[0-9]+", spec))):
            raise RuleError(f"rule {rule.id!r}: {key} template field {{{fname}}} has the "
                            f"format spec {_short(spec)}; only small widths are allowed",
                            path=rule.source)


def _by_id(extra: Sequence[str | Path], core: bool = True) -> dict[str, Rule]:
    """The rules of the core file (unless not ``core``) and of the user files, by id: a
    later file's rule replaces an earlier one with the same id."""
    by_id: dict[str, Rule] = {}
    for f in ([CORE] if core else []) + [Path(x) for x in extra]:
        for rule in load_file(f):
            old = by_id.get(rule.id)
            note = (rule.id, rule.source, old.source) if old is not None else None
            if note is not None and note not in REPLACED and len(REPLACED) < 100:
                REPLACED.append(note)
            by_id[rule.id] = rule
    return by_id


#: (id, the replacing file, the replaced rule's file) of each rule a later file replaced,
#: as ladders are loaded: the CLI says so once (a replacement is allowed, and silent in the
#: API, but a user who reused a core id by chance must hear of it)
REPLACED: list[tuple[str, str, str]] = []


def load(extra: Sequence[str | Path] = (), disable: Sequence[str] = (), *,
         core: bool = True) -> Ladder:
    """The active ladder: core rules, overridden or extended by user files, in priority order.

    A user rule with an existing id replaces it. Disabled rules are left out.
    """
    by_id = _by_id(extra, core)
    for rid in disable:
        if rid not in by_id:
            raise RuleError(f"cannot disable {rid!r}: no rule has that id (see 'deducer rules')")
        by_id[rid].enabled = False
    rules = Ladder(r for r in by_id.values() if r.enabled)
    rules.sort(key=lambda r: (r.priority, r.id))
    files = ([CORE] if core else []) + [Path(x) for x in extra]
    rules.rating = rating_section(files)
    rules.order = order_section(files, by_id)
    return rules


class Ladder(list):
    """The active rules in ladder order, with the ``rating:`` section of their files (what
    :mod:`deducer.engine.rating` reads besides the rules' own keys)."""

    rating: dict | None = None
    rating_model = None  # built by rating.model_for on first use
    #: the ``order:`` section (:func:`order_section`); None: steps in plain ladder order
    order: dict | None = None

    def part(self, rules) -> Ladder:
        """Some of these rules (a cut-down ladder) with the same ``rating:`` and ``order:``
        sections."""
        out = Ladder(rules)
        out.rating = self.rating
        out.order = self.order
        return out


_CORE_LADDER: Ladder | None = None


def core_ladder() -> Ladder:
    """The core ladder, loaded once (for ratings asked for without a ladder)."""
    global _CORE_LADDER
    if _CORE_LADDER is None:
        _CORE_LADDER = load()
    return _CORE_LADDER


_RATING_CACHE: dict[tuple, object] = {}


def _keep_sections(path: Path, data) -> None:
    """Keep the ``rating:`` and ``order:`` sections of a rule file just read, for
    :func:`_rating_of` and :func:`_order_of`: a ladder then parses each file once, not
    three times."""
    try:
        st = path.stat()
        key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    except OSError:
        return  # read but gone now: the sections are read (and refused) as before
    ok = isinstance(data, dict)
    _RATING_CACHE.setdefault(key, data.get("rating") if ok else None)
    _RATING_CACHE.setdefault(("order", *key), data.get("order") if ok else None)


def _rating_of(path: Path):
    """A file's ``rating:`` section as written (read once per version of the file)."""
    st = path.stat()
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    if key not in _RATING_CACHE:
        data = _load_yaml(path)
        _RATING_CACHE[key] = data.get("rating") if isinstance(data, dict) else None
    return _RATING_CACHE[key]


#: the keys of the ``rating:`` section and of its parts (docs/rule-contract.md)
RATING_KEYS: dict[str, tuple[str, ...]] = {
    "levels": (), "search": ("small", "full", "small_cells", "small_arrangements"),
    "score": ("coefficients", "offset", "fitted"),
    "notes": ("coefficients", "offset", "centre", "passes", "fitted")}


def rating_section(files=None) -> dict:
    """The ``rating:`` section of the core file, each part overridden by the same part of
    later files (a user file may change one threshold or one coefficient)."""
    files = [CORE] if files is None else list(files)
    out: dict = {"levels": {}, "search": {}, "score": {"coefficients": {}},
                 "notes": {"coefficients": {}, "centre": {}}}
    for f in files:
        sec = _rating_of(Path(f))
        if sec is None:
            continue
        src = str(f)
        if not isinstance(sec, dict) or set(sec) - set(RATING_KEYS):
            raise RuleError("rating: must be a mapping of " + ", ".join(RATING_KEYS), path=src)
        for part, keys in RATING_KEYS.items():
            val = sec.get(part)
            if val is None:
                continue
            if not isinstance(val, dict):
                raise RuleError(f"rating: {part}: must be a mapping", path=src)
            allowed = LEVELS[:4] if part == "levels" else keys
            bad = set(val) - set(allowed)
            if bad:
                raise RuleError(f"rating: {part}: unknown key(s) {', '.join(map(str, bad))} "
                                f"(allowed: {', '.join(allowed)})", path=src)
            for k, v in val.items():
                if k in ("small", "full", "fitted"):
                    if not isinstance(v, str):
                        raise RuleError(f"rating: {part}: {k} must be text", path=src)
                elif k in ("coefficients", "centre"):
                    names = FEATURES if part == "score" else NOTES_FEATURES
                    if not isinstance(v, dict) or set(v) - set(names) or not all(
                            _number(x, signed=True) for x in v.values()):
                        raise RuleError(f"rating: {part}: {k} must map features "
                                        f"({', '.join(names)}) to numbers", path=src)
                    out[part][k].update(v)
                    continue
                elif k == "passes":
                    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 9:
                        raise RuleError(f"rating: notes: bad passes {_short(v)} "
                                        "(a whole number 0-9)", path=src)
                elif not _number(v, signed=(k == "offset")):
                    raise RuleError(f"rating: {part}: bad {k} {_short(v)} (a number)",
                                    path=src)
                out[part][k] = v
    missing = [f"levels: {x}" for x in LEVELS[:4] if x not in out["levels"]]
    missing += [f"search: {k}" for k in RATING_KEYS["search"] if k not in out["search"]]
    if missing:
        raise RuleError(f"rating: missing {', '.join(missing)}", path=str(files[0]))
    limits = [out["levels"][x] for x in LEVELS[:4]]
    if limits != sorted(limits):
        raise RuleError("rating: levels: thresholds must rise from Easy to Expert",
                        path=str(files[-1]))
    return out


#: the keys of the ``order:`` section (docs/rule-contract.md, "The order section")
ORDER_KEYS = ("round", "first", "within", "fitted")
#: how the steps of one round are ordered: as found (rule by rule in ladder order, runs by
#: id), by run (runs by id, the round's rules in ladder order on each), or cheapest proof
#: first (fewest facts and runs; ties as found)
WITHIN = ("found", "run", "cost")


def _order_of(path: Path):
    """A file's ``order:`` section as written (None: the file has none)."""
    st = path.stat()
    key = ("order", str(path.resolve()), st.st_mtime_ns, st.st_size)
    if key not in _RATING_CACHE:
        data = _load_yaml(path)
        _RATING_CACHE[key] = data.get("order") if isinstance(data, dict) else None
    return _RATING_CACHE[key]


def order_section(files, by_id: dict[str, Rule]) -> dict | None:
    """The ``order:`` section: the core file's, each key overridden by a later file's
    (None when no file has one: the engine then takes steps in plain ladder order).

    ``round``: run rules whose deductions open on the board are made as one round, before
    any other rule is asked; ``first``: run rules whose deductions are made as soon as they
    open, even inside a round; ``within``: the order of a round's steps (:data:`WITHIN`).
    """
    out: dict | None = None
    for f in files:
        sec = _order_of(Path(f))
        if sec is None:
            continue
        src = str(f)
        if not isinstance(sec, dict):
            raise RuleError("order: must be a mapping of " + ", ".join(ORDER_KEYS), path=src)
        bad = set(sec) - set(ORDER_KEYS)
        if bad:
            raise RuleError(f"order: unknown key(s) {', '.join(sorted(map(str, bad)))} "
                            f"(allowed: {', '.join(ORDER_KEYS)})", path=src)
        out = dict(out or {"round": [], "first": [], "within": "found"})
        for k in ("round", "first"):
            if k not in sec:
                continue
            ids = sec[k]
            if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
                raise RuleError(f"order: {k}: must be a list of rule ids", path=src)
            for rid in ids:
                rule = by_id.get(rid)
                if rule is None:
                    raise RuleError(f"order: {k}: no rule has the id {rid!r}", path=src)
                if rule.scope != "run":
                    raise RuleError(f"order: {k}: rule {rid!r} is not a run rule "
                                    "(scope: run); only run rules can form a round", path=src)
            out[k] = list(ids)
        if "within" in sec:
            if sec["within"] not in WITHIN:
                raise RuleError(f"order: within: {_short(sec['within'])} is not one of "
                                f"{', '.join(WITHIN)}", path=src)
            out["within"] = sec["within"]
        if "fitted" in sec:
            if not isinstance(sec["fitted"], str):
                raise RuleError("order: fitted must be text", path=src)
            out["fitted"] = sec["fitted"]
    if out is not None:
        both = set(out["round"]) & set(out["first"])
        if both:
            raise RuleError(f"order: {', '.join(sorted(both))} both in round and in first",
                            path=str(files[-1]))
    return out


def all_rules(extra: Sequence[str | Path] = (), disable: Sequence[str] = ()) -> list[Rule]:
    """Every declared rule, enabled or not, in priority order (for listing)."""
    by_id = _by_id(extra)
    for rid in disable:
        if rid in by_id:
            by_id[rid].enabled = False
    return sorted(by_id.values(), key=lambda r: (r.priority, r.id))


def _bad_number(v, *, whole: bool = False) -> bool:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return True
    if whole:
        return not isinstance(v, int) or not 0 <= v <= 10**9
    return not _number(v)


def _plainly_well_formed(ded, n_cells: int, n_runs: int) -> bool:
    """The common deduction, checked quickly: plain ints and dicts, in range, no
    combinations dropped, no weight or score of its own (anything else is checked by
    :func:`check_deduction` in full, with the same verdict). Chain searches check every
    deduction their link rules give."""
    if type(ded.placements) is not dict or type(ded.eliminations) is not dict \
            or type(ded.drop_combos) is not dict or type(ded.values) is not dict \
            or ded.drop_combos or ded.weight is not None or ded.score is not None:
        return False
    for i, d in ded.placements.items():
        if type(i) is not int or not 0 <= i < n_cells or type(d) is not int or not 1 <= d <= 9:
            return False
    for i, m in ded.eliminations.items():
        if type(i) is not int or not 0 <= i < n_cells or type(m) is not int:
            return False
    cells, runs = ded.cells, ded.runs
    if type(cells) is not tuple and type(cells) is not list or \
            type(runs) is not tuple and type(runs) is not list:
        return False
    for i in cells:
        if type(i) is not int or not 0 <= i < n_cells:
            return False
    for r in runs:
        if type(r) is not int or not 0 <= r < n_runs:
            return False
    for k in ded.values:
        if type(k) is not str:
            return False
    return ded.text is None or type(ded.text) is str


def check_deduction(rule: Rule, ded, n_cells: int, n_runs: int) -> None:
    """Refuse a malformed :class:`~deducer.engine.state.Deduction` from a rule with a
    one-line :class:`RuleError` naming the rule and its file (not a crash somewhere later,
    not NaN in the JSON)."""
    from .state import Deduction

    if type(ded) is Deduction and _plainly_well_formed(ded, n_cells, n_runs):
        return

    def bad(what: str):
        raise RuleError(f"rule {rule.id!r} ({rule.implementation}) yielded a deduction with "
                        f"{what}", path=rule.source)

    def cell_ok(i) -> bool:
        return isinstance(i, int) and not isinstance(i, bool) and 0 <= i < n_cells

    def run_ok(r) -> bool:
        return isinstance(r, int) and not isinstance(r, bool) and 0 <= r < n_runs

    if not isinstance(ded, Deduction):
        raise RuleError(f"rule {rule.id!r} yielded {type(ded).__name__}, not a Deduction",
                        path=rule.source)
    for key in ("placements", "eliminations", "drop_combos", "values"):
        if not isinstance(getattr(ded, key), dict):
            bad(f"{key} that is not a dict ({_short(getattr(ded, key))})")
    for i, d in ded.placements.items():
        if not (cell_ok(i) and isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 9):
            bad(f"a placement outside the grid or not a digit 1..9 ({_short(i)}, {_short(d)}) "
                f"(cells are 0..{n_cells - 1})")
    for i, m in ded.eliminations.items():
        if not (cell_ok(i) and isinstance(m, int) and not isinstance(m, bool)):
            bad(f"an elimination outside the grid or not a digit mask ({_short(i)}, "
                f"{_short(m)}) (cells are 0..{n_cells - 1})")
    for r, cs in ded.drop_combos.items():
        if not run_ok(r):
            bad(f"drop_combos for run {_short(r)}, which is not a run (runs are "
                f"0..{n_runs - 1})")
        if not isinstance(cs, tuple | list | set | frozenset) or not all(
                isinstance(c, int) and not isinstance(c, bool) for c in cs):
            bad(f"drop_combos for run {r} that are not digit masks ({_short(cs)})")
    for key, ok, kind in (("cells", cell_ok, "cell"), ("runs", run_ok, "run")):
        seq = getattr(ded, key)
        if not isinstance(seq, tuple | list):
            bad(f"{key} that is not a tuple ({_short(seq)})")
        for x in seq:
            if not ok(x):
                top = (n_cells if kind == "cell" else n_runs) - 1
                bad(f"{key} naming {_short(x)}, which is not a {kind} ({kind}s are 0..{top})")
    if not all(isinstance(k, str) for k in ded.values):
        bad("values whose keys are not all text")
    if ded.weight is not None and _bad_number(ded.weight):
        bad(f"weight {_short(ded.weight)} (a finite number >= 0, or None)")
    if ded.score is not None and _bad_number(ded.score, whole=True):
        bad(f"score {_short(ded.score)} (a whole number 0..10**9, or None)")
    if ded.text is not None and not isinstance(ded.text, str):
        bad(f"text {_short(ded.text)} (a sentence, or None)")
