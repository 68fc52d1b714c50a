"""deducer: a Kakuro engine that solves like a strong human and explains every step.

The public API (docs/api.md) is here: ``deducer.load``, ``solve``, ``explain``, ``rate``,
``hint``, ``why``, ``check``, ``what_if``, ``generate`` and their result types, all from
:mod:`deducer.api`. They are loaded on first use, so ``import deducer`` costs next to
nothing. Rule authors import from :mod:`deducer.rules.api`.

No layer package shares a name with a function: ``deducer.solve``, ``deducer.explain``
and ``deducer.generate`` are the API's plain functions (the layers are ``solver``,
``engine``, ``assist``, ``generator``: docs/architecture.md).
"""

from __future__ import annotations

__version__ = "0.1.0"

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (keeps the import cheap)
if TYPE_CHECKING:
    from typing import Any

    # for type checkers: the names of deducer.api's ``__all__``, the one list of them
    from .api import *  # noqa: F403
    from .api import __all__ as __all__


def __getattr__(name: str) -> Any:
    """``deducer.<name>`` (and ``__all__``): deducer.api's, loaded on first use."""
    if name.startswith("_") and name != "__all__":  # a probe (``__wrapped__``...): not the API
        raise AttributeError(f"module 'deducer' has no attribute {name!r}")
    import importlib

    api = importlib.import_module("deducer.api")
    if name != "__all__" and name not in api.__all__:
        raise AttributeError(f"module 'deducer' has no attribute {name!r}")
    value = getattr(api, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    import importlib

    return sorted(set(globals()) | set(importlib.import_module("deducer.api").__all__))
