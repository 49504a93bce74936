"""What a read of a thread by its address saw: each page with its hash and time, and what
changed since an earlier read (a page that changed or disappeared, a post that is gone).

These records are what the GM shows the players to explain a count ("page 3, read at
19:30:04, sha256 …"), so they are plain data that round-trips through JSON (the service
keeps them with every automatic count).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from nightfall.engine.text import N_, Text
from nightfall.forum.model import Page, Post


@dataclass(frozen=True, slots=True)
class PageRead:
    """One request of a read: which page, what came back, when."""

    url: str
    status: int
    """200 (read), 304 (unchanged since the cached copy, which was used), 404/410 (gone)."""
    fetched_at: datetime
    sha256: str | None = None
    """The hash of the page's bytes as counted (``None``: nothing was read)."""
    size: int = 0
    format: str | None = None
    posts: tuple[str, ...] = ()
    """The ids of the posts read from the page, in page order."""

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url, "status": self.status,
                "fetched_at": self.fetched_at.isoformat(), "sha256": self.sha256,
                "size": self.size, "format": self.format, "posts": list(self.posts)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PageRead:
        return cls(str(data["url"]), int(data["status"]),
                   datetime.fromisoformat(str(data["fetched_at"])), data.get("sha256"),
                   int(data.get("size", 0)), data.get("format"),
                   tuple(str(p) for p in data.get("posts", ())))


@dataclass(slots=True)
class ThreadRead:
    """Every page of a thread as read from its address."""

    url: str
    """The address the GM gave."""
    software: str
    started_at: datetime
    finished_at: datetime
    pages: list[Page] = field(default_factory=list)
    """The parsed pages (posts and the parsers' issues), in reading order."""
    reads: list[PageRead] = field(default_factory=list)
    notes: list[Text] = field(default_factory=list)
    """What the GM should know about this read (a page that had disappeared …)."""

    @property
    def posts(self) -> list[Post]:
        return [post for page in self.pages for post in page.posts]


def changes(before: Sequence[PageRead], after: Sequence[PageRead], when: datetime,
            earlier: datetime) -> list[Text]:
    """What differs between an earlier read and this one, as notes for the GM: pages
    whose bytes changed, pages gone, posts that were there and are not any more."""
    notes: list[Text] = []
    old = {read.url: read for read in before if read.sha256 is not None}
    new = {read.url: read for read in after if read.sha256 is not None}
    stamp = {"when": when, "earlier": earlier}
    for url, read in new.items():
        previous = old.get(url)
        if previous is not None and previous.sha256 != read.sha256:
            notes.append(Text(N_("{url} changed since the read of {earlier}."),
                              {"url": url, **stamp}))
    for url in old:
        if url not in new:
            notes.append(Text(N_("{url} was read at {earlier} but is not part of the thread "
                                 "at {when}."), {"url": url, **stamp}))
    seen = {post for read in after for post in read.posts}
    gone = [post for read in before for post in read.posts if post not in seen]
    if gone:
        notes.append(Text(N_("Posts seen at {earlier} are gone at {when}: {posts}."),
                          {"posts": ", ".join(dict.fromkeys(gone)), **stamp}))
    return notes
