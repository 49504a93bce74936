"""Helpers of the forum tests: fixture paths, building posts and BBCode threads in code."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from nightfall.forum import Post
from nightfall.forum.bbcode import parse_bbcode

FIXTURES = Path(__file__).parent / "fixtures"
BERLIN = ZoneInfo("Europe/Berlin")


def post(
    post_id: str,
    author: str,
    when: str,
    bbcode: str,
    *,
    edited: bool = False,
    number: int | None = None,
    tz: ZoneInfo = BERLIN,
) -> Post:
    """A post written in BBCode at ``when`` (``2012-12-24 18:00``, local to ``tz``)."""
    return Post(
        id=post_id, author=author, time=datetime.fromisoformat(when).replace(tzinfo=tz),
        content=parse_bbcode(bbcode), number=number, edited=edited, file="test",
    )
