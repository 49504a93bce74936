"""What a request body may be before any route reads it: its size.

Every form of the site is small (a post has at most 10,000 characters); only the GM's
vote count takes files (``nightfall.forum.limits``: at most 12 MB in all). A body that
announces more (``Content-Length``) is refused with 413 before a byte of it is parsed,
so nobody can make the server spool or parse hundreds of megabytes for one request.
"""

from __future__ import annotations

from fastapi import Request

from nightfall.engine.text import N_
from nightfall.forum import limits
from nightfall.store import UnknownGame

#: the largest ordinary form (a 10,000-character post percent-encoded is ~90 kB)
MAX_FORM_BYTES = 512 * 1024
#: the vote count's upload: its files' limit and room for the other fields
MAX_UPLOAD_BYTES = limits.MAX_TOTAL_BYTES + 1024 * 1024
UPLOAD_SUFFIX = "/votecount"


class BodyTooLarge(Exception):
    """Answer 413: the body is larger than the route reads; nothing was read or changed."""

    def __init__(self, upload: bool) -> None:
        super().__init__("body too large")
        self.upload = upload
        self.message = (N_("The files have more than {limit} MB together, more than one "
                           "count reads. Nothing was counted.") if upload else
                        N_("The form is too large to be read. Nothing was changed."))
        self.params = {"limit": limits.MAX_TOTAL_MB} if upload else {}


def limit_of(path: str) -> int:
    return MAX_UPLOAD_BYTES if path.endswith(UPLOAD_SUFFIX) else MAX_FORM_BYTES


async def bounded_body(request: Request) -> None:
    """App-wide dependency (before any other reads the form): refuse a body that says it
    is larger than the route's limit."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    length = request.headers.get("content-length", "")
    limit = limit_of(request.url.path)
    if length.isdigit() and int(length) > limit:
        raise BodyTooLarge(limit == MAX_UPLOAD_BYTES)


def game_locale(request: Request) -> str | None:
    """The language of the game whose private page (``/gm/…``, ``/p/…``) was posted to,
    for the refusal (``None``: no such page)."""
    parts = request.url.path.split("/")
    if len(parts) < 3 or parts[1] not in ("gm", "p") or not 0 < len(parts[2]) <= 200:
        return None
    svc = request.app.state.service
    holder = svc.store.holder(parts[2])
    if holder is None:
        return None
    try:
        return str(svc.meta(holder.game_id).locale)
    except UnknownGame:
        return None
