"""How much a vote count may be asked to read: checked before any parsing starts.

A hostile upload must not buy minutes of CPU: an HTML parser spends time quadratic in the
nesting depth (200,000 nested ``<blockquote>``s, 5 MB, took minutes), so the depth of a
page's markup is measured first by a single linear scan of its tags and a page nested
deeper than any forum nests (``MAX_NESTING``) is refused unread; so is JSON nested deeper
than a Discourse topic is. Then the work: the number of files, the size of each and of
all together, and the HTML elements of all files (``MAX_ELEMENTS``, a :class:`Budget` per
count), which bound the reading of the posts to a few seconds.

The limits are the same for the GM's page (``web/votecount.py``) and ``nightfall
votecount`` (``cli/votecount.py``); :func:`nightfall.forum.read_page` checks a page's
nesting too, so no caller can skip it. Each refusal is a :class:`LimitExceeded` with a
msgid and its parameters, for a message in the GM's language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from nightfall.engine.text import N_
from nightfall.forum.errors import ForumInputError

MAX_FILE_MB = 5
#: the largest saved page (a phpBB page of 50 posts is about 0.3 MB)
MAX_FILE_BYTES = MAX_FILE_MB * 1024 * 1024
#: the most files one count reads (a day of 500 posts is 20 phpBB pages)
MAX_FILES = 30
MAX_TOTAL_MB = 12
#: the most bytes one count reads in all
MAX_TOTAL_BYTES = MAX_TOTAL_MB * 1024 * 1024
#: the deepest nesting of markup (HTML elements, JSON) accepted; real forum
#: pages nest about 30 deep, quotes in quotes a few levels more
MAX_NESTING = 400
#: the most HTML elements one count reads, all files together: each costs the reading of
#: posts a few microseconds; a saved page of 0.3 MB has about 5,000, 30 of them 150,000
MAX_ELEMENTS = 250_000

#: elements that never contain others, or that the next one of their kind closes (the
#: HTML parser does not nest them however they are written)
_FLAT = frozenset({
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr", "p", "li", "dt", "dd", "tr", "td", "th", "option",
    "optgroup", "thead", "tbody", "tfoot", "colgroup", "rb", "rt", "rp", "html", "head",
    "body", "!doctype",
})
#: comments and the contents of scripts and styles hold no elements
_OPAQUE = re.compile(r"<!--.*?(?:-->|\Z)|<(script|style|textarea|xmp)\b.*?(?:</\1\s*>|\Z)",
                     re.I | re.S)
_HTML_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)(?:\s[^<>]*?)?(/?)>")
_JSON_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|([\[{])|([\]}])')


@dataclass
class LimitExceeded(ForumInputError):
    """A file or a request asks more than a count may do; nothing was read."""

    msgid: str
    params: dict[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__init__(self.msgid.format(**self.params))

    def __str__(self) -> str:
        return self.msgid.format(**self.params)


def check_request(sizes: list[tuple[str, int]]) -> None:
    """Refuse a request of too many files, a file too large, or too much in all
    (``sizes``: each file's name and size in bytes)."""
    if len(sizes) > MAX_FILES:
        raise LimitExceeded(N_("At most {limit} files at once. Nothing was counted."),
                            {"limit": MAX_FILES})
    for name, size in sizes:
        check_file_size(name, size)
    check_total(sum(size for _, size in sizes))


def check_total(total: int) -> None:
    """Refuse files of more than ``MAX_TOTAL_BYTES`` together (``total``: their bytes)."""
    if total > MAX_TOTAL_BYTES:
        raise LimitExceeded(N_("The files have more than {limit} MB together, more than one "
                               "count reads. Nothing was counted."), {"limit": MAX_TOTAL_MB})


def check_file_size(name: str, size: int) -> None:
    if size > MAX_FILE_BYTES:
        raise LimitExceeded(N_("{file} is larger than {limit} MB, the most a saved thread "
                               "page may have. Nothing was counted."),
                            {"file": name, "limit": MAX_FILE_MB})


def read_limited(path: Path) -> bytes:
    """The bytes of ``path``, refused past ``MAX_FILE_BYTES`` without reading further (a
    device such as ``/dev/zero`` has no size to check first). ``OSError`` as ``open``."""
    with path.open("rb") as stream:
        data = stream.read(MAX_FILE_BYTES + 1)
    check_file_size(str(path), len(data))
    return data


@dataclass
class Budget:
    """What is left of one count's work (one request, one command): HTML elements."""

    elements: int = MAX_ELEMENTS


def check_markup(name: str, text: str, budget: Budget | None = None) -> None:
    """Refuse a page whose HTML or JSON nests deeper than ``MAX_NESTING``, or whose HTML
    elements exceed what is left of ``budget``: one linear pass over its tags, before any
    parser sees it. (BBCode needs no check: its parser is one linear pass that keeps tags
    nested deeper than ``bbcode.MAX_DEPTH`` as text.)"""
    budget = budget or Budget()
    depth, elements = _html_depth(text, budget.elements)
    if max(depth, _json_depth(text)) > MAX_NESTING:
        raise LimitExceeded(N_("{file} nests its markup more than {limit} levels deep, "
                               "which no forum page does. Nothing was counted."),
                            {"file": name, "limit": MAX_NESTING})
    if elements > budget.elements:
        raise LimitExceeded(N_("{file} has more markup than one count reads (at most "
                               "{limit} HTML elements in all files together). Nothing was "
                               "counted."), {"file": name, "limit": MAX_ELEMENTS})
    budget.elements -= elements


def _html_depth(text: str, most: int) -> tuple[int, int]:
    """The deepest nesting of HTML elements, read as a parser would (an end tag closes
    the elements opened after its own, an end tag without one is ignored), and how many
    there are; it stops early past ``MAX_NESTING`` or ``most`` elements."""
    if "<" not in text:
        return 0, 0
    stack: list[str] = []
    open_count: dict[str, int] = {}
    deepest = elements = 0
    for chunk in _OPAQUE.split(text)[::2]:  # split keeps the group: every second item
        for found in _HTML_TAG.finditer(chunk or ""):
            closing, tag, selfclosing = found.group(1), found.group(2).lower(), found.group(3)
            if closing:
                if open_count.get(tag):
                    while stack:
                        top = stack.pop()
                        open_count[top] -= 1
                        if top == tag:
                            break
                continue
            elements += 1
            if elements > most:
                return deepest, elements
            if tag in _FLAT or selfclosing:
                continue
            stack.append(tag)
            open_count[tag] = open_count.get(tag, 0) + 1
            if len(stack) > deepest:
                deepest = len(stack)
                if deepest > MAX_NESTING:
                    return deepest, elements
    return deepest, elements


def _json_depth(text: str) -> int:
    start = text.lstrip()[:1]
    if start not in ("{", "["):
        return 0
    depth = deepest = 0
    for found in _JSON_BRACKET.finditer(text):
        if found.group(1):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_NESTING:
                return deepest
        elif found.group(2):
            depth -= 1
    return deepest
