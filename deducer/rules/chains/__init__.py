"""Chains built from the ladder: assume a candidate, follow the ladder's own link rules on
the hypothetical state, reach a cell with no digit left (or a run no combination makes).

A link is a step of a rule the rule files declare ``kind: link``, found by that rule's own
function on a private copy of the state (:meth:`View.suppose`) with the assumed digit and
the earlier links written in; its sentence and proof are the rule's own (docs/rule-contract.md
"Chains"). Nothing here knows what any link rule does.

Two shapes, shortest first (Berthier's whips and braids, CSP-Rules):

* a **whip**: every link follows from the link just before it (with the board, the
  assumption and what the earlier links took, which the reader has before them: Berthier's
  t-candidates), so the chain reads as one line. Searched breadth first over all
  assumptions together (:func:`find_whip`, :mod:`.whip`): a node's state is the board with the
  assumption and the links of its path written in, and a node's children are the links
  that state offers and no earlier state did. The searches are kept while the board
  stands (:mod:`.cache`).
* a **braid**: a link may rest on several earlier links. The assumption is followed with
  every link rule, simplest first, and only the links the contradiction rests on are kept
  (:func:`find_braid`, :mod:`.braid`); the forcing-braid rung (weighted above a whip of
  the same length) and trial (no cut-off) use it, where no whip exists.

Weights, scores, cut-offs and search budgets are the rule files' (each rule's ``params``:
``max_len``, ``search_nodes``, ``work``, ``budgets``, ``reach``): a chain's deduction gives
its length as its ``size``, and the rule's ``growth:`` adds per link (Rule.weight_of).

The package, by idea: :mod:`.spec` says what a whip and a braid are, plainly (read it
first; the fast searches are held to it); :mod:`.links` asks the link rules on a
hypothetical state and words a link; :mod:`.whip` and :mod:`.braid` are the fast searches;
:mod:`.bound` bounds a chain's length without searching; :mod:`.cache` is what the
searches keep (the whip searches while the board stands, the looks for the walk);
:mod:`.rungs` the rule functions the ladder names (``deducer.rules.chains:forcing_chain``...),
re-exported here.
"""

from .braid import KEPT_WALK_CELLS, find_braid, follow
from .links import link_rules, looks_for
from .rungs import bivalue_chain, forcing_braid, forcing_chain, kind_of, to_deduction, whip_step
from .whip import find_whip, whip_links

__all__ = [
    "KEPT_WALK_CELLS",
    "bivalue_chain",
    "find_braid",
    "find_whip",
    "follow",
    "forcing_braid",
    "forcing_chain",
    "kind_of",
    "link_rules",
    "looks_for",
    "to_deduction",
    "whip_links",
    "whip_step",
]
