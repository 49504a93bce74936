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

For a page checked before parsing the scan is the definition; run on every page it cost
two to four times Lexbor's whole parse (the votecount benchmark, docs/performance.md), so
a real page is first proved far within the nesting in C (:func:`_shallow`) and its exact
element count deferred until the budget is near (:class:`Budget`); whatever that cannot
prove is scanned as before, so every decision is the scan's. An HTML page of at most
``TREE_CHECK_TAGS`` tags, whose parse costs little whatever its nesting, is parsed first
and its nesting is read on Lexbor's tree (:func:`check_tree`; the element budget is
counted as for the others).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers import expat

from selectolax.lexbor import LexborHTMLParser

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

#: an HTML page with at most this many ``<`` is parsed *before* its nesting is checked, and
#: the nesting is then read on Lexbor's own tree (:func:`check_tree`): with so few tags
#: Lexbor's worst case is bounded (about 0.1 s for the costliest nestings found,
#: ``<center>``, ``<dl><dt><div>``, ``<blockquote>``, ``<div>``; a real page's nesting
#: costs it next to nothing), while proving a page shallow before parsing costs about as
#: much as Lexbor's whole parse. A 25-post phpBB page has about 1,700; larger pages are
#: checked before any parser as always.
TREE_CHECK_TAGS = 6_000
#: an element more than ``MAX_NESTING`` levels inside ``<body>`` (``<html>`` is level 0,
#: ``<body>`` or ``<frameset>`` level 1), found by Lexbor's selector engine in C: it looks
#: up from each element, at most this many ancestors
_TOO_DEEP = "html" + " > *" * (MAX_NESTING + 2)
#: an element 100 levels below ``<html>``: every element of :data:`_TOO_DEEP` is inside
#: one, so a page without one is shallow (the selector's compiling grows with its length,
#: and this one costs a quarter of that one on each page; a real page has none)
_DEEP = "html" + " > *" * 100
assert MAX_NESTING + 2 > 100, "the probe is above the limit"
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
#: a start tag as :func:`_html_depth` counts one
_START_TAG = re.compile(r"<[A-Za-z][A-Za-z0-9:-]*(?:\s[^<>]*)?/?>")
#: the tags of :func:`_shallow`'s model (``<name``, ``<name>``, ``</name``, ``</name>``)
_MODEL_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9:-]*>?")
_OPAQUE_NAME = re.compile(r"<(?:script|style|textarea|xmp)(?![a-z0-9])")
#: the model's tags as brackets: ``<name>`` → ``(``, ``</name>`` (``)name>`` by then) → ``)``
_BRACKETS = str.maketrans({"<": "(", ">": " ", **dict.fromkeys(
    "abcdefghijklmnopqrstuvwxyz0123456789:-", " ")})
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


class Budget:
    """What is left of one count's work (one request, one command): HTML elements.

    A page's exact element count costs a regular-expression pass over all its tags (about
    half of Lexbor's whole parse), and it matters only once the files come near the
    limit. So a page whose upper bound (its ``<`` not followed by ``/``) still fits is
    kept *pending* and counted exactly only when :attr:`elements` is asked or a later
    page no longer fits by its bound: every decision and every figure is the exact one."""

    __slots__ = ("_left", "_pending", "_pending_bound")

    def __init__(self, elements: int = MAX_ELEMENTS) -> None:
        self._left = elements
        self._pending: list[str] = []
        self._pending_bound = 0

    @property
    def elements(self) -> int:
        """The elements left (exact: the pending pages are counted now)."""
        self._settle()
        return self._left

    def _settle(self) -> None:
        for text in self._pending:
            self._left -= _count_elements(text)
        self._pending.clear()
        self._pending_bound = 0

    def _take(self, text: str, bound: int) -> bool:
        """Charge ``text`` by its bound if that surely fits; ``False``: it must be
        counted exactly (and everything pending is, now)."""
        if bound <= self._left - self._pending_bound:
            self._pending.append(text)
            self._pending_bound += bound
            return True
        self._settle()
        return False


