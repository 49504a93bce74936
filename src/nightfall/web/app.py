"""The application factory: ``create_app(settings)`` wires the service, the middleware
(CSRF cookie, language cookie, flash, security headers), the routes and the error pages."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

from fastapi import Depends, FastAPI, Request, Response
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from nightfall.engine.text import N_
from nightfall.notify.config import NotifyConfig
from nightfall.service import Clock, GameService
from nightfall.service.forum_link import ForumLinks
from nightfall.web import bodies, csrf, forms, limits, openapi
from nightfall.web.i18n import LANG_COOKIE, Translator, page_locale, supported
from nightfall.web.render import compile_templates, page, read_flash
from nightfall.web.routes import (
    api,
    gm,
    gm_forum,
    gm_rules,
    notify,
    observer,
    player,
    public,
    sse,
)
from nightfall.web.security import (
    PRIVATE_HEADERS,
    SECURITY_HEADERS,
    Forbidden,
    NotFound,
)
from nightfall.web.settings import Settings

STATIC = Path(__file__).parent / "static"


def _notify_config(settings: Settings) -> NotifyConfig:
    """The environment's notification settings, links beginning as the app's do."""
    return replace(NotifyConfig.from_env(), base_url=settings.base_url)


async def checked_body(request: Request) -> None:
    """App-wide dependency of every route: the body's checks, in this order, before any
    route reads its form — the announced size (413), UTF-8 text, no field longer than any
    form takes, no NUL character (400). One dependency rather than four: FastAPI solves
    each dependency of each request anew, and a page (a GET) has no body to check."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    await bodies.bounded_body(request)
    await bodies.decodable_form(request)
    await bodies.bounded_fields(request)
    await forms.usable_characters(request)


