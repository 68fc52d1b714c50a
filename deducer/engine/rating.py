"""Difficulty from a step log: a level that names a technique, and a score for the solve.

Two figures with one meaning each (docs/rating.md):

- ``level``: the tier of the hardest technique the walkthrough needs, by the weight of its
  hardest step against the ladder's thresholds (Easy .. Expert), Extreme for trial or a
  chain longer than the chain rules allow, Unreasonable for guessing. Never raised for a
  long walkthrough: a player who picks a level expects its technique.
- ``score``: one number for how hard the whole solve is for a person, a linear model over
  the path's features (:func:`score_features`: hardest step, effort, size, moves open at
  each step, bottlenecks, chains) whose coefficients are fitted on publishers' labels
  (``scripts/fit_rating.py``).

Everything the ladder's file holds is read from it: each rule's ``kind`` (simple, link,
chain, trial, guess), the chain rules' ``max_len``, and the ``rating:`` section (level
thresholds, the rules whose weights floor a search step, the score model). A walkthrough
that did not reach the one solution is not rated: it has no level and no score.
The same steps and ladder always give the same rating.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import asdict, dataclass, field

from . import registry
from .inhead import in_head

# the rule file's vocabulary: levels, rule kinds and score features are declared there
from .registry import FEATURES, KINDS, LEVELS, NOTES_FEATURES  # noqa: F401  (re-exported)

# 5: the level is the hardest technique's tier (no effort bump); score is the fitted model,
# effort the old sum of step scores; unfinished walkthroughs have no level
# 6: the walkthrough's order works in rounds (the ladder's order: section), and the score is
# refitted jointly on publishers' labels and the janko.at records' pencil marks, with the
# scan features
# 7: the score weighs the rounds a person works in (``rounds``, ``round_scan``), refitted;
# its pencil-mark figures are cross-validated with each fold's model on the score's scale
# 8: ``notes``, the chance a solver like the janko.at test-solvers needs pencil marks (a
# calibrated logistic model over the path's and a no-notes solver's features, fitted on the
# test-solvers' records); the score refitted on the publishers' labels alone; both fitted on
# the paths of issue 51 (sum bounds as a person adds, one deduction one step)
# 9: both refitted on the paths whose permutation checks and region sums stop where their
# sentence, as said, stays near 160 characters (issue 51's sentence lengths)
RATER_VERSION = "9"



#: what each feature of the ``notes`` figure is, in words a player knows (``rate --why``
#: names the one that moves a puzzle's figure most)
NOTES_WORDS = {
    "hardest": "the hardest step", "effort": "the work of the whole solve",
    "size": "the size of the grid", "narrow": "few easy moves open at each step",
    "scarcity": "few easy moves for the size of the grid",
    "bottlenecks": "the steps with no easy move open",
    "hard_effort": "the work of the harder steps", "thinking": "the harder steps",
    "chain": "the longest chain", "scan": "the cells scanned for each move open",
    "scan_mean": "the cells scanned for a step",
    "rounds": "the rounds of the solve",
    "round_scan": "the cells looked over per cell a round writes",
    "held": "the candidates held in mind per cell written",
    "head_rounds": "the rounds a solver without notes needs",
    "mean_weight": "the steps' mean weight",
    "eliminating": "the steps that only remove candidates",
}


@dataclass(frozen=True)
class RatingModel:
    """What the rater reads from a ladder: kinds, thresholds, search floors, the score."""

    levels: tuple[tuple[str, float], ...]  # (level, the hardest step's weight at most)
    kinds: dict[str, str]  # rule id -> kind
    max_chain: int | None  # the longest chain the chain rules look for (None: no chain rule)
    small_search: float  # weight of a step that tries the arrangements of a small run
    full_search: float  # ... of any run
    small_cells: int  # a run with this few open cells is small
    small_arrangements: int  # ... or with this few arrangements of its candidates
    coefficients: dict[str, float]
    offset: float = 0.0
    #: the notes model: logit = notes_offset + sum of coefficient x (feature - centre)
    notes_coefficients: dict[str, float] = field(default_factory=dict)
    notes_offset: float = 0.0
    notes_centre: dict[str, float] = field(default_factory=dict)
    #: the no-notes solver's narrowing passes per round (deducer.engine.inhead)
    notes_passes: int = 3

    def kind(self, rule_id: str) -> str:
        return self.kinds.get(rule_id, "simple")


@dataclass
class Rating:
    """A difficulty grade (``level`` and ``score`` None: not rated, see ``solved``)."""

    level: str | None
    max_weight: float
    score: float | None
    rules: dict[str, int] = field(default_factory=dict)
    version: str = RATER_VERSION
    steps: int = 0
    bumped: bool = False  # never since rater 5 (kept for the JSON contract)
    mean_available: float = 0.0  # simplest-tier moves open per step (lower = harder)
    solved: bool = True
    max_chain: int = 0  # links in the longest chain (proof by assumption) the path needs
    effort: int = 0  # the sum of the steps' scores
    level_step: int | None = None  # number of the first step at the level's tier
    level_rule: str | None = None
    level_weight: float | None = None  # that step's weight
    narrowest_step: int | None = None  # number of the first step with fewest moves open
    narrowest_open: int | None = None
    trial: int = 0  # steps of trial kind
    guessing: int = 0  # steps of guess kind
    #: that chain's shape, "whip" or "braid" (a braid where one of that length is), else ""
    chain_kind: str = ""
    #: the rating ladder's level thresholds (level -> the hardest step's weight at most,
    #: Easy to Expert), for renderers that group and colour steps by level; not in the
    #: JSON, whose readers have the ladder
    levels: dict[str, float] = field(default_factory=dict)
    #: the chance (0-1) that a solver like the janko.at test-solvers needs pencil marks
    #: (docs/rating.md, "Pencil marks"); None when not rated
    notes: float | None = None
    #: the feature that moves ``notes`` most from the fitted records' mean (not in the JSON)
    notes_feature: str | None = None

    def to_json(self) -> dict:
        d = asdict(self)
        del d["levels"], d["notes_feature"]
        d["mean_available"] = round(self.mean_available, 3)
        d["max_weight"] = round(self.max_weight, 3)
        return d

    def notes_text(self) -> str:
        """``pencil marks: likely (72%)`` (or ``unlikely (18%)``); "" when not rated."""
        if self.notes is None:
            return ""
        word = "likely" if self.notes >= 0.5 else "unlikely"
        return f"pencil marks: {word} ({self.notes:.0%})"

    @property
    def rank(self) -> int:
        """The level's place in :data:`LEVELS` (-1 when not rated)."""
        return LEVELS.index(self.level) if self.level is not None else -1

    def why(self, notes: bool = True) -> str:
        """Which step set the level and where the solve is narrowest, in a sentence; with
        ``notes``, how likely pencil marks are and the feature that weighs most there."""
        if self.level is None:
            return "not rated: the walkthrough did not reach the one solution"
        parts = []
        if self.level_step is not None:
            parts.append(f"{self.level} from step {self.level_step} ({self.level_rule}, "
                         f"weight {self.level_weight:g})")
        if self.narrowest_step is not None:
            moves = ("no easy move" if self.narrowest_open == 0
                     else f"{self.narrowest_open} easy move"
                     + ("s" if self.narrowest_open != 1 else ""))
            parts.append(f"narrowest at step {self.narrowest_step} ({moves} open)")
        if notes and self.notes is not None:
            said = self.notes_text().replace(": ", " ", 1)
            if self.notes_feature in NOTES_WORDS:
                said += f", most from {NOTES_WORDS[self.notes_feature]}"
            parts.append(said)
        return "; ".join(parts) or self.level


