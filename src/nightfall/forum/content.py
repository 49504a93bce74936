"""Reading a post's content tree: its own text, its own text as canonical BBCode, and the
runs of red text in it (own or quoted).

"Own" text leaves out quotes (at any depth), code and struck-out text. A red *fragment* is
a maximal run of red text: adjacent red pieces join (``[color=red]Bo[/color][color=red]b``),
while a line break, a block boundary or non-red text ends it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from nightfall.forum.colors import is_red
from nightfall.forum.model import Content, Element, NodeKind, Text

_BBCODE_TAGS = {
    NodeKind.BOLD: "b",
    NodeKind.ITALIC: "i",
    NodeKind.UNDERLINE: "u",
}
_HIDDEN = {NodeKind.QUOTE, NodeKind.CODE, NodeKind.STRIKE}


def plain_text(node: Element, *, quotes: bool = False) -> str:
    """The text of ``node`` with line breaks; quotes only if ``quotes``; never code."""
    parts: list[str] = []
    _plain(node, parts, quotes)
    lines = "".join(parts).split("\n")
    return "\n".join(" ".join(line.split()) for line in lines).strip()


def _plain(node: Content, parts: list[str], quotes: bool) -> None:
    if isinstance(node, Text):
        parts.append(node.text)
        return
    if node.kind in (NodeKind.CODE, NodeKind.STRIKE) or (
        node.kind is NodeKind.QUOTE and not quotes
    ):
        return
    if node.kind is NodeKind.BREAK:
        parts.append("\n")
        return
    block = node.kind in (NodeKind.BLOCK, NodeKind.QUOTE)
    if block:
        parts.append("\n")
    for child in node.children:
        _plain(child, parts, quotes)
    if block:
        parts.append("\n")


@dataclass(frozen=True, slots=True)
class Fragment:
    """A run of red text (or a pattern match) in a post."""

    text: str
    offset: int
    """Where it starts in the post's own BBCode (quoted fragments: in their quote's)."""
    quoted: bool


@dataclass(slots=True)
class Scan:
    """Everything the vote forms look at in one post."""

    own_bbcode: str = ""
    quoted_bbcode: list[str] = field(default_factory=list)
    """The canonical BBCode of each quoted block (nested ones separately)."""
    red: list[Fragment] = field(default_factory=list)


def scan(root: Element) -> Scan:
    """Walk a post once: own BBCode, each quote's BBCode, red fragments."""
    result = Scan()
    result.own_bbcode = _walk(root, False, result)
    return result


_Walk = Callable[[Element, bool, Any], None]


def _walk(top: Element, quoted: bool, result: Scan) -> str:
    """The canonical BBCode of ``top`` (a post or one quote), adding its red fragments
    and its quotes' BBCode (each walked by its own call) to ``result``.

    One function with its state in local variables, not a walker object with a method
    call per text and per emitted piece: this walk is most of a count's own time
    (docs/performance.md). A red run is the texts read while red, the whitespace-only
    texts between them kept, any other text, break, block or hidden part ending it."""
    out: list[str] = []
    append = out.append
    fragments = result.red
    size = 0
    run: list[str] | None = None
    run_offset = 0
    pending = ""

    def close() -> None:
        nonlocal run, pending
        if run is not None:
            text = "".join(run).strip()
            if text:
                fragments.append(Fragment(text, run_offset, quoted))
            run = None
        pending = ""

    # ``walk`` recurses through its argument ``again`` (itself), not its own name: a
    # function that names itself holds itself in its closure cell, a reference cycle per
    # post left for the cyclic collector, which a count pauses (nightfall.collector)
    def walk(node: Element, red: bool, again: _Walk) -> None:
        nonlocal size, run, run_offset, pending
        for child in node.children:
            if isinstance(child, Text):
                text = child.text
                if red:
                    if run is None:
                        run = [text]
                        run_offset = size
                    else:
                        if pending:
                            run.append(pending)
                        run.append(text)
                    pending = ""
                elif run is not None:
                    if text.strip():
                        close()
                    else:
                        pending += text
                append(text)
                size += len(text)
                continue
            kind = child.kind
            if kind is NodeKind.BREAK:
                close()
                append("\n")
                size += 1
            elif kind is NodeKind.QUOTE:
                close()
                result.quoted_bbcode.append(_walk(child, True, result))
                append("\n")
                size += 1
            elif kind in _HIDDEN:
                close()
            elif kind is NodeKind.COLOR:
                color = child.color or ""
                opening = f"[color={color}]"
                append(opening)
                size += len(opening)
                again(child, is_red(color), again)
                append("[/color]")
                size += 8
            elif kind is NodeKind.BLOCK:
                close()
                append("\n")
                size += 1
                again(child, red, again)
                close()
                append("\n")
                size += 1
            elif kind in _BBCODE_TAGS:
                tag = _BBCODE_TAGS[kind]
                append(f"[{tag}]")
                size += len(tag) + 2
                again(child, red, again)
                append(f"[/{tag}]")
                size += len(tag) + 3
            else:
                again(child, red, again)

    walk(top, False, walk)
    close()
    return "".join(out)
