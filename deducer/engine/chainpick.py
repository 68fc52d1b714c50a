"""Which chain a chain step takes: the shortest any chain rule offers.

The ladder lists its chain rules (``kind: chain``) simplest first, and a walk takes the
first rule that fires. For chains that is not what a reader wants: a 10-link bivalue chain
(the simplest chain rule) was taken where a 3-link forcing chain was open on the same
board. So once a chain rule fires, the later chain rules are asked too, each only for a
chain no longer than the best so far (their ``max_len`` lowered), and the step is the
shortest chain, then the lightest (the rule's weight with its growth), then the earliest
rule in the ladder. Searching is the chain rules' own business (:mod:`deducer.rules.chains`);
this module only picks among what they offer.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence

from .kernel import Effect
from .registry import Rule
from .state import Deduction

Found = tuple[Rule, Deduction, Effect]


def chain_length(ded: Deduction) -> int:
    """The chain's links as its rule counts them (``Deduction.size``)."""
    return int(ded.size or 0)


def _capped(rule: Rule, cap: int) -> Rule:
    """``rule`` asked for chains of at most ``cap`` links (a copy: the ladder's rule keeps
    its params; its searches' caches are shared, being keyed by the rule's links)."""
    out = copy.copy(rule)
    out.params = {**rule.params, "max_len": min(int(rule.params["max_len"]), cap)}
    return out


def shortest_chain(found: Found, later: Sequence[Rule],
                   ask: Callable[[Rule], tuple[Deduction, Effect] | None]) -> Found:
    """``found`` (a chain rule's deduction) or a shorter chain of one of the ``later``
    chain rules (or one as long and lighter); ``ask`` asks a rule for its deduction on the
    board as it stands (the engine's :meth:`~deducer.engine.walk.Engine._ask`)."""
    best = found
    for rule in later:
        if rule.kind != "chain" or not isinstance(rule.params.get("max_len"), int):
            continue
        length = chain_length(best[1])
        weight = best[0].weight_of(best[1])
        # as long as the best is only worth finding when it would weigh less
        same = Deduction(size=length)
        cap = length if rule.weight_of(same) < weight - 1e-9 else length - 1
        if cap < 1:
            continue
        got = ask(_capped(rule, cap))
        if got is None:
            continue
        ded, effect = got
        key = (chain_length(ded), rule.weight_of(ded))
        if key < (length, weight):
            best = (rule, ded, effect)
    return best
