"""Running the web app: uvicorn plus the deadline scheduler, on SQLite by default."""

from __future__ import annotations

import logging
from pathlib import Path

from nightfall.service import GameService, Scheduler
from nightfall.store import database_url
from nightfall.web.app import create_app
from nightfall.web.demo import create_demo, links_text
from nightfall.web.settings import Settings, secret_from_file


def db_url(db: str | None) -> str:
    """``--db`` may be a database URL or the path of a SQLite file."""
    if db and "://" not in db:
        return f"sqlite:///{Path(db).expanduser()}"
    return database_url(db)


def secret_beside(url: str) -> Path:
    """Where the cookie-signing secret is kept: next to a SQLite file, else in the folder."""
    prefix = "sqlite:///"
    if url.startswith(prefix) and url != prefix + ":memory:":
        return Path(url.removeprefix(prefix) + ".secret")
    return Path(".nightfall-secret")


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
          demo: bool = False, base_url: str | None = None,
          scheduler_interval: float = 5.0, secret_file: str | None = None) -> None:
    import uvicorn

    url = db_url(db)
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    base = (base_url or f"http://{shown_host}:{port}").rstrip("/")
    secret_path = Path(secret_file) if secret_file else secret_beside(url)
    settings = Settings(database_url=url, base_url=base,
                        secret_key=secret_from_file(secret_path))
    service = GameService(url=url)
    if demo:
        made = create_demo(service)
        print(links_text(made, base), flush=True)
        print("", flush=True)
    print(f"Nightfall is running at {base}/  (database: {url}; Ctrl+C stops it)", flush=True)
    scheduler = Scheduler(service, interval=scheduler_interval)
    scheduler.start()
    logging.basicConfig(level=logging.INFO)
    try:
        uvicorn.run(create_app(settings, service), host=host, port=port, log_level="warning")
    finally:
        scheduler.stop()
