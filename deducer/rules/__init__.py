"""Built-in rule implementations, grouped by family; declared in ``rules/core.yaml``.

A rule function receives a read-only :class:`deducer.state.View` (and, for ``scope: run``,
a run id) and yields :class:`deducer.state.Deduction` objects. It must only yield what is
true of every solution; the engine applies the first one that changes something.
"""
