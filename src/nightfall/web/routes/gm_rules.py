"""A new game played by a rule file (issue 20, docs/web.md, docs/rules-format.md).

Two steps, as a GM thinks of it: on ``/new`` he uploads a file, pastes its YAML or picks
one shipped with Nightfall, and ``POST /new/rules`` checks it with the checker of
``nightfall rules check`` — every problem listed as "key (line N): message", nothing
stored. A valid file leads to the create form with the file's own options; the checked
bytes ride along in that form (base64, so no browser rewrites a line ending) with their
hash and a signature over (form id, hash) under the site's secret.

``POST /new/rules/create`` then stores the game and the file in one transaction
(``GameService.create_from_rules``, which checks the file again). A form whose bytes are
not the ones checked (changed in between) is refused with a clear message; so is a form
sent twice: the form id is the new game's id, so its second sending finds the game there
and creates nothing (no second game, no half-created one).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from nightfall.engine import Rejected, SetupError
from nightfall.engine.text import N_, Text
from nightfall.i18n import SUPPORTED_LOCALES
from nightfall.service import GameIdTaken, RulesRefused
from nightfall.service.rules import (
    RULE_FILE_LIMIT,
    RulesCheck,
    RulesProblem,
    shipped_file,
)
from nightfall.web import csrf
from nightfall.web.bodies import RULE_TEXT_CHARS, clip
from nightfall.web.i18n import Translator, supported
from nightfall.web.render import page, redirect
from nightfall.web.routes.common import service, translator
from nightfall.web.routes.gm import _creation_refused, _new_page, parse_options
from nightfall.web.routes.public import COMMON_ZONES

router = APIRouter()
_FORM_ID = 12  # hex characters: a game id as ``EventStore.create_game`` makes them


def problem_lines(tr: Translator, problems: Sequence[RulesProblem]) -> list[str]:
    """Each problem as the GM reads it: "key (line N): message" in his language."""
    lines = []
    for problem in problems:
        message = tr.text(problem.message)
        if problem.line:
            lines.append(tr(N_("{key} (line {line}): {message}"), key=problem.key,
                            line=problem.line, message=message))
        else:
            lines.append(tr(N_("{key}: {message}"), key=problem.key, message=message))
    return lines


def _signature(request: Request, form_id: str, sha256: str) -> str:
    secret = request.app.state.settings.secret_key
    return hmac.new(secret.encode(), f"rules:{form_id}:{sha256}".encode(),
                    hashlib.sha256).hexdigest()


def _refused_upload(request: Request, tr: Translator, key: str, error: Text | None,
                    problems: Sequence[RulesProblem] = (), text: str = "",
                    status_code: int = 400) -> Response:
    """``/new`` again with the rule file's problems (and the pasted text, to correct)."""
    return _new_page(request, tr, "", None, {}, status_code, key,
                     rules_error=error, rules_problems=problem_lines(tr, problems),
                     rules_text=clip(text, RULE_TEXT_CHARS))


async def _read_upload(form: Any) -> tuple[bytes | None, str, str, Text | None]:
    """(bytes, name, pasted text, refusal) of the check form: a file, a pasted text or a
    shipped file's name, exactly one of them."""
    upload = form.get("rules_file")
    pasted = form.get("rules_text")
    pasted = pasted if isinstance(pasted, str) else ""
    shipped_name = str(form.get("shipped") or "")
    file_data = b""
    name = ""
    if isinstance(upload, UploadFile) and upload.filename:
        file_data = await upload.read(RULE_FILE_LIMIT + 1)
        name = clip(upload.filename, 200)
    given = [bool(file_data or name), bool(pasted.strip()), bool(shipped_name)]
    if sum(given) == 0:
        return None, "", pasted, Text(N_("Upload a rule file, paste one or choose a shipped "
                                         "one."))
    if sum(given) > 1:
        return None, "", pasted, Text(N_("Give one rule file: upload it, paste it or choose "
                                         "a shipped one, not two at once."))
    if given[0]:
        return file_data, name, pasted, None
    if given[1]:
        return pasted.encode("utf-8"), "pasted", pasted, None
    shipped = shipped_file(shipped_name)
    if shipped is None:
        return None, "", pasted, Text(N_("Unknown shipped rule file {name}."),
                                      {"name": clip(shipped_name, 100)})
    return shipped.path.read_bytes(), shipped.name, pasted, None


