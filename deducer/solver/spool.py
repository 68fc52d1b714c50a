"""Solutions kept off the heap: one byte per white cell, in a file once they pass 16 MiB.

``deducer solve --max-solutions 100000`` on a big grid would otherwise hold every grid as a
list of ints (about 9 bytes a cell); a :class:`SolutionSpool` holds one byte a cell and
spills to a temporary file, so memory stays bounded however many solutions are asked for.
It reads like a list of digit lists (``len``, iteration, indexing).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Sequence


class SolutionSpool(Sequence):
    """An append-only list of solutions (digit lists of one fixed length)."""

    def __init__(self, size: int):
        self.size = size
        self._f = tempfile.SpooledTemporaryFile(max_size=16 << 20)
        self._n = 0

    def append(self, values: list[int]) -> None:
        self._f.seek(0, 2)
        self._f.write(bytes(values))
        self._n += 1

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(self._n))]
        if k < 0:
            k += self._n
        if not 0 <= k < self._n:
            raise IndexError(k)
        self._f.seek(k * self.size)
        return list(self._f.read(self.size))

    def __iter__(self) -> Iterator[list[int]]:
        size = self.size
        batch = max(1, (1 << 20) // max(1, size))
        self._f.seek(0)
        left = self._n
        while left:
            n = min(batch, left)
            chunk = self._f.read(n * size)
            pos = self._f.tell()
            for j in range(n):
                yield list(chunk[j * size:(j + 1) * size])
            self._f.seek(pos)
            left -= n

    def __eq__(self, other) -> bool:
        if isinstance(other, Sequence):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def close(self) -> None:
        self._f.close()
