"""The play server's files: paths kept inside the root folder, the folder's puzzle files
listed (each sniffed once while unchanged), and a solving record found by its text, its
file or a janko.at address.

Files are read and written only inside ``root``: no absolute paths, no ``..``, no symbolic
link leading out.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path, PurePosixPath

from ...errors import DeducerError
from ...puzzle import formats
from ...puzzle.fileio import compression, plain_suffix, read_input
from ...puzzle.formats import janko
from .inputs import ApiError, field

MAX_LISTED = 500
MAX_DEPTH = 4
SKIP_DIRS = frozenset({"__pycache__", "node_modules", "venv", "env"})
SNIFF_BYTES = 64 * 1024  # how much of a listed file is read to tell if it is a puzzle
#: seconds one listing may spend sniffing files (3,000 notes took 16-29 s a call): past it
#: the list is given as it stands, marked truncated, and the next call goes on from the
#: answers kept in :data:`_SNIFFED`
LIST_SECONDS = 2.0
#: file (path, size, modification time) -> is it a puzzle: a file is sniffed once while it
#: is unchanged; at most :data:`SNIFF_CACHE` answers kept
_SNIFFED: dict[tuple, bool] = {}
SNIFF_CACHE = 50_000
#: a janko.at puzzle's address (``https://www.janko.at/Raetsel/Kakuro/002.a.htm``): its number
JANKO_LINK = re.compile(r"(?:https?://)?(?:www\.)?janko\.at/\S*?Kakuro/0*([0-9]{1,4})\b", re.I)
#: at most this many of the root folder's files are read to find a janko.at address
MAX_LINK_FILES = 20


def safe_path(root: Path, rel) -> Path:
    """``rel`` (a relative path) inside ``root``, resolved; ApiError 400/403 otherwise."""
    if not isinstance(rel, str) or not rel.strip():
        raise ApiError(400, "give a file name (a path inside the folder)")
    if "\x00" in rel or len(rel) > 1024:
        raise ApiError(400, "that is not a usable file name")
    if "\\" in rel:
        raise ApiError(400, "use / between folder names, not \\")
    pp = PurePosixPath(rel)
    if pp.is_absolute() or rel.startswith("~"):
        raise ApiError(403, "absolute paths are not allowed: give a path inside the folder "
                            f"{root}")
    if ".." in pp.parts:
        raise ApiError(403, "'..' is not allowed: give a path inside the folder")
    target = (root / pp).resolve()
    if target != root and not target.is_relative_to(root):
        raise ApiError(403, "that path leads outside the folder (through a symbolic link)")
    return target


def uploaded(text: str, filename: str | None) -> tuple[str, str]:
    """Text the page uploads, with its label for messages (the file's base name, or
    ``upload``): line ends made plain; refused when it holds a NUL byte."""
    # only the base name is used (to guess the format); nothing is read from disk
    label = PurePosixPath(filename.replace("\\", "/")).name if filename else "upload"
    if "\x00" in text:
        raise ApiError(400, f"{label}: the file contains a NUL byte (is it a binary file?)")
    return text.replace("\r\n", "\n").replace("\r", "\n"), label


def read_text(root: Path, rel: str) -> str:
    """The text of the file ``rel`` inside ``root`` (a .gz or .bz2 file read through)."""
    target = safe_path(root, rel)
    if not target.is_file():
        raise ApiError(404, f"no such file in the folder: {rel}")
    try:  # size checked first, at most the limit read (never /dev/zero's "whole")
        return formats.decode(read_input(target, rel), rel)
    except DeducerError as e:
        raise ApiError(400, str(e)) from None


def _is_puzzle_file(path: Path) -> bool:
    """Does the file read as a puzzle format (its start, by the formats' own sniffing)?
    Keeps project files with a puzzle extension (SOURCES.txt, expected.json) off the list.
    Asked once per unchanged file (see :data:`_SNIFFED`)."""
    try:
        st = path.stat()
    except OSError:
        return False
    key = (str(path), st.st_size, st.st_mtime_ns)
    known = _SNIFFED.get(key)
    if known is None:
        known = _sniff(path, st.st_size)
        if len(_SNIFFED) >= SNIFF_CACHE:
            _SNIFFED.clear()
        _SNIFFED[key] = known
    return known


def _sniff(path: Path, size: int) -> bool:
    try:
        if size > formats.MAX_BYTES:
            return False
        with path.open("rb") as f:
            head = f.read(SNIFF_BYTES)
        if compression(head):  # its start says nothing: what it holds does
            head = read_input(path, path.name)[:SNIFF_BYTES]
        text = formats.decode(head, path.name)
        formats.detect(text, path.name)
    except (OSError, DeducerError):
        return False
    return True


def list_files(root: Path) -> tuple[list[str], bool]:
    """Puzzle files under ``root`` (no hidden folders, no links out); truncated?"""
    exts: set[str] = set()
    for n in formats.names():
        exts.update(formats.get(n).extensions)
    out: list[str] = []
    deadline = time.monotonic() + LIST_SECONDS
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        depth = len(here.relative_to(root).parts)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS
                             and not d.endswith(".egg-info") and depth < MAX_DEPTH)
        for f in sorted(filenames):
            if f.startswith(".") or plain_suffix(f) not in exts:
                continue
            if time.monotonic() > deadline:  # a folder of thousands of notes: what it has
                return out, True
            full = here / f
            try:
                real = full.resolve()
            except OSError:
                continue
            if not real.is_relative_to(root) or not real.is_file() \
                    or not _is_puzzle_file(real):
                continue
            out.append(full.relative_to(root).as_posix())
            if len(out) >= MAX_LISTED:
                return out, True
    return out, False


def record_text(root: Path, data: dict) -> tuple[str, str, str | None]:
    """The text of the record a replay request names (uploaded text, a file of the root
    folder, or a janko.at address looked up in the root folder's janko files), its label
    for messages, and which record of the file a link names (or None)."""
    text = field(data, "text", str, required=False)
    rel = field(data, "path", str, required=False)
    link = field(data, "link", str, required=False)
    if rel is not None:
        return read_text(root, rel), rel, None
    if link is not None:
        return _janko_link(root, link.strip())
    if text is None:
        raise ApiError(400, "give the record as 'text', 'path' or 'link'")
    filename = field(data, "filename", str, required=False)
    label = PurePosixPath(filename.replace("\\", "/")).name if filename else "upload"
    if not text.strip():
        raise ApiError(400, f"{label}: the file is empty")
    text, label = uploaded(text, filename)
    return text, label, None


def _janko_link(root: Path, link: str) -> tuple[str, str, str | None]:
    """A janko.at Kakuro address (its number) found in the root folder: a file of janko.at
    JSON records holding that number with its moves, or a page or x-janko file whose name
    starts with the number (``002.a.htm``). Nothing is fetched from the web."""
    m = JANKO_LINK.search(link)
    if not m:
        raise ApiError(400, "not a janko.at Kakuro address (like https://www.janko.at/"
                            "Raetsel/Kakuro/002.a.htm)")
    number = int(m.group(1))
    files, _cut = list_files(root)
    looked = 0
    for rel in files:
        path = root / rel
        base = path.name.lower()
        named = re.match(r"0*([0-9]+)\b", base)
        if "jsonl" not in base and not (named and int(named.group(1)) == number):
            continue
        looked += 1
        if looked > MAX_LINK_FILES:
            break
        try:
            text = formats.decode(read_input(path, rel), rel)
        except DeducerError:
            continue
        if "jsonl" not in base:
            return text, rel, None
        if any(int(pid) == number for pid in janko.recorded(text)):
            return text, rel, str(number)
    raise ApiError(404, f"janko.at Kakuro {number:03d} with its solving record is not in the "
                        "folder (the page reads nothing from the web: put janko.at's file "
                        "or a collection of its records in the folder)")
