"""deducer: a Kakuro engine that solves like a strong human and explains every step."""

__version__ = "0.1.0"
