"""Reading input files within a size limit; writing output files atomically, never over an
existing file without ``force``, after checking every output of a command first."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from ..errors import DeducerError

#: the most any input file (a puzzle, a rule file) may hold; no real one comes near
MAX_BYTES = 4 * 1024 * 1024


def read_limited(source, label: str | None = None, *, limit: int = MAX_BYTES,
                 error: type[DeducerError] = DeducerError, what: str = "files") -> bytes:
    """The bytes of a file (a path or an open binary stream), refusing one over ``limit``.

    The size is checked before reading, and at most ``limit + 1`` bytes are ever read, so a
    3 GB file or ``/dev/zero`` costs no more memory than a file of the limit. Failures
    are one-line errors of type ``error`` naming ``label`` (default: the path).
    """
    too_big = f"is over {limit} bytes; {what} are limited to {limit}"
    if hasattr(source, "read"):
        data = source.read(limit + 1)
        if len(data) > limit:
            raise error(too_big, path=label)
        return data
    path = str(source)
    label = path if label is None else label
    try:
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())
            if stat.S_ISDIR(st.st_mode):
                raise error("is a directory, not a file", path=label)
            if stat.S_ISREG(st.st_mode) and st.st_size > limit:
                raise error(f"is {st.st_size} bytes; {what} are limited to {limit}", path=label)
            data = fh.read(limit + 1)
    except FileNotFoundError:
        raise error("no such file", path=label) from None
    except IsADirectoryError:
        raise error("is a directory, not a file", path=label) from None
    except OSError as e:
        raise error(f"cannot read: {e.strerror or e}", path=label) from None
    if len(data) > limit:
        raise error(too_big, path=label)
    return data


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
