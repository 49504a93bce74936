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
    Special,
    parse_style,
)
from nightfall.forum.model import NodeKind

_TAGS = {NodeKind.BOLD: "b", NodeKind.ITALIC: "i", NodeKind.UNDERLINE: "u"}
#: what an element of _SIMPLE but code becomes in the scan: a BBCode tag, or hidden
#: (``None``: struck out)
_SIMPLE_TAG = {tag: _TAGS.get(kind) for tag, kind in _SIMPLE.items() if kind is not NodeKind.CODE}
_CODE_TAGS = frozenset(tag for tag, kind in _SIMPLE.items() if kind is NodeKind.CODE)

_Style = tuple[bool, bool, str | None, bool]
"""What a ``style`` attribute makes of an element: struck out, bold, its colour (as
written) and whether that colour is red."""
_STYLES: dict[str, _Style] = {}
_REDS: dict[str, bool] = {}
_MAX_MEMO = 1024
_SPECIALS: dict[Dialect, dict[str | None, Special]] = {}
_UNKNOWN: Special = QuoteSpec(None, None, ())
"""Not yet asked (never a dialect's answer: a quote is never kept)."""


def scan_dom(root: LexborNode, dialect: Dialect, *, by_class: bool = False) -> Scan:
    """The :class:`~nightfall.forum.content.Scan` of the post body ``root``
    (``by_class``: the dialect's answer depends on an element's classes only and is never
    a :class:`QuoteSpec`, so it is asked once per class attribute, as phpBB's is)."""
    result = Scan()
    specials = _SPECIALS.setdefault(dialect, {}) if by_class else None
    if specials is not None and len(specials) >= _MAX_MEMO:
        specials.clear()
    result.own_bbcode = _walk(root.iter(include_text=True), False, dialect, specials, 0,
                              result)
    return result


def _style(style: str) -> _Style:
    """What the ``style`` attribute ``style`` makes of an element, as ``html_tree``
    wraps it (strike outermost, then bold, then the colour); read once per distinct
    attribute (a thread repeats a few)."""
    known = _STYLES.get(style)
    if known is None:
        declarations = parse_style(style)
        struck = "line-through" in declarations.get("text-decoration", "").lower()
        weight = declarations.get("font-weight", "").lower()
        bold = weight in ("bold", "bolder") or (
            _WEIGHT.fullmatch(weight) is not None and int(weight) >= 600)
        color = declarations.get("color") or None
        known = (struck, bold, color, is_red(color) if color else False)
        if len(_STYLES) >= _MAX_MEMO:
            _STYLES.clear()
        _STYLES[style] = known
    return known


def _red(color: str) -> bool:
    """:func:`~nightfall.forum.colors.is_red`, once per distinct colour."""
    known = _REDS.get(color)
    if known is None:
        known = is_red(color)
        if len(_REDS) >= _MAX_MEMO:
            _REDS.clear()
        _REDS[color] = known
    return known


def _walk(nodes: Iterable[LexborNode], quoted: bool, dialect: Dialect,
          specials: dict[str | None, Special] | None, depth: int, result: Scan) -> str:
    """The BBCode of a post or a quote whose children are ``nodes`` (at ``depth`` as
    :func:`html_tree._children` counts), adding red runs and quotes to ``result``
    (``specials``: the dialect's answers by class attribute, when it reads only those).

    The state machine of :func:`content._walk`, with each emitted piece written out in
    place (a call per piece was a fifth of the scan)."""
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

    def quote(body: Iterable[LexborNode], depth: int) -> None:
        nonlocal size
        close()
        result.quoted_bbcode.append(_walk(body, True, dialect, specials, depth, result))
        append("\n")
        size += 1

    def walk(children: Iterable[LexborNode], red: bool, depth: int) -> None:
        nonlocal size, run, run_offset, pending
        for node in children:
            tag = node.tag
            if tag == "-text":  # most nodes
                value = node.text_content
            elif tag is None or tag.startswith("-") or tag in _DROP:
                continue
            elif depth >= MAX_DEPTH:
                value = node.text(deep=True)
            else:
                value = None
            if value is not None:
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
            attributes = node.attributes
            names = attributes.get("class")
            if specials is None:
                special = dialect(node, frozenset(names.split()) if names else _NO_CLASSES)
            else:
                special = specials.get(names, _UNKNOWN)
                if special is _UNKNOWN:
                    special = dialect(node, frozenset(names.split()) if names
                                      else _NO_CLASSES)
                    if not isinstance(special, QuoteSpec):
                        specials[names] = special
            if special is not None:
                if special == SKIP:
                    continue
                if special == CODE:
                    close()
                    continue
                if isinstance(special, QuoteSpec):
                    quote(special.body, depth + 1)
                    continue
            if tag == "br" or tag == "hr":
                close()
                append("\n")
                size += 1
                continue
            if tag == "blockquote" or tag == "q":
                quote(_generic_quote_body(node), depth + 1)
                continue
            if tag in _CODE_TAGS:  # code: hidden, and html_tree wraps it in nothing
                close()
                continue
            # the wrappers html_tree puts around the element, outermost first: strike
            # (hidden), bold, the style's colour, <font color>
            style = attributes.get("style")
            inner = red
            bold = False
            colors = 0
            if style:
                struck, bold, color, color_red = _style(style)
                if struck:
                    close()
                    continue
                if bold:
                    append("[b]")
                    size += 3
                if color is not None:
                    opening = f"[color={color}]"
                    append(opening)
                    size += len(opening)
                    colors = 1
                    inner = color_red
            if tag == "font":
                color = attributes.get("color")
                if color:
                    opening = f"[color={color}]"
                    append(opening)
                    size += len(opening)
                    colors += 1
                    inner = _red(color)
            if tag in _SIMPLE_TAG:
                bbcode = _SIMPLE_TAG[tag]
                if bbcode is None:  # struck out: hidden
                    close()
                else:
                    opening = f"[{bbcode}]"
                    append(opening)
                    size += len(opening)
                    walk(node.iter(include_text=True), inner, depth + 1)
                    append(f"[/{bbcode}]")
                    size += len(opening) + 1
            elif tag in _BLOCKS:
                close()
                append("\n")
                size += 1
                walk(node.iter(include_text=True), inner, depth + 1)
                close()
                append("\n")
                size += 1
            else:
                walk(node.iter(include_text=True), inner, depth + 1)
            while colors:
                append("[/color]")
                size += 8
                colors -= 1
            if bold:
                append("[/b]")
                size += 4

    walk(nodes, False, depth)
    close()
    return "".join(out)


def _generic_quote_body(node: LexborNode) -> list[LexborNode]:
    """The nodes of a ``<blockquote>`` that :func:`html_tree._generic_quote` reads as the
    quote's children: through a lone wrapping ``<div>``, without the ``<cite>``."""
    body: list[LexborNode] = list(node.iter(include_text=True))
    tags = [n.tag for n in body]
    elements = [at for at, tag in enumerate(tags) if tag and not tag.startswith("-")]
    if len(elements) == 1 and tags[elements[0]] == "div" and not "".join(
        (n.text_content or "") for n, tag in zip(body, tags, strict=True) if tag == "-text"
    ).strip():
        body = list(body[elements[0]].iter(include_text=True))
        tags = [n.tag for n in body]
    if "cite" in tags:
        del body[tags.index("cite")]
    return body
