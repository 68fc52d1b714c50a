"""Progress from inside an item: ``note(what)`` in a worker reaches the batch's ``note``.

A generated puzzle can take many attempts, and a batch only hears of it when it is done:
a worker's item calls :func:`note` (how far it got), the pool sends that to the parent
beside the results, and the command shows it (``generate`` on its progress line). Outside
a pool worker (the Dask engine, a plain call) a note goes nowhere.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: set by a pool worker while it works on an item: sends a note about that item
_SEND: Callable[[Any], None] | None = None


def note(what: Any) -> None:
    """Tell the batch's caller how the current item is going (picklable, small)."""
    if _SEND is not None:
        try:
            _SEND(what)
        except (OSError, ValueError):
            pass  # the parent is gone or the pipe is closing: the item goes on regardless