# ---------------------------------------------------------------------------- the model
_CORE_SECTION: dict | None = None


def _core_section() -> dict:
    global _CORE_SECTION
    if _CORE_SECTION is None:
        _CORE_SECTION = registry.rating_section()
    return _CORE_SECTION


def model_for(rules=None) -> RatingModel:
    """The rating model of a ladder (a list from :func:`registry.load`; None: the core
    ladder). The ladder's own ``rating:`` section is used where it has one."""
    if rules is None:
        rules = registry.core_ladder()
    cached = getattr(rules, "rating_model", None)
    if cached is not None:
        return cached
    section = getattr(rules, "rating", None) or _core_section()
    m = build_model(rules, section)
    try:
        rules.rating_model = m
    except AttributeError:  # a plain list: built again next time (a handful of rules)
        pass
    return m


def build_model(rules, section: dict) -> RatingModel:
    """A :class:`RatingModel` from rules (kind, weight, params) and a ``rating:`` section
    (already checked by the registry)."""
    by_id = {r.id: r for r in rules}
    kinds = {r.id: r.kind for r in rules}
    chains = [int(r.params["max_len"]) for r in rules
              if r.kind == "chain" and isinstance(r.params.get("max_len"), int)]
    search = section["search"]

    def weight_of(rid: str, fallback: float) -> float:
        r = by_id.get(rid)
        return r.weight if r is not None else fallback

    levels = tuple((name, float(section["levels"][name])) for name in LEVELS[:4])
    small = by_id.get(search["small"])
    small_cells = int((small.params.get("max_open") if small is not None else None)
                      or search["small_cells"])
    score = section["score"]
    notes = section.get("notes") or {}
    return RatingModel(
        levels=levels, kinds=kinds, max_chain=max(chains) if chains else None,
        small_search=weight_of(search["small"], levels[2][1]),
        full_search=weight_of(search["full"], levels[3][1]),
        small_cells=small_cells, small_arrangements=int(search["small_arrangements"]),
        coefficients={k: float(score["coefficients"].get(k, 0.0)) for k in FEATURES},
        offset=float(score.get("offset", 0.0)),
        notes_coefficients={k: float(v) for k, v in notes.get("coefficients", {}).items()
                            if v},
        notes_offset=float(notes.get("offset", 0.0)),
        notes_centre={k: float(v) for k, v in notes.get("centre", {}).items()},
        notes_passes=int(notes.get("passes", 3)))


