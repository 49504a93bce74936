"""What the OpenAPI schema (``/openapi.json``) says about routes that FastAPI cannot see.

The form routes read ``await request.form()`` themselves, because a bad field must give
the page again with a message in the reader's language (400), not FastAPI's generic JSON
422; the pages answer HTML, redirects and error pages. So each route declares its form
body and its answers here, and the schema is exact enough for schemathesis
(``tests/fuzz``) to generate requests from it and check every answer against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from nightfall.rulesets import RULESET_IDS
from nightfall.web import csrf
from nightfall.web.bodies import RULE_DATA_CHARS, RULE_TEXT_CHARS

_HTML = {"text/html": {"schema": {"type": "string"}}}
_JSON_ERROR = {"application/json": {"schema": {
    "type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}}}}

#: what each status code means on these routes
_MEANING = {
    200: "The page",
    303: "Done: on to the next page (Post/Redirect/Get), with a one-time message",
    400: "A field was not understood (or holds a NUL character) or the rules refused it; "
         "nothing was changed",
    403: "The CSRF check failed, or the page is not for this reader now",
    404: "Unknown page, game or link (a wrong or revoked link looks exactly the same)",
    409: "The form was made for a phase that is over (or the game is not running); nothing "
         "was changed",
    413: "The body is larger than the route reads, an uploaded file is over the size limit "
         "or there are too many files; nothing was changed",
    415: "An uploaded file is not of a kind the route reads; nothing was changed",
    422: "An uploaded file could not be read; nothing was changed",
    429: "Too many submissions through this link; nothing was changed (see Retry-After)",
    502: "The linked forum thread could not be read (a login page, a timeout, markup not "
         "known …); the page says why, nothing was changed",
}


def _answer(code: int, content: Mapping[str, Any] | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = {"description": _MEANING[code]}
    if content is not None:
        answer["content"] = dict(content)
    if code == 303:
        answer["headers"] = {"Location": {"schema": {"type": "string"},
                                          "description": "Where to go next"}}
    if code == 429:
        answer["headers"] = {"Retry-After": {"schema": {"type": "integer", "minimum": 1},
                                             "description": "Seconds until the next try"}}
    return answer


def pages(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The answers of an HTML page route: 200 and every code in ``codes`` (as pages)."""
    return {code: _answer(code, None if code == 303 else _HTML) for code in (200, *codes)}


def api(properties: Mapping[str, Any], *codes: int) -> dict[int | str, dict[str, Any]]:
    """The answers of a JSON route: an object with ``properties`` (all of them present),
    and ``{"error": message}`` for every code in ``codes``."""
    body = {"application/json": {"schema": {
        "type": "object", "required": list(properties), "properties": dict(properties)}}}
    return {200: {"description": "The view", "content": body},
            **{code: _answer(code, _JSON_ERROR) for code in codes}}