def create_app(settings: Settings | None = None, service: GameService | None = None,
               clock: Clock | None = None) -> FastAPI:
    settings = settings or Settings()
    compile_templates()
    # the schema is served (``/openapi.json``, see :mod:`nightfall.web.openapi`); no docs UI,
    # since its scripts would come from a CDN that the Content-Security-Policy forbids
    app = FastAPI(title="Nightfall", docs_url=None, redoc_url=None, openapi_url="/openapi.json",
                  dependencies=[Depends(checked_body)])
    app.state.settings = settings
    app.state.service = service or GameService(url=settings.database_url, clock=clock,
                                               notify=_notify_config(settings))
    # the game's forum thread, read at each vote deadline by the scheduler's tick
    app.state.forum = ForumLinks.of(app.state.service)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    for module in (public, player, observer, gm, gm_forum, gm_rules, api, sse, notify):
        app.include_router(module.router)

    @app.middleware("http")
    async def frame(request: Request,
                    call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        cookie_token = csrf.token_of(settings.secret_key, request.cookies.get(csrf.COOKIE))
        new_cookie = None
        if cookie_token is None:
            token, new_cookie = csrf.new_cookie(settings.secret_key)
        else:
            token = cookie_token
        request.state.csrf_token = token
        request.state.csrf_from_cookie = cookie_token
        request.state.flash = read_flash(request)
        response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        path = request.url.path
        if path.startswith(("/p/", "/o/", "/gm/", "/api/")):
            for name, value in PRIVATE_HEADERS.items():
                response.headers.setdefault(name, value)
        if new_cookie is not None:
            response.set_cookie(csrf.COOKIE, new_cookie, path="/", httponly=True,
                                samesite="lax", secure=settings.secure_cookies)
        chosen = supported(request.query_params.get("lang"))
        if chosen is not None and chosen != request.cookies.get(LANG_COOKIE):
            response.set_cookie(LANG_COOKIE, chosen, path="/", samesite="lax",
                                max_age=365 * 24 * 3600, secure=settings.secure_cookies)
        return response

    def describe() -> dict[str, object]:
        return openapi.describe(app)

    app.openapi = describe  # type: ignore[method-assign]

    @app.exception_handler(NotFound)
    async def not_found(request: Request, error: NotFound) -> Response:
        tr = Translator(page_locale(request))
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": tr(error.message)}, status_code=404,
                                headers=PRIVATE_HEADERS)
        return page(request, "error.html", tr, status_code=404, headers=PRIVATE_HEADERS,
                    title=tr(N_("Not found")), message=tr(error.message))

    @app.exception_handler(Forbidden)
    async def forbidden(request: Request, error: Forbidden) -> Response:
        tr = Translator(page_locale(request))
        return page(request, "error.html", tr, status_code=403, headers=PRIVATE_HEADERS,
                    title=tr(N_("Not available")), message=tr(error.message, **error.params))

    @app.exception_handler(csrf.CsrfFailed)
    async def csrf_failed(request: Request, error: csrf.CsrfFailed) -> Response:
        tr = Translator(page_locale(request))
        return page(request, "error.html", tr, status_code=403, headers=PRIVATE_HEADERS,
                    title=tr(N_("Security check failed")), message=tr(error.message),
                    back=request.url.path)

    @app.exception_handler(forms.UnusableCharacters)
    async def unusable(request: Request, error: forms.UnusableCharacters) -> Response:
        tr = Translator(page_locale(request))
        return page(request, "error.html", tr, status_code=400, headers=PRIVATE_HEADERS,
                    title=tr(N_("Not understood")), message=tr(error.message),
                    back=request.url.path)

    @app.exception_handler(bodies.BodyTooLarge)
    async def too_large(request: Request, error: bodies.BodyTooLarge) -> Response:
        game_locale = await run_in_threadpool(bodies.game_locale, request)
        tr = Translator(page_locale(request, game_locale))
        return page(request, "error.html", tr, status_code=413, headers=PRIVATE_HEADERS,
                    title=tr(N_("Too large")), message=tr(error.message, **error.params),
                    back=request.url.path.rsplit("/", 1)[0] if error.upload else
                    request.url.path)

    @app.exception_handler(bodies.Undecodable)
    async def undecodable(request: Request, error: bodies.Undecodable) -> Response:
        tr = Translator(page_locale(request))
        return page(request, "error.html", tr, status_code=400, headers=PRIVATE_HEADERS,
                    title=tr(N_("Not understood")), message=tr(error.message),
                    back=request.url.path)

    @app.exception_handler(bodies.FieldTooLong)
    async def field_too_long(request: Request, error: bodies.FieldTooLong) -> Response:
        tr = Translator(page_locale(request))
        return page(request, "error.html", tr, status_code=400, headers=PRIVATE_HEADERS,
                    title=tr(N_("Not understood")), message=tr(error.message, **error.params),
                    back=request.url.path)

    @app.exception_handler(limits.TooManySubmissions)
    async def too_many(request: Request, error: limits.TooManySubmissions) -> Response:
        tr = Translator(error.locale)
        return page(request, "error.html", tr, status_code=429,
                    headers={**PRIVATE_HEADERS, "Retry-After": str(error.retry_after)},
                    title=tr(error.title), message=tr(error.message, seconds=error.retry_after),
                    back=request.url.path.rsplit("/", 1)[0])

    @app.exception_handler(400)
    async def unreadable_body(request: Request, error: Exception) -> Response:
        """A body Starlette cannot parse (garbled multipart data): the page, not JSON."""
        tr = Translator(page_locale(request))
        return page(request, "error.html", tr, status_code=400, headers=PRIVATE_HEADERS,
                    title=tr(N_("Not understood")),
                    message=tr(N_("The form could not be read. Nothing was changed.")),
                    back=request.url.path)

    @app.exception_handler(404)
    async def unknown_route(request: Request, error: Exception) -> Response:
        tr = Translator(page_locale(request))
        return page(request, "error.html", tr, status_code=404,
                    title=tr(N_("Not found")), message=tr(NotFound.message))

    return app
