"""Beyond soundness: the facts and runs a sound proof could do without (``surplus``), and
the cells and runs of a proof its sentence does not name (``unnamed``).
"""

from __future__ import annotations

import re

from ..puzzle.model import Puzzle, cell_name
from .checker import Problem, Replay, check_step, states
from .grid import Board, as_json, run_id


def _drops(rp: Replay, proof: dict):
    """(label, smaller proof) for each fact and each run of a simple proof."""
    facts = proof.get("facts", [])
    runs = proof.get("runs", [])
    for k, f in enumerate(facts):
        label = (f"the fact on {cell_name(tuple(f['cell']))}" if "cell" in f
                 else f"the fact on {rp.runs[run_id(rp, f['run'])].name}")
        yield label, {**proof, "facts": facts[:k] + facts[k + 1:]}
    for k, ref in enumerate(runs):
        yield f"run {rp.runs[run_id(rp, ref)].name}", {**proof, "runs": runs[:k] + runs[k + 1:]}


def surplus_step(rp: Replay, board: Board, step: dict) -> list[Problem]:
    """Facts and runs of a step's proof (or of each link) that can be dropped with the step
    (or link) still proved. Only for proofs that are sound as they stand."""
    if check_step(rp, board, step):
        return []
    n, rule = step.get("n", 0), step.get("rule", "?")
    proof = step["proof"]
    out = []
    if "facts" in proof or "runs" in proof:
        for label, smaller in _drops(rp, proof):
            if not check_step(rp, board, {**step, "proof": smaller}):
                out.append(Problem(n, rule, "surplus", f"{label} can be dropped"))
        return out
    cases = proof["cases"] if "cases" in proof else [proof]
    for ci, case in enumerate(cases):
        for li, link in enumerate(case.get("links", ())):
            for label, smaller in _drops(rp, link):
                links = [*case["links"][:li], {**link, **smaller}, *case["links"][li + 1:]]
                new_case = {**case, "links": links}
                new = ({"cases": [*cases[:ci], new_case, *cases[ci + 1:]]} if "cases" in proof
                       else new_case)
                if not check_step(rp, board, {**step, "proof": new}):
                    where = (f"case {ci + 1} " if "cases" in proof else "") + f"link {li + 1}"
                    out.append(Problem(n, rule, "surplus", f"{label} can be dropped", where))
    return out


def surplus(puzzle: Puzzle, steps, *, only=None) -> list[Problem]:
    """Surplus facts and runs in a walkthrough's proofs (the steps numbered in ``only``, or
    every step)."""
    out = []
    for rp, board, js in states(puzzle, steps):
        if js.get("proof") is not None and (only is None or js.get("n") in only):
            out += surplus_step(rp, board, js)
    return out


def _named(text: str, token: str) -> bool:
    return re.search(r"(?<![0-9A-Za-z])" + re.escape(token) + r"(?![0-9])", text) is not None


def unnamed(puzzle: Puzzle, step) -> list[str]:
    """Cells and runs of a step's proof (facts and listed runs, link by link for proofs by
    assumption) that its sentence (or its link's sentence) does not name."""
    js = as_json(step)
    proof = js.get("proof")
    if not proof:
        return []
    by_ref = {(r.ref[0], r.ref[1], r.ref[2]): r for r in puzzle.runs}
    missing: list[str] = []

    def need(text: str, part: dict) -> None:
        refs = [f["run"] for f in part.get("facts", ()) if "run" in f] + list(part.get("runs", ()))
        for f in part.get("facts", ()):
            if "cell" in f:
                name = cell_name(tuple(f["cell"]))
                if not _named(text, name) and name not in missing:
                    missing.append(name)
        for ref in refs:
            run = by_ref.get(tuple(ref))
            if run is not None and not _named(text, run.label) and run.name not in missing:
                missing.append(run.name)

    text = js.get("text", "")
    cases = proof.get("cases") or ([proof] if "assume" in proof else [])
    if not cases:
        need(text, proof)
    for case in cases:
        r, c, _ = case["assume"]
        if not _named(text, cell_name((r, c))) and cell_name((r, c)) not in missing:
            missing.append(cell_name((r, c)))
        for link in case.get("links", ()):
            need(link.get("text", ""), link)
    return missing
