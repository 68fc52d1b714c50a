"""The puzzles bundled with the package (``deducer/data/puzzles``, listed with their
expected answers in its ``expected.json``): one reader for the technique examples and the
``rules --test`` audit."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import DeducerError
from . import formats
from .model import Puzzle

BUNDLED = Path(__file__).resolve().parents[1] / "data" / "puzzles"


@dataclass(frozen=True)
class Bundled:
    """One bundled puzzle: its label (``puzzles/<file>[:<name>]``), the puzzle, and where
    it was read from."""

    label: str
    puzzle: Puzzle
    path: Path
    name: str | None


def bundled_puzzles(unique_only: bool = True) -> Iterator[Bundled]:
    """Every bundled puzzle expected.json lists (with ``unique_only``, those with exactly
    one solution), in its order."""

    meta = BUNDLED / "expected.json"
    try:
        data = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise DeducerError(f"cannot read the bundled puzzle list: {e}", path=str(meta)) from None
    for entry in data.get("puzzles", []):
        if unique_only and entry.get("solutions") != 1:
            continue
        path = BUNDLED / entry["file"]
        name = entry.get("name")
        label = f"puzzles/{entry['file']}" + (f":{name}" if name else "")
        yield Bundled(label, formats.load(path, entry.get("format"), name=name), path, name)
