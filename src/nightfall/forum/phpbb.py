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
from typing import NamedTuple

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


#: what a post's parts and its author line's candidates are (:func:`_post_parts`)
_PARTS = "div.postbody, p.author, div.content, div.notice"
_DIV_PARTS = ("postbody", "content", "notice")
_HEADER_PARTS = ("a.username, a.username-coloured, span.username, span.username-coloured, "
                 "strong, time[datetime]")
#: what :func:`survey` asks of a page besides the other formats' markup, the posts and the
#: footer: every post's parts and its author line's candidates (what :func:`_post_parts`
#: finds in each post, from the same walk of the page), and a post inside a post
SURVEY_PARTS: str = ", ".join(
    ["div.post div.post"] + [f"div.post {part.strip()}" for part in _PARTS.split(",")]
    + [f"div.post p.author {part.strip()}" for part in _HEADER_PARTS.split(",")])
_DIV_ROLES = frozenset({"post", "copyright", *_DIV_PARTS})
_P_ROLES = frozenset({"author", "right"})
_LI_ROLES = frozenset({"rightside"})
_CANDIDATE_TAGS = frozenset({"a", "span", "strong", "time"})

_Item = tuple[LexborNode, dict[str, LexborNode], list[LexborNode]]


class Survey(NamedTuple):
    """A phpBB page as one query finds it (:func:`survey`)."""

    posts: list[_Item]
    """Each ``div.post`` with what :func:`_post_parts` finds in it, in document order."""
    footer: list[LexborNode]
    """The :data:`FOOTER` items."""
    detected: bool
    """What :func:`detect` answers: some ``div.post`` holds a ``div.postbody``."""


def survey(found: list[LexborNode]) -> Survey | None:
    """The posts (``div.post``, each with its parts and its author line's candidates as
    :func:`_post_parts` finds them) and the footer items (:data:`FOOTER`) among
    ``found``: the answer of one query for them, for :data:`SURVEY_PARTS` and for what
    only another format's page has (``detect``'s survey: one walk of the page instead of
    one per post and three more). ``None`` when any node might be another format's or is
    not told exactly by its classes (a quirks-mode page matches classes ignoring case;
    two roles in one node; a post inside a post): the page is then read as without a
    survey.

    Why the parts are each post's own: the answer is in document order, a node once for
    each selector it matches. A post inside a post matches two selectors, so the posts
    of a surveyed page do not nest, and a part (found only inside a post) is inside the
    post last begun and no other; a post has at most one author line (or the survey
    fails), so a candidate (found only inside an author line) is in that post's."""
    posts: list[_Item] = []
    footer: list[LexborNode] = []
    parts: dict[str, LexborNode] = {}
    candidates: list[LexborNode] = []
    previous = -1
    for node in found:
        tag = node.tag
        if tag in _CANDIDATE_TAGS:  # (no other selector's subject is one)
            if "author" not in parts:
                return None
            candidates.append(node)  # (twice if it matches two selectors, as before)
            continue
        at = node.mem_id
        if at == previous:  # the node matched two selectors: a part of two kinds
            if posts and posts[-1][0].mem_id == at:
                return None  # (a post inside a post)
            continue
        previous = at
        # (``attrs`` looks up one attribute; ``attributes`` builds a dict of them all)
        key = (tag or "", node.attrs.get("class") or "")
        role = _ROLES.get(key, _UNREAD)
        if role is _UNREAD:
            if len(_ROLES) >= _MAX_ROLES:
                _ROLES.clear()
            role = _ROLES[key] = _role(*key)
        if role is None:
            return None
        if tag == "div" and (node.id or "").lower().startswith("post_message_"):
            return None  # (vBulletin 3's post body)
        if isinstance(role, tuple):  # a part of a post
            if not posts:
                return None
            for name in role:
                if name not in parts:
                    parts[name] = node
        elif role == "post":
            parts = {}
            candidates = []
            posts.append((node, parts, candidates))
        elif role == "author":
            if not posts or "author" in parts:
                return None  # (a second author line)
            parts["author"] = node
        else:
            footer.append(node)
    return Survey(posts, footer, any("postbody" in item[1] for item in posts))


_Role = str | tuple[str, ...] | None
_ROLES: dict[tuple[str, str], _Role] = {}
"""Each (tag, class attribute)'s :func:`_role`: a page repeats a few."""
_MAX_ROLES = 1024
_UNREAD: _Role = ("(not yet read)",)


def _role(tag: str, value: str) -> _Role:
    """What an element ``tag`` with the class attribute ``value`` is to :func:`survey`:
    ``post``, a footer item (``copyright``, ``right``, ``rightside``), ``author`` (an
    author line), the parts of :data:`_DIV_PARTS` it is (a tuple, in their order), or
    ``None`` when its classes do not tell exactly."""
    classes = value.split()
    if tag == "div":
        roles = _roles(value, classes, _DIV_ROLES)
        if roles is None:
            return None
        if "post" in roles or "copyright" in roles:
            return next(iter(roles)) if len(roles) == 1 else None
        return tuple(name for name in _DIV_PARTS if name in roles)
    if tag == "p":
        roles = _roles(value, classes, _P_ROLES)
        return next(iter(roles)) if roles is not None and len(roles) == 1 else None
    if tag == "li":
        return "rightside" if _roles(value, classes, _LI_ROLES) is not None else None
    return None  # (another format's article or blockquote)


def _roles(value: str, classes: list[str], roles: frozenset[str]) -> frozenset[str] | None:
    """Which of ``roles`` the classes ``value`` (split: ``classes``) spell exactly;
    ``None`` for none, or when another spelling of one would match in quirks mode."""
    exact = roles.intersection(classes)
    if not exact or (value != value.lower()
                     and not roles.intersection(value.lower().split()) <= exact):
        return None
    return exact


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


def parse(tree: LexborHTMLParser, ctx: ParseContext,
          surveyed: list[_Item] | None = None) -> Parsed:
    """The posts of a phpBB topic page (``surveyed``: its posts with their parts, if
    :func:`survey` found them)."""

    def ident(item: _Item, index: int) -> str:
        return item[0].id or f"#{index + 1}"

    def build(item: _Item, post_id: str, position: int) -> Post:
        node, parts, found = item
        header = parts.get("author")
        stamp = None
        if found:
            tags = [n.tag for n in found]
            if "time" in tags:
                stamp = found[tags.index("time")]
                found = [n for n, tag in zip(found, tags, strict=True) if tag != "time"]
        author = _author(node, found)
        if header is None:
            raise PostError("no date line (p.author)")
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
                            source=fragment, dialect=dialect,
                            scan=scan_dom(body, dialect, by_class=True, html=fragment))
        return Post(
            id=post_id, author=author, time=moment, content=convert(body, dialect),
            edited=notice is not None, edited_at=edited_at, file=ctx.file, position=position,
        )

    if surveyed is None:
        surveyed = [(n, *_post_parts(n)) for n in tree.css("div.post")]
    posts = [item for item in surveyed if "postbody" in item[1]]
    return read_posts(ctx, posts, ident, build)


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
