"""deducer: a Kakuro engine that solves like a strong human and explains every step.

The public API (docs/api.md) is here: ``deducer.load``, ``solve``, ``explain``, ``rate``,
``hint``, ``check``, ``generate`` and their result types, all from :mod:`deducer.api`.
They are loaded on first use, so ``import deducer`` costs next to nothing. Rule authors
import from :mod:`deducer.rules.api`.

Three of the functions share their names with layers of the package (``deducer.solve``,
``deducer.explain``, ``deducer.generate``): those packages are callable, and calling one
calls the API function of its name.
"""

from __future__ import annotations

import sys
import types

__version__ = "0.1.0"

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (keeps the import cheap)
if TYPE_CHECKING:
    from typing import Any

    from .api import (
        CheckResult,
        CheckStatus,
        DeducerError,
        ExplainStatus,
        Explanation,
        GenerateError,
        GenerateResult,
        Hint,
        Mistake,
        Puzzle,
        Rating,
        Rule,
        SolveResult,
        SolveStatus,
        Step,
        check,
        explain,
        generate,
        hint,
        ladder,
        load,
        rate,
        solve,
    )

#: what ``deducer.<name>`` offers: deducer.api's ``__all__`` (a test holds them equal;
#: ``why``, from deducer/explain/why.py, joins both lists when it lands)
__all__ = [
    "CheckResult", "CheckStatus", "DeducerError", "ExplainStatus", "Explanation",
    "GenerateError", "GenerateResult", "Hint", "Mistake", "Puzzle", "Rating", "Rule",
    "SolveResult", "SolveStatus", "Step",
    "check", "explain", "generate", "hint", "ladder", "load", "rate", "solve",
]
_PUBLIC = frozenset(__all__)


#: API functions named like a layer package: ``deducer.<name>`` is the package, callable
_LAYERS = frozenset({"explain", "generate", "solve"})


class _CallablePackage(types.ModuleType):
    """A layer package named like an API function: calling it calls the function (the
    package stays a package, so ``import deducer.solve.search`` works as ever)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        import importlib

        api = importlib.import_module("deducer.api")
        return getattr(api, self.__name__.rsplit(".", 1)[1])(*args, **kwargs)


def _callable_package(name: str) -> None:
    """Make the package ``name`` (deducer.solve, ...) callable (its ``__init__`` asks)."""
    sys.modules[name].__class__ = _CallablePackage


def __getattr__(name: str) -> Any:
    import importlib

    if name in _LAYERS:  # the package, callable (it sets itself here once imported)
        return importlib.import_module(f"deducer.{name}")
    if name in _PUBLIC:
        value = getattr(importlib.import_module("deducer.api"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'deducer' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _PUBLIC)