# ---------------------------------------------------------------------------- pieces
def search_floor(open_cells: int, arrangements: int, rules=None) -> float:
    """The least weight of a step whose proof asks a reader to try the arrangements of a
    run with ``open_cells`` empty cells whose candidates allow ``arrangements`` fillings
    (the product of their candidate counts): the weight the ladder gives that check (the
    rules the ``rating: search:`` section names). A crossing-run lemma over a six-cell run
    thus weighs what the full per-run check weighs, not less."""
    if open_cells <= 1 or arrangements <= 2:
        return 0.0
    m = model_for(rules)
    if open_cells <= m.small_cells or arrangements <= m.small_arrangements:
        return m.small_search
    return m.full_search


def carried(rule, rules=None) -> tuple[float, float]:
    """The least and the most weight a step of ``rule`` carries: its ``weight``, plus its
    growth per unit up to the units that count (a chain: up to its ``max_len`` links), and,
    for a rule whose steps may try a run's arrangements (``Rule.searches``), up to the
    weight of the ladder's full permutation check (the search floor). What ``deducer
    rules`` shows, so that the ladder says what the walkthroughs' steps weigh."""
    low = high = float(rule.weight)
    units = rule.growth_max
    if units is None and isinstance(rule.params.get("max_len"), int):
        units = int(rule.params["max_len"])
    if rule.growth_weight and units:
        high = round(high + rule.growth_weight * units, 3)
    if getattr(rule, "searches", False):
        high = max(high, model_for(rules).full_search)
    return low, high


def chain_length(step) -> int:
    """Links of a step's proof by assumption (the longest case of a proof by cases); 0
    for a step with no chain. Berthier's W-rating counts the same thing."""
    proof = getattr(step, "proof", None)
    if not proof:  # a lean walk's step keeps the count, not the proof
        return getattr(step, "chain", 0)
    if "cases" in proof:
        return max((len(c.get("links", ())) for c in proof["cases"]), default=0)
    return len(proof.get("links", ()))


