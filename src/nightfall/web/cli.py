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
        "--demo", help="Create the ready demo game (15 players, Changelings) and print the "
                       "game master's and every player's link.")] = False,
    base_url: Annotated[str | None, typer.Option(
        help="How printed links begin (default: http://HOST:PORT).", show_default=False)
    ] = None,
    tick: Annotated[float, typer.Option(help="Seconds between two deadline checks.")] = 5.0,
) -> None:
    """Start the web app (uvicorn) and the deadline scheduler."""
    from nightfall.web.server import serve as run

    run(host=host, port=port, db=db, demo=demo, base_url=base_url, scheduler_interval=tick)
