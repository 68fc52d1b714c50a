"""The ladder: the core rule file and the user's files read into the active rules in
ladder order (:func:`load`), with the files' ``rating:`` and ``order:`` sections, each
checked (docs/rule-contract.md)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..errors import RuleError
from .rule import CORE, FEATURES, LEVELS, NOTES_FEATURES, Rule
from .rulecheck import rules_from
from .ruleyaml import load_yaml, number, short


def load_file(path: str | Path) -> list[Rule]:
    """Read and validate one rule file."""
    p = Path(path)
    data = load_yaml(p, fast=p == CORE)  # the bundled file: its nesting is known
    _keep_sections(p, data)
    return rules_from(data, p)


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
        data = load_yaml(path, fast=path == CORE)
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
                            number(x, signed=True) for x in v.values()):
                        raise RuleError(f"rating: {part}: {k} must map features "
                                        f"({', '.join(names)}) to numbers", path=src)
                    out[part][k].update(v)
                    continue
                elif k == "passes":
                    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 9:
                        raise RuleError(f"rating: notes: bad passes {short(v)} "
                                        "(a whole number 0-9)", path=src)
                elif not number(v, signed=(k == "offset")):
                    raise RuleError(f"rating: {part}: bad {k} {short(v)} (a number)",
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
        data = load_yaml(path, fast=path == CORE)
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
                raise RuleError(f"order: within: {short(sec['within'])} is not one of "
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
