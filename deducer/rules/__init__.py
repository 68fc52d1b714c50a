"""The rule layer: built-in rule implementations, grouped by family.

They are declared in ``rules/core.yaml``.

A rule function receives a read-only view (and, for ``scope: run``, a run id) and yields
:class:`deducer.engine.state.Deduction` objects. It must only yield what is true of every
solution; the engine applies the first one that changes something. The built-in rules are
typed against the public kit (:mod:`deducer.rules.api`: its ``View`` protocol,
``Deduction``, ``Proof``), as user rules are; ``mypy`` holds this layer to full
annotations (pyproject.toml, tests/test_types.py).

This layer keeps its own top-level name because ``deducer.rules.<family>:<function>`` is the
public ``implementation:`` path of the core ladder in rule YAML files.

May import: ``deducer.engine``, ``deducer.solver``, ``deducer.puzzle`` and ``deducer.errors``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar, overload

from ..engine.registry import RULE_MARK, RULE_SEARCHES, STANDARD_FIELDS

__all__ = ["rule", "STANDARD_FIELDS"]

#: a rule function; the mark leaves its signature as it is (mypy checks calls to it)
F = TypeVar("F", bound=Callable[..., Any])


@overload
def rule(func: F, *, values: Iterable[str] = (), searches: bool = False) -> F: ...
@overload
def rule(func: None = None, *, values: Iterable[str] = (),
         searches: bool = False) -> Callable[[F], F]: ...


def rule(func: F | None = None, *, values: Iterable[str] = (),
         searches: bool = False) -> F | Callable[[F], F]:
    """Mark a function as a rule implementation that rule files may name.

    Only marked functions are called (a YAML file alone must not run an arbitrary library
    function). ``values`` names the template fields the function puts in
    ``Deduction.values``, besides the standard ones (``{effect}``, ``{cell}``, ``{run}``...),
    so that a template naming anything else is refused when the rule file is loaded::

        from deducer.rules import rule

        @rule(values=("need", "parity"))
        def sum_parity(view, rid): ...

    Plain ``@rule`` declares no extra values. ``searches=True`` says that the rule's steps
    may ask a reader to try the arrangements of a run (their proofs list ``search`` runs):
    such a step weighs at least what the ladder's permutation check of that run weighs,
    which ``deducer rules`` shows beside the rule's weight.
    """
    names = tuple(values)
    if isinstance(values, str) or not all(isinstance(v, str) and v.isidentifier()
                                          for v in names):
        raise TypeError("@rule(values=...) takes names like ('need', 'parity')")

    def mark(f: F) -> F:
        setattr(f, RULE_MARK, names)
        if searches:
            setattr(f, RULE_SEARCHES, True)
        return f

    return mark if func is None else mark(func)
