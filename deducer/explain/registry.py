"""Rules declared in YAML: load, validate, order, and resolve their implementations.

The contract (DESIGN.md §3) plus two extensions: ``scope`` (``run``: the function is
called as ``f(view, rid)`` for runs touched since it last looked, which keeps explain
fast; ``global``: ``f(view)``) and ``params`` (keyword arguments passed to the function,
so one implementation can serve several rungs, e.g. naked pairs/triples/quads).
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import RuleError

REQUIRED = ("id", "name", "priority", "weight", "score", "implementation", "explain")
OPTIONAL = ("enabled", "scope", "params", "description", "tier")
SCOPES = ("run", "global")

# rules/core.yaml at the repository's top is the one source; deducer/data/core.yaml links to
# it, and a wheel carries the file itself, so plain (non-editable) installs find it too
CORE = (Path(__file__).parents[1] / "data" / "core.yaml").resolve()


@dataclass
class Rule:
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
    source: str = ""  # file it was declared in
    func: Callable | None = field(default=None, repr=False)

    def call(self, view, rid: int | None = None):
        try:
            if self.scope == "run":
                return self.func(view, rid, **self.params)
            return self.func(view, **self.params)
        except TypeError as e:
            raise RuleError(f"rule {self.id!r}: calling {self.implementation} failed: {e}",
                            path=self.source) from None


def _load_yaml(path: Path):
    import yaml

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RuleError("rule file not found", path=str(path)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise RuleError(f"cannot read rule file: {e}", path=str(path)) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        line = getattr(getattr(e, "problem_mark", None), "line", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise RuleError(f"malformed YAML: {problem}", path=str(path),
                        line=None if line is None else line + 1) from None
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


def _number(v) -> bool:
    """A finite number >= 0 (a huge integer is no number of ours either)."""
    if isinstance(v, bool) or not isinstance(v, int | float):
        return False
    try:
        f = float(v)
    except OverflowError:
        return False
    return math.isfinite(f) and f >= 0


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
    return func


def load_file(path: str | Path) -> list[Rule]:
    """Read and validate one rule file."""
    p = Path(path)
    src = str(p)
    data = _load_yaml(p)
    if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
        raise RuleError("a rule file must be a mapping with a 'rules:' list", path=src)
    unknown_top = set(data) - {"rules", "version"}
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
        enabled = entry.get("enabled", True)
        if not isinstance(enabled, bool):
            raise RuleError(f"{where}: enabled must be true or false", path=src)
        scope = entry.get("scope", "global")
        if scope not in SCOPES:
            raise RuleError(f"{where}: scope must be one of {', '.join(SCOPES)}", path=src)
        params = entry.get("params") or {}
        if not isinstance(params, dict):
            raise RuleError(f"{where}: params must be a mapping", path=src)
        tier = entry.get("tier")
        if tier is not None and (isinstance(tier, bool) or not isinstance(tier, int)):
            raise RuleError(f"{where}: tier must be a whole number", path=src)
        description = entry.get("description", "")
        if description is None:
            description = ""
        if not isinstance(description, str):  # str() of an alias bomb would never finish
            raise RuleError(f"{where}: description must be text", path=src)
        rule = Rule(
            id=rid, name=entry["name"], priority=float(entry["priority"]),
            weight=float(entry["weight"]), score=score,
            implementation=entry["implementation"], explain=entry["explain"],
            enabled=enabled, scope=scope, params=dict(params),
            description=description, tier=tier, source=src,
        )
        _check_template(rule)
        rule.func = _resolve(rule.implementation, p.parent, rid, src)
        out.append(rule)
    return out


def _check_template(rule: Rule) -> None:
    import string

    try:
        parts = list(string.Formatter().parse(rule.explain))
    except ValueError as e:
        raise RuleError(f"rule {rule.id!r}: explain template is malformed: {e}",
                        path=rule.source) from None
    for _text, fname, spec, _conv in parts:
        if fname is None:
            continue
        # {cell[x]} or {run.attr} fail with errors the sentence builder does not expect, and
        # {cell:>999999999} builds a gigabyte string: only plain names and small specs
        if not fname.isidentifier():
            raise RuleError(f"rule {rule.id!r}: explain template field {{{_short(fname)[1:-1]}}} "
                            "must be a plain name like {cell} (no index, attribute or position)",
                            path=rule.source)
        if spec and ("{" in spec or any(len(n) > 3 for n in re.findall(r"\d+", spec))):
            raise RuleError(f"rule {rule.id!r}: explain template field {{{fname}}} has the "
                            f"format spec {_short(spec)}; only small widths are allowed",
                            path=rule.source)


def load(extra: list[str | Path] = (), disable: list[str] = (), *,
         core: bool = True) -> list[Rule]:
    """The active ladder: core rules, overridden or extended by user files, in priority order.

    A user rule with an existing id replaces it. Disabled rules are left out.
    """
    by_id: dict[str, Rule] = {}
    files = ([CORE] if core else []) + [Path(x) for x in extra]
    for f in files:
        for rule in load_file(f):
            by_id[rule.id] = rule
    for rid in disable:
        if rid not in by_id:
            raise RuleError(f"--disable {rid}: no rule has that id (see 'deducer rules')")
        by_id[rid].enabled = False
    rules = [r for r in by_id.values() if r.enabled]
    rules.sort(key=lambda r: (r.priority, r.id))
    return rules


def all_rules(extra=(), disable=()) -> list[Rule]:
    """Every declared rule, enabled or not, in priority order (for listing)."""
    by_id: dict[str, Rule] = {}
    for f in [CORE] + [Path(x) for x in extra]:
        for rule in load_file(f):
            by_id[rule.id] = rule
    for rid in disable:
        if rid in by_id:
            by_id[rid].enabled = False
    return sorted(by_id.values(), key=lambda r: (r.priority, r.id))
