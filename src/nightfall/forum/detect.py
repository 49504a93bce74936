"""Reading one file: decoding, format detection, parsing — never raising.

Formats, tried in this order: Discourse topic JSON, JSON lines, BBCode thread file, and
HTML pages of XenForo 2 and 1, vBulletin 4, vBulletin 3 and phpBB 3 (recognised by their
markup's classes, not by any translated text). A page that starts with ``<html`` but does
not end with ``</html>`` is truncated: it is reported, and its last post — possibly cut
before its edit notice — is not counted. Anything else is an unknown format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import tzinfo
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

from nightfall.collector import gc_paused
from nightfall.forum import discourse, exports, limits, phpbb, vbulletin, xenforo, xenforo1
from nightfall.forum.errors import ForumInputError
from nightfall.forum.model import InputIssue, Page
from nightfall.forum.parsing import ParseContext, Parsed

_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_\-:.]+)""", re.I)
_HTML_START = re.compile(r"^\s*(?:<!--.*?-->\s*)*(?:<!doctype[^>]*>\s*)?<html\b", re.I | re.S)
_HTML_END = re.compile(r"</html\s*>", re.I)
_HTML_LIKE = re.compile(r"<\s*(?:html|body|div|article|li|table|span|p)\b", re.I)

HtmlParser = Callable[[LexborHTMLParser, ParseContext], Parsed]
_HTML_FORMATS: tuple[tuple[str, Callable[[LexborHTMLParser], bool], HtmlParser,
                           Callable[[LexborHTMLParser], tzinfo | None]], ...] = (
    (xenforo.FORMAT, xenforo.detect, xenforo.parse, lambda tree: None),
    (xenforo1.FORMAT, xenforo1.detect, xenforo1.parse, lambda tree: None),
    (vbulletin.FORMAT_4, vbulletin.detect_4, vbulletin.parse_4, vbulletin.page_zone),
    (vbulletin.FORMAT_3, vbulletin.detect_3, vbulletin.parse_3, vbulletin.page_zone),
    (phpbb.FORMAT, phpbb.detect, phpbb.parse, phpbb.page_zone),
)

#: what any format before phpBB would find: when a page has none of it, only phpBB is
#: tried (most pages of a count are phpBB's, and each detection walks the whole tree)
_BEFORE_PHPBB = ", ".join((xenforo.DETECT, xenforo1.DETECT, vbulletin.DETECT_4,
                           vbulletin.DETECT_3))
#: that and what phpBB reads of a page, in one query (:func:`phpbb.survey`)
_SURVEY = f"{_BEFORE_PHPBB}, div.post, {phpbb.FOOTER}, {phpbb.SURVEY_PARTS}"


