"""Reading a post's content tree: its own text, its own text as canonical BBCode, and the
runs of red text in it (own or quoted).

"Own" text leaves out quotes (at any depth), code and struck-out text. A red *fragment* is
a maximal run of red text: adjacent red pieces join (``[color=red]Bo[/color][color=red]b``),
while a line break, a block boundary or non-red text ends it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    own = _Walker(quoted=False, result=result)
    own.walk(root, red=False)
    own.close_run()
    result.own_bbcode = "".join(own.out)
    return result


class _Walker:
    __slots__ = ("out", "quoted", "result", "run", "run_offset", "run_pending", "size")

    def __init__(self, *, quoted: bool, result: Scan) -> None:
        self.out: list[str] = []
        self.quoted = quoted
        self.result = result
        self.run: list[str] | None = None
        self.run_offset = 0
        self.run_pending = ""
        self.size = 0

    def emit(self, text: str) -> None:
        self.out.append(text)
        self.size += len(text)

    def close_run(self) -> None:
        if self.run is not None:
            text = "".join(self.run).strip()
            if text:
                self.result.red.append(Fragment(text, self.run_offset, self.quoted))
        self.run = None
        self.run_pending = ""

    def text(self, text: str, red: bool) -> None:
        if red:
            if self.run is None:
                self.run = []
                self.run_offset = self.size
            elif self.run_pending:
                self.run.append(self.run_pending)
            self.run_pending = ""
            self.run.append(text)
        elif self.run is not None:
            if text.strip():
                self.close_run()
            else:
                self.run_pending += text
        self.emit(text)

    def walk(self, node: Element, red: bool) -> None:
        for child in node.children:
            if isinstance(child, Text):
                self.text(child.text, red)
                continue
            kind = child.kind
            if kind is NodeKind.BREAK:
                self.close_run()
                self.emit("\n")
            elif kind is NodeKind.QUOTE:
                self.close_run()
                inner = _Walker(quoted=True, result=self.result)
                inner.walk(child, red=False)
                inner.close_run()
                self.result.quoted_bbcode.append("".join(inner.out))
                self.emit("\n")
            elif kind in _HIDDEN:
                self.close_run()
            elif kind is NodeKind.COLOR:
                color = child.color or ""
                self.emit(f"[color={color}]")
                self.walk(child, is_red(color))
                self.emit("[/color]")
            elif kind is NodeKind.BLOCK:
                self.close_run()
                self.emit("\n")
                self.walk(child, red)
                self.close_run()
                self.emit("\n")
            elif kind in _BBCODE_TAGS:
                tag = _BBCODE_TAGS[kind]
                self.emit(f"[{tag}]")
                self.walk(child, red)
                self.emit(f"[/{tag}]")
            else:
                self.walk(child, red)
