"""A post whose content tree is built when first asked for, from the post's HTML.

Why: a count reads every post's vote scan (:mod:`nightfall.forum.dom_scan`, straight from
Lexbor's DOM of the page) but almost never a post's content tree, and building the tree
was a fifth of a count (docs/performance.md, issue 19). So a post keeps its body as the
HTML fragment Lexbor serialises (the thread's size in memory, not a page's DOM) and its
scan; :attr:`LazyPost.content` parses the fragment and converts it on first access.

That tree is the one the page's DOM gives only if re-parsing the serialised fragment
gives the same DOM. HTML does not promise that in general (a ``<pre>``'s leading
newline, tables' foster parenting, nested links or forms made by the parser's error
recovery, raw text, foreign content, comments, carriage returns written as ``&#13;``),
so a post is lazy only when its fragment holds nothing but the plain elements of
:data:`ROUND_TRIP`, which a parse in a ``<body>`` nests exactly as written; any other
post is converted at once, as before. Every reader sees the same ``Post.content``: a
lazy post equals, hashes, prints and pickles as the :class:`Post` it stands for (tests:
``tests/forum/test_forum_dom_scan.py``).
"""

from __future__ import annotations

import re
from dataclasses import fields
from datetime import datetime
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from nightfall.forum.content import Scan
from nightfall.forum.html_tree import Dialect, convert
from nightfall.forum.model import Element, Post

#: the elements a lazy post's fragment may hold: no parser error recovery moves them, in
#: any context, when they are written properly nested as a serialiser writes them
ROUND_TRIP = frozenset({
    "div", "span", "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "font",
    "blockquote", "q", "cite", "br", "hr", "img", "ul", "ol", "li", "dl", "dt", "dd",
    "code", "small", "big", "sub", "sup", "center", "h1", "h2", "h3", "h4", "h5", "h6", "a",
})
_TAG = re.compile(r"<([a-zA-Z][^\s/>]*)")
_LINK = re.compile(r"<(/?)a[\s>]")

_FIELDS = tuple(f.name for f in fields(Post))
_SLOT = {name: Post.__dict__[name] for name in _FIELDS}
"""Post's own slots (``LazyPost.content`` shadows that one)."""
assert _FIELDS == ("id", "author", "time", "content", "number", "edited", "edited_at", "file",
                   "position"), "LazyPost.__init__ sets each field"
(_SET_ID, _SET_AUTHOR, _SET_TIME, _SET_CONTENT, _SET_NUMBER, _SET_EDITED, _SET_EDITED_AT,
 _SET_FILE, _SET_POSITION) = (_SLOT[name].__set__ for name in _FIELDS)


def round_trips(fragment: str) -> bool:
    """Whether ``fragment`` (a post body as Lexbor serialises it) parses back into the
    same DOM: only :data:`ROUND_TRIP` elements, no comment, no carriage return, no link
    inside a link."""
    if "<!" in fragment or "\r" in fragment:
        return False
    names = set(_TAG.findall(fragment))
    if not names <= ROUND_TRIP:
        return False
    if "a" in names:  # a link in a link: only the parser's error recovery makes one
        open_links = 0
        for found in _LINK.finditer(fragment):
            open_links += -1 if found.group(1) else 1
            if open_links > 1:
                return False
    return True


class LazyPost(Post):
    """A :class:`Post` whose ``content`` is built from ``source`` when first read, with
    its vote scan made when it was read from the page."""

    __slots__ = ("_dialect", "_scan", "_source")
    _source: str
    _dialect: Dialect | None
    _scan: Scan | None

    def __init__(self, id: str, author: str, time: datetime, content: Element | None = None,
                 number: int | None = None, edited: bool = False,
                 edited_at: datetime | None = None, file: str = "", position: int = 0,
                 *, source: str = "", dialect: Dialect | None = None,
                 scan: Scan | None = None) -> None:
        _SET_ID(self, id)
        _SET_AUTHOR(self, author)
        _SET_TIME(self, time)
        if content is not None:
            _SET_CONTENT(self, content)
        _SET_NUMBER(self, number)
        _SET_EDITED(self, edited)
        _SET_EDITED_AT(self, edited_at)
        _SET_FILE(self, file)
        _SET_POSITION(self, position)
        _SET_SOURCE(self, source)
        _SET_DIALECT(self, dialect)
        _SET_SCAN(self, scan)

    # (the fields set through Post's slots: a frozen dataclass's setattr refuses them)

    @property  # (shadows the dataclass field on purpose: Post's own slot keeps the tree)
    def content(self) -> Element:
        slot = _SLOT["content"]
        try:
            built: Element = slot.__get__(self, Post)
        except AttributeError:
            tree = LexborHTMLParser(self._source)
            body = tree.body
            node = body.child if body is not None else None
            if node is None:
                raise ValueError("a lazy post's fragment parsed into nothing") from None
            built = convert(node, self._dialect) if self._dialect else convert(node)
            slot.__set__(self, built)
        return built

    @property
    def vote_scan(self) -> Scan | None:
        """The scan made from the page's DOM (``None``: none was made)."""
        scan: Scan | None = self._scan
        return scan

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in _FIELDS)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Post):
            return self._values() == tuple(getattr(other, name) for name in _FIELDS)
        return NotImplemented

    __hash__ = Post.__hash__

    def __repr__(self) -> str:
        return "Post(" + ", ".join(f"{name}={value!r}" for name, value in
                                   zip(_FIELDS, self._values(), strict=True)) + ")"

    def __reduce__(self) -> tuple[Any, ...]:
        return Post, self._values()


_SET_SOURCE, _SET_DIALECT, _SET_SCAN = (
    LazyPost.__dict__[name].__set__ for name in ("_source", "_dialect", "_scan"))
