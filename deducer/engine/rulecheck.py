"""The checks of a rule file's entries: each key of an entry has its checker in
:data:`CHECKS` (the table docs/rule-contract.md describes key by key), then the
implementation is resolved and its templates and ``params:`` are checked against the
function. :func:`rules_from` turns a file's data into :class:`Rule` values or refuses it
with one line naming the file and the rule."""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import FunctionType

from ..errors import RuleError
from ..puzzle.model import MAX_CELLS
from .rule import (
    AKA_LEN,
    AKA_MAX,
    BOUNDS,
    CASE_OF_MAX,
    GROWTH_KEYS,
    HINT_MAX,
    KINDS,
    OPTIONAL,
    REQUIRED,
    RULE_MARK,
    SCOPES,
    STANDARD_FIELDS,
    TEACH_MAX,
    Rule,
)
from .ruleyaml import number, short


class Bad(Exception):
    """An entry's key is wrong: the message, without the rule it belongs to."""


def _priority(v, entry: dict) -> float:
    if not number(v):
        raise Bad(f"bad priority {short(v)} (a number >= 0)")
    return float(v)


def _weight(v, entry: dict) -> float:
    if not number(v):
        raise Bad(f"bad weight {short(v)} (a number >= 0)")
    return float(v)


def _score(v, entry: dict) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 10**9:
        raise Bad(f"bad score {short(v)} (a whole number 0..10**9)")
    return v


def _text(key: str) -> Callable[[object, dict], str]:
    def check(v, entry: dict) -> str:
        if not isinstance(v, str) or not v.strip():
            raise Bad(f"{key} must be non-empty text")
        return v

    return check


def _detail(v, entry: dict) -> str:
    if not isinstance(v, str) or ("detail" in entry and not v.strip()):
        raise Bad("detail must be non-empty text")
    return v


def _flag(key: str) -> Callable[[object, dict], bool]:
    def check(v, entry: dict) -> bool:
        if not isinstance(v, bool):
            raise Bad(f"{key} must be true or false")
        return v

    return check


def _one_of(key: str, choices) -> Callable[[object, dict], str]:
    def check(v, entry: dict) -> str:
        if v not in choices:
            raise Bad(f"{key} must be one of {', '.join(choices)}")
        return v

    return check


def _params(v, entry: dict) -> dict:
    params = v or {}
    if not isinstance(params, dict):
        raise Bad("params must be a mapping")
    if "max_len" in params:
        max_len = params["max_len"]
        if isinstance(max_len, bool) or not isinstance(max_len, int) \
                or not 1 <= max_len <= MAX_CELLS:
            raise Bad(f"params: max_len {short(max_len)} is not a chain length "
                      f"1..{MAX_CELLS} (a link per white cell at most)")
    return dict(params)


def _tier(v, entry: dict) -> int | None:
    if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
        raise Bad("tier must be a whole number")
    return v


def _walk(v, entry: dict) -> bool:
    if not isinstance(v, bool):
        raise Bad("walk must be true or false")
    kind = entry.get("kind", "simple")  # checked before this key
    if not v and kind != "link":
        # a rule neither the walk nor a chain asks would never be used
        raise Bad(f"walk: false is for rules of kind: link (chains use them), not kind: {kind}")
    return v


def _bound(v, entry: dict) -> str | None:
    if v is None:
        return None
    if v not in BOUNDS:
        raise Bad(f"bound must be one of {', '.join(BOUNDS)}")
    if entry.get("kind") != "link" or entry.get("scope") != "run":
        # the bounds hold for links that read one run's contents (docs/rule-contract.md)
        raise Bad("bound: is for rules of kind: link and scope: run")
    return v


def _description(v, entry: dict) -> str:
    if v is None:
        return ""
    if not isinstance(v, str):  # str() of an alias bomb would never finish
        raise Bad("description must be text")
    return v


def _hint(v, entry: dict) -> str:
    """The ``hint:`` key: absent, or one short piece of text without template fields (a
    vague hint names no cell, so nothing is filled in)."""
    if v is None:
        return ""
    if not isinstance(v, str) or not v.strip():
        raise Bad("hint must be non-empty text")
    if len(v) > HINT_MAX:
        raise Bad(f"hint is {len(v)} characters long (at most {HINT_MAX})")
    if "{" in v or "}" in v or "\n" in v.strip():
        raise Bad("hint must be one line of plain text (no {fields}: a vague hint names no "
                  "cell)")
    return " ".join(v.split())


def _growth(g, entry: dict) -> tuple[float, int, int | None]:
    """(weight, score, max) of a ``growth:`` mapping, checked."""
    if g is None:
        return 0.0, 0, None
    if not isinstance(g, dict):
        raise Bad("growth must be a mapping like {weight: 0.05, score: 20}")
    unknown = set(g) - set(GROWTH_KEYS)
    if unknown:
        raise Bad(f"unknown growth key(s) {', '.join(sorted(map(str, unknown)))} "
                  f"(allowed: {', '.join(GROWTH_KEYS)})")
    weight = g.get("weight", 0.0)
    if not number(weight):
        raise Bad(f"bad growth weight {short(weight)} (a number >= 0)")
    out: list[int | None] = []
    for key, default in (("score", 0), ("max", None)):
        v = g.get(key, default)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)
                              or not 0 <= v <= 10**6):
            raise Bad(f"bad growth {key} {short(v)} (a whole number 0..10**6)")
        out.append(v)
    return float(weight), out[0] or 0, out[1]


