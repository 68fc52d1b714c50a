"""Reading input files within a size limit; writing output files atomically, never over an
existing file without ``force``, after checking every output of a command first."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

import bz2
import io

from ..errors import DeducerError, printable

#: the most any input file (a puzzle, a rule file) may hold; no real one comes near
MAX_BYTES = 4 * 1024 * 1024


def read_limited(source, label: str | None = None, *, limit: int = MAX_BYTES,
                 error: type[DeducerError] = DeducerError, what: str = "files") -> bytes:
    """The bytes of a file (a path or an open binary stream), refusing one over ``limit``.

    The size is checked before reading, and at most ``limit + 1`` bytes are ever read, so a
    3 GB file or ``/dev/zero`` costs no more memory than a file of the limit. Failures
    are one-line errors of type ``error`` naming ``label`` (default: the path).
    """
    too_big = f"holds more than {limit} bytes; {what} are limited to {limit}"
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


#: the compressed files read transparently, by their first bytes: gzip, and bzip2 (its
#: "BZh" and block size, then the magic of a block or of the end of an empty stream)
COMPRESSED_SUFFIXES = (".gz", ".bz2")


def compression(data: bytes) -> str | None:
    """"gzip" or "bzip2" when ``data`` starts like such a file, else None (no text file
    starts so: 0x1f 0x8b is not UTF-8 text, nor is bzip2's block magic after "BZh1".."9")."""
    if data[:2] == b"\x1f\x8b":
        return "gzip"
    if data[:3] == b"BZh" and data[3:4] in b"123456789" and len(data) >= 10 \
            and data[4:10] in (b"1AY&SY", b"\x17rE8P\x90"):
        return "bzip2"
    return None


def decompressed(data: bytes, label: str | None = None, *, limit: int = MAX_BYTES,
                 error: type[DeducerError] = DeducerError, what: str = "files") -> bytes:
    """``data`` itself, or, for a gzip or bzip2 file, what it holds, at most ``limit``
    bytes (more is refused after reading ``limit + 1``: a small bomb costs no more than a
    file of the limit). A damaged or cut file is a one-line error."""
    kind = compression(data)
    if kind is None:
        return data
    import gzip

    stream: gzip.GzipFile | bz2.BZ2File
    if kind == "gzip":
        stream = gzip.GzipFile(fileobj=io.BytesIO(data))
    else:
        stream = bz2.BZ2File(io.BytesIO(data))
    try:
        with stream:
            out = stream.read(limit + 1)
    except (OSError, EOFError, ValueError) as e:
        raise error(f"is a damaged or cut {kind} file: {e}", path=label) from None
    if len(out) > limit:
        raise error(f"holds more than {limit} bytes once uncompressed; {what} are limited "
                    f"to {limit}", path=label)
    return out


def read_input(path: str | Path, label: str | None = None, *, limit: int = MAX_BYTES,
               error: type[DeducerError] = DeducerError, what: str = "files") -> bytes:
    """The bytes of an input file, as :func:`read_limited` reads them, and a gzip or
    bzip2 file (told by its first bytes, whatever its name) read through: what it holds."""
    label = str(path) if label is None else label
    data = read_limited(path, label, limit=limit, error=error, what=what)
    return decompressed(data, label, limit=limit, error=error, what=what)


def plain_suffix(path: str | Path) -> str:
    """The extension that tells a file's format, lower case: ``.jsonl`` for
    ``Kakuro.jsonl.bz2`` (a compression's own extension is looked through)."""
    p = Path(str(path))
    suffix = p.suffix.lower()
    if suffix in COMPRESSED_SUFFIXES:
        suffix = Path(p.stem).suffix.lower()
    return suffix


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_output(path: str | Path, *, force: bool = False) -> None:
    """Refuse an output name that cannot be written, before any work is done: a folder
    (``out/``, or an existing one), a name too long for the file system, a missing
    parent folder, or an existing file without ``force``. One-line errors."""
    if _writable(path) and not force:
        raise DeducerError("already exists; pass --force to overwrite it", path=str(path))


def _writable(path: str | Path) -> bool:
    """Does the file ``path`` exist? Refuses (one-line errors) a name that could not be
    written even with ``--force``: see :func:`check_output`."""
    raw = str(path)
    if raw.endswith(("/", os.sep)):
        raise DeducerError(f"names a folder; give the file to write (like {raw}NAME)",
                           path=raw)
    p = Path(raw)
    parent = p.parent if str(p.parent) else Path(".")
    check_name(raw)
    try:
        if p.is_dir():
            raise DeducerError("is a folder; name the file to write inside it", path=raw)
        exists = p.exists() or p.is_symlink()
        parent_ok = parent.is_dir()
    except OSError as e:
        raise DeducerError(f"cannot write: {e.strerror or e}", path=raw) from None
    if not exists and not parent_ok:
        raise DeducerError(f"folder {str(parent)!r} does not exist", path=raw)
    return exists


def check_name(path: str | Path) -> None:
    """Refuse a path with a part longer than the file system allows (one-line error)."""
    raw = str(path)
    p = Path(raw)
    parent = p.parent if str(p.parent) else Path(".")
    limit = name_max(parent)
    for part in p.parts:
        if len(os.fsencode(part)) > limit:
            raise DeducerError(f"file name is too long ({len(os.fsencode(part))} bytes; the "
                               f"file system allows {limit})", path=raw[:60] + "...")


def name_max(folder: str | Path) -> int:
    """The longest file name (in bytes) the file system of ``folder`` takes (255 where it
    cannot be asked)."""
    try:
        return os.pathconf(folder if os.path.isdir(folder) else ".", "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


def not_an_input(output: str | Path, inputs) -> None:
    """Refuse an output that is one of the command's input files (the same file, through
    any name or link), ``--force`` or not: writing it would destroy the puzzle read."""
    if str(output) == "-" or not os.path.exists(output):
        return
    for name in inputs:
        if name in (None, "-"):
            continue
        try:
            same = os.path.isfile(name) and os.path.samefile(output, name)
        except OSError:
            same = False
        if same:
            also = "" if str(name) == str(output) else f" ({printable(str(name))})"
            raise DeducerError(f"is also an input{also}; writing it would destroy that "
                               "input: name another output file", path=str(output))


def check_outputs(outputs: dict[str, str | None], *, force: bool = False,
                  inputs=(), guard=None) -> None:
    """Check every output a command will write (``{"--svg": "a.svg", ...}``) before it
    writes any: none one of the ``inputs`` (:func:`not_an_input`), none refused by
    ``guard(flag, path)`` (a file no ``--force`` may replace), each writable
    (:func:`check_output`) and no two the same file. The refusals ``--force`` cannot lift
    come first; every existing file is then named at once, so that one ``--force``
    decision covers them."""
    seen: dict[str, str] = {}
    existing: list[str] = []
    for flag, path in outputs.items():
        if path is None or path == "-":
            continue
        not_an_input(path, inputs)
        if guard is not None:
            guard(flag, path)
        if _writable(path) and not force:
            existing.append(str(path))
        key = os.path.realpath(path)
        if key in seen:
            raise DeducerError(f"{seen[key]} and {flag} name the same file; give each its "
                               "own", path=str(path))
        seen[key] = flag
    if len(existing) == 1:
        raise DeducerError("already exists; pass --force to overwrite it", path=existing[0])
    if existing:
        others = ", ".join(printable(x) for x in existing[1:])
        raise DeducerError(f"already exists, and so does {others}; pass --force to "
                           "overwrite them", path=existing[0])


def open_output(path: str | Path, *, append: bool = False, binary: bool = False):
    """Open an output written as it goes (``rate --out`` rows, ``generate --jsonl``
    records) for text: a new file, or with ``append`` the existing one continued. The one
    rule for a symbolic link, as :func:`write_output` keeps it: a link is never written
    through. A new file replaces the link (the file it points to is left as it was;
    ``--force`` was checked before); going on with a link is refused (name its file).
    ``binary``: unbuffered bytes instead (a writer that must know what reached the file)."""
    p = Path(path)
    try:
        if p.is_symlink():
            if append:
                raise DeducerError(f"is a symbolic link (to {os.path.realpath(p)}); going on "
                                   "with it would write through it: name the file itself",
                                   path=str(path))
            os.unlink(p)
        if binary:
            return open(p, "ab" if append else "wb", buffering=0)  # noqa: SIM115 (streamed to)
        return open(p, "a" if append else "w", encoding="utf-8")  # noqa: SIM115 (streamed to)
    except OSError as e:
        raise DeducerError(f"cannot write: {e.strerror or e}", path=str(path)) from None


def refuse_a_link(path: str | Path) -> None:
    """Refuse to go on with (``--resume``) an output that is a symbolic link (see
    :func:`open_output`), before reading it."""
    if Path(path).is_symlink():
        raise DeducerError(f"is a symbolic link (to {os.path.realpath(path)}); going on with "
                           "it would write through it: name the file itself", path=str(path))


def temp_name(name: str) -> str:
    """A prefix for the temporary file beside ``name`` that keeps the full temporary name
    (prefix, 8 random characters, ``.tmp``) within any file system's limit however long
    ``name`` is: the name is cut to 40 characters (at most 160 bytes)."""
    return f".{name[:40]}."


def write_output(path: str | Path, data: str | bytes, *, force: bool = False) -> None:
    """Write ``data`` via a temporary file and a rename, so a crash leaves no half file.

    Without ``force`` an existing file is never replaced, not even one that appears while
    writing (the temporary file is hard-linked into place, which fails if the name exists).
    A symbolic link is never written through: with ``force`` the file replaces the link,
    and the file it pointed to is left as it was (every output keeps this rule; see
    :func:`open_output`). A new file gets the usual permissions (0666 less the umask;
    ``mkstemp`` would leave 0600); a replaced one keeps its own. Any failure is a one-line
    :class:`DeducerError`.
    """
    check_output(path, force=force)
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        st = os.lstat(p)
        mode = 0o666 & ~_umask() if stat.S_ISLNK(st.st_mode) else stat.S_IMODE(st.st_mode)
    except OSError:
        mode = 0o666 & ~_umask()
    import tempfile  # here, not above: it costs every command's start-up (shutil, random)

    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=temp_name(p.name), suffix=".tmp", dir=parent)
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


def write_outputs(files: Sequence[tuple[str | Path, str | bytes]], *,
                  force: bool = False) -> None:
    """:func:`write_output` for many files at once (a converted collection): each written
    to its temporary file, one ``os.sync`` for them all (960 ``fsync`` calls took 35 s of
    wall time on a busy disk), then each put in place by the same rules (never over an
    existing file without ``force``, never through a link). A failure is a one-line
    :class:`DeducerError`; the files already in place stay, the temporary ones go."""
    import tempfile

    umask = _umask()
    staged: list[tuple[Path, str]] = []
    try:
        for path, data in files:
            check_output(path, force=force)
            p = Path(path)
            parent = p.parent if str(p.parent) else Path(".")
            raw = data.encode("utf-8") if isinstance(data, str) else data
            try:
                fd, tmp = tempfile.mkstemp(prefix=temp_name(p.name), suffix=".tmp",
                                           dir=parent)
            except OSError as e:
                raise DeducerError(f"cannot write: {e.strerror or e}", path=str(p)) from None
            staged.append((p, tmp))
            try:
                os.fchmod(fd, 0o666 & ~umask)
                with os.fdopen(fd, "wb") as fh:
                    fh.write(raw)
            except OSError as e:
                raise DeducerError(f"cannot write: {e.strerror or e}", path=str(p)) from None
        os.sync()
        while staged:
            p, tmp = staged[0]
            try:
                if force:
                    os.replace(tmp, p)
                else:
                    try:
                        os.link(tmp, p)
                    except FileExistsError:
                        raise DeducerError("already exists; pass --force to overwrite it",
                                           path=str(p)) from None
                    except OSError:
                        os.replace(tmp, p)
                    else:
                        os.unlink(tmp)
            except OSError as e:
                raise DeducerError(f"cannot write: {e.strerror or e}", path=str(p)) from None
            staged.pop(0)
    finally:
        for _, tmp in staged:
            try:
                os.unlink(tmp)
            except OSError:
                pass
