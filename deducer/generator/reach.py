"""What score a level's puzzles get at a size, and whether a ``--score`` range is within
reach (no imports from the rest of the generator: :mod:`.request` asks it when a request
is checked and its level drawn; :mod:`.score` steers a draft's score into the range).

The score (:mod:`deducer.engine.rating`) grows with the level's technique and with the grid
(its size, the work, how few easy moves are open). A request used to make a puzzle at a
level drawn from the published mix and drop it when the score missed, so a range the drawn
level never reaches at that size never ended (10x10, score 3-6: the second puzzle was drawn
Expert, and 10x10 Expert puzzles score about 10). Now :func:`typical` says what a level's
puzzles score on a grid of so many white cells, fitted on generated puzzles; a puzzle's
level (when none is asked for) is drawn from the mix weighted by the chance of each level's
score falling in the range (:func:`level_weights`), and a range no level comes near at that
size is refused at once (:func:`unreachable`).
"""

from __future__ import annotations

import math

#: score ~ a + b * ln(white cells) per level: least squares over 86 puzzles generated at
#: 7x7 to 16x16 (their exact scores against ln(white cells)), residuals within about 1.2
FIT = {"Easy": (-0.25, 1.27), "Medium": (-0.93, 1.89), "Hard": (2.02, 1.63),
       "Expert": (0.89, 2.28)}
#: the spread of a level's scores around the fit (their standard deviation, about 0.6)
SPREAD = 0.6
#: the share of a published mix's puzzles that must fall in a score range for the mix to be
#: kept (below it, the levels that reach the range are drawn by their chance alone)
MIX_HITS = 0.25
#: how far from the fit a level's score goes, steered (beyond it a range is refused): the
#: scores generated fell within 1.3 of the fit, and steering moves one by a tenth or two
#: per kept change (10x10 Easy asked for 6.5 or more, 1.6 above its fit, made nothing in
#: five CPU minutes)
REACH = 1.5


def white_cells(rows: int, cols: int, density: float) -> int:
    """About how many white cells a layout of that size and black share has."""
    return max(1, round((rows - 1) * (cols - 1) * (1 - density)))


def typical(level: str, cells: int) -> float:
    """What a puzzle of ``level`` (Easy to Expert) on ``cells`` white cells scores, as
    fitted (the middle of its range)."""
    a, b = FIT[level]
    return a + b * math.log(max(cells, 2))


def chance(level: str, cells: int, score: tuple[float | None, float | None]) -> float:
    """The share of ``level``'s puzzles at that size whose score falls in the range (a
    normal spread around :func:`typical`)."""
    mid = typical(level, cells)

    def below(x: float | None, default: float) -> float:
        if x is None:
            return default
        return 0.5 * (1 + math.erf((x - mid) / (SPREAD * math.sqrt(2))))

    return max(0.0, below(score[1], 1.0) - below(score[0], 0.0))


def level_weights(cells: int, score, mix) -> list[tuple[str, float]]:
    """The level mix of a request with a score range and no level: the published mix times
    each level's chance of a score in the range, so a batch still looks published; where
    that mix would rarely hit the range (less than :data:`MIX_HITS` of its puzzles: the
    range wants a level the mix has little of), each level by its chance alone."""
    odds = {name: chance(name, cells, score) for name in FIT}
    mixed = [(name, w * odds.get(name, 0.0)) for name, w in mix]
    if sum(w for _, w in mixed) >= MIX_HITS * sum(w for _, w in mix):
        return mixed
    return list(odds.items())


def _span(score) -> str:
    lo, hi = score
    if lo is None:
        return f"at most {hi:g}"
    if hi is None:
        return f"at least {lo:g}"
    return f"{lo:g}-{hi:g}"


def unreachable(rows: int, cols: int, level: str | None, cells: int, score) -> str | None:
    """Why a score range no level the request allows comes near at its size is refused
    (what puzzles there score), or None when some level reaches it."""
    if score is None or level in ("Extreme", "Unreasonable"):
        return None
    lo, hi = score
    levels = [level] if level is not None else list(FIT)
    for name in levels:
        mid = typical(name, cells)
        if (lo is None or mid + REACH >= lo) and (hi is None or mid - REACH <= hi):
            return None
    size = f"{rows}x{cols}"
    scores = ", ".join(f"{name} about {typical(name, cells):.1f}" for name in FIT)
    what = f"{size} {level} puzzles" if level else f"{size} puzzles"
    if len(levels) > 1:
        hint = "a larger grid scores higher, a smaller one lower"
    else:
        near = min(FIT, key=lambda name: miss(typical(name, cells), score))
        hint = (f"--level {near} comes nearer" if near != level else
                "a larger grid scores higher, a smaller one lower")
    return (f"--score {_span(score)} is out of reach for {what} (about {cells} white "
            f"cells): puzzles there score {scores}, and steering moves a score by about "
            f"{REACH:g} at most; {hint}")


def miss(score: float | None, rng_: tuple[float | None, float | None]) -> float:
    """How far a score is from the range (0 inside it)."""
    if score is None:
        return math.inf
    lo, hi = rng_
    if lo is not None and score < lo:
        return lo - score
    if hi is not None and score > hi:
        return score - hi
    return 0.0


