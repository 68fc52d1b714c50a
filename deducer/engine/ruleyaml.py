"""The rule files' YAML, read safely: a bounded read, nesting capped before the composer
recurses, a key given twice refused, and every problem one :class:`RuleError` line (plus
the small helpers the rule checks word their messages with)."""

from __future__ import annotations

import math
from pathlib import Path

from ..errors import RuleError

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


def safe_loader(fast: bool = False):
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


def load_yaml(path: Path, *, fast: bool = False):
    """The data of a YAML file (a rule file, the example cache), read safely: bounded in
    size and nesting, a key given twice refused, every problem one :class:`RuleError`
    naming the file and, where known, the line. ``fast``: libyaml's parser (only for the
    bundled core file, whose nesting is known)."""
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
        if not fast:
            _refuse_deep(text)
        return yaml.load(text, Loader=safe_loader(fast))  # noqa: S506 (a SafeLoader subclass)
    except _Duplicate as e:
        raise RuleError(f"duplicate key {short(e.key)} (also on line {e.first}); a key "
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


def short(v) -> str:
    """A bounded repr for messages (a YAML alias bomb must not be printed in full)."""
    import reprlib

    r = reprlib.Repr()
    r.maxlevel = 2
    r.maxlist = r.maxtuple = r.maxdict = r.maxset = r.maxfrozenset = 4
    r.maxstring = r.maxother = r.maxlong = 40
    text = r.repr(v)
    return text if len(text) <= 80 else text[:77] + "..."


def number(v, *, signed: bool = False) -> bool:
    """A finite number >= 0, or of any sign when ``signed`` (a huge integer is no number of
    ours either)."""
    if isinstance(v, bool) or not isinstance(v, int | float):
        return False
    try:
        f = float(v)
    except OverflowError:
        return False
    return math.isfinite(f) and (signed or f >= 0)
