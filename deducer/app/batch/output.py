"""Rows that survive: a JSON-lines file written row by row, resumable; Parquet at the end.

Each row is appended, unbuffered, the moment its puzzle is finished, whatever the order the
batch finishes them in (the largest go first), and the file is sorted back to input order
when the run is complete. So after an interruption or a crash the file holds every finished
row, in any order: ``--resume`` keeps the complete rows (a half-written last line is cut
off), matches each to its input by its source (:func:`match_rows`), and rates the rest.
Parquet cannot be appended to safely, so ``--out x.parquet`` journals its rows to
``x.parquet.partial.jsonl`` as it goes (that is what a resume reads) and writes the Parquet
file, through pyarrow (the ``parquet`` extra), when the run is complete.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ...errors import DeducerError
from ...puzzle.fileio import check_name, name_max, open_output, refuse_a_link, temp_name
from ...render.jsonout import dumps


def out_format(path: str, asked: str | None) -> str:
    """``asked``, else ``parquet`` for a ``.parquet`` name, else ``jsonl``."""
    if asked:
        return asked
    return "parquet" if path.lower().endswith(".parquet") else "jsonl"


def need_pyarrow() -> None:
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise DeducerError("Parquet output needs pyarrow: pip install 'deducer[parquet]' "
                           "(or pip install pyarrow)") from None


def match_rows(sources: list, labels: list[str]) -> list[int | None]:
    """The input (an index into ``labels``, the inputs' sources in order) each row of a
    rows file is for, given the rows' ``sources`` in file order: a source the inputs give
    several times (a file named twice) matches them in turn. None for a row the inputs do
    not give (or give fewer times than the file holds it)."""
    where: dict[str, list[int]] = {}
    for k in range(len(labels) - 1, -1, -1):  # a stack per source, its first input on top
        where.setdefault(labels[k], []).append(k)
    out: list[int | None] = []
    for src in sources:
        stack = where.get(src) if isinstance(src, str) else None
        out.append(stack.pop() if stack else None)
    return out


def cannot_write(e: OSError, kept: str) -> str:
    """``cannot write: no space left on device; 41 rows kept, --resume goes on``."""
    why = e.strerror or str(e) or type(e).__name__
    return f"cannot write: {why[:1].lower()}{why[1:]}; {kept}, --resume goes on"


class LineFile:
    """Whole lines appended to a file as they come, unbuffered (an interrupted run keeps
    every line it finished). A line the file system refuses (a full disk) is taken back
    off, so the file never ends in a cut line, and said in one line: how many lines the
    file keeps, and that ``--resume`` goes on from there (it reads whole lines)."""

    def __init__(self, path: str, *, append: bool = False, lines: int = 0,
                 what: str = "row"):

        self.path = path
        self.what = what
        self.lines = lines  # whole lines in the file
        self.fh = open_output(path, append=append, binary=True)

    def write(self, text: str) -> None:
        data = memoryview(text.encode("utf-8"))
        fd = self.fh.fileno()
        before = None
        try:
            before = os.fstat(fd).st_size
            while data:
                data = data[self.fh.write(data):]
        except OSError as e:
            if before is not None:
                try:
                    os.ftruncate(fd, before)  # no half line: --resume reads whole ones
                except OSError:
                    pass
            kept = f"{self.lines} {self.what}{'' if self.lines == 1 else 's'} kept"
            raise DeducerError(cannot_write(e, kept), path=self.path) from None
        self.lines += 1

    def close(self) -> None:
        self.fh.close()


class RowFile:
    """Open ``path`` for rows: new (``force`` to replace), or resumed after its last
    complete row. ``done`` holds the rows already there (as dicts)."""

    def __init__(self, path: str, fmt: str = "jsonl", *, resume: bool = False,
                 force: bool = False):

        check_name(path)
        self.target = Path(path)
        self.fmt = fmt
        self.journal = Path(self.journal_of(path, fmt))
        self.done: list[dict] = []
        self._cut: int | None = None  # where a half-written last row begins
        parent = self.target.parent
        if not parent.is_dir():
            raise DeducerError(f"folder {str(parent)!r} does not exist", path=path)
        if self.target.is_dir():
            raise DeducerError("is a directory", path=path)
        if fmt == "parquet":
            need_pyarrow()
        if resume:
            refuse_a_link(self.journal)
            if fmt == "parquet" and self.target.exists() and not self.journal.exists():
                raise DeducerError("is complete already (nothing to resume)", path=path)
            self.done = self._read_done()
        elif (self.target.exists() or self.target.is_symlink()  # a dangling link too
              or (fmt == "parquet" and self.journal.exists())) and not force:
            raise DeducerError("already exists; pass --resume to go on where it stopped, "
                               "or --force to start over", path=path)
        self.created = not self.journal.exists()
        self.written = 0
        self.out = LineFile(str(self.journal), append=resume, lines=len(self.done))

    @staticmethod
    def journal_of(path: str, fmt: str) -> str:
        """The file rows are written to as they come: ``path`` itself for JSON lines, else
        ``path.partial.jsonl`` (for a name too long to take that ending, its start and a
        digest of the whole name: the same name always finds the same journal)."""
        if fmt == "jsonl":
            return path
        head, name = os.path.split(path)
        journal = name + ".partial.jsonl"

        if len(os.fsencode(journal)) > name_max(head or "."):
            digest = hashlib.sha256(os.fsencode(name)).hexdigest()[:16]
            journal = f"{name[:40]}.{digest}.partial.jsonl"
        return os.path.join(head, journal)

    def _read_done(self) -> list[dict]:
        if not self.journal.exists():
            return []
        try:
            data = self.journal.read_bytes()
        except OSError as e:
            raise DeducerError(f"cannot read: {e.strerror or e}", path=str(self.journal)) \
                from None
        keep = data.rfind(b"\n") + 1  # a crash can leave half a line: cut it off
        rows = []
        for n, line in enumerate(data[:keep].decode("utf-8", "replace").splitlines(), 1):
            try:
                row = json.loads(line)
            except (ValueError, RecursionError):  # a line nested thousands deep too
                row = None
            if not isinstance(row, dict) or "source" not in row:
                raise DeducerError("is not a rows file written by 'deducer rate --out' "
                                   "(cannot resume it)", path=str(self.journal), line=n)
            rows.append(row)
        if keep < len(data):
            # cut off when the run goes on (the first row written, or the end): a resume
            # refused for other inputs or options leaves the file as it was
            self._cut = keep
        return rows

    def _cut_half_row(self) -> None:
        if self._cut is not None:
            os.truncate(self.journal, self._cut)
            self._cut = None

    def write(self, row: dict) -> None:
        self._cut_half_row()
        # one line, keys in the order the row gives them, as it goes: an interrupted run
        # keeps every row it finished, and a full disk no half row
        self.out.write(dumps(row))
        self.written += 1

    def close(self, complete: bool, labels: list[str] | None = None) -> None:
        """Close the file; on a complete run, sort its rows into the input order of
        ``labels`` (the inputs' sources) and, for Parquet, write the Parquet file."""
        if complete:
            self._cut_half_row()
        self.out.close()
        if complete and labels is not None:
            self._sort(labels)
        if not complete and self.created and not self.written:
            os.unlink(self.journal)  # failed before the first row: leave nothing behind
            return
        if complete and self.fmt == "parquet":
            try:
                write_parquet(self.journal, self.target)
            except OSError as e:  # a full disk: the journal keeps every row
                raise DeducerError(cannot_write(e, f"the rows are kept in {self.journal}"),
                                   path=str(self.target)) from None
            os.unlink(self.journal)

    def _sort(self, labels: list[str]) -> None:
        """Put the journal's rows in input order (they were written as they finished): a
        new file under a temporary name, renamed into place, so that an interruption
        leaves the old one whole. Only the lines' places are held, not their text."""

        places: list[tuple[int, int]] = []  # (offset, length) of each line, in file order
        sources = []
        with open(self.journal, "rb") as fh:
            at = 0
            for line in fh:
                places.append((at, len(line)))
                at += len(line)
                try:
                    sources.append(json.loads(line).get("source"))
                except (ValueError, AttributeError, RecursionError):
                    sources.append(None)
        index = match_rows(sources, labels)
        keys = [(len(labels) if k is None else k, n) for n, k in enumerate(index)]
        if keys == sorted(keys):
            return
        tmp = self.journal.with_name(temp_name(self.journal.name) + "tmp")
        try:
            with open(self.journal, "rb") as src, open(tmp, "wb") as dst:
                for _key, n in sorted(keys):
                    src.seek(places[n][0])
                    dst.write(src.read(places[n][1]))
        except OSError as e:
            tmp.unlink(missing_ok=True)
            raise DeducerError(cannot_write(e, "the rows are kept, in the order they "
                                               "finished"), path=str(self.journal)) from None
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        os.replace(tmp, self.journal)


#: column types of the rows file, for Parquet (JSON lines need none)
SCHEMA = (("source", "string"), ("status", "string"), ("level", "string"),
          ("hardest", "string"), ("weight", "float64"), ("effort", "int64"),
          ("steps", "int64"), ("chain", "int64"), ("trial", "int64"), ("guessing", "int64"),
          ("rows", "int64"), ("cols", "int64"), ("cells", "int64"), ("rater", "string"),
          ("seconds", "float64"), ("error", "string"), ("score", "float64"),
          ("notes", "float64"), ("why", "string"), ("rules", "map"))


def _arrow_type(pa, kind: str):
    # a rated puzzle's technique counts: rule id -> steps (a Parquet map column)
    return pa.map_(pa.string(), pa.int64()) if kind == "map" else getattr(pa, kind)()


def write_parquet(journal: Path, target: Path, batch: int = 65536) -> None:
    """The journal's rows as a Parquet table, a row group per ``batch`` rows (memory stays
    flat however many rows), written under a temporary name and renamed into place."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([(name, _arrow_type(pa, kind)) for name, kind in SCHEMA])

    # the rename replaces a link named --out, and leaves the file it pointed to be
    tmp = target.with_name(temp_name(target.name) + "tmp")
    try:
        with open(journal, encoding="utf-8") as fh, pq.ParquetWriter(tmp, schema) as writer:
            cols: dict[str, list] = {name: [] for name, _ in SCHEMA}
            n = 0
            for line in fh:
                row = json.loads(line)
                for name, values in cols.items():
                    v = row.get(name)
                    values.append(list(v.items()) if isinstance(v, dict) else v)
                n += 1
                if n == batch:
                    writer.write_table(pa.table(cols, schema=schema))
                    cols = {name: [] for name, _ in SCHEMA}
                    n = 0
            if n:
                writer.write_table(pa.table(cols, schema=schema))
    except BaseException:
        tmp.unlink(missing_ok=True)  # a full disk leaves no half-written Parquet file
        raise
    os.replace(tmp, target)
