"""From HTML (a parsed page's post body) to the normalised content tree.

Parser choice: ``selectolax`` with the Lexbor engine. It parses HTML the way browsers do
(HTML5 error recovery, so truncated or sloppy forum markup still yields a tree), is
several times faster than BeautifulSoup + lxml on 10,000-post threads, has CSS selectors
for finding the posts, ships type stubs and has no dependencies. This module never looks
at HTML text itself: it walks Lexbor's nodes.

Each forum engine contributes a *dialect* hook that recognises its own constructs (its
quote boxes, code boxes, title bars to skip); everything else is read the same way for all
engines: ``<blockquote>`` is a quote (its ``<cite>`` names the author), colours come from
``style="color: ..."`` and ``<font color>``, bold from ``<b>``, ``<strong>`` and
``font-weight``, line breaks from ``<br>`` and block elements.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any, Literal

from selectolax.lexbor import LexborNode

from nightfall.forum.model import Content, Element, NodeKind, Text

MAX_DEPTH = 64
"""Deeper markup is flattened to plain text (no forum nests quotes that deep)."""

_DROP = frozenset(
    {
        "script", "style", "noscript", "template", "img", "iframe", "object", "embed",
        "video", "audio", "button", "input", "select", "textarea", "svg", "head", "title",
        "meta", "link", "map", "canvas", "form",
    }
)
_BLOCKS = frozenset(
    {
        "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6",
        "table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption", "section", "article",
        "aside", "header", "footer", "nav", "center", "figure", "figcaption", "details",
        "summary", "address", "fieldset", "legend", "main",
    }
)
_SIMPLE = {
    "b": NodeKind.BOLD,
    "strong": NodeKind.BOLD,
    "i": NodeKind.ITALIC,
    "em": NodeKind.ITALIC,
    "u": NodeKind.UNDERLINE,
    "ins": NodeKind.UNDERLINE,
    "s": NodeKind.STRIKE,
    "strike": NodeKind.STRIKE,
    "del": NodeKind.STRIKE,
    "pre": NodeKind.CODE,
    "code": NodeKind.CODE,
    "kbd": NodeKind.CODE,
    "samp": NodeKind.CODE,
    "xmp": NodeKind.CODE,
}
_WEIGHT = re.compile(r"[0-9]{3}")
_NO_CLASSES: frozenset[str] = frozenset()
_WROTE = re.compile(r"^(.*?)\s*(?:\S+\s*)?[:：]\s*$", re.S)


@dataclass(frozen=True, slots=True)
class QuoteSpec:
    """A dialect's reading of a quote box: who is quoted and which nodes hold the text."""

    author: str | None
    source: str | None
    body: Sequence[LexborNode]


SKIP: Literal["skip"] = "skip"
CODE: Literal["code"] = "code"
Special = QuoteSpec | Literal["skip", "code"] | None
Dialect = Callable[[LexborNode, frozenset[str]], Special]
"""A hook ``(element, its classes) -> Special``: ``None`` lets the generic reading apply."""


_FIELDS = ("kind", "children", "color", "author", "source")
assert tuple(f.name for f in fields(Element)) == _FIELDS, "the builders below set each field"
_NEW = object.__new__
_SET_KIND, _SET_CHILDREN, _SET_COLOR, _SET_AUTHOR, _SET_SOURCE = (
    Element.__dict__[name].__set__ for name in _FIELDS)
_SET_TEXT = Text.__dict__["text"].__set__


def _element(kind: NodeKind, children: tuple[Content, ...] = (), color: str | None = None,
             author: str | None = None, source: str | None = None) -> Element:
    """``Element(kind, children, color, author, source)``, built through its slots: a
    frozen dataclass's ``__init__`` assigns each field through ``object.__setattr__``,
    twice the cost, and a post's tree is built once per post read (the reading's
    hottest loop, docs/performance.md). The same object: same fields, same equality."""
    element: Any = _NEW(Element)
    _SET_KIND(element, kind)
    _SET_CHILDREN(element, children)
    _SET_COLOR(element, color)
    _SET_AUTHOR(element, author)
    _SET_SOURCE(element, source)
    result: Element = element
    return result


def _text(text: str) -> Text:
    """``Text(text)``, built through its slot (see :func:`_element`)."""
    node: Any = _NEW(Text)
    _SET_TEXT(node, text)
    result: Text = node
    return result


def no_dialect(node: LexborNode, classes: frozenset[str]) -> Special:
    """The hook that recognises nothing engine-specific."""
    return None


def classes_of(node: LexborNode) -> frozenset[str]:
    """The element's CSS classes."""
    value = node.attributes.get("class")
    return frozenset(value.split()) if value else frozenset()


def convert(root: LexborNode, dialect: Dialect = no_dialect) -> Element:
    """The content tree of everything inside ``root`` (``root`` itself is the post body)."""
    return _element(NodeKind.ROOT, tuple(_children(root.iter(include_text=True), dialect, 0)))


