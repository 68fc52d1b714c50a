"""Writing output files: atomically, and never over an existing file without ``force``."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from ..errors import DeducerError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_output(path: str | Path, data: str | bytes, *, force: bool = False) -> None:
    """Write ``data`` via a temporary file and a rename, so a crash leaves no half file.

    Without ``force`` an existing file is never replaced, not even one that appears while
    writing (the temporary file is hard-linked into place, which fails if the name exists).
    A new file gets the usual permissions (0666 less the umask; ``mkstemp`` would leave
    0600); a replaced one keeps its own. Any failure is a one-line :class:`DeducerError`.
    """
    p = Path(path)
    if p.exists() and not force:
        raise DeducerError("already exists; pass --force to overwrite it", path=str(p))
    if p.exists() and p.is_dir():
        raise DeducerError("is a directory", path=str(p))
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise DeducerError(f"folder {str(parent)!r} does not exist", path=str(p))
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        mode = stat.S_IMODE(p.stat().st_mode) if p.exists() else 0o666 & ~_umask()
    except OSError:
        mode = 0o666 & ~_umask()
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=parent)
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp makes 0600; output should look like any file
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        if force:
            os.replace(tmp, p)
            tmp = None
        else:
            try:
                os.link(tmp, p)  # atomic "create only if absent"; tmp is removed below
            except FileExistsError:
                raise DeducerError("already exists; pass --force to overwrite it",
                                   path=str(p)) from None
            except OSError:  # a file system without hard links: rename (checked above)
                os.replace(tmp, p)
                tmp = None
    except OSError as e:
        raise DeducerError(f"cannot write: {e.strerror or e}", path=str(p)) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
