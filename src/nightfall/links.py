"""Where the private links point: one base URL for the web app and the command line.

``NIGHTFALL_BASE_URL`` (e.g. ``https://nightfall.example.org``) says how the links that
are printed and shown begin; unset, they point at the local server ``nightfall serve``
starts (``http://127.0.0.1:8000``). The web app's :class:`~nightfall.web.settings.Settings`
and ``nightfall game new/signup/token`` read it here, so a link the CLI prints is the
link the web shows (issue 18: the CLI printed bare tokens).
"""

from __future__ import annotations

import os

BASE_URL_ENV = "NIGHTFALL_BASE_URL"
DEFAULT_BASE_URL = "http://127.0.0.1:8000"


def base_url() -> str:
    """The configured base URL, without a trailing slash."""
    return (os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL).strip().rstrip("/")


def gm_link(token: str, base: str | None = None) -> str:
    """The game master's page of the game whose GM token is ``token``."""
    return f"{base or base_url()}/gm/{token}"


def player_link(token: str, base: str | None = None) -> str:
    """A player's private page."""
    return f"{base or base_url()}/p/{token}"


def signup_link(game_id: str, base: str | None = None) -> str:
    """The public sign-up page of a game."""
    return f"{base or base_url()}/g/{game_id}/signup"