def _children(nodes: Iterable[LexborNode], dialect: Dialect, depth: int) -> list[Content]:
    result: list[Content] = []
    for node in nodes:
        if node.tag == "-text":  # most nodes: read here, without a call of _node
            text = node.text_content
            if text:
                result.append(_text(text))
            continue
        item = _node(node, dialect, depth)
        if item is not None:
            result.append(item)
    return result


def _node(node: LexborNode, dialect: Dialect, depth: int) -> Content | None:
    tag = node.tag
    if tag == "-text":
        text = node.text_content
        return _text(text) if text else None
    if tag is None or tag.startswith("-") or tag in _DROP:
        return None
    if depth >= MAX_DEPTH:
        return _text(node.text(deep=True))
    attributes = node.attributes  # (Lexbor builds this dict anew on every access)
    names = attributes.get("class")
    classes = frozenset(names.split()) if names else _NO_CLASSES
    special = dialect(node, classes)
    if special == SKIP:
        return None
    if special == CODE:
        return _element(NodeKind.CODE, (_text(node.text(deep=True)),))
    if isinstance(special, QuoteSpec):
        body = _children(special.body, dialect, depth + 1)
        return _element(NodeKind.QUOTE, tuple(body), author=special.author, source=special.source)
    if tag == "br" or tag == "hr":
        return _element(NodeKind.BREAK)
    if tag == "blockquote" or tag == "q":
        return _generic_quote(node, dialect, depth)
    children = tuple(_children(node.iter(include_text=True), dialect, depth + 1))
    if tag in _SIMPLE:
        kind = _SIMPLE[tag]
        if kind is NodeKind.CODE:
            return _element(kind, (_text(node.text(deep=True)),))
        element = _element(kind, children)
    elif tag in _BLOCKS:
        element = _element(NodeKind.BLOCK, children)
    else:
        element = _element(NodeKind.SPAN, children)
    if tag == "font" and attributes.get("color"):
        element = _element(NodeKind.COLOR, (element,), color=attributes["color"])
    style = attributes.get("style")
    if style:
        element = _styled(element, style)
    return element


def _generic_quote(node: LexborNode, dialect: Dialect, depth: int) -> Element:
    """``<blockquote>``: phpBB's ``<blockquote><div><cite>Ann wrote:</cite>...``, newer
    phpBB's ``<blockquote><cite><a>Ann</a> wrote: ...</cite>``, or a bare blockquote."""
    author: str | None = None
    source: str | None = None
    body: list[LexborNode] = list(node.iter(include_text=True))
    holder = node
    elements = [n for n in body if n.tag and not n.tag.startswith("-")]
    if len(elements) == 1 and elements[0].tag == "div" and not "".join(
        (n.text_content or "") for n in body if n.tag == "-text"
    ).strip():
        holder = elements[0]
        body = list(holder.iter(include_text=True))
    cite = next((n for n in body if n.tag == "cite"), None)
    if cite is not None:
        # the cite's links, in document order as ``css_first("a")`` and
        # ``css_first("a[data-post-id]")`` find them (a walk of the few nodes of a cite
        # costs a third of compiling and running a selector, twice a quote)
        links = [(n, n.attributes) for n in cite.traverse() if n.tag == "a"]
        author = _cite_author(cite, links)
        linked = next((attrs for _, attrs in links if "data-post-id" in attrs), None)
        if linked is not None and linked.get("data-post-id"):
            source = f"p{linked['data-post-id']}"
        body = [n for n in body if n.mem_id != cite.mem_id]
    children = _children(body, dialect, depth + 1)
    return _element(NodeKind.QUOTE, tuple(children), author=author, source=source)


def _cite_author(cite: LexborNode,
                 links: list[tuple[LexborNode, dict[str, str | None]]]) -> str | None:
    if links and "data-post-id" not in links[0][1]:
        name = links[0][0].text(deep=True).strip()
        if name:
            return name
    text = " ".join(cite.text(deep=True).split())
    match = _WROTE.match(text)
    name = (match.group(1) if match else text).strip()
    return name or None


def parse_style(style: str) -> dict[str, str]:
    """The declarations of an inline ``style`` attribute (last one wins)."""
    declarations: dict[str, str] = {}
    for part in style.split(";"):
        name, colon, value = part.partition(":")
        if colon:
            declarations[name.strip().lower()] = value.strip()
    return declarations


def _styled(element: Element, style: str) -> Element:
    declarations = parse_style(style)
    color = declarations.get("color")
    if color:
        element = _element(NodeKind.COLOR, (element,), color=color)
    weight = declarations.get("font-weight", "").lower()
    numeric = _WEIGHT.fullmatch(weight) is not None
    if weight in ("bold", "bolder") or (numeric and int(weight) >= 600):
        element = _element(NodeKind.BOLD, (element,))
    if "line-through" in declarations.get("text-decoration", "").lower():
        element = _element(NodeKind.STRIKE, (element,))
    return element