def decode(data: bytes) -> str:
    """The text of a saved page: UTF-8, else the charset its ``<meta>`` names, else
    Windows-1252 (what browsers assume for old Western boards)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    declared = _CHARSET.search(data[:4096])
    if declared:
        try:
            return data.decode(declared.group(1).decode("ascii"), errors="replace")
        except LookupError:
            pass
    return data.decode("cp1252", errors="replace")


def read_file(path: Path, tz: tzinfo, budget: limits.Budget | None = None) -> Page:
    """Read one file, at most ``limits.MAX_FILE_BYTES`` of it (``/dev/zero`` is a file
    too); problems come back as issues, never as exceptions."""
    try:
        data = limits.read_limited(path)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        return Page(str(path), None, issues=(InputIssue(str(path), None,
                                                        f"cannot read: {reason}"),))
    except limits.LimitExceeded as error:
        return _refused(str(path), error)
    return read_page(data, str(path), tz, budget)


def _refused(name: str, error: limits.LimitExceeded) -> Page:
    return Page(name, None, issues=(InputIssue(name, None, str(error)),),
                refused=(error.msgid, tuple(error.params.items())))


def read_page(data: bytes | str, name: str, tz: tzinfo,
              budget: limits.Budget | None = None) -> Page:
    """Detect the format of ``data`` and read its posts (``tz``: the forum's zone unless the
    page states one). Never raises: every problem is an issue of the returned page; a page
    beyond a limit of :mod:`nightfall.forum.limits` is ``refused`` unread (``budget``: what
    is left of the count's work, shared by its files).

    The cyclic collector is paused while the page is read: a page makes thousands of
    small objects (the parser's nodes, the posts, their parts) and no cycles worth
    collecting, and the collector kept traversing them and every post read before
    (a fifth of a 10,000-post count's CPU time, docs/performance.md)."""
    try:
        with gc_paused():
            return _read(data, name, tz, budget)
    except limits.LimitExceeded as error:
        return _refused(name, error)
    except (ForumInputError, ValueError, TypeError, KeyError, IndexError, AttributeError,
            RecursionError, MemoryError) as error:
        return Page(name, None, issues=(InputIssue(
            name, None, f"unreadable ({type(error).__name__}: {error})"),))


def _read(data: bytes | str, name: str, tz: tzinfo, budget: limits.Budget | None) -> Page:
    text = decode(data) if isinstance(data, bytes) else data
    text = text.replace("\x00", "")
    budget = budget if budget is not None else limits.Budget()
    # before any parser (deep markup costs it time quadratic in the depth), unless the
    # page has so few tags that Lexbor's worst case is bounded: such an HTML page is
    # parsed first and its nesting read on Lexbor's tree (limits.check_tree)
    opened = text.count("<")  # (once: both checks of a small page use it)
    checked = not limits.tree_checkable(text, opened)
    if checked:
        limits.check_markup(name, text, budget)
    ctx = ParseContext(name, tz)
    stripped = text.lstrip()
    jsonl = exports.detect_jsonl(text)
    bbcode = not jsonl and exports.detect_bbcode(text)
    html = (bool(stripped) and not stripped.startswith("{") and not jsonl and not bbcode
            and _HTML_LIKE.search(text[:65536]) is not None)
    if not html and not checked:
        limits.check_markup(name, text, budget)
    if not stripped:
        return _page(name, None, Parsed(), extra="empty file")
    if stripped.startswith("{") and not jsonl:
        try:
            decoded = json.loads(stripped)
        except ValueError as error:
            return _page(name, None, Parsed(), extra=f"unknown format (invalid JSON: {error})")
        if discourse.detect(decoded):
            return _page(name, discourse.FORMAT, discourse.parse(decoded, ctx))
        return _page(name, None, Parsed(), extra="unknown format (JSON, but not a Discourse "
                                                 "topic nor post lines)")
    if jsonl:
        return _page(name, exports.JSONL_FORMAT, exports.parse_jsonl(text, ctx))
    if bbcode:
        return _page(name, exports.BBCODE_FORMAT, exports.parse_bbcode_file(text, ctx))
    if not html:
        return _page(name, None, Parsed(), extra="unknown format (not HTML, JSON or a BBCode "
                                                 "thread file)")
    tree = LexborHTMLParser(text)
    if not checked:
        limits.check_tree(name, text, tree, budget, opened)
    formats = _HTML_FORMATS
    surveyed = phpbb.survey(tree.css(_SURVEY))
    if surveyed is not None:  # no other format's markup: phpBB, read from the survey
        posts, footer, detected = surveyed
        formats = ((phpbb.FORMAT, lambda tree: detected,
                    lambda tree, ctx: phpbb.parse(tree, ctx, posts),
                    lambda tree: phpbb.page_zone(tree, footer)),)
    elif tree.css_first(_BEFORE_PHPBB) is None:  # one walk of the tree instead of four
        formats = _HTML_FORMATS[-1:]
    for format_name, detect, parse, page_zone in formats:
        if detect(tree):
            zone = page_zone(tree) or tz
            parsed = parse(tree, ParseContext(name, zone))
            if _HTML_START.match(text) and not _ends_html(text):
                _truncated(parsed, ctx)
            return _page(name, format_name, parsed)
    return _page(name, None, Parsed(), extra="unknown format (HTML, but no posts of phpBB, "
                                             "vBulletin or XenForo found)")


def _ends_html(text: str) -> bool:
    """Whether the last 64 KiB of ``text`` close the ``<html>`` element: a page as saved
    ends with ``</html>`` (found at once from the end), any other spelling is asked of
    the regular expression."""
    tail = max(0, len(text) - 65536)
    return text.rfind("</html>", tail) >= 0 or _HTML_END.search(text, tail) is not None


def _truncated(parsed: Parsed, ctx: ParseContext) -> None:
    if parsed.posts:
        last = parsed.posts.pop()
        parsed.issue(ctx, last.id, "the page is truncated (no </html>): its last post is "
                                   "not counted, it may be cut before its edit notice")
    else:
        parsed.issue(ctx, None, "the page is truncated (no </html>)")


def _page(name: str, format_name: str | None, parsed: Parsed, *, extra: str = "") -> Page:
    issues = list(parsed.issues)
    if extra:
        issues.append(InputIssue(name, None, extra))
    elif not parsed.posts and not issues:
        issues.append(InputIssue(name, None, f"no posts found ({format_name})"))
    return Page(name, format_name, tuple(parsed.posts), tuple(issues))
