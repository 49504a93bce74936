"""What a request body may be before any route reads it: its size and its fields.

Every form of the site is small (a post has at most 10,000 characters); only the GM's
vote count takes files (``nightfall.forum.limits``: at most 12 MB in all). A body that
announces more (``Content-Length``) is refused with 413 before a byte of it is parsed,
so nobody can make the server spool or parse hundreds of megabytes for one request.
A text field longer than any form takes (``MAX_FIELD_CHARS``) is refused with 400 by a
page that does not repeat it: a refused form is otherwise written back for correction,
and a megabyte typed into a name came back as a megabyte page. Routes clip what they
write back to their fields' own limits (:func:`clip`).

A GM's rule file (issue 20, ``/new/rules``) is the one long text: its forms take a body of
up to ``MAX_RULES_BYTES`` and their two fields of the file's text, pasted or carried from
the check to the create form, their own caps (``LONG_FIELDS``: 1 MB of text, its base64),
so the 20,000-character cap of every other field never cuts a rule file.

A form must be UTF-8 text (:func:`decodable_form`): Starlette reads undecodable bytes as
Latin-1 without a word, so raw bytes ``FF FE`` signed a player up as "ÿþ". A form whose
urlencoded body has raw non-ASCII bytes or percent-escapes that are not UTF-8, or whose
multipart text fields, field names or file names are not UTF-8, is refused with 400 and
changes nothing (the uploaded files themselves are any bytes: the vote count decodes
saved pages by their own charset).
"""

from __future__ import annotations

from typing import ClassVar
from urllib.parse import parse_qsl

from fastapi import Request
from python_multipart.multipart import MultipartParser, parse_options_header

from nightfall.engine.text import N_
from nightfall.forum import limits
from nightfall.store import UnknownGame

#: the largest ordinary form (a 10,000-character post percent-encoded is ~90 kB)
MAX_FORM_BYTES = 512 * 1024
#: the vote count's upload: its files' limit and room for the other fields
MAX_UPLOAD_BYTES = limits.MAX_TOTAL_BYTES + 1024 * 1024
UPLOAD_SUFFIX = "/votecount"
#: the longest text field of any form (a post or the GM's message has 10,000 characters)
MAX_FIELD_CHARS = 20_000
#: the rule-file forms (``web/routes/gm_rules.py``): a file, a pasted text or the text
#: checked before (base64), with room for the other fields
RULES_PREFIX = "/new/rules"
RULE_TEXT_CHARS = 1024 * 1024
#: the checked file carried to the create form as base64 (4 characters per 3 bytes)
RULE_DATA_CHARS = (RULE_TEXT_CHARS + 2) // 3 * 4
LONG_FIELDS = {"rules_text": RULE_TEXT_CHARS, "rules_data": RULE_DATA_CHARS}
MAX_RULES_BYTES = 4 * 1024 * 1024
#: the largest part of a rule-file form Starlette's parser takes (the default is 1 MB)
MAX_RULES_PART = RULE_DATA_CHARS + 1024


class BodyTooLarge(Exception):
    """Answer 413: the body is larger than the route reads; nothing was read or changed."""

    def __init__(self, upload: bool) -> None:
        super().__init__("body too large")
        self.upload = upload
        self.message = (N_("The files have more than {limit} MB together, more than one "
                           "count reads. Nothing was counted.") if upload else
                        N_("The form is too large to be read. Nothing was changed."))
        self.params = {"limit": limits.MAX_TOTAL_MB} if upload else {}


class FieldTooLong(Exception):
    """Answer 400 with a page that does not write the field back; nothing was changed."""

    message = N_("A field of the form is longer than {limit} characters, more than any "
                 "form takes. Nothing was changed.")
    params: ClassVar[dict[str, int]] = {"limit": MAX_FIELD_CHARS}


class Undecodable(Exception):
    """Answer 400: the form is not UTF-8 text; nothing was read into a field or changed."""

    message = N_("The form could not be read: it is not UTF-8 text. Nothing was changed.")


def clip(value: str, limit: int) -> str:
    """``value`` as a refused form writes it back: at most ``limit`` characters (and a
    mark that more was cut), never the whole of an oversized input."""
    return value if len(value) <= limit else value[:limit] + "…"


def limit_of(path: str) -> int:
    if path.endswith(UPLOAD_SUFFIX):
        return MAX_UPLOAD_BYTES
    return MAX_RULES_BYTES if path.startswith(RULES_PREFIX) else MAX_FORM_BYTES


