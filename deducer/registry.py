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
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .errors import RuleError

REQUIRED = ("id", "name", "priority", "weight", "score", "implementation", "explain")
OPTIONAL = ("enabled", "scope", "params", "description", "tier")
SCOPES = ("run", "global")

CORE = Path(__file__).resolve().parent.parent / "rules" / "core.yaml"


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
                spec.loader.exec_module(module)
        else:
            module = importlib.import_module(target)
    except RuleError:
        raise
    except Exception as e:  # a user's module may fail in any way; name the rule
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
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) \
                    or v < 0:
                raise RuleError(f"{where}: bad {key} {v!r} (a number >= 0)", path=src)
        score = entry["score"]
        if isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise RuleError(f"{where}: bad score {score!r} (a whole number >= 0)", path=src)
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
        rule = Rule(
            id=rid, name=entry["name"], priority=float(entry["priority"]),
            weight=float(entry["weight"]), score=score,
            implementation=entry["implementation"], explain=entry["explain"],
            enabled=enabled, scope=scope, params=dict(params),
            description=str(entry.get("description", "")), tier=tier, source=src,
        )
        _check_template(rule)
        rule.func = _resolve(rule.implementation, p.parent, rid, src)
        out.append(rule)
    return out


def _check_template(rule: Rule) -> None:
    import string

    try:
        list(string.Formatter().parse(rule.explain))
    except ValueError as e:
        raise RuleError(f"rule {rule.id!r}: explain template is malformed: {e}",
                        path=rule.source) from None


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
