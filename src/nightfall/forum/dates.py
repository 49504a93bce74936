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
from typing import NamedTuple
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

    Where the date and the time are is decided by five regular expressions (most of a
    post's reading time once); a board writes every date alike, so that reading is kept
    by the text's *shape* (its digits made ``0``: what the expressions match depends only
    on which characters are digits) and the next date of that shape only takes its
    numbers from the same places; and a thread's posts share a few dates, so each
    distinct date text of a shape is read once (:class:`_Reader`; the time of day is read
    each time). The same functions read both, so the result is the same (tested against
    a reading without the caches).
    """
    cleaned = " ".join(text.replace("\xa0", " ").split())
    if not cleaned:
        raise DateError("no date")
    iso = _try_iso(cleaned, tz)
    if iso is not None:
        return iso
    shape = _shape(cleaned)
    reader = _PLANS.get(shape) if shape is not None else None
    if reader is None:
        plan = _plan(cleaned)
        if shape is None:
            return _read(plan, cleaned, tz, day_first)
        if len(_PLANS) >= _MAX_PLANS:
            _PLANS.clear()
        reader = _PLANS[shape] = _Reader(plan)
    return reader.read(cleaned, tz, day_first)


Span = tuple[int, int]


class _DatePlan(NamedTuple):
    """Where a date is in a text: ``kind`` "ymd" (``first`` the month, ``second`` the
    day), "numeric" (``first``, ``separator``, ``second``: which is the day is decided
    by their values) or "named" (``month``: its number, ``second`` the day)."""

    kind: str
    year: Span
    first: Span
    second: Span
    separator: str = ""
    month: int = 0


class _Plan(NamedTuple):
    """How a text reads: ``relative`` (an error), no ``hour`` (``None``: an error), else
    the spans of the time of day ((-1, -1) when absent) and the date, if found."""

    relative: bool
    hour: Span | None = None
    minute: Span = (-1, -1)
    second: Span = (-1, -1)
    meridiem: Span = (-1, -1)
    date: _DatePlan | None = None


class _Reader:
    """The reading of one shape of text (:func:`parse_forum_time`): its :class:`_Plan`,
    and the dates already read at its date's place (a thread's posts share a few dates:
    each distinct date text is read once, the time of day each time)."""

    __slots__ = ("_clock", "_days", "_days_first", "_span", "plan")

    def __init__(self, plan: _Plan) -> None:
        self.plan = plan
        self._days: dict[str, tuple[int, int, int]] = {}
        self._days_first: dict[str, tuple[int, int, int]] = {}
        dated = plan.date
        self._span = (-1, -1)
        if not plan.relative and plan.hour is not None and dated is not None:
            starts = [span[0] for span in (dated.year, dated.first, dated.second)
                      if span[0] >= 0]
            self._span = (min(starts), max(span[1] for span in (dated.year, dated.first,
                                                                dated.second)))
        hour = plan.hour if plan.hour is not None else (-1, -1)
        self._clock = (*hour, *plan.minute, *plan.second, *plan.meridiem)

    def read(self, cleaned: str, tz: tzinfo, day_first: bool) -> datetime:
        """What ``_read(self.plan, cleaned, tz, day_first)`` gives: the same errors, in
        the same order (the date, then the time of day), the same result."""
        start, end = self._span
        if start < 0 or self.plan.date is None:  # (an error: read as it is written)
            return _read(self.plan, cleaned, tz, day_first)
        days = self._days_first if day_first else self._days
        key = cleaned[start:end]
        ymd = days.get(key)
        if ymd is None:
            day = _date(self.plan.date, cleaned, day_first)
            ymd = (day.year, day.month, day.day)
            if len(days) < _MAX_DAYS:
                days[key] = ymd
        hour_start, hour_end, minute_start, minute_end, second_start, second_end, \
            meridiem_start, meridiem_end = self._clock
        hour = int(cleaned[hour_start:hour_end])
        minute = int(cleaned[minute_start:minute_end])
        second = int(cleaned[second_start:second_end]) if second_start >= 0 else 0
        if meridiem_start >= 0:
            meridiem = cleaned[meridiem_start:meridiem_end].lower()
            if meridiem:
                if not 1 <= hour <= 12:
                    raise DateError(f"bad hour in {cleaned!r}")
                hour = hour % 12 + (12 if meridiem == "p" else 0)
        try:
            return datetime(*ymd, hour, minute, second, tzinfo=tz)
        except ValueError as error:
            raise DateError(f"bad time in {cleaned!r}") from error


_PLANS: dict[str, _Reader] = {}
_MAX_PLANS = 512
_MAX_DAYS = 4096
_DIGITS_TO_ZERO = str.maketrans("123456789", "000000000")
_OTHER_DIGIT = re.compile(r"(?![0-9])\d")


def _shape(cleaned: str) -> str | None:
    """``cleaned`` with its digits made ``0`` (``None`` when it has digits other than
    ASCII ones, which are read but not cached)."""
    if not cleaned.isascii() and _OTHER_DIGIT.search(cleaned):
        return None
    return cleaned.translate(_DIGITS_TO_ZERO)


def _plan(cleaned: str) -> _Plan:
    if _RELATIVE.search(cleaned):
        return _Plan(relative=True)
    clock = _TIME.search(cleaned)
    if clock is None:
        return _Plan(relative=False)
    return _Plan(False, clock.span(1), clock.span(2), clock.span(3), clock.span(4),
                 _date_plan(cleaned))


def _read(plan: _Plan, cleaned: str, tz: tzinfo, day_first: bool) -> datetime:
    if plan.relative:
        raise DateError(
            f"relative date {cleaned!r} cannot be resolved from a saved page "
            "(set the forum to show absolute dates)"
        )
    if plan.hour is None:
        raise DateError(f"no time of day in {cleaned!r}")
    day = _date(plan.date, cleaned, day_first) if plan.date is not None else None
    if day is None:
        raise DateError(f"no date in {cleaned!r}")
    hour, minute = _int_at(cleaned, plan.hour), _int_at(cleaned, plan.minute)
    second = _int_at(cleaned, plan.second) if plan.second[0] >= 0 else 0
    start, end = plan.meridiem
    meridiem = cleaned[start:end].lower() if start >= 0 else ""
    if meridiem:
        if not 1 <= hour <= 12:
            raise DateError(f"bad hour in {cleaned!r}")
        hour = hour % 12 + (12 if meridiem == "p" else 0)
    try:
        moment = datetime.combine(day, time(hour, minute, second))
    except ValueError as error:
        raise DateError(f"bad time in {cleaned!r}") from error
    return moment.replace(tzinfo=tz)


def _int_at(text: str, span: Span) -> int:
    return int(text[span[0]:span[1]])


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


def _date_plan(text: str) -> _DatePlan | None:
    match = _ISO_DATE.search(text)
    if match:
        return _DatePlan("ymd", match.span(1), match.span(2), match.span(3))
    match = _NUMERIC_DATE.search(text)
    if match:
        return _DatePlan("numeric", match.span(4), match.span(1), match.span(3),
                         separator=match.group(2))
    for pattern, day_group, month_group in ((_DAY_MONTH_YEAR, 1, 2), (_MONTH_DAY_YEAR, 2, 1)):
        for match in pattern.finditer(text):
            named = _MONTHS.get(match.group(month_group)[:3].lower())
            if named is not None:
                return _DatePlan("named", match.span(3), (-1, -1), match.span(day_group),
                                 month=named)
    return None


def _date(plan: _DatePlan, text: str, day_first: bool) -> date:
    year = _int_at(text, plan.year)
    if plan.kind == "ymd":
        return _make_date(year, _int_at(text, plan.first), _int_at(text, plan.second), text)
    if plan.kind == "named":
        return _make_date(year, plan.month, _int_at(text, plan.second), text)
    first, second = _int_at(text, plan.first), _int_at(text, plan.second)
    year += 2000 if year < 100 else 0
    dmy = plan.separator == "." or day_first
    if first > 12 >= second:
        dmy = True
    elif second > 12 >= first:
        dmy = False
    day, month = (first, second) if dmy else (second, first)
    return _make_date(year, month, day, text)


def _make_date(year: int, month: int, day: int, text: str) -> date:
    try:
        return date(year, month, day)
    except ValueError as error:
        raise DateError(f"bad date in {text!r}") from error
