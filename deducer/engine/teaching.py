"""What a learner is told about a technique: its names, a longer explanation, its level.

A rule's teaching keys (``aka:``, ``teach:``, ``case_of:``, docs/rule-contract.md) and its
``hint:``, put together with what the rating makes of its weight, for the technique pages
(``deducer rules --pages``), the cards of an HTML walkthrough and the glossary of Markdown
and PDF walkthroughs. Plain data: the renderers lay it out.
"""

from __future__ import annotations

from dataclasses import dataclass

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
                "description": self.description, "growth": self.growth}


def level_of(rule: Rule, rules=None) -> str:
    """The level a walkthrough gets when its hardest step is one of ``rule``'s (at the
    rule's own weight), by the ladder's thresholds."""
    from .rating import model_for

    if rule.kind == "guess":
        return "Unreasonable"
    if rule.kind == "trial":
        return "Extreme"
    for level, top in model_for(rules).levels:
        if rule.weight <= top + 1e-9:
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
    most = f" (at most {rule.growth_max} counted)" if rule.growth_max is not None else ""
    return f"each {unit} adds {' and '.join(parts)}{most}"


def technique(rule: Rule, rules=None) -> Technique:
    """``rule`` as a :class:`Technique` (``rules``: the ladder it belongs to, whose
    thresholds give its level; None: the core ladder's)."""
    return Technique(
        id=rule.id, name=rule.name, kind=rule.kind, weight=rule.weight, score=rule.score,
        level=level_of(rule, rules), aka=tuple(rule.aka), teach=rule.teach,
        hint=rule.hint, case_of=rule.case_of, description=rule.description,
        growth=_growth(rule), source=rule.source)


def techniques(rules, ids=None) -> list[Technique]:
    """The techniques of a ladder, in its order; only those of ``ids`` when given (an id
    no rule of the ladder has, a user rule's steps in a walk made with another ladder,
    is left out)."""
    wanted = None if ids is None else set(ids)
    return [technique(r, rules) for r in rules if wanted is None or r.id in wanted]
