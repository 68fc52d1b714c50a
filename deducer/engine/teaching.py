"""What a learner is told about a technique: its names, a longer explanation, its level.

A rule's teaching keys (``aka:``, ``teach:``, ``case_of:``, docs/rule-contract.md) and its
``hint:``, put together with what the rating makes of its weight, for the technique pages
(``deducer rules --pages``), the cards of an HTML walkthrough and the glossary of Markdown
and PDF walkthroughs. Plain data: the renderers lay it out.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rating import carried, model_for
from .registry import LEVELS, Rule


@dataclass(frozen=True)
class Technique:
    """One rule as a learner sees it."""

    id: str
    name: str
    kind: str
    weight: float
    score: int
    #: the level of a walkthrough whose hardest step is one of this rule's (Easy .. Expert;
    #: Extreme for trial, Unreasonable for guessing)
    level: str
    aka: tuple[str, ...] = ()
    teach: str = ""
    hint: str = ""
    case_of: str = ""
    description: str = ""
    #: what makes one step of it weigh more (a chain's links, a region's runs), or ""
    growth: str = ""
    source: str = ""
    #: the most one step of it weighs (its growth, the search floor: rating.carried) and
    #: the level a walkthrough gets at that weight; ``weight`` and ``level`` when no step
    #: weighs more
    weight_max: float = 0.0
    level_max: str = ""
    #: what makes a step of it weigh more than ``weight`` ("" when none does)
    heavier: str = ""
    #: a link only chains use (``walk: false``): never a step of its own
    chain_only: bool = False

    @property
    def levels(self) -> str:
        """``Hard``, or ``Hard to Expert`` where a heavier step reaches the next level."""
        top = self.level_max or self.level
        return self.level if top == self.level else f"{self.level} to {top}"

    @property
    def weights(self) -> str:
        """``4.2``, or ``4.2 to 5.8`` where a step may weigh more."""
        top = max(self.weight_max, self.weight)
        return f"{self.weight:g}" if top <= self.weight + 1e-9 else f"{self.weight:g} to {top:g}"

    @property
    def summary(self) -> str:
        """One or two sentences: the player's hint, else the rule's description."""
        return self.hint or self.description or ""

    @property
    def paragraphs(self) -> list[str]:
        """The longer explanation, by paragraph (the hint when the rule has none)."""
        if self.teach:
            return self.teach.split("\n\n")
        return [t for t in (self.hint, self.description) if t][:1]

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "kind": self.kind, "weight": self.weight,
                "score": self.score, "level": self.level, "aka": list(self.aka),
                "teach": self.teach, "hint": self.hint, "case_of": self.case_of,
                "description": self.description, "growth": self.growth,
                "weight_max": max(self.weight_max, self.weight),
                "level_max": self.level_max or self.level}


def level_of(rule: Rule, rules=None) -> str:
    """The level a walkthrough gets when its hardest step is one of ``rule``'s (at the
    rule's own weight), by the ladder's thresholds."""
    if rule.kind == "guess":
        return "Unreasonable"
    if rule.kind == "trial":
        return "Extreme"
    return level_at(rule.weight, rules)


def level_at(weight: float, rules=None) -> str:
    """The level of a walkthrough whose hardest step weighs ``weight``, by the ladder's
    thresholds (a walkthrough's path of simple steps only; trial and guessing aside)."""

    for level, top in model_for(rules).levels:
        if weight <= top + 1e-9:
            return level
    return LEVELS[4]  # heavier than any threshold: Extreme


def _growth(rule: Rule) -> str:
    if not rule.growth_weight and not rule.growth_score:
        return ""
    unit = {"chain": "link", "trial": "link"}.get(rule.kind, "unit of size")
    if rule.id.startswith("region-sum"):
        unit = "run added up beyond two"
    parts = []
    if rule.growth_weight:
        parts.append(f"{rule.growth_weight:g} weight")
    if rule.growth_score:
        parts.append(f"{rule.growth_score} score")
    most = f", at most {rule.growth_max} counted" if rule.growth_max is not None else ""
    return f"each {unit} adds {' and '.join(parts)}{most}"


def _heavier(rule: Rule, high: float) -> str:
    """Why a step of ``rule`` may weigh up to ``high``: its growth, the search floor."""
    if high <= rule.weight + 1e-9:
        return ""
    parts = [_growth(rule)] if rule.growth_weight else []
    if getattr(rule, "searches", False):
        parts.append(f"a step whose proof tries the arrangements of a run weighs at least "
                     f"what trying them weighs, up to {high:g}")
    return "; ".join(p for p in parts if p)


def technique(rule: Rule, rules=None) -> Technique:
    """``rule`` as a :class:`Technique` (``rules``: the ladder it belongs to, whose
    thresholds give its level; None: the core ladder's)."""

    level = level_of(rule, rules)
    high = carried(rule, rules)[1]
    top = level if rule.kind in ("trial", "guess") else level_at(high, rules)
    return Technique(
        id=rule.id, name=rule.name, kind=rule.kind, weight=rule.weight, score=rule.score,
        level=level, aka=tuple(rule.aka), teach=rule.teach,
        hint=rule.hint, case_of=rule.case_of, description=rule.description,
        growth=_growth(rule), source=rule.source, weight_max=high, level_max=top,
        heavier=_heavier(rule, high), chain_only=not rule.walk)


def techniques(rules, ids=None) -> list[Technique]:
    """The techniques of a ladder, in its order; only those of ``ids`` when given (an id
    no rule of the ladder has, a user rule's steps in a walk made with another ladder,
    is left out)."""
    wanted = None if ids is None else set(ids)
    return [technique(r, rules) for r in rules if wanted is None or r.id in wanted]
