"""The ladder of rules a call walks with, and what the rule commands ask of it: rule files
loaded, their fixtures, the weights the rating gives their steps."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing on solve's start-up
if TYPE_CHECKING:
    from typing import Any

    from ..engine.registry import Rule

#: rule files (paths), or rules already loaded (:func:`ladder`)
RulesArg = Sequence["str | Path | Rule"] | None


def ladder(rules: RulesArg = None, disable: Sequence[str] = (), *,
           every: bool = False) -> list[Rule]:
    """The active ladder: core rules plus ``rules`` (YAML file paths), minus ``disable``.

    ``rules`` may also be a list of already loaded :class:`~deducer.engine.registry.Rule`
    (taken as the whole ladder; a ladder loaded here keeps its files' ``rating:`` section).
    ``every``: every declared rule instead, the disabled ones too (``enabled`` False), in
    ladder order, as ``deducer rules`` lists them; an unknown id in ``disable`` is then
    passed over.
    """
    from ..engine import registry

    if every:
        paths = [r for r in rules or () if not isinstance(r, registry.Rule)]
        return registry.all_rules(extra=paths, disable=list(disable))
    if rules and all(isinstance(r, registry.Rule) for r in rules):
        off = set(disable)
        out = [r for r in rules if isinstance(r, registry.Rule) and r.enabled
               and r.id not in off]
        out.sort(key=lambda r: (r.priority, r.id))
        if isinstance(rules, registry.Ladder):
            if len(out) == len(rules) and all(a is b for a, b in zip(out, rules, strict=True)):
                return rules  # already the ladder (its rating model stays cached)
            return rules.part(out)  # the rating: section of its files rates the walk
        return out
    paths = [r for r in rules or () if not isinstance(r, registry.Rule)]
    return registry.load(extra=paths, disable=list(disable))


def fixture_file(rule_file: str | Path) -> Path:
    """Where a rule file's fixture file lives: ``NAME.fixtures.yaml`` beside ``NAME.yaml``
    (docs/rule-contract.md, "Fixture files"; it may not exist)."""
    from ..rules.fixture import fixture_path

    return fixture_path(rule_file)


def rule_fixtures(path: str | Path, rules: Sequence[Rule] = ()) -> Any:
    """Check the cases of the fixture file ``path`` with ``rules`` (a rule file's, by id;
    a built-in rule is found by its id): a ``FixtureResult`` with ``checked`` and
    ``problems`` (one line each)."""
    from ..rules.fixture import run_fixtures

    return run_fixtures(path, {r.id: r for r in rules})


def is_core_rule(rule_id: str) -> bool:
    """Does the core ladder (rules/core.yaml) declare a rule with this id?"""
    from ..engine import registry

    return any(r.id == rule_id for r in registry.all_rules())


def replaced_rules() -> list[tuple[str, str, str]]:
    """(id, the file of the rule that replaced it, the file of the rule it replaced) of each
    rule a rule file replaced since the last call (ladders loaded with ``--rules`` files
    that reuse an id): the CLI says so once a command."""
    from ..engine import registry

    out = list(dict.fromkeys(registry.REPLACED))
    registry.REPLACED.clear()
    return out


def level_thresholds(rules: RulesArg = None) -> list[tuple[str, float]]:
    """The ladder's levels, each with the most weight its hardest step may have (the
    ``rating: levels:`` section), easiest first."""
    from ..engine.rating import model_for

    return list(model_for(ladder(rules) if rules is not None else None).levels)


def carried_weights(rules: Sequence[Rule], active: Sequence[Rule] | None = None
                    ) -> dict[str, tuple[float, float]]:
    """Per rule id, the least and the most weight its steps carry in walkthroughs (its
    growth and, for a rule that may try a run's arrangements, the search floor of the
    ``active`` ladder's rating model): what ``deducer rules`` shows."""
    from ..engine.rating import carried

    return {r.id: carried(r, active) for r in rules}


def load_rules(path: str | Path) -> list[Rule]:
    """The rules one YAML file declares, read and checked (not a ladder: see :func:`ladder`)."""
    from ..engine import registry

    return registry.load_file(path)

