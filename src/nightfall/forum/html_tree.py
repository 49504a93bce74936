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
from dataclasses import dataclass
from typing import Literal

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


def no_dialect(node: LexborNode, classes: frozenset[str]) -> Special:
    """The hook that recognises nothing engine-specific."""
    return None


def classes_of(node: LexborNode) -> frozenset[str]:
    """The element's CSS classes."""
    value = node.attributes.get("class")
    return frozenset(value.split()) if value else frozenset()


def convert(root: LexborNode, dialect: Dialect = no_dialect) -> Element:
    """The content tree of everything inside ``root`` (``root`` itself is the post body)."""
    return Element(NodeKind.ROOT, tuple(_children(root.iter(include_text=True), dialect, 0)))


def _children(nodes: Iterable[LexborNode], dialect: Dialect, depth: int) -> list[Content]:
    result: list[Content] = []
    for node in nodes:
        item = _node(node, dialect, depth)
        if item is not None:
            result.append(item)
    return result


def _node(node: LexborNode, dialect: Dialect, depth: int) -> Content | None:
    tag = node.tag
    if tag == "-text":
        text = node.text_content
        return Text(text) if text else None
    if tag is None or tag.startswith("-") or tag in _DROP:
        return None
    if depth >= MAX_DEPTH:
        return Text(node.text(deep=True))
    attributes = node.attributes  # (Lexbor builds this dict anew on every access)
    names = attributes.get("class")
    classes = frozenset(names.split()) if names else _NO_CLASSES
    special = dialect(node, classes)
    if special == SKIP:
        return None
    if special == CODE:
        return Element(NodeKind.CODE, (Text(node.text(deep=True)),))
    if isinstance(special, QuoteSpec):
        body = _children(special.body, dialect, depth + 1)
        return Element(NodeKind.QUOTE, tuple(body), author=special.author, source=special.source)
    if tag == "br" or tag == "hr":
        return Element(NodeKind.BREAK)
    if tag == "blockquote" or tag == "q":
        return _generic_quote(node, dialect, depth)
    children = tuple(_children(node.iter(include_text=True), dialect, depth + 1))
    if tag in _SIMPLE:
        kind = _SIMPLE[tag]
        if kind is NodeKind.CODE:
            return Element(kind, (Text(node.text(deep=True)),))
        element = Element(kind, children)
    elif tag in _BLOCKS:
        element = Element(NodeKind.BLOCK, children)
    else:
        element = Element(NodeKind.SPAN, children)
    if tag == "font" and attributes.get("color"):
        element = Element(NodeKind.COLOR, (element,), color=attributes["color"])
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
        author = _cite_author(cite)
        linked = cite.css_first("a[data-post-id]")
        if linked is not None and linked.attributes.get("data-post-id"):
            source = f"p{linked.attributes['data-post-id']}"
        body = [n for n in body if n.mem_id != cite.mem_id]
    children = _children(body, dialect, depth + 1)
    return Element(NodeKind.QUOTE, tuple(children), author=author, source=source)


def _cite_author(cite: LexborNode) -> str | None:
    link = cite.css_first("a")
    if link is not None and "data-post-id" not in link.attributes:
        name = link.text(deep=True).strip()
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
        element = Element(NodeKind.COLOR, (element,), color=color)
    weight = declarations.get("font-weight", "").lower()
    numeric = _WEIGHT.fullmatch(weight) is not None
    if weight in ("bold", "bolder") or (numeric and int(weight) >= 600):
        element = Element(NodeKind.BOLD, (element,))
    if "line-through" in declarations.get("text-decoration", "").lower():
        element = Element(NodeKind.STRIKE, (element,))
    return element
