"""``deducer play``: a local web page where a person solves a Kakuro.

:func:`deducer.app.play.server.create_app` builds the Flask app (page + JSON API); the command
``deducer play`` (:mod:`deducer.app.commands.play`) serves it on 127.0.0.1.
"""
