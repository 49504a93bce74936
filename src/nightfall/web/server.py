"""Running the web app: uvicorn plus the deadline scheduler, on SQLite by default.

``build_app`` adds to the application what a running server needs besides its routes:
the deadline scheduler and, on PostgreSQL, the live-update listener (``web/live.py``),
both started and stopped with the app. Every process runs both, so a host may run several
processes on one PostgreSQL database — ``--workers N`` (uvicorn starts N copies of the app
through the factory ``app_from_env``, which reads its settings from the environment) or
separate ``nightfall serve`` processes on other ports behind a proxy (docs/hosting.md).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

from fastapi import FastAPI
from sqlalchemy.engine import make_url

from nightfall.links import BASE_URL_ENV
from nightfall.notify.catcher import MailCatcher
from nightfall.notify.config import NotifyConfig, parse_smtp_url
from nightfall.notify.worker import DeliveryWorker
from nightfall.service import GameService, Scheduler
from nightfall.store import database_url
from nightfall.web.app import create_app
from nightfall.web.demo import ensure_demo, links_text
from nightfall.web.live import LiveHub, is_postgres
from nightfall.web.settings import Settings, secret_from_file

#: what ``serve`` hands to the worker processes of ``--workers N`` (see ``app_from_env``)
ENV_DATABASE, ENV_SECRET, ENV_BASE = ("NIGHTFALL_DATABASE_URL", "NIGHTFALL_SECRET",
                                      "NIGHTFALL_BASE_URL")
ENV_TICK = "NIGHTFALL_TICK"
#: seconds an open live-update stream may keep a stopping server waiting
GRACEFUL_SHUTDOWN = 5


def db_url(db: str | None) -> str:
    """``--db``: a database URL or the path of a SQLite file (:func:`database_url`)."""
    return database_url(db)


def secret_beside(url: str) -> Path:
    """Where the cookie-signing secret is kept: next to a SQLite file, else in the folder."""
    prefix = "sqlite:///"
    if url.startswith(prefix) and url != prefix + ":memory:":
        return Path(url.removeprefix(prefix) + ".secret")
    return Path(".nightfall-secret")


def build_app(settings: Settings, service: GameService | None = None,
              scheduler_interval: float = 5.0, catcher: MailCatcher | None = None) -> FastAPI:
    """The application with its scheduler, its delivery worker (the outbox, see
    ``nightfall.notify``) and (PostgreSQL) live-update listener, which start when the
    server starts the app and stop when it stops it. With a mail ``catcher`` the app shows
    what it caught at ``/mail/<key>``."""
    app = create_app(settings, service)
    url = database_url(settings.database_url)
    if catcher is not None:
        app.state.mail_catcher = catcher
        app.state.mail_catcher_key = secrets.token_urlsafe(12)

    @asynccontextmanager
    async def running(app: FastAPI) -> AsyncIterator[None]:
        live = (LiveHub(url, tokens=app.state.service.store.tokens)
                if is_postgres(url) else None)
        if live is not None:
            await live.start()
            app.state.live = live
        scheduler = Scheduler(app.state.service, interval=scheduler_interval)
        scheduler.start()
        svc = app.state.service
        delivery = DeliveryWorker(svc.engine, svc.notifier.config, clock=svc.clock)
        delivery.start()
        try:
            yield
        finally:
            await asyncio.to_thread(scheduler.stop)  # lets a tick in progress commit
            await asyncio.to_thread(delivery.stop)
            if live is not None:
                await live.stop()

    # create_app builds the routes; the running parts belong to a served app only (the
    # TestClient tests use create_app without them)
    app.router.lifespan_context = running
    return app


def app_from_env() -> FastAPI:
    """The factory uvicorn calls in each worker process (``--workers N``): the settings
    come from the environment that ``serve`` prepared."""
    settings = Settings(database_url=os.environ.get(ENV_DATABASE))
    app = build_app(settings, scheduler_interval=float(os.environ.get(ENV_TICK, "5")))
    logging.basicConfig(level=logging.INFO)
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
          demo: bool = False, base_url: str | None = None, new_demo: bool = False,
          scheduler_interval: float = 5.0, secret_file: str | None = None,
          workers: int = 1, mail_catcher: bool = False) -> None:
    import uvicorn

    url = db_url(db)
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    # --base-url, else NIGHTFALL_BASE_URL (the CLI's links use it too), else this server
    base = (base_url or os.environ.get(BASE_URL_ENV) or f"http://{shown_host}:{port}"
            ).rstrip("/")
    secret_path = Path(secret_file) if secret_file else secret_beside(url)
    secret = os.environ.get(ENV_SECRET) or secret_from_file(secret_path)
    settings = Settings(database_url=url, base_url=base, secret_key=secret)
    notify = replace(NotifyConfig.from_env(), base_url=base)
    catcher = None
    if mail_catcher:
        if workers > 1:
            raise SystemExit("--mail-catcher runs in one process: leave out --workers")
        catcher = MailCatcher()
        catcher.start()
        notify = replace(notify, smtp=parse_smtp_url(catcher.url))
    # creates or upgrades the schema once, before workers
    service = GameService(url=url, notify=notify)
    if demo:
        made = ensure_demo(service, fresh=new_demo)
        print(links_text(made, base), flush=True)
        print("", flush=True)
    shown_url = make_url(url).render_as_string(hide_password=True)
    print(f"Nightfall is running at {base}/  (database: {shown_url}; Ctrl+C stops it)",
          flush=True)
    logging.basicConfig(level=logging.INFO)
    if workers > 1:
        service.engine.dispose()
        os.environ.update({ENV_DATABASE: url, ENV_SECRET: secret, ENV_BASE: base,
                           ENV_TICK: str(scheduler_interval)})
        uvicorn.run("nightfall.web.server:app_from_env", factory=True, workers=workers,
                    host=host, port=port, log_level="warning",
                    timeout_graceful_shutdown=GRACEFUL_SHUTDOWN)
        return
    app = build_app(settings, service, scheduler_interval, catcher)
    if catcher is not None:
        print(f"Mail catcher: {catcher.url}; what it caught: "
              f"{base}/mail/{app.state.mail_catcher_key}", flush=True)
    elif notify.smtp is None:
        print("No mail server (NIGHTFALL_SMTP_URL): e-mails wait in the outbox "
              "(--mail-catcher catches them here).", flush=True)
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning",
                    timeout_graceful_shutdown=GRACEFUL_SHUTDOWN)
    finally:
        if catcher is not None:
            catcher.stop()