async def bounded_body(request: Request) -> None:
    """App-wide dependency (before any other reads the form): refuse a body that says it
    is larger than the route's limit."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    length = request.headers.get("content-length", "")
    limit = limit_of(request.url.path)
    if length.isdigit() and int(length) > limit:
        raise BodyTooLarge(limit == MAX_UPLOAD_BYTES)


async def decodable_form(request: Request) -> None:
    """App-wide dependency (before the form is parsed): refuse a form that is not UTF-8
    text; also reads a body sent without ``Content-Length`` no further than its limit."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    kind, options = parse_options_header(request.headers.get("content-type", ""))
    if kind not in (b"application/x-www-form-urlencoded", b"multipart/form-data"):
        return
    body = await _body(request)
    if kind == b"multipart/form-data":
        if not _multipart_text_is_utf8(body, options.get(b"boundary", b"")):
            raise Undecodable()
        return
    try:
        parse_qsl(body.decode("ascii"), keep_blank_values=True, encoding="utf-8",
                  errors="strict")
    except UnicodeDecodeError:  # raw bytes past ASCII, or escapes that are not UTF-8
        raise Undecodable() from None


async def _body(request: Request) -> bytes:
    """The body, read once (Starlette keeps it for the form parser); one sent in chunks
    without a length is read no further than the route's limit."""
    if request.headers.get("content-length", "").isdigit():
        return await request.body()
    limit = limit_of(request.url.path)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(limit == MAX_UPLOAD_BYTES)
        chunks.append(chunk)
    body = b"".join(chunks)
    request._body = body  # what request.body() and request.form() read from now on
    return body


def _multipart_text_is_utf8(body: bytes, boundary: bytes) -> bool:
    """Whether every field name, file name and text field of a multipart body is UTF-8
    (file contents are not looked at). A garbled body is left to the form parser."""
    parts: list[dict[str, bytes]] = []
    header: list[bytes] = [b"", b""]

    def begin() -> None:
        parts.append({"disposition": b"", "data": b""})

    def field(data: bytes, start: int, end: int) -> None:
        header[0] += data[start:end]

    def value(data: bytes, start: int, end: int) -> None:
        header[1] += data[start:end]

    def header_end() -> None:
        if header[0].lower() == b"content-disposition" and parts:
            parts[-1]["disposition"] = header[1]
        header[0] = header[1] = b""

    def data(chunk: bytes, start: int, end: int) -> None:
        if parts and b"filename" not in parse_options_header(parts[-1]["disposition"])[1]:
            parts[-1]["data"] += chunk[start:end]

    try:
        parser = MultipartParser(boundary, {
            "on_part_begin": begin, "on_header_field": field, "on_header_value": value,
            "on_header_end": header_end, "on_part_data": data})
        parser.write(body)
        parser.finalize()
    except Exception:  # not a readable multipart body: the form parser will say so
        return True
    try:
        for part in parts:
            _, options = parse_options_header(part["disposition"])
            for text in (options.get(b"name", b""), options.get(b"filename", b""),
                         part["data"]):
                text.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


async def bounded_fields(request: Request) -> None:
    """App-wide dependency: refuse a form with a text field (or field name) longer than
    ``MAX_FIELD_CHARS`` (a rule-file form's ``LONG_FIELDS``: their own caps). The first
    parse of the form: Starlette keeps it for every later ``request.form()``."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    rules = request.url.path.startswith(RULES_PREFIX)
    form = await (request.form(max_part_size=MAX_RULES_PART) if rules else request.form())
    for key, value in form.multi_items():
        limit = LONG_FIELDS.get(key, MAX_FIELD_CHARS) if rules else MAX_FIELD_CHARS
        if len(key) > MAX_FIELD_CHARS or (isinstance(value, str) and len(value) > limit):
            raise FieldTooLong()


def game_locale(request: Request) -> str | None:
    """The language of the game whose private page (``/gm/…``, ``/p/…``) was posted to,
    for the refusal (``None``: no such page)."""
    parts = request.url.path.split("/")
    if len(parts) < 3 or parts[1] not in ("gm", "p") or not 0 < len(parts[2]) <= 200:
        return None
    svc = request.app.state.service
    holder = svc.store.holder(parts[2])
    if holder is None:
        return None
    try:
        return str(svc.meta(holder.game_id).locale)
    except UnknownGame:
        return None
