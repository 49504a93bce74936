"""Plain exports of a thread: a BBCode file and JSON lines.

**BBCode file** — posts one after another, each opened by a header line::

    # nightfall bbcode thread          (optional comment lines before the first post)
    # timezone: Europe/Berlin          (optional: the zone of times without an offset)
    --- post p1043 | author: Dan | time: 2012-12-24 18:05 | edited: 2012-12-24 18:20
    I vote [color=red]Bob[/color].
    --- post p1044 | author: Anna Bell | time: 2012-12-24T18:10+01:00 | number: 12
    [quote="Dan"]I vote [color=red]Bob[/color].[/quote]
    Me too.

A header line starts with ``--- post``, then the post id (optional), then ``key: value``
fields separated by ``|``: ``author`` and ``time`` are required, ``edited`` (a time, or
``yes``/``no``) and ``number`` optional. Times are ISO (``2012-12-24 18:05``, with or
without offset) or any forum date format. Everything up to the next header is the post's
BBCode.

**JSON lines** — one object per line: ``{"author": "Dan", "time": "2012-12-24 18:05",
"content": "BBCode...", "edited": false, "id": "p1043"}``; ``edited`` may be a boolean or
the edit time, ``id`` and ``number`` are optional. A JSON array of such objects is read
the same way.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from nightfall.forum.bbcode import parse_bbcode
from nightfall.forum.dates import parse_forum_time, zone
from nightfall.forum.errors import DateError, ForumInputError, PostError
from nightfall.forum.model import Post
from nightfall.forum.parsing import ParseContext, Parsed, read_posts

BBCODE_FORMAT = "bbcode"
JSONL_FORMAT = "jsonl"

HEADER = re.compile(r"^---[ \t]*post\b(?P<rest>.*)$", re.I)
#: leading whitespace (blank lines too), then the rest of the line as ``str.splitlines``
#: ends lines
_NEXT_LINE = re.compile(r"\s*([^\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]*)")
_ZONE_COMMENT = re.compile(r"^#\s*time\s*zone\s*:\s*(\S+)\s*$", re.I)
_YES = {"yes", "true", "1", "y", "ja", "да"}
_NO = {"no", "false", "0", "n", "", "nein", "нет"}


def detect_bbcode(text: str) -> bool:
    """Whether ``text`` is a BBCode thread file (its first post header before any text).

    The first line that is neither blank nor a ``#`` comment is found without splitting
    the whole text into lines (``str.splitlines`` of every HTML page read cost a sixth
    of the page's parse): blank lines and a line's leading whitespace are whitespace to
    ``\\s*``, and a line ends where ``splitlines`` ends it."""
    at = 0
    while True:
        found = _NEXT_LINE.match(text, at)
        assert found is not None  # (the pattern matches the empty string)
        line = found.group(1).strip()
        if not line:
            return False
        if not line.startswith("#"):
            return HEADER.match(line) is not None
        at = found.end()


def parse_bbcode_file(text: str, ctx: ParseContext) -> Parsed:
    """The posts of a BBCode thread file."""
    result = Parsed()
    blocks: list[tuple[int, str, list[str]]] = []
    preamble_text = False
    for number, line in enumerate(text.splitlines(), start=1):
        if HEADER.match(line.strip()):
            blocks.append((number, line.strip(), []))
        elif blocks:
            blocks[-1][2].append(line)
        else:
            found = _ZONE_COMMENT.match(line.strip())
            if found:
                try:
                    ctx = ParseContext(ctx.file, zone(found.group(1)))
                except DateError as error:
                    result.issue(ctx, None, f"line {number}: {error}")
            elif line.strip() and not line.strip().startswith("#"):
                preamble_text = True
    if preamble_text:
        result.issue(ctx, None, "text before the first '--- post' header was ignored")

    def ident(block: tuple[int, str, list[str]], index: int) -> str:
        try:
            fields = _header_fields(block[1])
        except PostError:
            fields = {}
        return fields.get("id") or f"line {block[0]}"

    def build(block: tuple[int, str, list[str]], post_id: str, position: int) -> Post:
        fields = _header_fields(block[1])
        unknown = set(fields) - {"id", "author", "time", "edited", "number"}
        if unknown:
            raise PostError(f"unknown header field(s): {', '.join(sorted(unknown))}")
        lines = block[2]
        while lines and not lines[-1].strip():
            lines = lines[:-1]
        return _post(fields, "\n".join(lines), post_id, position, ctx)

    return read_posts(ctx, blocks, ident, build, result)


def _header_fields(header: str) -> dict[str, str]:
    found = HEADER.match(header)
    rest = found.group("rest") if found else ""
    parts = rest.split("|")
    fields: dict[str, str] = {}
    first = parts[0].strip()
    if first:
        if ":" in first:
            raise PostError(f"header {header!r}: the post id comes before the first '|'")
        fields["id"] = first
    for part in parts[1:]:
        key, colon, value = part.partition(":")
        if not colon:
            raise PostError(f"header field {part.strip()!r} is not 'key: value'")
        fields[key.strip().lower()] = value.strip()
    return fields


def _post(fields: dict[str, Any], content: str, post_id: str, position: int,
          ctx: ParseContext) -> Post:
    author = fields.get("author")
    if not isinstance(author, str) or not author.strip():
        raise PostError("post without author")
    raw_time = fields.get("time")
    if not isinstance(raw_time, str) or not raw_time.strip():
        raise PostError("post without time")
    moment = parse_forum_time(raw_time, ctx.tz, day_first=True)
    edited, edited_at = _edited(fields.get("edited"), ctx)
    number = fields.get("number")
    if isinstance(number, str):
        if not re.fullmatch(r"[0-9]{1,9}", number.strip()):
            raise PostError(f"bad post number {number!r}")
        number = int(number)
    if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
        raise PostError(f"bad post number {number!r}")
    return Post(
        id=post_id, author=author.strip(), time=moment, content=parse_bbcode(content),
        number=number, edited=edited, edited_at=edited_at, file=ctx.file, position=position,
    )


def _edited(value: object, ctx: ParseContext) -> tuple[bool, datetime | None]:
    if value is None or value is False:
        return False, None
    if value is True:
        return True, None
    if isinstance(value, str):
        if value.strip().lower() in _NO:
            return False, None
        if value.strip().lower() in _YES:
            return True, None
        return True, parse_forum_time(value, ctx.tz, day_first=True)
    raise PostError(f"bad 'edited' value {value!r}")


def detect_jsonl(text: str) -> bool:
    """Whether ``text`` looks like JSON lines of posts (or a JSON array of them)."""
    stripped = text.lstrip()
    if stripped.startswith("["):
        return re.match(r"\[\s*[{\]]", stripped) is not None
    first = stripped.split("\n", 1)[0].strip()
    if not first.startswith("{"):
        return False
    try:
        data = json.loads(first)
    except ValueError:
        return False
    return isinstance(data, dict) and bool({"author", "content", "time"} & set(data))


def parse_jsonl(text: str, ctx: ParseContext) -> Parsed:
    """The posts of a JSON lines export (or a JSON array of post objects)."""
    result = Parsed()
    items: list[tuple[str, object]] = []
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            data = json.loads(stripped)
        except ValueError as error:
            result.issue(ctx, None, f"invalid JSON: {error}")
            return result
        if not isinstance(data, list):
            result.issue(ctx, None, "JSON array of posts expected")
            return result
        items = [(f"[{index}]", item) for index, item in enumerate(data)]
    else:
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                items.append((f"line {number}", line))

    def ident(item: tuple[str, object], index: int) -> str:
        where, raw = item
        try:
            data = _decode(raw)
        except ForumInputError:
            return where
        if isinstance(data, dict) and isinstance(data.get("id"), str | int) and not \
                isinstance(data.get("id"), bool) and str(data["id"]).strip():
            return str(data["id"]).strip()
        return where

    def build(item: tuple[str, object], post_id: str, position: int) -> Post:
        data = _decode(item[1])
        if not isinstance(data, dict):
            raise PostError("a post must be a JSON object")
        content = data.get("content")
        if not isinstance(content, str):
            raise PostError("post without content (a BBCode string)")
        raw_time = data.get("time")
        if isinstance(raw_time, int | float) and not isinstance(raw_time, bool):
            raise PostError("time must be a date string, not a number")
        return _post(data, content, post_id, position, ctx)

    return read_posts(ctx, items, ident, build, result)


def _decode(raw: object) -> object:
    if not isinstance(raw, str):
        return raw
    try:
        return json.loads(raw)
    except ValueError as error:
        raise ForumInputError(f"invalid JSON: {error}") from error