@router.post("/new/rules", dependencies=[Depends(csrf.verify)])
async def check_rule_file(request: Request) -> Response:
    """Check a rule file; valid: the create form with its options; else its problems."""
    form = await request.form()
    tr = translator(request)
    refused = _creation_refused(request, tr, form.get("key"))
    if refused is not None:
        return refused
    key = str(form.get("key") or "")
    data, name, pasted, error = await _read_upload(form)
    if data is None:
        return _refused_upload(request, tr, key, error, text=pasted)
    check: RulesCheck = await run_in_threadpool(service(request).check_rules, data, name)
    if check.rules is None:
        return _refused_upload(request, tr, key, Text(N_(
            "The rule file {name} has {count} error(s); nothing was created."),
            {"name": name, "count": len(check.problems)}), check.problems, pasted)
    form_id = secrets.token_hex(_FORM_ID // 2)
    return _create_page(request, tr, check, data, form_id, key)


def _create_page(request: Request, tr: Translator, check: RulesCheck, data: bytes,
                 form_id: str, key: str, error: Text | None = None,
                 values: dict[str, Any] | None = None, status_code: int = 200) -> Response:
    rules = check.rules
    assert rules is not None
    options = rules.choosable_options()
    file = rules.file
    languages = [code for code in file.languages if code in SUPPORTED_LOCALES]
    return page(request, "new_game_rules.html", tr, status_code=status_code, error=error,
                rules=rules, name=check.name, sha256=check.sha256,
                summary=tr(N_("{roles} roles, {abilities} abilities, {stages} stages, "
                              "{steps} steps"), roles=len(file.roles),
                           abilities=len(file.abilities), stages=len(file.schedule.stages),
                           steps=len(file.steps)),
                rules_data=base64.b64encode(data).decode("ascii"), form_id=form_id,
                form_sig=_signature(request, form_id, check.sha256), creation_key=clip(key, 200),
                options=options, option_titles=rules.option_titles, values=values or {},
                locales=SUPPORTED_LOCALES, zones=COMMON_ZONES,
                default_locale=languages[0] if languages else tr.locale)


@router.post("/new/rules/create", dependencies=[Depends(csrf.verify)])
async def create_from_rule_file(request: Request) -> Response:
    """Create the game of a checked rule file (see the module's docstring)."""
    form = await request.form()
    tr = translator(request)
    refused = _creation_refused(request, tr, form.get("key"))
    if refused is not None:
        return refused
    key = str(form.get("key") or "")
    stale = Text(N_("The rule file is not the one that was checked: it changed since. "
                    "Nothing was created: check the rule file again."))
    try:
        data = base64.b64decode(str(form.get("rules_data") or ""), validate=True)
    except (binascii.Error, ValueError):
        return _refused_upload(request, tr, key, stale)
    sha256 = hashlib.sha256(data).hexdigest()
    form_id = str(form.get("form_id") or "")
    signature = str(form.get("form_sig") or "")
    if (len(form_id) != _FORM_ID or not all(c in "0123456789abcdef" for c in form_id)
            or not csrf.same(signature, _signature(request, form_id, sha256))
            or not csrf.same(str(form.get("rules_sha256") or ""), sha256)):
        return _refused_upload(request, tr, key, stale)
    name = clip(str(form.get("rules_name") or "rules"), 200)
    svc = service(request)
    values = {k[:100]: clip(v, 200) for k, v in form.items()
              if isinstance(v, str) and k not in (csrf.FIELD, "rules_data")}
    title = str(form.get("title") or "").strip()
    seed_raw = str(form.get("seed") or "").strip()
    check: RulesCheck | None = None
    try:
        if len(title) > 200:
            raise SetupError(N_("The title has at most {limit} characters."), limit=200)
        locale = supported(str(form.get("locale") or "")) or None
        if form.get("locale") and locale is None:
            raise SetupError(N_("Unknown language {locale}."),
                             locale=clip(str(form.get("locale")), 20))
        try:
            seed = int(seed_raw) if seed_raw else secrets.randbelow(1_000_000)
        except ValueError:
            raise SetupError(N_("The seed must be a whole number.")) from None
        check = await run_in_threadpool(svc.check_rules, data, name)
        if check.rules is None:
            raise RulesRefused(check)
        defaults = check.rules.choosable_options()
        options = parse_options(defaults, form)
        created = await run_in_threadpool(svc.create_from_rules, data, seed, options, locale,
                                          title, form_id, name)
    except RulesRefused as refusal:  # another site's file now claims a title (a race)
        return _refused_upload(request, tr, key, Text(N_(
            "The rule file {name} has {count} error(s); nothing was created."),
            {"name": name, "count": len(refusal.check.problems)}), refusal.check.problems)
    except GameIdTaken:
        return page(request, "error.html", tr, status_code=409,
                    title=tr(N_("Already created")), message=tr(N_(
                        "This form has already created its game (was it sent twice?). Its "
                        "game-master link was shown then; nothing more was created. For "
                        "another game, check the rule file again.")), back="/new")
    except (SetupError, Rejected) as error:
        if check is None or check.rules is None:
            check = await run_in_threadpool(svc.check_rules, data, name)
        if check.rules is None:
            return _refused_upload(request, tr, key, error.reason)
        return _create_page(request, tr, check, data, form_id, key, error.reason, values, 400)
    return redirect(request, f"/gm/{created.gm_token}", Text(N_(
        "The game is created. This page is your game-master link: bookmark it and show it "
        "to nobody.")))
