"""``deducer play``: a local web page where a person solves a Kakuro (seed 002 §6, §5.2).

:func:`deducer.play.server.create_app` builds the Flask app (page + JSON API); the command
``deducer play`` (:mod:`deducer.commands.play`) serves it on 127.0.0.1.
"""
