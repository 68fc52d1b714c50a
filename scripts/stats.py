"""Small statistics for the report scripts: rank correlation, AUC, medians (no SciPy).

A module of its own so that scripts/make_reports.py, scripts/fit_rating.py and
scripts/human.py import it and none of them imports another for a helper.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties given the average of the ranks they span."""
    n = len(values)
    order = sorted(range(n), key=lambda i: values[i])
    out = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rho with average ranks for ties; None for fewer than 3 pairs or when
    either side is constant."""
    n = len(xs)
    if n != len(ys):
        raise ValueError(f"{n} values against {len(ys)}")
    if n < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    if vx == 0 or vy == 0:
        return None
    return cov / (vx * vy) ** 0.5


def auc(scores: Sequence[float], labels: Sequence[bool]) -> float | None:
    """Area under the ROC curve: the chance that a random positive scores above a random
    negative (a tie counts half); None without both classes."""
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    if not pos or not neg:
        return None
    # rank-sum form (Mann-Whitney U): O(n log n), ties averaged
    r = ranks(list(scores))
    rpos = sum(rk for rk, y in zip(r, labels, strict=True) if y)
    u = rpos - len(pos) * (len(pos) + 1) / 2
    return u / (len(pos) * len(neg))


def within_auc(scores: Sequence[float], labels: Sequence[bool],
               groups: Sequence[Hashable]) -> tuple[float | None, int]:
    """AUC over the (positive, negative) pairs of the same group only, and the number of
    such pairs: separation that a drift between groups cannot explain."""
    by: dict[Hashable, list[int]] = {}
    for i, g in enumerate(groups):
        by.setdefault(g, []).append(i)
    wins, pairs = 0.0, 0
    for idx in by.values():
        pos = [scores[i] for i in idx if labels[i]]
        neg = [scores[i] for i in idx if not labels[i]]
        a = auc([scores[i] for i in idx], [labels[i] for i in idx])
        if a is None:
            continue
        wins += a * len(pos) * len(neg)
        pairs += len(pos) * len(neg)
    return (wins / pairs if pairs else None), pairs


def within_spearman(xs: Sequence[float], ys: Sequence[float],
                    groups: Sequence[Hashable]) -> tuple[float | None, int]:
    """Spearman's rho within each group, averaged with the groups' sizes as weights (groups
    where it is undefined left out), and the number of values it covers."""
    by: dict[Hashable, list[int]] = {}
    for i, g in enumerate(groups):
        by.setdefault(g, []).append(i)
    total, n = 0.0, 0
    for idx in by.values():
        r = spearman([xs[i] for i in idx], [ys[i] for i in idx])
        if r is None:
            continue
        total += r * len(idx)
        n += len(idx)
    return (total / n if n else None), n


def median(values: Sequence[float]) -> float | None:
    """The median (the mean of the middle two for an even count); None when empty."""
    v = sorted(values)
    if not v:
        return None
    m = len(v) // 2
    return v[m] if len(v) % 2 else (v[m - 1] + v[m]) / 2


def fmt(value: float | None, spec: str = "+.2f") -> str:
    """A figure for a report table; ``n/a`` for None."""
    return "n/a" if value is None else format(value, spec)


def by_key(items: Sequence, key: Callable) -> dict:
    """Items grouped by ``key(item)``, groups in first-seen order."""
    out: dict = {}
    for it in items:
        out.setdefault(key(it), []).append(it)
    return out
