"""vBulletin 4 (and vBulletin 3) topic pages.

vBulletin 4: each post is ``li.postcontainer`` with ``id="post_<id>"``; the date is
``span.date`` in ``div.posthead`` (``06-15-2016, 03:03 PM``: the board's date format,
month first by default), the number ``a.postcounter`` (``#3``), the author
``.username_container .username``; the body is ``blockquote.postcontent`` inside
``div#post_message_<id>`` — the body itself is a ``<blockquote>``, so it is the root here,
never a quote. Quotes are ``div.bbcode_quote`` (author in ``.bbcode_postedby strong``),
code ``div.bbcode_code``; the edit notice is ``blockquote.postcontent.lastedited``
("Last edited by X; 06-15-2016 at 05:30 PM."); the signature ``blockquote.signature`` is
outside the body. Colours are ``<font color="Red">`` (any case). The footer says "All
times are GMT +1".

vBulletin 3: each post is ``table#post<id>`` with ``div#post_message_<id>``, the author in
``a.bigusername``, the date in the first ``td.thead``; quotes are ``td.alt2`` boxes (the
"Originally Posted by" line first), the edit notice sits between ``<!-- edit note -->``
comments.
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo

from selectolax.lexbor import LexborHTMLParser, LexborNode

from nightfall.forum.dates import parse_forum_time, parse_zone_label
from nightfall.forum.errors import DateError, PostError
from nightfall.forum.html_tree import CODE, SKIP, QuoteSpec, Special, classes_of, convert
from nightfall.forum.model import Post
from nightfall.forum.parsing import ParseContext, Parsed, read_posts, squash

FORMAT_4 = "vbulletin4"
FORMAT_3 = "vbulletin3"

_POST_ID = re.compile(r"^post_?(\d+)$")
_EDIT_NOTE = re.compile(r"<!--\s*edit note\s*-->(.*?)<!--\s*/\s*edit note\s*-->", re.S | re.I)


DETECT_4 = "li.postcontainer blockquote.postcontent"
DETECT_3 = 'table[id^="post"] div[id^="post_message_"]'
"""What only a vBulletin 4 / 3 thread page has (one query for :mod:`detect`)."""


def detect_4(tree: LexborHTMLParser) -> bool:
    """Whether the page is a vBulletin 4 thread page."""
    return tree.css_first(DETECT_4) is not None


def detect_3(tree: LexborHTMLParser) -> bool:
    """Whether the page is a vBulletin 3 thread page."""
    return tree.css_first(DETECT_3) is not None


def page_zone(tree: LexborHTMLParser) -> tzinfo | None:
    """The board time zone the footer states ("All times are GMT +1"), if any."""
    for item in tree.css("#footer_time, div.smallfont, td.smallfont"):
        text = squash(item.text(deep=True))
        if "GMT" in text or "UTC" in text:
            found = parse_zone_label(text)
            if found is not None:
                return found
    return None


def dialect(node: LexborNode, classes: frozenset[str]) -> Special:
    if "bbcode_container" in classes:
        quote = node.css_first("div.bbcode_quote")
        if quote is not None:
            return _quote_4(quote)
        return CODE if node.css_first(".bbcode_code, pre") is not None else None
    if "bbcode_quote" in classes:
        return _quote_4(node)
    if "bbcode_code" in classes or "bbcode_description" in classes:
        return CODE if "bbcode_code" in classes else SKIP
    return None


def _quote_4(quote: LexborNode) -> QuoteSpec:
    holder = quote.css_first("div.quote_container") or quote
    author = None
    postedby = holder.css_first("div.bbcode_postedby")
    if postedby is not None:
        name = postedby.css_first("strong")
        author = squash(name.text(deep=True)) if name is not None else None
    source = None
    link = holder.css_first("div.bbcode_postedby a[href]")
    if link is not None:
        found = re.search(r"p=(\d+)", link.attributes.get("href") or "")
        source = f"post{found.group(1)}" if found else None
    body = [
        child for child in holder.iter(include_text=True)
        if not (classes_of(child) & {"bbcode_postedby", "bbcode_quote_container"})
    ]
    return QuoteSpec(author or None, source, body)


def dialect_3(node: LexborNode, classes: frozenset[str]) -> Special:
    if node.tag == "td" and "alt2" in classes:
        children = [c for c in node.iter(include_text=True)]
        elements = [c for c in children if c.tag and not c.tag.startswith("-")]
        author = None
        if len(elements) >= 2 and elements[0].tag == "div" and elements[0].css_first("strong"):
            strong = elements[0].css_first("strong")
            author = squash(strong.text(deep=True)) if strong is not None else None
            first = elements[0].mem_id
            children = [c for c in children if c.mem_id != first]
        return QuoteSpec(author or None, None, children)
    if node.tag == "pre" and "alt2" in classes:
        return CODE
    if node.tag == "div" and "smallfont" in classes:
        following = node.next
        while following is not None and following.tag == "-text":
            following = following.next
        if following is not None and following.tag in ("table", "pre"):
            return SKIP  # the "Quote:" / "Code:" label above a box
    return None


def parse_4(tree: LexborHTMLParser, ctx: ParseContext) -> Parsed:
    """The posts of a vBulletin 4 thread page."""

    def build(node: LexborNode, post_id: str, position: int) -> Post | None:
        classes = classes_of(node)
        if classes & {"postbitdeleted", "postbitignored"}:
            return None
        author = _first_text(node, ".username_container .username, .username, "
                                   ".userinfo .username")
        if not author:
            raise PostError("post without author")
        date = node.css_first(".posthead .date, .postdate .date, .posthead .postdate")
        if date is None:
            raise PostError("no date (span.date)")
        moment = parse_forum_time(date.text(deep=True), ctx.tz)
        digits = _POST_ID.match(post_id)
        holder = node.css_first(f"#post_message_{digits.group(1)}") if digits else None
        body = (holder or node).css_first("blockquote.postcontent")
        if body is None:
            raise PostError("no post body (blockquote.postcontent)")
        notice = node.css_first("blockquote.lastedited, .lastedited")
        edited_at = _edit_time(notice, ctx)
        return Post(
            id=post_id, author=author, time=moment, content=convert(body, dialect),
            number=_number(node.css_first("a.postcounter")), edited=notice is not None,
            edited_at=edited_at, file=ctx.file, position=position,
        )

    def ident(node: LexborNode, index: int) -> str:
        found = _POST_ID.match(node.attributes.get("id") or "")
        return f"post{found.group(1)}" if found else f"#{index + 1}"

    posts = [n for n in tree.css("li.postcontainer, li.postbit, li.postbitlegacy")
             if n.attributes.get("id")]
    return read_posts(ctx, posts, ident, build)


def parse_3(tree: LexborHTMLParser, ctx: ParseContext) -> Parsed:
    """The posts of a vBulletin 3 thread page."""

    def ident(node: LexborNode, index: int) -> str:
        found = _POST_ID.match(node.attributes.get("id") or "")
        return f"post{found.group(1)}" if found else f"#{index + 1}"

    def build(node: LexborNode, post_id: str, position: int) -> Post:
        number = post_id.removeprefix("post")
        body = node.css_first(f"#post_message_{number}")
        if body is None:
            raise PostError("no post body (div.post_message)")
        author = _first_text(node, f"#postmenu_{number} a.bigusername, a.bigusername, "
                                   f"#postmenu_{number}")
        if not author:
            raise PostError("post without author")
        moment = None
        for head in node.css("td.thead"):
            text = squash(head.text(deep=True))
            if ":" in text and any(ch.isdigit() for ch in text):
                moment = parse_forum_time(text, ctx.tz)
                break
        if moment is None:
            raise PostError("no date (td.thead)")
        markup = node.html or ""
        note = _EDIT_NOTE.search(markup)
        edited_at = None
        if note is not None:
            try:
                edited_at = parse_forum_time(
                    LexborHTMLParser(note.group(1)).text(deep=True), ctx.tz)
            except DateError:
                edited_at = None
        counter = node.css_first('a[id^="postcount"]')
        return Post(
            id=post_id, author=author, time=moment, content=convert(body, dialect_3),
            number=_number(counter), edited=note is not None and bool(squash(
                LexborHTMLParser(note.group(1)).text(deep=True))), edited_at=edited_at,
            file=ctx.file, position=position,
        )

    posts = [n for n in tree.css('table[id^="post"]') if _POST_ID.match(
        n.attributes.get("id") or "")]
    return read_posts(ctx, posts, ident, build)


def _first_text(node: LexborNode, selector: str) -> str:
    for candidate in node.css(selector):
        text = squash(candidate.text(deep=True))
        if text:
            return text
    return ""


def _number(counter: LexborNode | None) -> int | None:
    if counter is None:
        return None
    found = re.search(r"\d+", counter.text(deep=True))
    return int(found.group()) if found else None


def _edit_time(notice: LexborNode | None, ctx: ParseContext) -> datetime | None:
    if notice is None:
        return None
    try:
        return parse_forum_time(notice.text(deep=True), ctx.tz)
    except DateError:
        return None
