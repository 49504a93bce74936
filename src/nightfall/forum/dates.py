"""Forum dates and time zones.

Forum pages show dates in the board's (or the visitor's) format and language: phpBB's
``Sun May 26, 2019 4:34 pm``, vBulletin's ``06-15-2016, 03:03 PM``, German
``26.05.2019, 16:34``, Russian ``26 мая 2019, 16:34``. Machine-readable ISO times (XenForo's
and newer phpBB's ``<time datetime>``, Discourse JSON) are preferred whenever the markup has
them. Relative dates ("Today", "Yesterday") cannot be resolved from a saved page and are
reported, never guessed.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from nightfall.forum.errors import DateError

# First three letters of month names (English, German, Russian) -> month number.
_MONTHS: dict[str, int] = {}
for _number, _names in enumerate(
    (
        ("jan", "янв"),
        ("feb", "фев"),
        ("mar", "mär", "maer", "мар"),
        ("apr", "апр"),
        ("may", "mai", "май", "мая"),
        ("jun", "июн"),
        ("jul", "июл"),
        ("aug", "авг"),
        ("sep", "сен"),
        ("oct", "okt", "окт"),
        ("nov", "ноя"),
        ("dec", "dez", "дек"),
    ),
    start=1,
):
    for _name in _names:
        _MONTHS[_name[:3]] = _number

_RELATIVE = re.compile(
    r"\b(today|yesterday|heute|gestern|сегодня|вчера|ago|vor)\b", re.IGNORECASE
)
_TIME = re.compile(
    r"(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?\s?m\b\.?)?", re.IGNORECASE
)
_ISO_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:?\d{2})?"
)
_ISO_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
_NUMERIC_DATE = re.compile(r"(?<![\d.])(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?![\d])")
_DAY_MONTH_YEAR = re.compile(r"(?<!\d)(\d{1,2})(?:st|nd|rd|th)?\.?\s+([^\W\d_]{3,})\.?,?\s+(\d{4})")
_MONTH_DAY_YEAR = re.compile(r"([^\W\d_]{3,})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})")


def zone(name: str) -> tzinfo:
    """The time zone called ``name`` (IANA name such as ``Europe/Berlin``, or ``UTC``)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise DateError(f"unknown time zone {name!r}") from error


def parse_forum_time(text: str, tz: tzinfo, *, day_first: bool = False) -> datetime:
    """Read a date with a time of day as a forum shows it; the result is aware, in ``tz``.

    ``day_first`` decides ambiguous numeric dates written with ``-`` or ``/``
    (``06-07-2016``); dotted dates are always day first, ISO dates year first.
    """
    cleaned = " ".join(text.replace("\xa0", " ").split())
    if not cleaned:
        raise DateError("no date")
    iso = _try_iso(cleaned, tz)
    if iso is not None:
        return iso
    if _RELATIVE.search(cleaned):
        raise DateError(
            f"relative date {cleaned!r} cannot be resolved from a saved page "
            "(set the forum to show absolute dates)"
        )
    clock = _TIME.search(cleaned)
    if clock is None:
        raise DateError(f"no time of day in {cleaned!r}")
    day = _find_date(cleaned, day_first=day_first)
    if day is None:
        raise DateError(f"no date in {cleaned!r}")
    hour, minute = int(clock.group(1)), int(clock.group(2))
    second = int(clock.group(3) or 0)
    meridiem = (clock.group(4) or "").lower()
    if meridiem:
        if not 1 <= hour <= 12:
            raise DateError(f"bad hour in {cleaned!r}")
        hour = hour % 12 + (12 if meridiem == "p" else 0)
    try:
        moment = datetime.combine(day, time(hour, minute, second))
    except ValueError as error:
        raise DateError(f"bad time in {cleaned!r}") from error
    return moment.replace(tzinfo=tz)


def parse_iso(text: str, tz: tzinfo) -> datetime:
    """Read an ISO 8601 time (``2019-05-26T14:34:00+00:00``); naive times are taken in
    ``tz``; the result is converted to ``tz``."""
    result = _try_iso(" ".join(text.split()), tz)
    if result is None:
        raise DateError(f"not an ISO time: {text!r}")
    return result


def from_timestamp(value: str, tz: tzinfo) -> datetime:
    """Read a Unix timestamp (seconds) as an aware time in ``tz``."""
    try:
        return datetime.fromtimestamp(int(value), tz)
    except (ValueError, OverflowError, OSError) as error:
        raise DateError(f"bad timestamp {value!r}") from error


def parse_zone_label(text: str, *, dst: bool = False) -> tzinfo | None:
    """The time zone of a forum footer such as ``All times are UTC + 1 hour [ DST ]``,
    ``All times are GMT +2``, ``UTC+01:00`` or one naming ``Europe/Berlin``; ``None`` if
    the text names none. ``dst`` adds the hour of phpBB 3.0's DST marker."""
    named = re.search(r"\b([A-Z][A-Za-z_]+/[A-Z][A-Za-z_]+(?:/[A-Z][A-Za-z_]+)?)\b", text)
    if named:
        try:
            return ZoneInfo(named.group(1))
        except (ZoneInfoNotFoundError, ValueError):
            pass
    match = re.search(
        r"\b(?:UTC|GMT)\s*(?:([+\-−])\s*(\d{1,2})(?:([:.])(\d{1,2}))?)?", text
    )
    if match is None:
        return None
    minutes = 0
    if match.group(1):
        hours = int(match.group(2))
        fraction = match.group(4)
        if fraction:
            minutes = int(fraction) if match.group(3) == ":" else round(
                float("0." + fraction) * 60
            )
        minutes += hours * 60
        if match.group(1) != "+":
            minutes = -minutes
    if dst:
        minutes += 60
    if not -14 * 60 <= minutes <= 14 * 60:
        return None
    return timezone(timedelta(minutes=minutes)) if minutes else UTC


def _try_iso(text: str, tz: tzinfo) -> datetime | None:
    if text[4:5] != "-":  # what _ISO_TIME needs first; most forum dates are not ISO
        return None
    candidate = text.replace("Z", "+00:00") if text.endswith("Z") else text
    if not _ISO_TIME.fullmatch(candidate):
        return None
    try:
        moment = datetime.fromisoformat(candidate)
    except ValueError as error:
        raise DateError(f"bad ISO time {text!r}") from error
    if moment.tzinfo is None:
        return moment.replace(tzinfo=tz)
    return moment.astimezone(tz)


def _find_date(text: str, *, day_first: bool) -> date | None:
    match = _ISO_DATE.search(text)
    if match:
        return _make_date(int(match.group(1)), int(match.group(2)), int(match.group(3)), text)
    match = _NUMERIC_DATE.search(text)
    if match:
        first, separator, second = int(match.group(1)), match.group(2), int(match.group(3))
        year = int(match.group(4))
        year += 2000 if year < 100 else 0
        dmy = separator == "." or day_first
        if first > 12 >= second:
            dmy = True
        elif second > 12 >= first:
            dmy = False
        day, month = (first, second) if dmy else (second, first)
        return _make_date(year, month, day, text)
    for pattern, day_group, month_group in ((_DAY_MONTH_YEAR, 1, 2), (_MONTH_DAY_YEAR, 2, 1)):
        for match in pattern.finditer(text):
            named = _MONTHS.get(match.group(month_group)[:3].lower())
            if named is not None:
                return _make_date(int(match.group(3)), named, int(match.group(day_group)), text)
    return None


def _make_date(year: int, month: int, day: int, text: str) -> date:
    try:
        return date(year, month, day)
    except ValueError as error:
        raise DateError(f"bad date in {text!r}") from error
