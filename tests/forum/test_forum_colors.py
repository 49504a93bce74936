"""Which colours are red (hue within ±20° of red, clearly saturated, not too dark)."""

from __future__ import annotations

import pytest

from nightfall.forum.colors import is_red, parse_color

RED = [
    "red", "Red", "RED", "darkred", "#f00", "#F00", "#FF0000", "#ff0000", "FF0000",
    "rgb(255, 0, 0)", "rgb(255,0,0)", "rgb(100%, 0%, 0%)", "rgba(255, 0, 0, 1)",
    "rgb(184, 49, 47)",  # XenForo's editor red
    "#FF4000",  # phpBB's palette, 15° towards orange
    "#BF0000", "#c00", "#AA0000", "maroon", "crimson", "firebrick", "#e25041",
    "hsl(0, 100%, 50%)", "hsl(350deg 80% 45%)", "#ff0000ff", " red ", "red;",
    "red !important", '"red"',
]
NOT_RED = [
    "blue", "#0000FF", "#FFFF00", "#40BF00", "#00BFFF", "#800080", "orange", "#FF8000",
    "pink", "#FFC0CB", "salmon", "rgb(44, 130, 201)", "black", "#330000", "white",
    "#808080", "gray", "rgba(255, 0, 0, 0.2)", "#ff000010", "transparent", "", "inherit",
    "rgb(255, 0)", "hsl(120, 100%, 50%)", "chucknorris", "#ff00", "#gg0000",
]


@pytest.mark.parametrize("color", RED)
def test_red(color: str) -> None:
    assert is_red(color)


@pytest.mark.parametrize("color", NOT_RED)
def test_not_red(color: str) -> None:
    assert not is_red(color)


def test_font_color_attribute_uses_the_legacy_rules_as_fallback() -> None:
    assert parse_color("Red", legacy=True) == (255, 0, 0)
    assert parse_color("chucknorris", legacy=True) == (192, 0, 0)
    assert parse_color("chucknorris") is None