def check_markup(name: str, text: str, budget: Budget | None = None) -> None:
    """Refuse a page whose HTML or JSON nests deeper than ``MAX_NESTING``, or whose HTML
    elements exceed what is left of ``budget``: one linear pass over its tags, before any
    parser sees it. (BBCode needs no check: its parser is one linear pass that keeps tags
    nested deeper than ``bbcode.MAX_DEPTH`` as text.)

    The pass is :func:`_html_depth`; :func:`_shallow` first proves most pages far within
    the depth in C, and :class:`Budget` defers their exact element count, so a real page
    costs a fraction of the scan with the very same decisions."""
    budget = budget or Budget()
    json_depth = _json_depth(text)
    if json_depth <= MAX_NESTING and _shallow(text):
        if budget._take(text, text.count("<") - text.count("</")):
            return
        elements = _count_elements(text)
        depth = 0
    else:
        budget._settle()
        depth, elements = _html_depth(text, budget._left)
    if max(depth, json_depth) > MAX_NESTING:
        raise _too_deep(name)
    if elements > budget._left:
        raise _too_much(name)
    budget._left -= elements


def _too_deep(name: str) -> LimitExceeded:
    return LimitExceeded(N_("{file} nests its markup more than {limit} levels deep, which "
                            "no forum page does. Nothing was counted."),
                         {"file": name, "limit": MAX_NESTING})


def _too_much(name: str) -> LimitExceeded:
    return LimitExceeded(N_("{file} has more markup than one count reads (at most {limit} "
                            "HTML elements in all files together). Nothing was counted."),
                         {"file": name, "limit": MAX_ELEMENTS})


def tree_checkable(text: str, opened: int | None = None) -> bool:
    """Whether ``text``, if it is an HTML page, may be parsed before its nesting is
    checked (:func:`check_tree`): few enough tags (``TREE_CHECK_TAGS``) and not JSON
    (whose nesting is always read first, by :func:`check_markup`). ``opened``: the
    number of ``<`` in ``text``, if the caller counted them (for :func:`check_tree`)."""
    opened = text.count("<") if opened is None else opened
    return opened <= TREE_CHECK_TAGS and text.lstrip()[:1] not in ("{", "[")


def check_tree(name: str, text: str, tree: LexborHTMLParser, budget: Budget,
               opened: int | None = None) -> None:
    """Refuse an HTML page (``text``, parsed into ``tree``; :func:`tree_checkable`) nested
    more than ``MAX_NESTING`` levels inside its body on Lexbor's own tree, or whose
    elements exceed what is left of ``budget`` (counted as :func:`check_markup` does).
    ``opened``: the number of ``<`` in ``text``, if the caller counted them (a count of
    them is ~1.5 % of the vote counter's instructions: it counts them once a page).

    For such a page the nesting limit is defined on the tree the readers walk, not on
    the scan's reading of the tags: the two agree on real markup and on plain nesting
    (400 nested ``<div>`` are read, 401 refused, as by the scan), and differ where the
    HTML parser itself does not nest what the tags seem to (``<a>`` in ``<a>``, ``<p>``
    in ``<p>``: flat on the tree, 'deep' to the scan) or nests what they do not seem to
    (formatting elements reopened in every block)."""
    if tree.css_first(_DEEP) is not None and tree.css_first(_TOO_DEEP) is not None:
        raise _too_deep(name)
    # (every ``<`` bounds the elements as well as the start tags do: the bound decides
    # only when the exact count is made, never what it finds)
    if budget._take(text, text.count("<") if opened is None else opened):
        return
    elements = _count_elements(text)
    if elements > budget._left:
        raise _too_much(name)
    budget._left -= elements


def _count_elements(text: str) -> int:
    """The elements :func:`_html_depth` counts: start tags outside comments, scripts and
    styles."""
    return sum(len(_START_TAG.findall(chunk or "")) for chunk in _OPAQUE.split(text)[::2])