def step_level(step, m: RatingModel) -> int:
    """The tier (index in :data:`LEVELS`) of the technique one step uses."""
    kind = m.kind(step.rule)
    if kind == "guess":
        return 5
    if kind == "trial":
        return 4
    if kind == "chain" and m.max_chain is not None and chain_length(step) > m.max_chain:
        return 4
    for k, (_name, limit) in enumerate(m.levels):
        if step.weight <= limit + 1e-9:
            return k
    return 4


def score_features(steps, cells: int, rules=None) -> dict[str, float]:
    """The path's features the score weighs (docs/rating.md), from the steps' weight,
    effort (score), open easy moves (available) and chain links, and the grid's white
    cells. Counts that grow with the grid are kept on a log scale."""
    if not steps:
        return dict.fromkeys(FEATURES, 0.0)
    easy = model_for(rules).levels[0][1]
    n = len(steps)
    weights = [s.weight for s in steps]
    avail = [s.available for s in steps]
    scan, left = [], cells
    # the rounds the walk works in (the ladder's ``order:`` section): per round, the open
    # cells when it starts and the cells it places; a harder step shares its round's number
    rounds: dict[int, list[int]] = {}
    for s in steps:
        scan.append(max(left, 0) / (1 + s.available))
        r = rounds.setdefault(getattr(s, "round", 0), [max(left, 0), 0])
        r[1] += len(s.placements)
        left -= len(s.placements)
    return {
        "hardest": max(weights),
        "effort": math.log1p(sum(s.score for s in steps)),
        "size": math.log(max(cells, 1)),
        # Pelanek: a step is harder to find the fewer moves are open
        "narrow": sum(1.0 / (1 + a) for a in avail) / n,
        # ... and the fewer there are for the size of the grid
        "scarcity": math.log(max(cells, 1) / (1 + sum(avail) / n)),
        "bottlenecks": math.log1p(sum(1 for a in avail if a == 0)),
        "hard_effort": math.log1p(sum(max(0.0, w - easy) for w in weights)),
        "thinking": math.log1p(sum(1 for w in weights if w > easy)),
        "chain": math.log1p(max((chain_length(s) for s in steps), default=0)),
        # what a person scans to find each step: the open cells over the moves open there
        # (Pelanek's search cost: a step among few open moves on a wide board is found late)
        "scan": math.log1p(sum(scan)),
        "scan_mean": math.log1p(sum(scan) / n),
        # a person works breadth-first, round after round (Pelanek's dependency model): the
        # rounds needed, and the cells looked over per cell a round yields
        "rounds": math.log1p(len(rounds)),
        "round_scan": math.log1p(sum(o / (1 + p) for o, p in rounds.values())),
    }


def head_of(puzzle, rules=None) -> tuple[int, float]:
    """The no-notes solver's rounds and the candidates it holds per cell written (summed
    over its rounds; deducer.engine.inhead), with the ladder's ``rating: notes: passes``."""

    h = in_head(puzzle, model_for(rules).notes_passes)
    return h.rounds, h.held


def notes_features(steps, cells: int, head: tuple, rules=None,
                   score: dict[str, float] | None = None) -> dict[str, float]:
    """The features the ``notes`` figure may weigh (docs/rating.md, "Pencil marks"): the
    score's, the no-notes solver's (``head``: :func:`head_of`), the mean step weight and
    the share of steps that only remove candidates."""
    f = dict(score) if score is not None else score_features(steps, cells, rules)
    rounds, held = head[:2]
    n = max(len(steps), 1)
    f.update({
        # the candidates a solver without notes must hold in mind per cell they write
        "held": math.log1p(held),
        # the rounds such a solver needs (each a fresh look at the board)
        "head_rounds": math.log1p(rounds),
        "mean_weight": sum(s.weight for s in steps) / n,
        # steps that only remove candidates: what a person must remember, or write down
        "eliminating": sum(1 for s in steps if not s.placements) / n,
    })
    return f


