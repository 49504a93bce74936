"""Forum date formats and footer time zones."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from forumkit import BERLIN
from hypothesis import given, settings
from hypothesis import strategies as st

from nightfall.forum.dates import parse_forum_time, parse_iso, parse_zone_label
from nightfall.forum.errors import DateError


@pytest.mark.parametrize(
    ("text", "day_first", "expected"),
    [
        ("Sun May 26, 2019 4:34 pm", False, datetime(2019, 5, 26, 16, 34)),
        ("by Jakob » Sun May 26, 2019 12:05 am", False, datetime(2019, 5, 26, 0, 5)),
        ("Mon Dec 24, 2012 12:30 pm", False, datetime(2012, 12, 24, 12, 30)),
        ("06-15-2016,\xa003:03 PM", False, datetime(2016, 6, 15, 15, 3)),
        ("15-06-2016, 03:03 PM", False, datetime(2016, 6, 15, 15, 3)),
        ("06-07-2016, 10:00", True, datetime(2016, 7, 6, 10, 0)),
        ("24.12.2012, 19:30", False, datetime(2012, 12, 24, 19, 30)),
        ("So 23. Dez 2012, 20:00", False, datetime(2012, 12, 23, 20, 0)),
        ("Mo 24. März 2014 8:15", False, datetime(2014, 3, 24, 8, 15)),
        ("24 дек 2012, 21:00", False, datetime(2012, 12, 24, 21, 0)),
        ("26 мая 2019 в 16:34", False, datetime(2019, 5, 26, 16, 34)),
        ("2012-12-24 19:30", False, datetime(2012, 12, 24, 19, 30)),
        ("2012-12-24T19:30:15", False, datetime(2012, 12, 24, 19, 30, 15)),
        ("Last edited by X; 12-24-2012 at 05:12 PM.", False, datetime(2012, 12, 24, 17, 12)),
        ("December 24th, 2012, 7:30 p.m.", False, datetime(2012, 12, 24, 19, 30)),
        ("24.12.12 19:30", False, datetime(2012, 12, 24, 19, 30)),
    ],
)
def test_forum_dates(text: str, day_first: bool, expected: datetime) -> None:
    assert parse_forum_time(text, BERLIN, day_first=day_first) == expected.replace(
        tzinfo=BERLIN)


@pytest.mark.parametrize(
    "text",
    ["Today, 10:00 AM", "Yesterday 19:30", "Heute, 10:00", "вчера в 10:00", "5 minutes ago",
     "24.12.2012", "19:30", "", "31.02.2012 10:00", "2012-13-01 10:00", "13:75 24.12.2012",
     "Dec 24, 2012 13:00 pm"],
)
def test_unreadable_dates_are_errors(text: str) -> None:
    with pytest.raises(DateError):
        parse_forum_time(text, BERLIN)


def test_iso_with_offset_is_converted_to_the_forum_zone() -> None:
    moment = parse_iso("2010-11-21T10:51:58+0000", BERLIN)
    assert moment == datetime(2010, 11, 21, 10, 51, 58, tzinfo=UTC)
    assert moment.utcoffset() == timedelta(hours=1)
    assert parse_iso("2012-12-24T18:00:00.000Z", BERLIN).hour == 19


@pytest.mark.parametrize(
    ("text", "dst", "offset"),
    [
        ("All times are UTC", False, 0),
        ("All times are UTC [ DST ]", True, 60),
        ("All times are UTC + 1 hour", False, 60),
        ("All times are UTC - 5 hours [ DST ]", True, -240),
        ("Alle Zeiten sind UTC + 1 Stunde", False, 60),
        ("All times are GMT +1. The time now is 08:00 PM.", False, 60),
        ("All times are GMT +5.5. The time now is", False, 330),
        ("All times are UTC+01:00", False, 60),
        ("All times are GMT -3:30", False, -210),
    ],
)
def test_footer_zones(text: str, dst: bool, offset: int) -> None:
    assert parse_zone_label(text, dst=dst) == timezone(timedelta(minutes=offset))


def test_footer_zone_names() -> None:
    assert str(parse_zone_label("All times are Europe/Berlin UTC+01:00")) == "Europe/Berlin"
    assert parse_zone_label("no zone here") is None
    assert parse_zone_label("UTC + 99 hours") is None


def _reading(text: str, day_first: bool) -> object:
    """What a date text reads as without the caches (its plan made anew): the time, or
    the error's message."""
    from nightfall.forum import dates

    cleaned = " ".join(text.replace("\xa0", " ").split())
    try:
        iso = dates._try_iso(cleaned, BERLIN) if cleaned else None
        if iso is not None:
            return iso
        if not cleaned:
            raise DateError("no date")
        return dates._read(dates._plan(cleaned), cleaned, BERLIN, day_first)
    except DateError as error:
        return str(error)


_DATE_PIECES = ["Sun May 26, 2019 4:34 pm", "Mon Dec 24, 2012 12:30 am", "06-15-2016, 03:03 PM",
                "24.12.2012, 19:30", "So 23. Dez 2012, 20:00", "26 мая 2019 в 16:34",
                "2012-12-24 19:30", "December 24th, 2012, 7:30 p.m.", "31.02.2012 10:00",
                "Dec 24, 2012 13:00 pm", "Dec 24, 2012 00:30 am", "Today, 10:00 AM",
                "13:75 24.12.2012", "24.12.12 25:30", "by Ann » ", "07-06-2016 10:00:59"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_DATE_PIECES),
                          st.lists(st.tuples(st.integers(0, 40), st.sampled_from("0123456789")),
                                   max_size=4),
                          st.booleans()), min_size=1, max_size=6))
def test_the_cached_reading_is_the_reading(texts: list[tuple[str, list[tuple[int, str]],
                                                              bool]]) -> None:
    """Dates of one shape share a plan and each date text is read once: the answers
    (times and errors) are those of reading every text anew, whatever was read before."""
    for text, digits, day_first in texts * 2:
        chars = list(text)
        for at, digit in digits:
            if at < len(chars) and chars[at].isdigit():
                chars[at] = digit
        varied = "".join(chars)
        try:
            got: object = parse_forum_time(varied, BERLIN, day_first=day_first)
        except DateError as error:
            got = str(error)
        assert got == _reading(varied, day_first), varied
