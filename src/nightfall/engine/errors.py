"""The engine's exception hierarchy (modelled on python-chess's ``IllegalMoveError``)."""

from __future__ import annotations

from typing import Any

from nightfall.engine.text import Text


class NightfallError(Exception):
    """Base class of every error the engine raises on purpose."""


class Rejected(NightfallError, ValueError):
    """A command the rules do not allow now. The game state is unchanged.

    ``reason`` is a localisable :class:`Text`; ``str(error)`` gives the English text.
    """

    def __init__(self, msgid: str, **params: Any) -> None:
        self.reason = Text(msgid, params)
        super().__init__(msgid)

    def __str__(self) -> str:
        # rendered on demand: legal-command listing rejects many candidates silently
        return _english(self.reason)


class SetupError(NightfallError, ValueError):
    """A game could not be set up as asked (unknown role, too few players, ...)."""

    def __init__(self, msgid: str, **params: Any) -> None:
        self.reason = Text(msgid, params)
        super().__init__(_english(self.reason))


def _english(text: Text) -> str:
    from nightfall.engine.text import render

    return render(text)
