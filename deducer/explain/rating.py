"""Difficulty from a step log: hardest step, total effort, a level, a rater version.

Levels follow DESIGN.md §4 (the anchors Sudoku Explainer and HoDoKu use): the hardest
step decides the level; a path whose total effort is large for its level is bumped one
level (a long walkthrough of easy steps is more work for a person than a short one).
The same steps always give the same rating.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

# 2: effort bump on total effort (was effort per cell); 3: a step weighs at least what its
# proof asks a reader to check (search_floor), naked singles written at once; 4: chains
# instead of trial, max_chain in the rating
RATER_VERSION = "4"

LEVELS = ("Easy", "Medium", "Hard", "Expert", "Extreme", "Unreasonable")
#: upper bound of the hardest step's weight for each level below Extreme
LEVEL_MAX_WEIGHT = (("Easy", 1.6), ("Medium", 2.4), ("Hard", 4.2), ("Expert", 6.0))
#: total effort above which a path is "large for its level" (bumped one level up).
#: Calibrated on the Nikoli labels (reports/ratings.md): the level's rank correlation with
#: them rose from 0.72 (the v1 per-cell bump) to 0.90; the other labelled sets are unchanged.
EFFORT_BUMP = {"Easy": 1000, "Medium": 2500, "Hard": 5000, "Expert": 10000}
TRIAL_RULES = frozenset({"trial"})
#: the longest chain a person is expected to follow (README "Rating"): a path that needs a
#: longer one is Extreme, as a path that needs trial is
MAX_HUMAN_CHAIN = 12
#: what trying every arrangement of a run weighs (DESIGN.md §4: permutation check of a
#: small run, of any run), the floor of a step whose proof asks for it
SMALL_SEARCH_WEIGHT = 3.8
FULL_SEARCH_WEIGHT = 5.8
#: a run this small (open cells, or arrangements of their candidates) is a small search
SMALL_SEARCH_CELLS = 4
SMALL_SEARCH_ARRANGEMENTS = 24
GUESS_RULES = frozenset({"backtracking"})


@dataclass
class Rating:
    """A difficulty grade."""

    level: str
    max_weight: float
    score: int
    rules: dict[str, int] = field(default_factory=dict)
    version: str = RATER_VERSION
    steps: int = 0
    bumped: bool = False
    mean_available: float = 0.0  # simplest-tier moves open per step (lower = harder)
    solved: bool = True
    max_chain: int = 0  # links in the longest chain (proof by assumption) the path needs
    #: that chain's shape, "whip" or "braid" (a braid where one of that length is), else ""
    chain_kind: str = ""

    def to_json(self) -> dict:
        d = asdict(self)
        d["mean_available"] = round(self.mean_available, 3)
        d["max_weight"] = round(self.max_weight, 3)
        return d

    @property
    def rank(self) -> int:
        return LEVELS.index(self.level)


def search_floor(open_cells: int, arrangements: int) -> float:
    """The least weight of a step whose proof asks a reader to try the arrangements of a
    run with ``open_cells`` empty cells whose candidates allow ``arrangements`` fillings
    (the product of their candidate counts): the weight the ladder gives that check.
    A crossing-run lemma over a six-cell run thus weighs what the full per-run check
    weighs, not less."""
    if open_cells <= 1 or arrangements <= 2:
        return 0.0
    if open_cells <= SMALL_SEARCH_CELLS or arrangements <= SMALL_SEARCH_ARRANGEMENTS:
        return SMALL_SEARCH_WEIGHT
    return FULL_SEARCH_WEIGHT


def chain_length(step) -> int:
    """Links of a step's proof by assumption (the longest case of a proof by cases); 0
    for a step with no chain. Berthier's W-rating counts the same thing."""
    proof = getattr(step, "proof", None)
    if not proof:  # a lean walk's step keeps the count, not the proof
        return getattr(step, "chain", 0)
    if "cases" in proof:
        return max((len(c.get("links", ())) for c in proof["cases"]), default=0)
    return len(proof.get("links", ()))


def level_for(max_weight: float, rules_used: set[str], max_chain: int = 0) -> str:
    if rules_used & GUESS_RULES:
        return "Unreasonable"
    if rules_used & TRIAL_RULES or max_chain > MAX_HUMAN_CHAIN:
        return "Extreme"
    for name, limit in LEVEL_MAX_WEIGHT:
        if max_weight <= limit + 1e-9:
            return name
    return "Extreme"


def rate_steps(steps, status: str = "solved") -> Rating:
    """Rate a walkthrough."""
    counts = Counter(s.rule for s in steps)
    max_w = max((s.weight for s in steps), default=0.0)
    score = sum(s.score for s in steps)
    max_chain = max((chain_length(s) for s in steps), default=0)
    kinds = {getattr(s, "chain_kind", "") for s in steps if max_chain and chain_length(s) ==
             max_chain}
    chain_kind = "braid" if "braid" in kinds else ("whip" if "whip" in kinds else "")
    level = level_for(max_w, set(counts), max_chain)
    bumped = False
    limit = EFFORT_BUMP.get(level)
    if limit is not None and score > limit:
        level = LEVELS[LEVELS.index(level) + 1]
        bumped = True
    mean_avail = sum(s.available for s in steps) / len(steps) if steps else 0.0
    return Rating(
        level=level,
        max_weight=max_w,
        score=score,
        rules=dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))),
        steps=len(steps),
        bumped=bumped,
        mean_available=mean_avail,
        solved=status == "solved",
        max_chain=max_chain,
        chain_kind=chain_kind,
    )
