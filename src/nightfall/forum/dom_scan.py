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

from collections.abc import Iterable, Iterator

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


def scan_dom(root: LexborNode, dialect: Dialect, *, by_class: bool = False,
             html: str | None = None) -> Scan:
    """The :class:`~nightfall.forum.content.Scan` of the post body ``root``
    (``by_class``: the dialect's answer depends on an element's classes only and is never
    a :class:`QuoteSpec`, so it is asked once per class attribute, as phpBB's is;
    ``html``: ``root.html``, if the caller has it).

    A body of text alone (no ``<`` inside its start and end tags: no element, no comment)
    is its own BBCode, with nothing red or quoted: its text, read in one call."""
    result = Scan()
    if html is not None:
        start = html.find(">") + 1  # (or earlier, at a ">" in an attribute: still safe)
        end = html.rfind("<")
        if 0 < start <= end and html.find("<", start, end) < 0:
            result.own_bbcode = root.text(deep=True)
            return result
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


def _end_run(run: list[str], offset: int, quoted: bool, fragments: list[Fragment]) -> None:
    """A red run ends: its text, stripped, is a fragment unless it is blank."""
    text = "".join(run).strip()
    if text:
        fragments.append(Fragment(text, offset, quoted))


def _walk(nodes: Iterable[LexborNode], quoted: bool, dialect: Dialect,
          specials: dict[str | None, Special] | None, depth: int, result: Scan) -> str:
    """The BBCode of a post or a quote whose children are ``nodes`` (at ``depth`` as
    :func:`html_tree._children` counts), adding red runs and quotes to ``result``
    (``specials``: the dialect's answers by class attribute, when it reads only those).

    The state machine of :func:`content._walk` (a red run is the texts read while red,
    the whitespace-only texts between them kept; any other text, break, block or hidden
    part ends it), as one loop over a stack of the open elements' child iterators, its
    state in local variables: no nested function, no call per node or emitted piece (a
    closure's cells and calls were a fifth of the scan, and allocations the collector
    walks). A quote's BBCode is its own, so a quote is one call."""
    out: list[str] = []
    append = out.append
    fragments = result.red
    size = 0
    run: list[str] | None = None  # (None: no run open; then ``pending`` is empty)
    run_offset = 0
    pending = ""
    red = False
    #: the open elements: the iterator of the parent's children, its redness and depth,
    #: and what closes the element (a block ends a run first)
    stack: list[tuple[Iterator[LexborNode], bool, int, bool, str]] = []
    children: Iterator[LexborNode] = iter(nodes)
    while True:
        for node in children:
            tag = node.tag
            if tag == "-text":  # most nodes
                value = node.text_content
                if not value:
                    continue
            elif tag is None or tag.startswith("-") or tag in _DROP:
                continue
            elif depth >= MAX_DEPTH:  # flattened: a text, if empty too (as in the tree)
                value = node.text(deep=True)
            else:
                value = None
            if value is not None:
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
                        _end_run(run, run_offset, quoted, fragments)
                        run = None
                        pending = ""
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
            quote: Iterable[LexborNode] | None = None
            if special is not None:
                if special == SKIP:
                    continue
                if special == CODE:
                    if run is not None:
                        _end_run(run, run_offset, quoted, fragments)
                        run = None
                        pending = ""
                    continue
                if isinstance(special, QuoteSpec):
                    quote = special.body
            if quote is None:
                if tag == "br" or tag == "hr":
                    if run is not None:
                        _end_run(run, run_offset, quoted, fragments)
                        run = None
                        pending = ""
                    append("\n")
                    size += 1
                    continue
                if tag == "blockquote" or tag == "q":
                    quote = _generic_quote_body(node)
            if quote is not None:
                if run is not None:
                    _end_run(run, run_offset, quoted, fragments)
                    run = None
                    pending = ""
                result.quoted_bbcode.append(
                    _walk(quote, True, dialect, specials, depth + 1, result))
                append("\n")
                size += 1
                continue
            if tag in _CODE_TAGS:  # code: hidden, and html_tree wraps it in nothing
                if run is not None:
                    _end_run(run, run_offset, quoted, fragments)
                    run = None
                    pending = ""
                continue
            # the wrappers html_tree puts around the element, outermost first: strike
            # (hidden), bold, the style's colour, <font color>
            style = attributes.get("style")
            inner = red
            closing = ""
            if style:
                struck, bold, color, color_red = _style(style)
                if struck:
                    if run is not None:
                        _end_run(run, run_offset, quoted, fragments)
                        run = None
                        pending = ""
                    continue
                if bold:
                    append("[b]")
                    size += 3
                    closing = "[/b]"
                if color is not None:
                    opening = f"[color={color}]"
                    append(opening)
                    size += len(opening)
                    closing = "[/color]" + closing
                    inner = color_red
            if tag == "font":
                color = attributes.get("color")
                if color:
                    opening = f"[color={color}]"
                    append(opening)
                    size += len(opening)
                    closing = "[/color]" + closing
                    inner = _red(color)
            block = False
            if tag in _SIMPLE_TAG:
                bbcode = _SIMPLE_TAG[tag]
                if bbcode is None:  # struck out: hidden
                    if run is not None:
                        _end_run(run, run_offset, quoted, fragments)
                        run = None
                        pending = ""
                    append(closing)
                    size += len(closing)
                    continue
                opening = f"[{bbcode}]"
                append(opening)
                size += len(opening)
                closing = f"[/{bbcode}]" + closing
            elif tag in _BLOCKS:
                if run is not None:
                    _end_run(run, run_offset, quoted, fragments)
                    run = None
                    pending = ""
                append("\n")
                size += 1
                closing = "\n" + closing
                block = True
            stack.append((children, red, depth, block, closing))
            children = node.iter(include_text=True)
            red = inner
            depth += 1
            break  # (read the element's children, then go on with its siblings)
        else:  # the children are read: close their element, or end
            if not stack:
                break
            children, red, depth, block, closing = stack.pop()
            if block and run is not None:
                _end_run(run, run_offset, quoted, fragments)
                run = None
                pending = ""
            if closing:
                append(closing)
                size += len(closing)
    if run is not None:
        _end_run(run, run_offset, quoted, fragments)
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
