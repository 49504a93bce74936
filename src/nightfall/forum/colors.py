"""Which colours count as red.

"Red" is a colour a person would call red: ``red``, ``darkred``, ``#f00``, ``#FF0000``,
``rgb(255, 0, 0)``, XenForo's editor red ``rgb(184, 49, 47)``, phpBB's ``#FF4000``-like
shades. Rule: hue within ±20° of pure red, HSV saturation at least 0.6 and value at least
0.35 (so pink, salmon-grey, near-black and orange are not red).

CSS named colours and hex forms are read with ``webcolors`` (the CSS3 colour table and the
HTML5 legacy algorithm browsers apply to ``<font color>``); ``rgb()``/``hsl()`` functions
are read here.
"""

from __future__ import annotations

import colorsys
import re
from functools import lru_cache
from typing import Any

import webcolors  # type: ignore[import-untyped]

RED_HUE_TOLERANCE = 20.0
"""Degrees either side of 0° that still count as red."""
MIN_SATURATION = 0.6
MIN_VALUE = 0.35

_NUMBER = r"\s*([+-]?\d+(?:\.\d+)?)(%?)\s*"
_RGB = re.compile(rf"rgba?\({_NUMBER}[,\s]{_NUMBER}[,\s]{_NUMBER}(?:[,/]{_NUMBER})?\)", re.I)
_HSL = re.compile(
    rf"hsla?\(\s*([+-]?\d+(?:\.\d+)?)(?:deg)?\s*[,\s]{_NUMBER}[,\s]{_NUMBER}(?:[,/]{_NUMBER})?\)",
    re.I,
)
_BARE_HEX = re.compile(r"[0-9a-fA-F]{3}|[0-9a-fA-F]{6}")

RGB = tuple[int, int, int]


def parse_color(value: str, *, legacy: bool = False) -> RGB | None:
    """The colour written as ``value`` (CSS syntax, or BBCode's bare ``FF0000``), or ``None``.

    ``legacy`` reads it as browsers read ``<font color="...">`` attributes.
    """
    text = value.strip().strip("\"'").strip().rstrip(";").strip()
    if text.lower().endswith("!important"):
        text = text[: -len("!important")].strip()
    if not text:
        return None
    lowered = text.lower()
    if lowered.startswith("#") or _BARE_HEX.fullmatch(text):
        return _hex(lowered if lowered.startswith("#") else "#" + lowered)
    if lowered.startswith("rgb"):
        return _rgb(lowered)
    if lowered.startswith("hsl"):
        return _hsl(lowered)
    try:
        named = webcolors.name_to_rgb(lowered)
    except ValueError:
        return _legacy(text) if legacy else None
    return _triple(named)


@lru_cache(maxsize=1024)
def is_red(value: str, *, legacy: bool = False) -> bool:
    """Whether ``value`` is a colour a person would call red (see the module docstring)."""
    rgb = parse_color(value, legacy=legacy)
    return rgb is not None and is_red_rgb(rgb)


def is_red_rgb(rgb: RGB) -> bool:
    """Whether the colour ``rgb`` (0–255 each) is red."""
    hue, saturation, brightness = colorsys.rgb_to_hsv(*(channel / 255 for channel in rgb))
    degrees = hue * 360
    distance = min(degrees, 360 - degrees)
    return (
        distance <= RED_HUE_TOLERANCE
        and saturation >= MIN_SATURATION
        and brightness >= MIN_VALUE
    )


def _hex(text: str) -> RGB | None:
    if len(text) == 9:  # #rrggbbaa
        if int(text[7:], 16) < 128:
            return None
        text = text[:7]
    elif len(text) == 5:  # #rgba
        if int(text[4], 16) < 8:
            return None
        text = text[:4]
    try:
        parsed = webcolors.hex_to_rgb(text)
    except ValueError:
        return None
    return _triple(parsed)


def _legacy(text: str) -> RGB | None:
    try:
        parsed = webcolors.html5_parse_legacy_color(text)
    except ValueError:
        return None
    return _triple(parsed)


def _triple(value: Any) -> RGB:
    red, green, blue = (int(channel) for channel in value)
    return (red, green, blue)


def _channel(number: str, percent: str, scale: float = 255.0) -> float:
    value = float(number)
    return value / 100 * scale if percent else value


def _alpha_visible(number: str | None, percent: str | None) -> bool:
    if number is None:
        return True
    return _channel(number, percent or "", 1.0) >= 0.5


def _rgb(text: str) -> RGB | None:
    match = _RGB.fullmatch(text)
    if match is None:
        return None
    groups = match.groups()
    if not _alpha_visible(groups[6], groups[7]):
        return None
    red, green, blue = (max(0, min(255, round(_channel(groups[i], groups[i + 1]))))
                        for i in (0, 2, 4))
    return (red, green, blue)


def _hsl(text: str) -> RGB | None:
    match = _HSL.fullmatch(text)
    if match is None:
        return None
    groups = match.groups()
    if not _alpha_visible(groups[5], groups[6]):
        return None
    hue = float(groups[0]) % 360 / 360
    saturation = max(0.0, min(1.0, float(groups[1]) / 100))
    lightness = max(0.0, min(1.0, float(groups[3]) / 100))
    red, green, blue = colorsys.hls_to_rgb(hue, lightness, saturation)
    return (round(red * 255), round(green * 255), round(blue * 255))
