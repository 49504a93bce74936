"""XenForo 1 thread pages (1.2 to 1.5, the default style).

Markup read: each post is ``li.message`` with ``id="post-<id>"`` and ``data-author``; the
body is ``.messageContent blockquote.messageText`` (the body itself is a blockquote, never
a quote); the time is the ``.DateTime`` in ``.messageMeta`` — an ``<abbr>`` with the epoch
in ``data-time`` for recent posts, else a ``<span>`` whose ``title`` holds the absolute
date; the number is ``a.postNumber`` (``#12``); the edit notice is ``div.editDate`` (its
own ``.DateTime``); the signature ``.signature`` is outside the body. Quotes are
``div.bbCodeQuote`` with ``data-author``, their text in ``blockquote.quoteContainer``
after an attribution line ("Ann said: ↑") and before a "Click to expand..." link, both
skipped; code is ``div.bbCodeCode`` / ``div.bbCodePHP`` / ``div.bbCodeHtml``.
"""

from __future__ import annotations

import re
from datetime import datetime

from selectolax.lexbor import LexborHTMLParser, LexborNode

from nightfall.forum.dates import from_timestamp, parse_forum_time
from nightfall.forum.errors import DateError, PostError
from nightfall.forum.html_tree import CODE, SKIP, QuoteSpec, Special, classes_of, convert
from nightfall.forum.model import Post
from nightfall.forum.parsing import ParseContext, Parsed, read_posts, squash

FORMAT = "xenforo1"

_POSTS = "li.message[data-author]"
_CODE = frozenset({"bbCodeCode", "bbCodePHP", "bbCodeHtml"})
_SKIP = frozenset({"attribution", "quoteExpand", "messageTextEndMarker", "bbCodeSpoilerButton"})


DETECT = f"{_POSTS} blockquote.messageText"
"""What only a XenForo 1 thread page has (one query for :mod:`detect`)."""


def detect(tree: LexborHTMLParser) -> bool:
    """Whether the page is a XenForo 1 thread page."""
    return tree.css_first(DETECT) is not None


def dialect(node: LexborNode, classes: frozenset[str]) -> Special:
    if "bbCodeQuote" in classes:
        inner = node.css_first("blockquote.quoteContainer") or node
        body = [child for child in inner.iter(include_text=True)
                if not classes_of(child) & _SKIP]
        source = None
        link = node.css_first("a.AttributionLink[href]")
        if link is not None:
            found = re.search(r"post-(\d+)", link.attributes.get("href") or "")
            source = f"post-{found.group(1)}" if found else None
        return QuoteSpec(node.attributes.get("data-author") or None, source, body)
    if classes & _CODE:
        return CODE
    if classes & _SKIP:
        return SKIP
    return None


def _time(node: LexborNode, ctx: ParseContext) -> datetime:
    stamp = node.attributes.get("data-time")
    if stamp:
        return from_timestamp(stamp, ctx.tz)
    return parse_forum_time(node.attributes.get("title") or node.text(deep=True), ctx.tz)


def parse(tree: LexborHTMLParser, ctx: ParseContext) -> Parsed:
    """The posts of a XenForo 1 thread page."""

    def ident(node: LexborNode, index: int) -> str:
        return node.attributes.get("id") or f"#{index + 1}"

    def build(node: LexborNode, post_id: str, position: int) -> Post:
        author = squash(node.attributes.get("data-author") or "")
        if not author:
            raise PostError("post without author")
        stamp = node.css_first(".messageMeta .DateTime, .messageDetails .DateTime")
        if stamp is None:
            raise PostError("no date (.messageMeta .DateTime)")
        moment = _time(stamp, ctx)
        body = node.css_first(".messageContent blockquote.messageText")
        if body is None:
            raise PostError("no post body (.messageContent blockquote.messageText)")
        notice = node.css_first("div.editDate")
        edited_at = None
        if notice is not None:
            edit_stamp = notice.css_first(".DateTime")
            try:
                edited_at = _time(edit_stamp, ctx) if edit_stamp is not None else None
            except DateError:
                edited_at = None
        number = None
        link = node.css_first("a.postNumber")
        if link is not None:
            found = re.fullmatch(r"#\s*([\d,.]+)", squash(link.text(deep=True)))
            number = int(re.sub(r"\D", "", found.group(1))) if found else None
        return Post(id=post_id, author=author, time=moment, content=convert(body, dialect),
                    number=number, edited=notice is not None, edited_at=edited_at,
                    file=ctx.file, position=position)

    return read_posts(ctx, tree.css(_POSTS), ident, build)
