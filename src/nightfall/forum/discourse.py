"""Discourse topic JSON (``/t/<id>.json``): ``post_stream.posts[]``.

Per post: ``username``, ``created_at`` (ISO, UTC), ``post_number``, ``cooked`` (the
rendered HTML). A post is edited when its ``version`` is above 1 (edits within
Discourse's grace period make no new version, as the forum itself shows no edit); without
a ``version`` field, when ``updated_at`` is later than ``created_at``. Quotes in
``cooked`` are ``aside.quote`` with ``data-username`` and ``data-post`` around a
``<blockquote>``; a plain ``<blockquote>`` (Markdown ``>``) is a quote too. Colours come
from the BBCode colour plugin (``<font color>`` or ``style="color:..."``). Deleted, hidden,
whisper and small-action posts are left out.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode

from nightfall.forum.dates import parse_iso
from nightfall.forum.errors import PostError
from nightfall.forum.html_tree import SKIP, QuoteSpec, Special, convert
from nightfall.forum.model import Element, NodeKind, Post
from nightfall.forum.parsing import ParseContext, Parsed, read_posts

FORMAT = "discourse"


def detect(data: object) -> bool:
    """Whether decoded JSON is a Discourse topic (or its ``posts.json``)."""
    return isinstance(data, dict) and isinstance(data.get("post_stream"), dict)


def dialect(node: LexborNode, classes: frozenset[str]) -> Special:
    if node.tag == "aside" and "quote" in classes:
        attributes = node.attributes
        inner = node.css_first("blockquote")
        body = list(inner.iter(include_text=True)) if inner is not None else []
        post = attributes.get("data-post")
        return QuoteSpec(attributes.get("data-username") or None,
                         f"#{post}" if post else None, body)
    if classes & {"onebox", "lightbox-wrapper", "meta", "quote-controls"}:
        return SKIP
    return None


def parse(data: dict[str, Any], ctx: ParseContext) -> Parsed:
    """The posts of a Discourse topic JSON."""
    stream = data.get("post_stream")
    posts = stream.get("posts") if isinstance(stream, dict) else None
    result = Parsed()
    if not isinstance(posts, list):
        result.issue(ctx, None, "Discourse JSON without post_stream.posts")
        return result

    def ident(item: object, index: int) -> str:
        if isinstance(item, dict) and isinstance(item.get("post_number"), int):
            return f"#{item['post_number']}"
        return f"[{index}]"

    def build(item: object, post_id: str, position: int) -> Post | None:
        if not isinstance(item, dict):
            raise PostError("not a post object")
        if item.get("deleted_at") or item.get("hidden") or item.get("post_type", 1) != 1:
            return None
        author = item.get("username")
        if not isinstance(author, str) or not author.strip():
            raise PostError("post without author (username)")
        created = item.get("created_at")
        if not isinstance(created, str):
            raise PostError("no created_at")
        moment = parse_iso(created, ctx.tz)
        cooked = item.get("cooked")
        if not isinstance(cooked, str):
            raise PostError("no cooked HTML")
        edited, edited_at = _edit(item, moment, ctx)
        number = item.get("post_number")
        return Post(
            id=post_id, author=author.strip(), time=moment, content=_content(cooked),
            number=number if isinstance(number, int) else None, edited=edited,
            edited_at=edited_at, file=ctx.file, position=position,
        )

    return read_posts(ctx, posts, ident, build, result)


def _content(cooked: str) -> Element:
    tree = LexborHTMLParser(cooked)
    body = tree.body
    if body is None:
        return Element(NodeKind.ROOT)
    return convert(body, dialect)


def _edit(item: dict[str, Any], created: datetime,
          ctx: ParseContext) -> tuple[bool, datetime | None]:
    updated_raw = item.get("updated_at")
    updated = parse_iso(updated_raw, ctx.tz) if isinstance(updated_raw, str) else None
    version = item.get("version")
    if isinstance(version, int) and not isinstance(version, bool):
        return (version > 1, updated if version > 1 else None)
    if updated is not None and updated > created:
        return True, updated
    return False, None