def _aka(aka, entry: dict) -> tuple[str, ...]:
    """Names players use for the technique: a list of short one-line texts."""
    if aka is None:
        aka = []
    if not isinstance(aka, list) or len(aka) > AKA_MAX or not all(
            isinstance(a, str) and a.strip() and "\n" not in a.strip()
            and len(a.strip()) <= AKA_LEN for a in aka):
        raise Bad(f"aka must be a list of at most {AKA_MAX} names, each one line of text of "
                  f"at most {AKA_LEN} characters")
    return tuple(" ".join(a.split()) for a in aka)


def _prose(key: str, most: int, lines: bool) -> Callable[[object, dict], str]:
    """``teach:`` (plain text, blank lines part paragraphs) or ``case_of:`` (one line):
    shown as written, never filled in like a template."""

    def check(v, entry: dict) -> str:
        if v is None:
            return ""
        if not isinstance(v, str) or not v.strip():
            raise Bad(f"{key} must be non-empty text")
        if len(v) > most:
            raise Bad(f"{key} is {len(v)} characters long (at most {most})")
        if not lines and "\n" in v.strip():
            raise Bad(f"{key} must be one line of text")
        # paragraphs kept, each one's own line breaks and runs of spaces made single
        # spaces: a folded (>-) or quoted text parts paragraphs with one line break, a
        # literal (|) one with a blank line
        sep = "\n\n" if "\n\n" in v.strip() else "\n"
        paras = [" ".join(p.split()) for p in v.strip().split(sep)]
        return "\n\n".join(p for p in paras if p)

    return check


#: key -> (its value when the entry leaves it out, its checker): a checker takes the value
#: and the whole entry (``walk`` reads ``kind``, checked before it) and returns what the
#: :class:`Rule` keeps, or raises :class:`Bad`. Checked in this order, so the first
#: problem of an entry is the one reported. (``id`` is checked before them all.)
CHECKS: dict[str, tuple[object, Callable[[object, dict], object]]] = {
    "priority": (None, _priority),
    "weight": (None, _weight),
    "score": (None, _score),
    "name": (None, _text("name")),
    "implementation": (None, _text("implementation")),
    "explain": (None, _text("explain")),
    "detail": ("", _detail),
    "enabled": (True, _flag("enabled")),
    "scope": ("global", _one_of("scope", SCOPES)),
    "params": (None, _params),
    "tier": (None, _tier),
    "kind": ("simple", _one_of("kind", KINDS)),
    "walk": (True, _walk),
    "bound": (None, _bound),
    "description": ("", _description),
    "hint": (None, _hint),
    "growth": (None, _growth),
    "aka": (None, _aka),
    "teach": (None, _prose("teach", TEACH_MAX, True)),
    "case_of": (None, _prose("case_of", CASE_OF_MAX, False)),
}


def rules_from(data, path: Path) -> list[Rule]:
    """The rules of one rule file's data (read from ``path``), every entry checked."""
    src = str(path)
    if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
        raise RuleError("a rule file must be a mapping with a 'rules:' list", path=src)
    unknown_top = set(data) - {"rules", "version", "rating", "order"}
    if unknown_top:
        raise RuleError(f"unknown top-level key(s): {', '.join(sorted(unknown_top))}", path=src)
    out: list[Rule] = []
    seen: set[str] = set()
    for k, entry in enumerate(data["rules"], start=1):
        rule = _entry(entry, f"entry {k}", src, seen)
        _check_template(rule)
        rule.func = _resolve(rule.implementation, path.parent, rule.id, src)
        _check_fields(rule)
        _check_params(rule)
        out.append(rule)
    return out


def _entry(entry, where: str, src: str, seen: set[str]) -> Rule:
    """One entry's keys checked (``where``: the entry's number, until its id is known)."""
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
    got: dict = {}
    for key, (default, check) in CHECKS.items():
        try:
            got[key] = check(entry.get(key, default), entry)
        except Bad as e:
            raise RuleError(f"{where}: {e}", path=src) from None
    growth_weight, growth_score, growth_max = got.pop("growth")
    return Rule(id=rid, source=src, growth_weight=growth_weight, growth_score=growth_score,
                growth_max=growth_max, **got)


def _resolve(impl: str, base: Path, rule_id: str, source: str) -> Callable:
    """The function a rule's ``implementation`` names (a module's, or a file's beside the
    rule file), refused unless marked with ``@rule``."""
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
        raise RuleError(f"rule {rule.id!r}: params {short(rule.params)} do not fit "
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
            raise RuleError(f"rule {rule.id!r}: {key} template field {{{short(fname)[1:-1]}}} "
                            "must be a plain name like {cell} (no index, attribute or position)",
                            path=rule.source)
        if spec and ("{" in spec or any(len(n) > 3 for n in re.findall(r"[0-9]+", spec))):
            raise RuleError(f"rule {rule.id!r}: {key} template field {{{fname}}} has the "
                            f"format spec {short(spec)}; only small widths are allowed",
                            path=rule.source)
