"""The statistics of the reports: Wilson score intervals for proportions, Newcombe's
interval for a difference of two proportions, and summaries of count distributions."""

from __future__ import annotations

import math
from collections.abc import Mapping

#: the two-sided 95% quantile of the standard normal distribution
Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) without trials."""
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError("successes must lie between 0 and trials")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def difference_interval(
    successes_a: int, trials_a: int, successes_b: int, trials_b: int, z: float = Z95
) -> tuple[float, float, float]:
    """p_a − p_b with Newcombe's hybrid score interval (method 10), built from the two
    Wilson intervals: returns (difference, low, high)."""
    if trials_a <= 0 or trials_b <= 0:
        return 0.0, -1.0, 1.0
    pa, pb = successes_a / trials_a, successes_b / trials_b
    la, ua = wilson_interval(successes_a, trials_a, z)
    lb, ub = wilson_interval(successes_b, trials_b, z)
    diff = pa - pb
    low = diff - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2)
    high = diff + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2)
    return diff, max(-1.0, low), min(1.0, high)


def distribution_summary(counts: Mapping[int, int]) -> dict[str, float]:
    """Mean, median, 10th/90th percentile, min and max of a distribution given as
    ``{value: count}`` (nearest-rank percentiles)."""
    total = sum(counts.values())
    if total == 0:
        return {"mean": 0.0, "median": 0.0, "p10": 0.0, "p90": 0.0, "min": 0.0, "max": 0.0}
    values = sorted(counts)
    mean = sum(value * count for value, count in counts.items()) / total

    def rank(q: float) -> float:
        wanted = max(1, math.ceil(q * total))
        seen = 0
        for value in values:
            seen += counts[value]
            if seen >= wanted:
                return float(value)
        return float(values[-1])  # pragma: no cover - unreachable

    return {"mean": mean, "median": rank(0.5), "p10": rank(0.1), "p90": rank(0.9),
            "min": float(values[0]), "max": float(values[-1])}
