"""A rule of the ladder as its YAML file declares it (:class:`Rule`), and the names the
rule files, the checks and the rating share (docs/rule-contract.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import RuleError

REQUIRED = ("id", "name", "priority", "weight", "score", "implementation", "explain")
OPTIONAL = ("enabled", "scope", "params", "description", "tier", "hint", "kind", "growth",
            "aka", "teach", "case_of", "detail", "walk", "bound")
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
#: the chain bounds a link rule may declare (``bound:``, docs/rule-contract.md "Chains"):
#: the rule reads only its run's contents and takes no more than ``link`` (the link filter)
#: takes; ``singles`` also no more than the singles filter (a naked single's)
BOUNDS = ("link", "singles")
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
    #: the chain bound the rule declares it keeps within (:data:`BOUNDS`; None: none):
    #: chain searches bound their chains only when every link rule declares one
    bound: str | None = None
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
