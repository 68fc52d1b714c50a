"""deducer: a Kakuro engine that solves like a strong human and explains every step.

The public API (docs/api.md) is here: ``deducer.load``, ``solve``, ``explain``, ``rate``,
``hint``, ``check``, ``what_if``, ``generate`` and their result types, all from :mod:`deducer.api`.
They are loaded on first use, so ``import deducer`` costs next to nothing. Rule authors
import from :mod:`deducer.rules.api`.

No layer package shares a name with a function: ``deducer.solve``, ``deducer.explain``
and ``deducer.generate`` are the API's plain functions (the layers are ``solver``,
``engine``, ``assist``, ``generator``: docs/architecture.md).
"""

from __future__ import annotations

__version__ = "0.1.0"

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (keeps the import cheap)
if TYPE_CHECKING:
    from typing import Any

    from .api import (
        AllSteps,
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
        Technique,
        TechniquePages,
        WhatIf,
        all_steps,
        check,
        explain,
        generate,
        hint,
        ladder,
        load,
        rate,
        solve,
        technique_examples,
        technique_pages,
        techniques,
        what_if,
    )

#: what ``deducer.<name>`` offers: deducer.api's ``__all__`` (a test holds them equal;
#: ``why``, from deducer/assist/why.py, joins both lists when it lands)
__all__ = [
    "CheckResult", "CheckStatus", "DeducerError", "ExplainStatus", "Explanation",
    "GenerateError", "GenerateResult", "Hint", "Mistake", "Puzzle", "Rating", "Rule",
    "SolveResult", "SolveStatus", "Step", "WhatIf",
    "check", "explain", "generate", "hint", "ladder", "load", "rate", "solve", "what_if",
    "AllSteps", "Technique", "TechniquePages", "all_steps", "technique_examples",
    "technique_pages", "techniques",
]
_PUBLIC = frozenset(__all__)


def __getattr__(name: str) -> Any:
    import importlib

    if name in _PUBLIC:
        value = getattr(importlib.import_module("deducer.api"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'deducer' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _PUBLIC)
