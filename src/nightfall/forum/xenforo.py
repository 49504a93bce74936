"""XenForo 2 thread pages.

Markup read: each post is ``article.message--post`` with ``data-author`` and
``data-content="post-<id>"``; the time is the ``<time class="u-dt" datetime=...
data-time=...>`` in ``header.message-attribution`` (absolute, with offset: no time zone
guessing); the number is the ``#12`` link opposite; the body is
``article.message-body .bbWrapper``; the edit notice is ``div.message-lastEdit`` (with its
own ``<time>``); the signature ``aside.message-signature`` is outside the body. Quotes are
``blockquote.bbCodeBlock--quote`` with ``data-quote`` (author) and ``data-source``
(``post: 123``), a title bar and a "Click to expand..." link to skip; code is
``div.bbCodeBlock--code``. The editor writes colours as ``rgb(184, 49, 47)``.
"""

from __future__ import annotations

import re
from datetime import datetime

from selectolax.lexbor import LexborHTMLParser, LexborNode

from nightfall.forum.dates import from_timestamp, parse_forum_time, parse_iso
from nightfall.forum.errors import DateError, PostError
from nightfall.forum.html_tree import CODE, SKIP, QuoteSpec, Special, convert
from nightfall.forum.model import Post
from nightfall.forum.parsing import ParseContext, Parsed, read_posts, squash

FORMAT = "xenforo2"

_SKIP_CLASSES = frozenset(
    {
        "bbCodeBlock-title", "bbCodeBlock-expandLink", "bbCodeBlock--unfurl",
        "bbCodeSpoiler-button", "js-selectToQuoteEnd", "message-lastEdit",
    }
)


DETECT = "article.message--post, article.message[data-author]"
"""What only a XenForo 2 thread page has (one query for :mod:`detect`)."""


def detect(tree: LexborHTMLParser) -> bool:
    """Whether the page is a XenForo 2 thread page."""
    return tree.css_first(DETECT) is not None


def dialect(node: LexborNode, classes: frozenset[str]) -> Special:
    if classes & _SKIP_CLASSES:
        return SKIP
    if "bbCodeBlock--quote" in classes:
        attributes = node.attributes
        source = None
        found = re.search(r"post:\s*(\d+)", attributes.get("data-source") or "")
        if found:
            source = f"post-{found.group(1)}"
        return QuoteSpec(attributes.get("data-quote") or None, source,
                         list(node.iter(include_text=True)))
    if "bbCodeBlock--code" in classes or "bbCodeInlineCode" in classes:
        return CODE
    return None


def _time(node: LexborNode, ctx: ParseContext) -> datetime:
    attributes = node.attributes
    if attributes.get("data-time"):
        return from_timestamp(attributes["data-time"] or "", ctx.tz)
    if attributes.get("datetime"):
        return parse_iso(attributes["datetime"] or "", ctx.tz)
    return parse_forum_time(node.attributes.get("title") or node.text(deep=True), ctx.tz)


def parse(tree: LexborHTMLParser, ctx: ParseContext) -> Parsed:
    """The posts of a XenForo 2 thread page."""

    def ident(node: LexborNode, index: int) -> str:
        content = node.attributes.get("data-content") or ""
        if content:
            return content
        anchor = (node.attributes.get("id") or "").removeprefix("js-")
        return anchor or f"#{index + 1}"

    def build(node: LexborNode, post_id: str, position: int) -> Post:
        author = squash(node.attributes.get("data-author") or "")
        if not author:
            name = node.css_first(".message-name .username, .message-name")
            author = squash(name.text(deep=True)) if name is not None else ""
        if not author:
            raise PostError("post without author")
        stamp = node.css_first(".message-attribution time, time.u-dt")
        if stamp is None:
            raise PostError("no date (time.u-dt)")
        moment = _time(stamp, ctx)
        body = node.css_first("article.message-body .bbWrapper, .message-body .bbWrapper")
        if body is None:
            raise PostError("no post body (.message-body .bbWrapper)")
        notice = node.css_first("div.message-lastEdit")
        edited_at: datetime | None = None
        if notice is not None:
            edit_stamp = notice.css_first("time")
            try:
                edited_at = _time(edit_stamp, ctx) if edit_stamp is not None else None
            except DateError:
                edited_at = None
        number = None
        for link in node.css(".message-attribution-opposite a"):
            found = re.fullmatch(r"#\s*([\d,.]+)", squash(link.text(deep=True)))
            if found:
                number = int(re.sub(r"\D", "", found.group(1)))
        return Post(
            id=post_id, author=author, time=moment,
            content=convert(body, dialect), number=number, edited=notice is not None,
            edited_at=edited_at,
            file=ctx.file, position=position,
        )

    posts = tree.css("article.message--post, article.message[data-author]")
    return read_posts(ctx, posts, ident, build)
