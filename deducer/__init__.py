"""deducer: a Kakuro engine that solves like a strong human and explains every step.

The public API (docs/api.md) is here: ``deducer.load``, ``solve``, ``explain``, ``rate``,
``hint``, ``why``, ``check``, ``what_if``, ``generate`` and their result types, all from
:mod:`deducer.api`. They are loaded on first use, so ``import deducer`` costs next to
nothing. Rule authors import from :mod:`deducer.rules.api`.

No layer package shares a name with a function: ``deducer.solve``, ``deducer.explain``
and ``deducer.generate`` are the API's plain functions (the layers are ``solver``,
``engine``, ``assist``, ``generator``: docs/architecture.md).
"""

# No ``from __future__ import annotations`` here: ``__future__`` is not loaded at Python's
# start, and importing it before the Ctrl-C handler below is in place left a window where
# an interrupt landed in the import system's lock clean-up, was printed as "Exception
# ignored" and the command then ran on to exit 0.
import sys

__version__ = "0.1.0"


def _interrupted_while_starting(signum, frame) -> None:
    """Ctrl-C before the command's own handling is in place (while Python imports the
    package and the command's modules, or once the answer is printed): the documented line
    and exit 130, not the traceback of whatever import was running (docs/bad-input.md)."""
    import os

    try:
        sys.stdout.flush()  # an answer already printed is kept
    except Exception:
        pass
    os.write(2, b"deducer: interrupted\n")
    os._exit(130)


# Taken first and given back below if deducer is only a library: deciding whether it is the
# program takes a moment, and a Ctrl-C in that moment would show a traceback of this file.
# ``_signal`` is the C module (``signal`` builds its enums first, a window of its own).
import _signal  # type: ignore[import-not-found]  # noqa: E402

_SIGINT_OURS = _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler  # not ignored
if _SIGINT_OURS:
    _signal.signal(_signal.SIGINT, _interrupted_while_starting)


def _as_program() -> bool:
    """Is deducer the program (``python -m deducer``, the ``deducer`` command), rather than
    a library some other program imports? Only then does it handle Ctrl-C itself."""
    argv = list(getattr(sys, "orig_argv", ()))[1:]
    k = 0
    while k < len(argv):  # the interpreter's options, up to -m (or a script: not us)
        a = argv[k]
        if a == "-m":
            return argv[k + 1:k + 2] == ["deducer"]
        if a.startswith("-m"):
            return a == "-mdeducer"
        if not a.startswith("-") or a in ("-c", "-"):
            break
        k += 2 if a in ("-X", "-W") else 1
    name = sys.argv[0].replace("\\", "/").rsplit("/", 1)[-1].lower() if sys.argv else ""
    return name.removesuffix(".exe") in ("deducer", "deducer-script.py")  # Windows: .exe


if _SIGINT_OURS and not _as_program():  # a library: its program keeps its own Ctrl-C
    _signal.signal(_signal.SIGINT, _signal.default_int_handler)

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (keeps the import cheap)
if TYPE_CHECKING:
    from typing import Any

    # for type checkers: the names of deducer.api's ``__all__``, the one list of them
    from .api import *  # noqa: F403
    from .api import __all__ as __all__


def __getattr__(name: str) -> "Any":
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
