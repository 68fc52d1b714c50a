"""The rule layer: built-in rule implementations, grouped by family.

They are declared in ``rules/core.yaml``.

A rule function receives a read-only :class:`deducer.explain.state.View` (and, for
``scope: run``, a run id) and yields :class:`deducer.explain.state.Deduction` objects. It must
only yield what is true of every solution; the engine applies the first one that changes
something.

This layer keeps its own top-level name because ``deducer.rules.<family>:<function>`` is the
public ``implementation:`` path of the core ladder in rule YAML files.

May import: ``deducer.explain``, ``deducer.solve``, ``deducer.puzzle`` and ``deducer.errors``.
"""
