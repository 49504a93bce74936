"""Jinja2 templates, the page frame (language switch, CSRF field) and flash messages.

Templates call ``_("…")`` for their texts (extracted by Babel's ``jinja2`` extractor,
see ``babel.cfg``), ``tr.text(…)`` for engine texts and ``tr.term(…)`` for role, item,
action and status names.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from nightfall.engine.text import Text, to_data
from nightfall.i18n import SUPPORTED_LOCALES
from nightfall.web import csrf
from nightfall.web.i18n import LANGUAGE_NAMES, Translator, from_data
from nightfall.web.markup import roleplay
from nightfall.web.pages import VOTE_LINE, VOTE_LINES, VOTE_TITLES, ThreadEntry, tally

TEMPLATES = Path(__file__).parent / "templates"
FLASH_COOKIE = "nf_flash"

#: the templates are part of the package and never change while it runs: compiled once,
#: never looked at again on disk (``auto_reload`` would stat every template, and every
#: template it imports or includes, on every page)
env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                  trim_blocks=True, lstrip_blocks=True, auto_reload=False)
env.filters["roleplay"] = roleplay
env.filters["tally"] = tally
env.globals.update(vote_titles=VOTE_TITLES, vote_lines=VOTE_LINES, vote_line=VOTE_LINE)


def compile_templates() -> None:
    """Compile every template now (the app does at its start), not on the first pages."""
    for name in env.list_templates(extensions=["html"]):
        env.get_template(name)


# -- the thread's entries, rendered once ---------------------------------------------------
#: most entries kept (an entry's HTML is a few hundred bytes)
MAX_ENTRIES = 20_000
_entries: OrderedDict[tuple[Any, ...], Markup] = OrderedDict()
_entries_lock = threading.Lock()


def thread_entry(entry: ThreadEntry, tr: Translator, oob: bool = False) -> Markup:
    """The macro ``thread_entry`` of ``macros.html`` for ``entry`` in ``tr``'s language
    and zone, kept for the next page: every reader of a thread gets the same entries
    (public events only), and an entry stays as it is from head to head but for
    ``latest`` (a later vote replaces it). The key is everything the macro reads, so a
    kept answer is exactly what rendering it again would give."""
    key = (entry.kind, entry.seq, entry.number, entry.latest, entry.phase, entry.player,
           entry.text, entry.message, entry.action, entry.targets, entry.voice, entry.at,
           oob, tr.locale, tr.tz)
    with _entries_lock:
        found = _entries.get(key)
        if found is not None:
            _entries.move_to_end(key)
            return found
    html = Markup(env.get_template("macros.html").module.thread_entry(  # type: ignore[attr-defined]
        entry, tr, tr, VOTE_LINES, VOTE_LINE, oob=oob))
    with _entries_lock:
        _entries[key] = html
        while len(_entries) > MAX_ENTRIES:
            _entries.popitem(last=False)
    return html


env.globals["thread_entry"] = thread_entry


def lang_url(request: Request, locale: str) -> str:
    query = dict(request.query_params)
    query["lang"] = locale
    return request.url.path + "?" + urlencode(query)


def page(request: Request, template: str, tr: Translator, status_code: int = 200,
         headers: dict[str, str] | None = None, **context: Any) -> HTMLResponse:
    """Render ``template`` in the language of ``tr``."""
    flash = getattr(request.state, "flash", None)
    html = env.get_template(template).render(
        request=request, tr=tr, _=tr, locale=tr.locale, flash=flash,
        csrf_field=csrf.FIELD, csrf_token=getattr(request.state, "csrf_token", ""),
        languages=[(code, LANGUAGE_NAMES[code], lang_url(request, code))
                   for code in SUPPORTED_LOCALES],
        **context)
    response = HTMLResponse(html, status_code=status_code, headers=headers)
    if flash is not None:
        response.delete_cookie(FLASH_COOKIE, path="/")
    return response


# -- flash messages (one message carried across a redirect, signed) -----------------------
def _sign(secret: str, value: str) -> str:
    return hmac.new(secret.encode(), b"flash:" + value.encode(), hashlib.sha256).hexdigest()


def redirect(request: Request, url: str, message: Text | None = None,
             kind: str = "ok") -> RedirectResponse:
    """303 to ``url`` (Post/Redirect/Get), with ``message`` shown once on arrival.

    An accepted and a refused move both redirect (a refresh must not resubmit either);
    the header ``X-Nightfall-Result`` (``ok`` or ``error``) tells a program which it was
    without reading the page (the load test's checker does)."""
    response = RedirectResponse(url, status_code=303)
    response.headers["X-Nightfall-Result"] = "error" if kind == "error" else "ok"
    if message is not None:
        value = json.dumps({"kind": kind, "text": to_data(message)}, ensure_ascii=True)
        secret = request.app.state.settings.secret_key
        response.set_cookie(FLASH_COOKIE, f"{value}|{_sign(secret, value)}", path="/",
                            httponly=True, samesite="lax",
                            secure=request.app.state.settings.secure_cookies, max_age=60)
    return response


def read_flash(request: Request) -> dict[str, Any] | None:
    raw = request.cookies.get(FLASH_COOKIE)
    if not raw or "|" not in raw:
        return None
    value, _, signature = raw.rpartition("|")
    if not csrf.same(signature, _sign(request.app.state.settings.secret_key, value)):
        return None
    try:
        data = json.loads(value)
        return {"kind": str(data["kind"]), "text": from_data(data["text"])}
    except (ValueError, KeyError, TypeError):
        return None
