"""Dataclasses without the dataclass machinery at import: for the classes a first solve loads.

``@dataclass`` writes each class's ``__init__``, ``__eq__``, ``__repr__`` and the rest as
source text and compiles it: about 1 ms a class, six of them plus ``dataclasses`` itself
were a third of a small puzzle's import + first solve (issue 40, item 4). A class made by
:func:`record` writes its own ``__init__`` (the hot one) and gets the rest here as plain
closures; it behaves as the dataclass it replaces: the same ``repr``, equality and hash,
``FrozenInstanceError`` on assignment when frozen, pickling, ``__match_args__``, and
``dataclasses.fields``/``replace``/``asdict``/``is_dataclass`` work on it, their
``__dataclass_fields__`` built from a real dataclass twin on first use.

Also here: :func:`install_dataclasses_hook`, which has ``dataclasses`` load (when something
first imports it) without :mod:`inspect`.
"""

from __future__ import annotations

import sys
from operator import attrgetter


class _Factory:
    """The default of a field with a default factory, shown as ``dataclasses`` shows it."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

#: the default of a field whose default is a factory (the class's ``__init__`` calls it);
#: typed Any so that it may stand in the signature for the value the factory makes
FACTORY: Any = _Factory()


class _DataclassAttr:
    """``__dataclass_fields__`` or ``__dataclass_params__`` of a :func:`record` class: built
    on first use from a real dataclass with the same fields, then stored on the class."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj, owner):
        twin = _twin(owner)
        value = getattr(twin, self.name)
        setattr(owner, self.name, value)  # later lookups are plain attributes
        return value


def _twin(cls):
    import dataclasses

    spec = cls._lean_spec  # a subclass's: its record base's fields
    hints = spec["cls"].__annotations__
    fields = [(name, hints[name], dataclasses.field(**spec["options"].get(name, {})))
              for name in spec["names"]]
    # the docstring given: without one, dataclasses would load inspect to write one
    return dataclasses.make_dataclass(cls.__name__, fields, frozen=spec["frozen"],
                                      namespace={"__doc__": cls.__doc__ or cls.__name__})


def record(*, frozen: bool, options: dict[str, dict] | None = None):
    """Class decorator: ``cls`` behaves as ``@dataclass(frozen=frozen)`` of its annotated
    fields would make it. ``cls`` brings its own ``__init__`` (setting every field, with
    ``object.__setattr__`` when frozen) and ``__slots__`` if it wants them; ``options`` gives
    per field what ``dataclasses.field`` was given (``default``, ``default_factory``,
    ``compare``), which the twin behind ``dataclasses.fields`` repeats."""
    options = options or {}

    def wrap(cls):
        names = tuple(cls.__dict__.get("__annotations__", {}))
        compared = tuple(n for n in names if options.get(n, {}).get("compare", True))
        shown = tuple(n for n in names if options.get(n, {}).get("repr", True))
        key = attrgetter(*compared) if len(compared) > 1 else (
            lambda o, _n=compared[0]: (getattr(o, _n),))
        cls._lean_spec = {"cls": cls, "names": names, "frozen": frozen, "options": options}
        cls.__dataclass_fields__ = _DataclassAttr("__dataclass_fields__")
        cls.__dataclass_params__ = _DataclassAttr("__dataclass_params__")
        cls.__match_args__ = names  # type: ignore[misc]  # mypy takes it as read-only

        def __eq__(self, other):
            if other.__class__ is self.__class__:
                return key(self) == key(other)
            return NotImplemented

        def __repr__(self):
            inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in shown)
            return f"{self.__class__.__qualname__}({inner})"

        cls.__eq__ = __eq__
        cls.__repr__ = __repr__
        if frozen:
            def __hash__(self):
                return hash(key(self))

            def __setattr__(self, name, value):
                if type(self) is cls or name in names:
                    raise _frozen(f"cannot assign to field {name!r}")
                super(cls, self).__setattr__(name, value)

            def __delattr__(self, name):
                if type(self) is cls or name in names:
                    raise _frozen(f"cannot delete field {name!r}")
                super(cls, self).__delattr__(name)

            cls.__hash__ = __hash__
            cls.__setattr__ = __setattr__
            cls.__delattr__ = __delattr__
            if "__slots__" in cls.__dict__:
                # a frozen slotted dataclass pickles its fields as a list and restores them
                # past its own __setattr__
                get = attrgetter(*names)

                def __getstate__(self):
                    return list(get(self)) if len(names) > 1 else [get(self)]

                def __setstate__(self, state):
                    for name, value in zip(names, state, strict=False):
                        object.__setattr__(self, name, value)

                cls.__getstate__ = __getstate__
                cls.__setstate__ = __setstate__
        else:
            cls.__hash__ = None  # mutable and compared by value, as a dataclass is
        for name in ("__eq__", "__repr__", "__hash__", "__setattr__", "__delattr__",
                     "__getstate__", "__setstate__"):
            f = cls.__dict__.get(name)
            if f is not None:
                f.__qualname__ = f"{cls.__qualname__}.{name}"
        return cls

    return wrap


def _frozen(message: str) -> Exception:
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(message)


# ---- dataclasses without inspect ----------------------------------------------------------

def _import_dataclasses() -> None:
    """Import :mod:`dataclasses` without loading :mod:`inspect` (6-8 ms: more than a small
    puzzle's whole first solve). dataclasses uses inspect once, for the docstring of a class
    that has none (deducer's have theirs): it gets a stand-in that loads inspect on first
    use, and no other module sees it."""
    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        return
    import types

    stand_in = types.ModuleType("inspect", "loads inspect when dataclasses first needs it")

    def load(name: str):
        import importlib

        return getattr(importlib.import_module("inspect"), name)

    stand_in.__getattr__ = load  # type: ignore[method-assign]  # PEP 562
    sys.modules["inspect"] = stand_in
    try:
        import dataclasses  # noqa: F401
    finally:
        if sys.modules.get("inspect") is stand_in:
            del sys.modules["inspect"]


class _Loaded:
    """Loader handing over a module already imported (and its own spec back to it)."""

    def __init__(self, module) -> None:
        self.module = module
        self.spec = module.__spec__

    def create_module(self, spec):
        return self.module

    def exec_module(self, module) -> None:
        module.__spec__ = self.spec  # the import machinery set it to the hand-over's


class _DataclassesFinder:
    """First on ``sys.meta_path`` until ``dataclasses`` is first imported, by any module:
    imports it through :func:`_import_dataclasses`, then leaves."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != "dataclasses":
            return None
        uninstall_dataclasses_hook()
        if "inspect" in sys.modules:
            return None  # nothing to save: the ordinary finders import it
        _import_dataclasses()
        from importlib.machinery import ModuleSpec

        # out of sys.modules until handed over: the import machinery, seeing it there, would
        # load it again from its own spec
        module = sys.modules.pop("dataclasses")
        return ModuleSpec(name, _Loaded(module))  # type: ignore[arg-type]  # a loader by duck typing


def install_dataclasses_hook() -> None:
    """Have the first ``import dataclasses`` of this process (deducer's or anyone's) load it
    without :mod:`inspect`; nothing is imported now."""
    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        return
    if _DataclassesFinder not in sys.meta_path:
        sys.meta_path.insert(0, _DataclassesFinder)


def uninstall_dataclasses_hook() -> None:
    """Take the hook of :func:`install_dataclasses_hook` away (it leaves by itself once used)."""
    while _DataclassesFinder in sys.meta_path:
        sys.meta_path.remove(_DataclassesFinder)
