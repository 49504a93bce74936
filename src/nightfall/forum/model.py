"""The normalised forum post: one model for every supported forum engine and export.

A post's content is a small tree (:class:`Element` / :class:`Text`) that keeps only what the
vote counter needs: quotes (nested, with the quoted author when the markup names one),
colours, bold/italic/underline/strike, code, line breaks and block boundaries. Everything
else (links, sizes, fonts, spoilers, tables) becomes a plain container.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

#: anything but an ASCII digit (``Post.id_number`` keeps only those)
_NOT_DIGIT = re.compile(r"[^0-9]")


class NodeKind(StrEnum):
    """What an :class:`Element` of a post's content stands for."""

    ROOT = "root"
    """The post body itself."""
    QUOTE = "quote"
    """A quoted block; its text is never the author's own."""
    BOLD = "bold"
    ITALIC = "italic"
    UNDERLINE = "underline"
    STRIKE = "strike"
    """Struck-through text (``[s]``, ``<del>``): not the author's current word."""
    COLOR = "color"
    """Coloured text; :attr:`Element.color` holds the colour as written in the markup."""
    CODE = "code"
    """Code or preformatted text: shown literally, never a vote."""
    BLOCK = "block"
    """A paragraph, list item, table cell or other block: a text boundary."""
    BREAK = "break"
    """A line break or horizontal rule."""
    SPAN = "span"
    """Any other inline container (link, size, font, spoiler ...)."""


@dataclass(frozen=True, slots=True)
class Text:
    """A run of text."""

    text: str


@dataclass(frozen=True, slots=True)
class Element:
    """A node of a post's content tree."""

    kind: NodeKind
    children: tuple[Content, ...] = ()
    color: str | None = None
    """For :attr:`NodeKind.COLOR`: the colour as written (``red``, ``#FF0000``, ``rgb(..)``)."""
    author: str | None = None
    """For :attr:`NodeKind.QUOTE`: the quoted author, when the markup names one."""
    source: str | None = None
    """For :attr:`NodeKind.QUOTE`: the id of the quoted post, when the markup gives one."""

    def walk(self) -> Iterator[Element]:
        """This element and every element below it, depth first."""
        stack: list[Element] = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(c for c in reversed(node.children) if isinstance(c, Element))


Content = Text | Element
"""A node of a post's content tree."""


@dataclass(frozen=True, slots=True)
class Post:
    """One forum post, whatever engine or export it came from.

    ``time`` and ``edited_at`` are aware datetimes in the forum's time zone.
    """

    id: str
    """The forum's own id or anchor of the post (``p2729870``, ``post365266``, ...)."""
    author: str
    time: datetime
    content: Element
    number: int | None = None
    """The post's number in the thread, when the page shows one (``#12``)."""
    edited: bool = False
    edited_at: datetime | None = None
    """When the post was last edited, when the edit notice tells (``None`` if unknown)."""
    file: str = ""
    """The file the post was read from."""
    position: int = 0
    """The post's position in its file (0-based)."""

    @property
    def quotes(self) -> tuple[Element, ...]:
        """The post's top-level quoted blocks; nested quotes are inside them."""
        return tuple(_top_quotes(self.content))

    @property
    def text(self) -> str:
        """The author's own text: everything but quotes, code and struck-out text."""
        from nightfall.forum.content import plain_text

        return plain_text(self.content)

    @property
    def id_number(self) -> int | None:
        """The digits of the post id, if it has any (ordering tie-break)."""
        digits = _NOT_DIGIT.sub("", self.id)
        return int(digits) if digits and len(digits) < 19 else None


def _top_quotes(node: Element) -> Iterator[Element]:
    for child in node.children:
        if isinstance(child, Element):
            if child.kind is NodeKind.QUOTE:
                yield child
            else:
                yield from _top_quotes(child)


@dataclass(frozen=True, slots=True)
class InputIssue:
    """A problem with the input, reported to the GM with the file and post it concerns."""

    file: str
    post: str | None
    message: str

    def __str__(self) -> str:
        where = self.file if self.post is None else f"{self.file}: post {self.post}"
        return f"{where}: {self.message}"


@dataclass(frozen=True, slots=True)
class Page:
    """What was read from one file: its detected format, its posts, the issues found."""

    file: str
    format: str | None
    posts: tuple[Post, ...] = ()
    issues: tuple[InputIssue, ...] = field(default=())
    refused: tuple[str, tuple[tuple[str, object], ...]] | None = None
    """Set when the file was refused unread for a limit of :mod:`nightfall.forum.limits`
    (its nesting, its size): the msgid and its parameters, for the caller's language."""

    @property
    def usable(self) -> bool:
        """Whether anything could be counted from this file."""
        return bool(self.posts)