def form(fields: Mapping[str, Mapping[str, Any]], required: tuple[str, ...] = (),
         more: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The ``requestBody`` of a route that reads an urlencoded form itself: its ``fields``
    (JSON schemas), the CSRF field every form carries, and the schema of any ``more``
    fields whose names are made from data (``role_<role>``, ``opt_<option>``)."""
    properties = {csrf.FIELD: {"type": "string", "description": "The CSRF token of the page"},
                  **{name: dict(schema) for name, schema in fields.items()}}
    schema: dict[str, Any] = {"type": "object", "properties": properties,
                              "required": [csrf.FIELD, *required],
                              "additionalProperties": dict(more) if more else False}
    return {"requestBody": {"required": True, "content": {
        "application/x-www-form-urlencoded": {"schema": schema}}}}


def uploads(files: str, fields: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The ``requestBody`` of a route that takes files (``files``: the field holding them)
    besides ``fields``: multipart; the same fields urlencoded, without files, are read too
    (and answered with the page's "choose a file")."""
    body = form(fields)
    plain = body["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"]
    multipart = {**plain, "properties": {
        **plain["properties"],
        files: {"type": "array", "items": {"type": "string", "format": "binary"}}}}
    body["requestBody"]["content"]["multipart/form-data"] = {"schema": multipart}
    return body


#: a rule file's long fields: their cap said in words, not as ``maxLength`` (a fuzzer
#: drawing a text past a megabyte exhausts its data; web/bodies.py enforces the cap)
_LONG = "A rule file's text, at most {} characters"


def _with_multipart(body: dict[str, Any]) -> dict[str, Any]:
    """A form body that is read multipart too (the same fields, no file)."""
    content = body["requestBody"]["content"]
    content["multipart/form-data"] = {"schema": content["application/x-www-form-urlencoded"][
        "schema"]}
    return body


def text(limit: int | None = None, **extra: Any) -> dict[str, Any]:
    """A text field (``limit``: the longest the route accepts)."""
    schema: dict[str, Any] = {"type": "string", **extra}
    if limit is not None:
        schema["maxLength"] = limit
    return schema


def choice(*values: str) -> dict[str, Any]:
    return {"type": "string", "enum": list(values)}


def _stream() -> dict[int | str, dict[str, Any]]:
    """A live-update stream (server-sent events), or the 404 page for a wrong link."""
    events = {"text/event-stream": {"schema": {"type": "string"}}}
    return {200: {"description": "Server-sent events: post, phase, notice, change",
                  "content": events}, 404: _answer(404, _HTML)}


def _calendar() -> dict[int | str, dict[str, Any]]:
    """An iCalendar feed, or the 404 page for a wrong game or link."""
    return {200: {"description": "The deadlines as iCalendar",
                  "content": {"text/calendar": {"schema": {"type": "string"}}}},
            404: _answer(404, _HTML)}


def _one_click() -> dict[str, Any]:
    """RFC 8058: a mail client posts ``List-Unsubscribe=One-Click``, without a CSRF token."""
    schema = {"type": "object", "properties": {"List-Unsubscribe": choice("One-Click")}}
    return {"requestBody": {"required": False, "content": {
        "application/x-www-form-urlencoded": {"schema": schema}}}}


# -- the routes -------------------------------------------------------------------------------
_NAME = text(40, minLength=1)
_STR: dict[str, Any] = {"type": "string"}
_OBJECT: dict[str, Any] = {"type": "object"}
_CHOICE: dict[str, Any] = {"type": ["string", "null"]}
_TARGETS: dict[str, Any] = {"type": "array", "items": _STR}
#: a legal command of the player's API view
_COMMAND: dict[str, Any] = {"type": "object", "required": ["action", "targets", "choice"],
                            "properties": {"action": _STR, "targets": _TARGETS,
                                           "choice": _CHOICE}}
_SUBMISSION: dict[str, Any] = {
    "type": "object", "required": ["player", "slot", "action", "targets", "choice"],
    "properties": {"player": _STR, "slot": _STR, "action": _STR, "targets": _TARGETS,
                   "choice": _CHOICE}}
#: ``text``: a post or message of the GM (say, tell) takes 10 000 characters, a reason 2 000
_GM_FIELDS = {"target": text(200), "minutes": text(20), "text": text(10_000),
              "choice": text(100), "phase": text(40),
              # set_deadline's moment; a shortening that ends the stage, confirmed
              "until": text(40), "confirm_end": text(10)}

#: (method, path) → (answers, form body or None)
ROUTES: dict[tuple[str, str], tuple[dict[int | str, dict[str, Any]], dict[str, Any] | None]] = {
    ("GET", "/"): (pages(), None),
    ("GET", "/new"): (pages(403), None),
    ("POST", "/new"): (pages(303, 400, 403), form(
        {"ruleset": choice(*RULESET_IDS), "title": text(200), "seed": text(),
         "locale": text(), "key": text(200)},
        required=("ruleset",), more={"type": "string"})),
    # a game from a rule file (issue 20, routes/gm_rules.py): multipart or urlencoded
    ("POST", "/new/rules"): (pages(400, 403), uploads("rules_file", {
        "rules_text": text(description=_LONG.format(RULE_TEXT_CHARS)), "shipped": text(200),
        "key": text(200)})),
    ("POST", "/new/rules/create"): (pages(303, 400, 403, 409), _with_multipart(form(
        {"rules_data": text(description=_LONG.format(RULE_DATA_CHARS)),
         "rules_sha256": text(64),
         "rules_name": text(200), "form_id": text(12), "form_sig": text(64),
         "title": text(200), "seed": text(), "locale": text(), "key": text(200)},
        more={"type": "string"}))),
    ("GET", "/g/{game_id}"): (pages(404), None),
    ("GET", "/g/{game_id}/signup"): (pages(404), None),
    ("POST", "/g/{game_id}/signup"): (pages(303, 400, 403, 404), form(
        {"name": _NAME, "description": text(200), "timezone": text(64), "locale": text(8),
         "email": text(320)},
        required=("name",))),
    ("GET", "/g/{game_id}/status"): (pages(404), None),
    ("GET", "/g/{game_id}/reveal"): (pages(403, 404), None),
    ("GET", "/p/{token}"): (pages(404), None),
    ("GET", "/p/{token}/thread"): (pages(404), None),
    ("GET", "/p/{token}/thread/entries"): (pages(404), None),
    ("GET", "/g/{game_id}/entries"): (pages(404), None),
    ("POST", "/p/{token}/act"): (pages(303, 400, 403, 404, 409, 429), form(
        {"action": text(40, minLength=1), "option": text(minLength=1), "text": text(4000),
         "first": text(200, minLength=1), "second": text(200, minLength=1),
         "phase": text(40), "from": choice("page", "thread")},
        required=("action",))),
    ("POST", "/p/{token}/post"): (pages(303, 400, 403, 404, 409, 429), form(
        {"text": text(10_000, minLength=1), "phase": text(40)}, required=("text",))),
    ("GET", "/o/{token}"): (pages(404), None),
    ("GET", "/o/{token}/thread"): (pages(404), None),
    ("GET", "/o/{token}/entries"): (pages(404), None),
    ("POST", "/o/{token}/post"): (pages(303, 400, 403, 404, 409, 429), form(
        {"text": text(10_000, minLength=1), "phase": text(40)}, required=("text",))),
    ("GET", "/gm/{token}"): (pages(404), None),
    ("POST", "/gm/{token}/players"): (pages(400, 403, 404), form(
        {"name": _NAME, "description": text(200)}, required=("name",))),
    ("POST", "/gm/{token}/withdraw"): (pages(303, 400, 403, 404), form(
        {"name": _NAME}, required=("name",))),
    ("POST", "/gm/{token}/deal"): (pages(303, 400, 403, 404), form(
        {"mode": choice("preset", "pick", "default"), "preset": text(200)},
        required=("mode",), more={"type": "string"})),
    ("POST", "/gm/{token}/start"): (pages(303, 400, 403, 404), form({})),
    ("POST", "/gm/{token}/act"): (pages(303, 400, 403, 404, 409), form(
        {"action": text(40, minLength=1), **_GM_FIELDS}, required=("action",))),
    ("POST", "/gm/{token}/links"): (pages(400, 403, 404), form(
        {"player": text(200, minLength=1)}, required=("player",))),
    ("POST", "/gm/{token}/revoke"): (pages(303, 400, 403, 404), form(
        {"player": text(200, minLength=1)}, required=("player",))),
    ("POST", "/gm/{token}/observers"): (pages(400, 403, 404), form(
        {"name": text(1000, minLength=1)}, required=("name",))),
    ("POST", "/gm/{token}/observers/link"): (pages(303, 400, 403, 404), form(
        {"name": text(200, minLength=1), "op": choice("new", "revoke")},
        required=("name", "op"))),
    ("POST", "/gm/{token}/votecount"): (pages(400, 403, 404, 409, 413, 415, 422), uploads(
        "pages", {"since": text(100), "deadline": text(100), "aliases": text(5000)})),
    ("POST", "/gm/{token}/votecount/submit"): (pages(400, 403, 404, 409), form(
        {"votes": text(), "seal": text()}, required=("votes", "seal"))),
    ("POST", "/gm/{token}/forum"): (pages(303, 400, 403, 404, 409), form(
        {"url": text(2000, minLength=1), "cookies": text(8000), "headers": text(8000),
         "auto_submit": choice("on"), "review_minutes": text(10)}, required=("url",))),
    ("POST", "/gm/{token}/forum/unlink"): (pages(303, 403, 404), form({})),
    ("POST", "/gm/{token}/forum/count"): (pages(400, 403, 404, 409, 502), form(
        {"aliases": text(5000)})),
    ("GET", "/api/g/{game_id}"): (api(
        {"id": _STR, "view": _OBJECT}, 404), None),
    ("GET", "/api/p/{token}"): (api(
        {"id": _STR, "player": _STR, "view": _OBJECT,
         "legal": {"type": "array", "items": _COMMAND}}, 404), None),
    ("GET", "/api/o/{token}"): (api(
        {"id": _STR, "observer": _STR, "view": _OBJECT}, 404), None),
    ("GET", "/api/gm/{token}"): (api(
        {"id": _STR, "head_seq": {"type": "integer"}, "view": _OBJECT,
         "awaiting": {"type": ["array", "null"], "items": {"type": "array", "items": _STR}},
         "submissions": {"type": "array", "items": _SUBMISSION}}, 404), None),
    # notifications (web/routes/notify.py)
    ("GET", "/email/confirm/{key}"): (pages(), None),
    ("POST", "/email/confirm/{key}"): (pages(400, 403, 404), form({})),
    ("GET", "/email/unsubscribe/{key}"): (pages(404), None),
    ("POST", "/email/unsubscribe/{key}"): (pages(400, 404), _one_click()),
    ("POST", "/g/{game_id}/link"): (pages(303, 400, 403, 404), form({"email": text(320)})),
    ("POST", "/p/{token}/email"): (pages(303, 400, 403, 404), form(
        {"email": text(320), "remove": text(10)})),
    ("POST", "/p/{token}/notify"): (pages(303, 400, 403, 404), form(
        {"mail_on": text(10), "push": text(2000), "push_remove": text(10)},
        more={"type": "string"})),
    ("POST", "/gm/{token}/channels"): (pages(303, 400, 403, 404), form(
        {"url": text(2000), "remove": text(20)})),
    ("POST", "/gm/{token}/reminders"): (pages(303, 400, 403, 404), form({"minutes": text(20)})),
    ("POST", "/gm/{token}/resend"): (pages(303, 400, 403, 404), form({"message": text(20)})),
    ("GET", "/g/{game_id}/calendar.ics"): (_calendar(), None),
    ("GET", "/p/{token}/calendar.ics"): (_calendar(), None),
    ("GET", "/mail/{key}"): (pages(404), None),
    ("GET", "/g/{game_id}/events"): (_stream(), None),
    ("GET", "/p/{token}/events"): (_stream(), None),
    ("GET", "/o/{token}/events"): (_stream(), None),
    ("GET", "/gm/{token}/events"): (_stream(), None),
}


def describe(app: FastAPI) -> dict[str, Any]:
    """The app's OpenAPI schema: FastAPI's, with the answers and form bodies above
    (installed as ``app.openapi``, the way FastAPI's docs extend a schema)."""
    if app.openapi_schema is None:
        schema = get_openapi(title=app.title, version=app.version, routes=app.routes)
        for path, operations in schema.get("paths", {}).items():
            for method, operation in operations.items():
                known = ROUTES.get((method.upper(), path))
                if known is None:
                    continue
                answers, body = known
                if method.upper() == "POST":  # web/bodies.py: any body past its limit
                    answers = {**answers, 413: _answer(413, _HTML)}
                operation["responses"] = {str(code): answer for code, answer in answers.items()}
                if body is not None:
                    operation.update(body)
        app.openapi_schema = schema
    return app.openapi_schema
