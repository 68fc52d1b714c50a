"""Writing output files: atomically, and never over an existing file without ``force``."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import DeducerError


def write_output(path: str | Path, data: str | bytes, *, force: bool = False) -> None:
    """Write ``data`` via a temporary file and a rename, so a crash leaves no half file."""
    p = Path(path)
    if p.exists() and not force:
        raise DeducerError("already exists; pass --force to overwrite it", path=str(p))
    if p.exists() and p.is_dir():
        raise DeducerError("is a directory", path=str(p))
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise DeducerError(f"folder {str(parent)!r} does not exist", path=str(p))
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
