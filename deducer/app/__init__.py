"""The application layer: what a user runs.

``cli`` (the ``deducer`` command), ``commands/`` (one module per sub-command) and ``play/``
(the local web page). Nothing below imports from here.

May import: every other layer of ``deducer``.
"""
