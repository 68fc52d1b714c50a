"""CSV renderer: ``deducer rate --csv``, a row per puzzle for spreadsheets."""

from __future__ import annotations

import csv
import io

from ..errors import printable
from . import Renderer
from .teach import counts_cell

#: the columns, in order
CSV_HEAD = ["file", "rows", "cols", "cells", "status", "level", "max_weight", "hardest_rule",
            "score", "steps", "trial", "guessing", "max_chain", "rater_version", "error",
            "effort", "why", "rules", "notes"]


class CsvRenderer(Renderer):
    name = "csv"

    def rate_rows(self, rows: list[dict], *, why: bool = False) -> str:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(CSV_HEAD)
        for r in rows:
            r = {**r, "file": printable(r["file"]),
                 "error": r["error"] and printable(r["error"])}
            weight = "" if r["max_weight"] is None else f"{r['max_weight']:g}"
            w.writerow(["" if r[k] is None else r[k] for k in CSV_HEAD[:6]]
                       + [weight]
                       + ["" if r[k] is None else r[k]
                          for k in ("hardest_rule", "score", "steps", "trial", "guessing",
                                    "chain")]
                       + [r["rater"], r["error"] or ""]
                       + ["" if r[k] is None else r[k] for k in ("effort", "why")]
                       + [counts_cell(r.get("rules"))]
                       + ["" if r.get("notes") is None else r["notes"]])
        return buf.getvalue()


RENDERER = CsvRenderer()
