"""The vote scan read straight from Lexbor's DOM of a post: ``scan_dom(body, dialect)`` is
``content.scan(html_tree.convert(body, dialect))`` without building the content tree.

Why: reading a post into its content tree and then walking that tree were a third of a
count (docs/performance.md, issue 19); the vote finder needs only the post's own BBCode,
each quote's BBCode and the red runs. This walk reads each DOM node once, as
:func:`html_tree._node` would read it, and feeds what that element would be straight to
the state machine of :func:`content._walk` (the same BBCode, the same runs and offsets;
a quote's author and source, which the scan never reads, are not worked out). The two
are kept equal by a differential test over every fixture, generated threads and
generated markup (``tests/forum/test_forum_dom_scan.py``); change one, change the other.
"""

from __future__ import annotations

from collections.abc import Iterable

from selectolax.lexbor import LexborNode

from nightfall.forum.colors import is_red
from nightfall.forum.content import Fragment, Scan
from nightfall.forum.html_tree import (
    _BLOCKS,
    _DROP,
    _NO_CLASSES,
    _SIMPLE,
    _WEIGHT,
    CODE,
    MAX_DEPTH,
    SKIP,
    Dialect,
    QuoteSpec,
    parse_style,
)
from nightfall.forum.model import NodeKind

_TAGS = {NodeKind.BOLD: "b", NodeKind.ITALIC: "i", NodeKind.UNDERLINE: "u"}
#: what an element of _SIMPLE but code becomes in the scan: a BBCode tag, or hidden
#: (``None``: struck out)
_SIMPLE_TAG = {tag: _TAGS.get(kind) for tag, kind in _SIMPLE.items() if kind is not NodeKind.CODE}
_CODE_TAGS = frozenset(tag for tag, kind in _SIMPLE.items() if kind is NodeKind.CODE)


def scan_dom(root: LexborNode, dialect: Dialect) -> Scan:
    """The :class:`~nightfall.forum.content.Scan` of the post body ``root``."""
    result = Scan()
    result.own_bbcode = _walk(root.iter(include_text=True), False, dialect, 0, result)
    return result


def _walk(nodes: Iterable[LexborNode], quoted: bool, dialect: Dialect, depth: int,
          result: Scan) -> str:
    """The BBCode of a post or a quote whose children are ``nodes`` (at ``depth`` as
    :func:`html_tree._children` counts), adding red runs and quotes to ``result``."""
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

    def text(value: str, red: bool) -> None:
        nonlocal size, run, run_offset, pending
        if red:
            if run is None:
                run = [value]
                run_offset = size
            else:
                if pending:
                    run.append(pending)
                run.append(value)
            pending = ""
        elif run is not None:
            if value.strip():
                close()
            else:
                pending += value
        append(value)
        size += len(value)

    def emit(piece: str) -> None:
        nonlocal size
        append(piece)
        size += len(piece)

    def walk(children: Iterable[LexborNode], red: bool, depth: int) -> None:
        nonlocal size, run, run_offset, pending
        for node in children:
            tag = node.tag
            if tag == "-text":  # most nodes: text(value, red), written out
                value = node.text_content
                if value:
                    if red:
                        if run is None:
                            run = [value]
                            run_offset = size
                        else:
                            if pending:
                                run.append(pending)
                            run.append(value)
                        pending = ""
                    elif run is not None:
                        if value.strip():
                            close()
                        else:
                            pending += value
                    append(value)
                    size += len(value)
                continue
            if tag is None or tag.startswith("-") or tag in _DROP:
                continue
            if depth >= MAX_DEPTH:
                text(node.text(deep=True), red)
                continue
            attributes = node.attributes
            names = attributes.get("class")
            special = dialect(node, frozenset(names.split()) if names else _NO_CLASSES)
            if special == SKIP:
                continue
            if special == CODE:
                close()
                continue
            if isinstance(special, QuoteSpec):
                _quote(special.body, depth + 1)
                continue
            if tag == "br" or tag == "hr":
                close()
                emit("\n")
                continue
            if tag == "blockquote" or tag == "q":
                _quote(_generic_quote_body(node), depth + 1)
                continue
            if tag in _CODE_TAGS:  # code: hidden, and html_tree wraps it in nothing
                close()
                continue
            # the wrappers html_tree puts around the element, outermost first: strike
            # (hidden), bold, the style's colour, <font color>
            style = attributes.get("style")
            declarations = parse_style(style) if style else None
            if declarations is not None and "line-through" in declarations.get(
                    "text-decoration", "").lower():
                close()
                continue
            inner = red
            closers: list[str] = []
            if declarations is not None:
                weight = declarations.get("font-weight", "").lower()
                if weight in ("bold", "bolder") or (
                        _WEIGHT.fullmatch(weight) is not None and int(weight) >= 600):
                    emit("[b]")
                    closers.append("[/b]")
                color = declarations.get("color")
                if color:
                    emit(f"[color={color}]")
                    closers.append("[/color]")
                    inner = is_red(color)
            if tag == "font" and attributes.get("color"):
                color = attributes["color"] or ""
                emit(f"[color={color}]")
                closers.append("[/color]")
                inner = is_red(color)
            if tag in _SIMPLE_TAG:
                bbcode = _SIMPLE_TAG[tag]
                if bbcode is None:  # struck out: hidden
                    close()
                else:
                    emit(f"[{bbcode}]")
                    walk(node.iter(include_text=True), inner, depth + 1)
                    emit(f"[/{bbcode}]")
            elif tag in _BLOCKS:
                close()
                emit("\n")
                walk(node.iter(include_text=True), inner, depth + 1)
                close()
                emit("\n")
            else:
                walk(node.iter(include_text=True), inner, depth + 1)
            for closer in reversed(closers):
                emit(closer)

    def _quote(body: Iterable[LexborNode], depth: int) -> None:
        close()
        result.quoted_bbcode.append(_walk(body, True, dialect, depth, result))
        emit("\n")

    walk(nodes, False, depth)
    close()
    return "".join(out)


def _generic_quote_body(node: LexborNode) -> list[LexborNode]:
    """The nodes of a ``<blockquote>`` that :func:`html_tree._generic_quote` reads as the
    quote's children: through a lone wrapping ``<div>``, without the ``<cite>``."""
    body: list[LexborNode] = list(node.iter(include_text=True))
    elements = [n for n in body if n.tag and not n.tag.startswith("-")]
    if len(elements) == 1 and elements[0].tag == "div" and not "".join(
        (n.text_content or "") for n in body if n.tag == "-text"
    ).strip():
        body = list(elements[0].iter(include_text=True))
    cite = next((n for n in body if n.tag == "cite"), None)
    if cite is not None:
        body = [n for n in body if n.mem_id != cite.mem_id]
    return body