def notes_of(features: dict[str, float], m: RatingModel
             ) -> tuple[float | None, str | None]:
    """The chance (0-1, two decimals) that a solver needs pencil marks, and the feature
    that moves it most from the fitted records' mean (None, None without a notes model)."""
    if not m.notes_coefficients:
        return None, None
    parts = {k: c * (features[k] - m.notes_centre.get(k, 0.0))
             for k, c in m.notes_coefficients.items()}
    z = m.notes_offset + sum(parts.values())
    # a chance, never a certainty: the records it is fitted on cannot support 0 or 1 (a
    # grid far outside them would otherwise read "100%")
    p = min(0.99, max(0.01, 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))))
    # the feature pushing hardest the way the figure leans
    top = max(parts, key=lambda k: parts[k] if z >= 0 else -parts[k])
    return round(p, 2), top


def score_of(features: dict[str, float], m: RatingModel) -> float:
    """The model's score of a path's features (one decimal), never below 0: the model is
    scaled on published puzzles (their 5th percentile scores 1), and a path easier than
    any of them scores 0 rather than a negative number no reader can place."""
    raw = m.offset + sum(m.coefficients[k] * features[k] for k in FEATURES)
    return max(0.0, round(raw, 1))


def rate_steps(steps, status: str = "solved", rules=None, cells: int | None = None,
               puzzle=None, head: tuple | None = None) -> Rating:
    """Rate a walkthrough made with ``rules`` (None: the core ladder) on a grid of
    ``cells`` white cells (None: counted from the steps' placements). A walkthrough that
    did not end solved gets no level, no score and no ``notes``; ``notes`` needs the
    ``puzzle`` (its no-notes solver's figures, or those figures as ``head``)."""
    m = model_for(rules)
    counts = Counter(s.rule for s in steps)
    max_w = max((s.weight for s in steps), default=0.0)
    solved = status == "solved"
    level_from = None
    rank = 0
    for s in steps:
        k = step_level(s, m)
        if level_from is None or k > rank:
            rank, level_from = k, s
    narrow = min(steps, key=lambda s: s.available, default=None)
    if cells is None:
        cells = sum(len(s.placements) for s in steps)
    feats = score_features(steps, cells, rules) if solved else None
    score = score_of(feats, m) if feats is not None else None
    notes = notes_top = None
    if feats is not None and m.notes_coefficients and (head is not None or puzzle is not None):
        if head is None:
            head = head_of(puzzle, rules)
        notes, notes_top = notes_of(notes_features(steps, cells, head, rules, feats), m)
    kinds = Counter(m.kind(s.rule) for s in steps)
    max_chain = max((chain_length(s) for s in steps), default=0)
    longest = {getattr(s, "chain_kind", "") for s in steps
               if max_chain and chain_length(s) == max_chain}
    chain_kind = "braid" if "braid" in longest else ("whip" if "whip" in longest else "")
    return Rating(
        level=LEVELS[rank] if solved else None,
        max_weight=max_w,
        score=score,
        rules=dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))),
        steps=len(steps),
        mean_available=sum(s.available for s in steps) / len(steps) if steps else 0.0,
        solved=solved,
        max_chain=max_chain,
        chain_kind=chain_kind,
        effort=sum(s.score for s in steps),
        level_step=level_from.n if solved and level_from else None,
        level_rule=level_from.rule if solved and level_from else None,
        level_weight=level_from.weight if solved and level_from else None,
        narrowest_step=narrow.n if narrow is not None and solved else None,
        narrowest_open=narrow.available if narrow is not None and solved else None,
        trial=kinds["trial"],
        guessing=kinds["guess"],
        levels=dict(m.levels),
        notes=notes,
        notes_feature=notes_top,
    )


def level_cap(level: str, rules=None) -> float | None:
    """The heaviest step a walkthrough of ``level`` may have (None above Expert)."""
    return dict(model_for(rules).levels).get(level)
