"""One module per ``deducer`` sub-command (see ``deducer.app.cli``)."""