def _opaque_spans(text: str) -> list[tuple[int, int]]:
    """Where ``_OPAQUE.split`` would cut ``text``, found with ``str.find`` (a regular
    expression tried at every ``<`` costs a quarter of a parse): the candidates are every
    ``<!--`` and every lower-case ``<script``, ``<style``, ``<textarea``, ``<xmp``, each
    matched in place, left to right as ``split`` does. (Other spellings are caught by
    :func:`_shallow` in the tags it reads.)"""
    starts = sorted(at for opener in ("<!--", "<script", "<style", "<textarea", "<xmp")
                    for at in _find_all(text, opener))
    spans: list[tuple[int, int]] = []
    end = 0
    for at in starts:
        if at < end:
            continue
        found = _OPAQUE.match(text, at)
        if found is not None:
            spans.append((at, found.end()))
            end = found.end()
    return spans


def _find_all(text: str, needle: str) -> list[int]:
    found: list[int] = []
    at = text.find(needle)
    while at >= 0:
        found.append(at)
        at = text.find(needle, at + 1)
    return found


def _shallow(text: str) -> bool:
    """Whether :func:`_html_depth` would surely find ``text`` nested no deeper than
    ``MAX_NESTING`` (``False``: maybe deeper, let the scan decide).

    It reads, in C, a *model* of the scan's tags: every ``<name`` outside comments,
    scripts and styles as a start tag (even one that does not end like a tag, or that
    closes itself), an end tag only where ``</name>`` is written so, and no flat element.
    The model has every start tag of the scan and only end tags the scan has too, and
    either can only deepen the scan's stack, so its depth is at least the scan's. If the
    model nests like XML (Expat, in C, says so: every end tag closes the element open
    last), its depth is that of its brackets, peeled with ``str.replace`` a level a pass;
    otherwise the model is scanned as the scan would (rare: stray or unclosed tags)."""
    if "<" not in text:
        return True
    tags: list[str] = []
    start = 0
    for at, end in [*_opaque_spans(text), (len(text), len(text))]:
        tags.extend(_MODEL_TAG.findall(text, start, at))
        start = end
    as_xml: dict[str, str] = {}
    for tag in set(tags):
        low = tag.lower()
        if low[1] == "/":
            name = low[2:-1] if low[-1] == ">" else ""
            as_xml[tag] = f"</{name}>" if name and name not in _FLAT else ""
        elif _OPAQUE_NAME.match(low):  # a spelling _opaque_spans does not look for
            return False
        else:
            name = low[1:].removesuffix(">")
            as_xml[tag] = f"<{name}>" if name not in _FLAT else ""
    model = "".join(map(as_xml.__getitem__, tags))
    if _nests_like_xml(model):
        brackets = model.replace("</", ")").translate(_BRACKETS)
        brackets = "".join(brackets.split())
        for _ in range(MAX_NESTING):
            if not brackets:
                return True
            brackets = brackets.replace("()", "")
        return not brackets
    names = model.replace(">", "").split("<")[1:]
    return _scan_depth(names, MAX_NESTING) <= MAX_NESTING


def _nests_like_xml(model: str) -> bool:
    parser = expat.ParserCreate()
    try:
        parser.Parse(f"<_>{model}</_>", True)
    except expat.ExpatError:
        return False
    return True


def _close(stack: list[str], open_count: dict[str, int], name: str) -> None:
    """An end tag as a parser reads it: it closes the elements opened after the last open
    ``name`` and that one; an end tag with none open is ignored."""
    if open_count.get(name):
        while stack:
            top = stack.pop()
            open_count[top] -= 1
            if top == name:
                break


def _scan_depth(tags: list[str], most: int) -> int:
    """The deepest nesting of ``tags`` (``name``, ``/name``) as :func:`_html_depth` nests
    start and end tags; it stops past ``most``."""
    stack: list[str] = []
    open_count: dict[str, int] = {}
    deepest = 0
    for tag in tags:
        if tag[0] == "/":
            name = tag[1:]
            _close(stack, open_count, name)
            continue
        stack.append(tag)
        open_count[tag] = open_count.get(tag, 0) + 1
        if len(stack) > deepest:
            deepest = len(stack)
            if deepest > most:
                break
    return deepest


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
                _close(stack, open_count, tag)
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
