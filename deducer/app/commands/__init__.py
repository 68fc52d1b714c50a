"""One module per ``deducer`` sub-command (see ``deducer.cli``)."""
