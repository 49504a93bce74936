"""phpBB 3 with the prosilver style (3.0 to 3.3).

Markup read: each post is ``div.post`` with ``id="p<id>"``; ``p.author`` holds the author
(``<strong><a>``, also coloured user names) and the time (a ``<time datetime>`` from 3.2
on, else the text after ``»``); ``div.content`` is the body; ``div.notice`` is the edit
notice ("Last edited by ... on ..., edited 2 times in total", translated on other boards,
so it is found by class); ``div.signature`` is outside the body. Quotes are
``<blockquote>`` with a ``<cite>`` naming the author, nested at will; code boxes are
``dl.codebox`` / ``div.codebox``. The footer's "All times are UTC + 1 hour [ DST ]" (or a
zone name in newer versions) gives the board's time zone.
"""

from __future__ import annotations

from datetime import tzinfo

from selectolax.lexbor import LexborHTMLParser, LexborNode

from nightfall.forum.dates import parse_forum_time, parse_iso, parse_zone_label
from nightfall.forum.dom_scan import scan_dom
from nightfall.forum.errors import DateError, PostError
from nightfall.forum.html_tree import CODE, SKIP, Special, convert
from nightfall.forum.lazy import LazyPost, round_trips
from nightfall.forum.model import Post
from nightfall.forum.parsing import ParseContext, Parsed, read_posts, squash

FORMAT = "phpbb"


def detect(tree: LexborHTMLParser) -> bool:
    """Whether the page is a phpBB prosilver topic page."""
    return tree.css_first("div.post div.postbody") is not None


#: the footer items that may state the board's time zone
FOOTER = "li.rightside, div.copyright, p.right"


def survey(found: list[LexborNode]) -> tuple[list[LexborNode], list[LexborNode]] | None:
    """The posts (``div.post``) and footer items (:data:`FOOTER`) among ``found``, the
    answer of one query for them and for what only another format's page has
    (``detect``'s survey: one walk of the page instead of three); ``None`` when any node
    might be another format's or is not told exactly by its classes (a quirks-mode page
    matches classes ignoring case), and the page is then read as without a survey."""
    posts: list[LexborNode] = []
    footer: list[LexborNode] = []
    for node in found:
        tag = node.tag
        if tag not in ("div", "li", "p"):
            return None  # (another format's article or blockquote)
        classes = (node.attributes.get("class") or "").split()
        if tag == "div" and (node.id or "").lower().startswith("post_message_"):
            return None  # (vBulletin 3's post body)
        post = tag == "div" and "post" in classes
        in_footer = ((tag == "li" and "rightside" in classes)
                     or (tag == "div" and "copyright" in classes)
                     or (tag == "p" and "right" in classes))
        if not post and not in_footer:
            return None
        if post:
            posts.append(node)
        if in_footer:
            footer.append(node)
    return posts, footer


def page_zone(tree: LexborHTMLParser, items: list[LexborNode] | None = None) -> tzinfo | None:
    """The board time zone the footer states, if any (``items``: the :data:`FOOTER`
    items, if they were already asked for)."""
    for item in tree.css(FOOTER) if items is None else items:
        text = squash(item.text(deep=True))
        if "UTC" not in text and "GMT" not in text:
            continue
        titled = item.css_first("span[title]")
        title = titled.attributes.get("title") or "" if titled is not None else ""
        dst = item.css_first("abbr") is not None
        found = parse_zone_label(f"{title} {text}", dst=dst)
        if found is not None:
            return found
    return None


def dialect(node: LexborNode, classes: frozenset[str]) -> Special:
    if "codebox" in classes:
        return CODE
    if "inline-attachment" in classes or "attachbox" in classes:
        return SKIP
    return None


#: the parts of a post, asked in one query (each ``css_first`` of them was a query, the
#: better part of a post's reading: docs/performance.md)
_PARTS = "div.postbody, p.author, div.content, div.notice"
_DIV_PARTS = ("postbody", "content", "notice")
_HEADER_PARTS = ("a.username, a.username-coloured, span.username, span.username-coloured, "
                 "strong, time[datetime]")


