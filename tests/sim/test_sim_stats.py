"""Report maths: Wilson and Newcombe intervals against published values, summaries."""

from __future__ import annotations

from collections import Counter

import pytest

from nightfall.sim.stats import difference_interval, distribution_summary, wilson_interval
from nightfall.sim.tally import Tally


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [  # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (Wilson score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (29, 29, 0.8830, 1.0000),
        (5, 10, 0.2366, 0.7634),
    ],
)
def test_wilson_interval_matches_published_values(successes: int, trials: int, low: float,
                                                  high: float) -> None:
    got = wilson_interval(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_edge_cases() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(500, 1000)
    assert low == pytest.approx(1 - high) and high - low == pytest.approx(0.0619, abs=1e-4)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


@pytest.mark.parametrize(
    ("a", "n", "b", "m", "low", "high"),
    [  # Newcombe (1998), Statistics in Medicine 17:873, table II, method 10
        (56, 70, 48, 80, 0.0524, 0.3339),
        (9, 10, 3, 10, 0.1705, 0.8090),
        (6, 7, 2, 7, 0.0582, 0.8062),
        (5, 56, 0, 29, -0.0381, 0.1926),
        (0, 10, 0, 20, -0.1611, 0.2775),
        (0, 10, 0, 10, -0.2775, 0.2775),
        (10, 10, 0, 20, 0.6791, 1.0000),
        (10, 10, 0, 10, 0.6075, 1.0000),
    ],
)
def test_difference_interval_matches_published_values(a: int, n: int, b: int, m: int,
                                                       low: float, high: float) -> None:
    diff, got_low, got_high = difference_interval(a, n, b, m)
    assert diff == pytest.approx(a / n - b / m)
    assert (got_low, got_high) == pytest.approx((low, high), abs=5e-5)


def test_distribution_summary() -> None:
    summary = distribution_summary(Counter({4: 1, 5: 3, 6: 4, 9: 2}))
    assert summary["mean"] == pytest.approx((4 + 15 + 24 + 18) / 10)
    assert (summary["min"], summary["p10"], summary["median"], summary["p90"],
            summary["max"]) == (4, 4, 6, 9, 9)
    assert distribution_summary({})["mean"] == 0.0


def test_tallies_merge_in_any_order() -> None:
    from nightfall.sim.play import GameResult

    def result(index: int, winner: str, length: int) -> GameResult:
        return GameResult(index, index, winner, ("a", "b"), (True, False), (True, False),
                          (("b", "banished", "day"),), length, "day", 5, 10, 0)

    parts = [Tally() for _ in range(3)]
    for index, (winner, length) in enumerate([("x", 3), ("y", 4), ("x", 5), ("x", 3)]):
        parts[index % 3].add(result(index, winner, length))
    forward, backward = Tally(), Tally()
    for part in parts:
        forward.merge(part)
    for part in reversed(parts):
        backward.merge(part)
    assert forward.to_data() == backward.to_data()
    assert forward.wins == Counter({"x": 3, "y": 1}) and forward.games == 4
    assert Tally.from_data(forward.to_data()).to_data() == forward.to_data()
