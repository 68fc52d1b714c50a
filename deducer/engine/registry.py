"""Rules declared in YAML: the one name users' code, the rules kit and docs/ import from.

The work is done in four modules, one idea each: :mod:`.ruleyaml` (the safe YAML loader),
:mod:`.rule` (:class:`Rule` and the names the rule files use), :mod:`.rulecheck` (each key of
a rule entry and its checker, the implementation resolved and its templates and ``params:``
checked) and :mod:`.ladder` (the files read into the active ladder, its ``rating:`` and
``order:`` sections); a rule's deduction is checked beside the kernel
(:func:`.kernel.check_deduction`).

The contract is docs/rule-contract.md: the keys of a rule entry, plus ``scope`` (``run``:
the function is called as ``f(view, rid)`` for runs touched since it last looked, which
keeps explain fast; ``global``: ``f(view)``) and ``params`` (keyword arguments passed to
the function, so one implementation can serve several rungs, e.g. naked pairs/triples).

A rule file runs code: its ``implementation`` is imported and called. Only functions
marked with :func:`deducer.rules.rule` are called (never an arbitrary library function
like ``pydoc:pipepager``), but importing a module runs it: load only rule files you trust.
"""

from __future__ import annotations

from ..errors import RuleError
from .kernel import check_deduction
from .ladder import (
    ORDER_KEYS,
    RATING_KEYS,
    REPLACED,
    WITHIN,
    Ladder,
    all_rules,
    core_ladder,
    load,
    load_file,
    order_section,
    rating_section,
)
from .rule import (
    AKA_LEN,
    AKA_MAX,
    CASE_OF_MAX,
    CORE,
    FEATURES,
    GROWTH_KEYS,
    HINT_MAX,
    KINDS,
    LEVELS,
    NOTES_FEATURES,
    OPTIONAL,
    REQUIRED,
    RULE_MARK,
    RULE_SEARCHES,
    SCOPES,
    STANDARD_FIELDS,
    TEACH_MAX,
    Rule,
)
from .ruleyaml import MAX_NESTING

__all__ = ["AKA_LEN", "AKA_MAX", "CASE_OF_MAX", "CORE", "FEATURES", "GROWTH_KEYS", "HINT_MAX",
           "KINDS", "LEVELS", "Ladder", "MAX_NESTING", "NOTES_FEATURES", "OPTIONAL", "ORDER_KEYS",
           "RATING_KEYS", "REPLACED", "REQUIRED", "RULE_MARK", "RULE_SEARCHES", "Rule",
           "RuleError", "SCOPES", "STANDARD_FIELDS", "TEACH_MAX", "WITHIN", "all_rules",
           "check_deduction", "core_ladder", "load", "load_file", "order_section", "rating_section"]
