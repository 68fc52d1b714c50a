"""Everything a rule author imports, from one public module.

::

    from collections.abc import Iterator

    from deducer.rules.api import Deduction, Proof, View, rule

    @rule(values=("need",))
    def my_rule(view: View, rid: int) -> Iterator[Deduction]:
        ...

A rule function is called as ``f(view, rid, **params)`` (``scope: run``) or
``f(view, **params)`` (``scope: global``), ``params`` being the rule entry's in the YAML
file, and yields :class:`Deduction` objects that hold in every solution, each with the
:class:`Proof` it rests on (docs/rule-contract.md; the proof shapes: docs/json-contract.md,
"Proofs"). The rule authors' guide (docs/rule-authors-guide.md) walks through an example.

The :class:`View` here is a protocol: what the engine's read-only view of the grid
offers a rule. Masks are 9-bit ints, bit ``d - 1`` for digit ``d`` (see :data:`BIT`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from ..engine.registry import STANDARD_FIELDS
from ..engine.state import Context, Deduction, Link, Proof, State
from ..puzzle.combos import ALL, BIT, DIGITS, EVEN, ODD, POP, SINGLE, SUM, combos
from ..puzzle.model import Puzzle, Run
from ..solver.propagate import Layout
from . import rule

if TYPE_CHECKING:
    from ..engine.state import View as _EngineView

__all__ = [
    "ALL", "BIT", "DIGITS", "EVEN", "ODD", "POP", "SINGLE", "STANDARD_FIELDS", "SUM",
    "Context", "Deduction", "GlobalRuleFunction", "Link", "Proof", "RuleFunction",
    "RunRuleFunction", "View", "combos", "rule",
]


class View(Protocol):
    """Read-only access to the grid a rule looks at. Cells are white-cell indices
    (``0 .. len(puzzle.whites) - 1``), runs are run ids (``0 .. len(puzzle.runs) - 1``)."""

    puzzle: Puzzle
    layout: Layout
    context: Context  # per-walk caches and limits (``context.cache(name)``, ``stopped()``)

    @property
    def masks(self) -> Sequence[int]:
        """Every cell's candidates (live, read-only)."""
        ...

    def mask(self, i: int) -> int:
        """Cell ``i``'s candidates."""
        ...

    @property
    def placed(self) -> tuple[bool, ...]:
        """Per cell: is its digit written in (not merely down to one candidate)?"""
        ...

    def suppose(self) -> State:
        """A private copy of the grid, to reason on a hypothesis in (the chain rungs write
        an assumed digit in it and run link rules on ``deducer.engine.state.View(copy,
        view.context)``); this view and its grid stay as they are."""
        ...

    def changed_since(self, mark: int) -> list[int] | None:
        """Cells changed since the change log held ``mark`` entries, in order (None: no
        log is kept, compare the whole grid)."""
        ...

    def live(self, rid: int) -> tuple[int, ...]:
        """Combinations of run ``rid`` not yet ruled out (digit masks)."""
        ...

    def run(self, rid: int) -> Run: ...

    @property
    def run_ids(self) -> range: ...

    def runs_of(self, i: int) -> tuple[int, ...]: ...

    def crossing(self, rid: int, i: int) -> int | None: ...

    def value(self, i: int) -> int:
        """The digit of a decided cell, else 0."""
        ...

    def is_placed(self, i: int) -> bool: ...

    def open_cells(self, rid: int) -> list[int]: ...

    def placed_mask(self, rid: int) -> int: ...

    def remaining(self, rid: int) -> int | None:
        """What the open cells of a clued run must still add up to (None: unclued)."""
        ...

    def live_union(self, rid: int) -> int: ...

    def live_common(self, rid: int) -> int: ...

    def cell_name(self, i: int) -> str: ...

    def cells_name(self, cells: Iterable[int]) -> str: ...

    def run_name(self, rid: int) -> str: ...

    @staticmethod
    def digits(mask: int, sep: str = ",") -> str: ...

    @staticmethod
    def combo(mask: int) -> str: ...

    @staticmethod
    def combos_text(masks: Iterable[int]) -> str: ...

    @staticmethod
    def bit(d: int) -> int: ...

    @staticmethod
    def digit_list(mask: int) -> tuple[int, ...]: ...


#: a ``scope: run`` rule, ``f(view, rid)`` (any ``params`` as keyword arguments after)
RunRuleFunction = Callable[[View, int], Iterable[Deduction]]
#: a ``scope: global`` rule, ``f(view)``
GlobalRuleFunction = Callable[[View], Iterable[Deduction]]
#: either kind (the YAML entry's ``scope`` says which)
RuleFunction = RunRuleFunction | GlobalRuleFunction

if TYPE_CHECKING:
    def _engine_views_are_views(view: _EngineView) -> View:
        """Never called: mypy checks here that the view the engine gives every rule, core
        or user, offers all the protocol promises (the two cannot drift apart)."""
        return view
