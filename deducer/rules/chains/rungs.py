"""The chain rungs the ladder names (bivalue chain, forcing chain, forcing braid) and a
chain as a step (:func:`to_deduction`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...engine.state import Deduction, Link, Proof
from ...puzzle.combos import BIT, SINGLE
from .. import rule
from .braid import find_braid
from .links import link_rules
from .whip import find_whip, whip_links

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from ...engine.registry import Rule
    from .. import api

# ---------------------------------------------------------------------------- steps
def kind_of(links: list[Link]) -> str:
    """"whip" when every link after the first rests on the one just before it (and on
    what earlier links took: Berthier's t-candidates), else "braid"."""
    ok = all(k - 1 in lk.after for k, lk in enumerate(links[:-1], 1) if k > 1)
    return "whip" if ok else "braid"


def _inline(text: str) -> str:
    """A link's sentence inside the chain's one sentence: no capital after "then (1)"
    (a sentence may begin with a word, never with a cell name, which is lower case)."""
    return text[:1].lower() + text[1:] if text[:1].isupper() and text[1:2].islower() else text


def to_deduction(view: api.View, cell: int, digit: int, links: list[Link]) -> Deduction:
    """A chain as a step: its sentence names its shape and length and gives every link
    (walkthroughs print the rule's name before it)."""
    name = view.cell_name(cell)
    kind = kind_of(links)
    parts = []
    for k, lk in enumerate(links, 1):
        if lk.contradiction:  # where the links lead, not a link: said without a number
            parts.append(f"so {_inline(lk.text)}")
            continue
        # a braid names what each link rests on; a whip's link rests on the one before
        # (a link resting on none of them rests on the assumption alone: said so, as
        # the sentence has no label saying a braid's links may branch)
        braided = kind == "braid" and k > 1 and k - 1 not in lk.after
        rests = " and ".join(map(str, lk.after)) if lk.after else "the assumption"
        mark = f"{k}, from {rests}" if braided else f"{k}"
        parts.append(f"({mark}) {_inline(lk.text)}")
    # the closing contradiction is not counted: "a whip of 2 links" has two numbered links
    shown = sum(1 for lk in links if not lk.contradiction)
    # no label ("A whip of 9 links:"): every walkthrough heads the step with the rule and
    # the length, and the JSON gives both (``rule``, ``proof.kind``, the links)
    # one deduction, one step: a cell the chain leaves one digit is written in by this
    # step (the walk's rule), and the sentence says which digit goes in
    left = SINGLE[view.mask(cell) & ~BIT[digit]]
    then = f", which is then {left}" if left else ""
    text = f"If {name} were {digit}: {'; '.join(parts)}. So {digit} leaves {name}{then}."
    involved = [cell] + sorted({i for lk in links
                                for i in (*lk.placements, *lk.proof.cells)} - {cell})
    runs = tuple(sorted({r for lk in links for r in lk.proof.runs}))
    return Deduction(eliminations={cell: BIT[digit]}, cells=tuple(involved), runs=runs,
                     text=text, size=len(links),  # the rule's growth counts the closing link
                     values={"cell": name, "digit": digit, "length": shown, "kind": kind},
                     proof=Proof(assume=(cell, digit), links=tuple(links), kind=kind))


def whip_step(view: api.View, rules: list[Rule], *, max_len: int, search_nodes: int,
              bivalue: bool, name: str) -> Deduction | None:
    """The shortest whip as a step (None: no whip within ``max_len``). A chain whose
    proofs show a link not resting on the one before is a braid, and left to the braid
    rung (which weighs it as one)."""
    found = find_whip(view, rules, max_len=max_len, search_nodes=search_nodes,
                      bivalue=bivalue, name=name)
    if found is None:
        return None
    links = whip_links(view, rules, found)
    if links is None or kind_of(links) != "whip":
        return None
    return to_deduction(view, found.cell, found.digit, links)


# The keyword defaults below are the core ladder's params (tests/test_ladder_limits.py
# holds them equal): the ladder states every limit, and a rule file written before a limit
# became a parameter still runs as it did.
@rule(values=("digit", "length", "kind"))
def bivalue_chain(view: api.View, max_len: int, links: Iterable[str] = ("naked-single",),
                  search_nodes: int = 4_000) -> Iterator[Deduction]:
    """Assume a digit of a two-candidate cell; a whip of the ``links`` rules (naked singles)
    ends in a cell with no digit left."""
    ded = whip_step(view, link_rules(view, set(links)), max_len=max_len,
                    search_nodes=search_nodes, bivalue=True, name="bivalue")
    if ded is not None:
        yield ded


@rule(values=("digit", "length", "kind"))
def forcing_chain(view: api.View, max_len: int, search_nodes: int = 4_000
                  ) -> Iterator[Deduction]:
    """Assume any candidate; the shortest whip of link rules ends in a contradiction."""
    ded = whip_step(view, link_rules(view), max_len=max_len, search_nodes=search_nodes,
                    bivalue=False, name="whips")
    if ded is not None:
        yield ded


@rule(values=("digit", "length", "kind"))
def forcing_braid(view: api.View, max_len: int, work: int = 6_000,
                  budgets: Sequence[int] = (6, 12, 24), reach: int = 3
                  ) -> Iterator[Deduction]:
    """Where no whip exists: the shortest braid of link rules (a link may rest on several
    earlier links) that ends in a contradiction."""
    found = find_braid(view, link_rules(view), max_len=max_len, work=work, budgets=budgets,
                       reach=reach)
    if found is not None:
        i, d, links = found
        yield to_deduction(view, i, d, links)
