"""``nightfall serve``: the web app with the scheduler (registered in ``nightfall.cli``)."""

from __future__ import annotations

from typing import Annotated

import typer


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", help="Database URL or SQLite file (default: NIGHTFALL_DATABASE_URL or "
                     "nightfall.db).", show_default=False)] = None,
    demo: Annotated[bool, typer.Option(
        "--demo", help="The ready demo game (15 players, Changelings): the one an earlier "
                       "run dealt while it is still running (with new links), else a new "
                       "one; prints the game master's and every player's link.")] = False,
    new_demo: Annotated[bool, typer.Option(
        "--new-demo", help="With --demo: deal a fresh demo game even if one is running."
    )] = False,
    base_url: Annotated[str | None, typer.Option(
        help="How printed links begin (default: http://HOST:PORT).", show_default=False)
    ] = None,
    tick: Annotated[float, typer.Option(help="Seconds between two deadline checks.")] = 5.0,
    workers: Annotated[int, typer.Option(
        min=1, help="Worker processes (uvicorn --workers) on the same port; with more than "
                    "one, use PostgreSQL (docs/hosting.md).")] = 1,
    mail_catcher: Annotated[bool, typer.Option(
        "--mail-catcher", help="Catch every e-mail in an SMTP server inside this process "
                               "and list it on a page (trying things on one machine).")
    ] = False,
    secret_file: Annotated[str | None, typer.Option(
        help="File with the cookie-signing secret, shared by every process of one site "
             "(default: NIGHTFALL_SECRET, else next to the SQLite file or "
             "./.nightfall-secret).", show_default=False)] = None,
) -> None:
    """Start the web app (uvicorn), the deadline scheduler and the delivery worker."""
    from nightfall.web.server import serve as run

    run(host=host, port=port, db=db, demo=demo or new_demo, new_demo=new_demo,
        base_url=base_url, scheduler_interval=tick,
        secret_file=secret_file, workers=workers, mail_catcher=mail_catcher)