def parse(tree: LexborHTMLParser, ctx: ParseContext,
          candidates: list[LexborNode] | None = None) -> Parsed:
    """The posts of a phpBB topic page (``candidates``: its ``div.post`` elements, if they
    were already asked for)."""

    def ident(item: _Item, index: int) -> str:
        return item[0].id or f"#{index + 1}"

    def build(item: _Item, post_id: str, position: int) -> Post:
        node, parts, found = item
        header = parts.get("author")
        author = _author(node, [n for n in found if n.tag != "time"])
        if header is None:
            raise PostError("no date line (p.author)")
        stamp = next((n for n in found if n.tag == "time"), None)
        when = stamp.attributes.get("datetime") if stamp is not None else None
        if when:
            moment = parse_iso(when, ctx.tz)
        else:
            text = squash(header.text(deep=True))
            moment = parse_forum_time(text.rpartition("»")[2] or text, ctx.tz)
        body = parts.get("content")
        if body is None:
            raise PostError("no post body (div.content)")
        notice = parts.get("notice")
        edited_at = None
        if notice is not None:
            try:
                edited_at = parse_forum_time(notice.text(deep=True), ctx.tz)
            except DateError:
                edited_at = None
        fragment = body.html or ""
        if round_trips(fragment):  # the content tree when asked for, the scan now
            return LazyPost(post_id, author, moment, edited=notice is not None,
                            edited_at=edited_at, file=ctx.file, position=position,
                            source=fragment, dialect=dialect, scan=scan_dom(body, dialect))
        return Post(
            id=post_id, author=author, time=moment, content=convert(body, dialect),
            edited=notice is not None, edited_at=edited_at, file=ctx.file, position=position,
        )

    nodes = tree.css("div.post") if candidates is None else candidates
    posts = [(n, parts, header) for n in nodes
             if "postbody" in (found := _post_parts(n))[0] for parts, header in (found,)]
    return read_posts(ctx, posts, ident, build)


_Item = tuple[LexborNode, dict[str, LexborNode], list[LexborNode]]
#: a post's parts and its header's author candidates and time, in one query
_POST_QUERY = f"{_PARTS}, {_HEADER_PARTS}"


def _parts(node: LexborNode) -> dict[str, LexborNode]:
    """The first ``div.postbody``, ``p.author`` (as "author"), ``div.content`` and
    ``div.notice`` in ``node`` (itself included), as ``css_first`` finds each."""
    return _post_parts(node)[0]


def _post_parts(node: LexborNode) -> tuple[dict[str, LexborNode], list[LexborNode]]:
    """:func:`_parts` of ``node``, and what ``header.css(_HEADER_PARTS)`` finds in its
    header (the "author" part), from one query: its answer is in document order (a node
    matching two selectors twice); a ``p`` can only be the author line, a ``div`` is told
    by its classes, anything else matched a header selector and is the header's if the
    header is its ancestor (which then came before it)."""
    found: dict[str, LexborNode] = {}
    in_header: list[LexborNode] = []
    for part in node.css(_POST_QUERY):
        tag = part.tag
        if tag == "p":
            found.setdefault("author", part)
            continue
        if tag != "div":
            header = found.get("author")
            if header is not None and _inside(part, header.mem_id, node.mem_id):
                in_header.append(part)
            continue
        value = part.attributes.get("class") or ""
        classes = value.split()
        lowered = value.lower()
        for name in _DIV_PARTS:
            if name not in found and (name in classes or (
                    name in lowered and _quirks_match(part, value, name))):
                found[name] = part
    return found, in_header


def _inside(node: LexborNode, ancestor: int, stop: int) -> bool:
    """Whether the node with ``mem_id`` ``ancestor`` is an ancestor of ``node``, looking
    no higher than the node ``stop`` (the post)."""
    parent = node.parent
    while parent is not None:
        at = parent.mem_id
        if at == ancestor:
            return True
        if at == stop:
            return False
        parent = parent.parent
    return False


def _quirks_match(node: LexborNode, value: str, name: str) -> bool:
    """Whether ``node`` is ``div.<name>`` though no class is spelled ``name``: a page in
    quirks mode matches classes ignoring case (then Lexbor decides)."""
    if name not in value.lower().split():
        return False
    first = node.css_first(f"div.{name}")
    return first is not None and first.mem_id == node.mem_id


def _author(node: LexborNode, candidates: list[LexborNode]) -> str:
    # the profile column is asked only when the header names nobody (one query less on
    # nearly every post: the votecount benchmark's hot loop, docs/performance.md)
    for candidate in candidates:
        name = squash(candidate.text(deep=True))
        if name:
            return name
    for candidate in node.css("dl.postprofile dt a, dl.postprofile dt span.username"):
        name = squash(candidate.text(deep=True))
        if name:
            return name
    raise PostError("post without author")
