"""BBCode (as typed in phpBB, vBulletin, XenForo) to the normalised content tree.

A small stack parser: known tags open and close elements, a closing tag closes any tags
left open inside it, unknown or unmatched tags stay literal text (as forums show them),
tags left open at the end are closed. ``[code]``/``[php]``/``[noparse]``/``[icode]``
contents are not parsed. Quote options in the forms the engines write:
``[quote=Ann]``, ``[quote="Ann"]``, phpBB's ``[quote="Ann" post_id=123 time=...]``,
XenForo's ``[QUOTE="Ann, post: 123, member: 45"]``. Colours: ``[color=red]``,
``[color=#FF0000]``, ``[COLOR=rgb(184, 49, 47)]``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from nightfall.forum.model import Content, Element, NodeKind, Text

MAX_DEPTH = 64

_TAG = re.compile(r"\[(/?)([A-Za-z][A-Za-z0-9]*|\*)(?:\s*=\s*([^\[\]\n]*)|(\s[^\[\]\n]*))?\]")
_KINDS: dict[str, NodeKind] = {
    "b": NodeKind.BOLD,
    "strong": NodeKind.BOLD,
    "i": NodeKind.ITALIC,
    "em": NodeKind.ITALIC,
    "u": NodeKind.UNDERLINE,
    "s": NodeKind.STRIKE,
    "strike": NodeKind.STRIKE,
    "del": NodeKind.STRIKE,
    "color": NodeKind.COLOR,
    "colour": NodeKind.COLOR,
    "quote": NodeKind.QUOTE,
    "center": NodeKind.BLOCK,
    "left": NodeKind.BLOCK,
    "right": NodeKind.BLOCK,
    "justify": NodeKind.BLOCK,
    "indent": NodeKind.BLOCK,
    "list": NodeKind.BLOCK,
    "ul": NodeKind.BLOCK,
    "ol": NodeKind.BLOCK,
    "li": NodeKind.BLOCK,
    "table": NodeKind.BLOCK,
    "tr": NodeKind.BLOCK,
    "td": NodeKind.BLOCK,
    "th": NodeKind.BLOCK,
    "heading": NodeKind.BLOCK,
    "h1": NodeKind.BLOCK,
    "h2": NodeKind.BLOCK,
    "h3": NodeKind.BLOCK,
    "spoiler": NodeKind.BLOCK,
    "hide": NodeKind.BLOCK,
    "url": NodeKind.SPAN,
    "email": NodeKind.SPAN,
    "size": NodeKind.SPAN,
    "font": NodeKind.SPAN,
    "highlight": NodeKind.SPAN,
    "sub": NodeKind.SPAN,
    "sup": NodeKind.SPAN,
    "user": NodeKind.SPAN,
    "mention": NodeKind.SPAN,
    "ispoiler": NodeKind.SPAN,
    "plain": NodeKind.SPAN,
}
_RAW = frozenset({"code", "php", "html", "noparse", "icode", "img", "media", "youtube",
                  "attach", "video"})
_RAW_SHOWN = frozenset({"noparse"})
_VOID = frozenset({"*", "hr", "br"})


@dataclass(slots=True)
class _Open:
    tag: str
    kind: NodeKind
    color: str | None = None
    author: str | None = None
    source: str | None = None
    children: list[Content] = field(default_factory=list)

    def close(self) -> Element:
        return Element(self.kind, tuple(self.children), color=self.color, author=self.author,
                       source=self.source)


def parse_bbcode(source: str) -> Element:
    """The content tree of a BBCode text."""
    stack: list[_Open] = [_Open("", NodeKind.ROOT)]
    position = 0
    length = len(source)
    while position < length:
        match = _TAG.search(source, position)
        if match is None:
            _text(stack[-1], source[position:])
            break
        if match.start() > position:
            _text(stack[-1], source[position : match.start()])
        position = match.end()
        closing, tag = match.group(1) == "/", match.group(2).lower()
        option = match.group(3) if match.group(3) is not None else (match.group(4) or "")
        if closing:
            depth = next((i for i in range(len(stack) - 1, 0, -1) if stack[i].tag == tag), 0)
            if depth == 0:
                _text(stack[-1], match.group(0))
                continue
            while len(stack) > depth:
                done = stack.pop()
                stack[-1].children.append(done.close())
            continue
        if tag in _VOID:
            stack[-1].children.append(Element(NodeKind.BREAK))
            continue
        if tag in _RAW:
            end = re.compile(rf"\[/{re.escape(tag)}\]", re.I).search(source, position)
            stop = end.start() if end else length
            raw = source[position:stop]
            position = end.end() if end else length
            if tag in _RAW_SHOWN:
                _text(stack[-1], raw)
            elif tag in ("code", "php", "html", "icode"):
                stack[-1].children.append(Element(NodeKind.CODE, (Text(raw),)))
            continue
        kind = _KINDS.get(tag)
        if kind is None or len(stack) > MAX_DEPTH:
            _text(stack[-1], match.group(0))
            continue
        opened = _Open(tag, kind)
        if kind is NodeKind.COLOR:
            opened.color = option.strip().strip("\"'")
        elif kind is NodeKind.QUOTE:
            opened.author, opened.source = _quote_option(option)
        stack.append(opened)
    while len(stack) > 1:
        done = stack.pop()
        stack[-1].children.append(done.close())
    return stack[0].close()


def _text(into: _Open, text: str) -> None:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for index, line in enumerate(lines):
        if index:
            into.children.append(Element(NodeKind.BREAK))
        if line:
            into.children.append(Text(line))


def _quote_option(option: str) -> tuple[str | None, str | None]:
    text = option.strip()
    if not text:
        return None, None
    source = None
    if text[0] in "\"'":
        quote_char = text[0]
        end = text.find(quote_char, 1)
        inner = text[1:end] if end > 0 else text[1:]
        rest = text[end + 1 :] if end > 0 else ""
        post = re.search(r"post_id\s*=\s*\"?(\d+)", rest)
        if post:
            source = f"p{post.group(1)}"
        text = inner
    else:
        text = re.split(r"\s+\w+=", text, maxsplit=1)[0]
    name, _, extra = text.partition(",")
    post = re.search(r"post:\s*(\d+)", extra)
    if post:
        source = f"post-{post.group(1)}"
    name = name.strip()
    return (name or None), source
