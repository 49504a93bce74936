"""Errors of the simulator and the sweep whose message is a localisable text.

A setup that cannot be played, a ``--vary`` spec that cannot be turned into setups, a
cluster that refuses to run: the user reads why in his language (``nightfall simulate
--locale de``). So these errors carry a :class:`~nightfall.engine.text.Text` (English
msgid + parameters), like the engine's ``Rejected``, and the command line renders it
with the catalogs of :mod:`nightfall.i18n`; ``str(error)`` stays the English sentence
for logs and tests.

A parameter may itself be a ``Text`` (an error wrapped with the file or setup it came
from); it is rendered in the same language first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nightfall.engine.text import Text, render


def _identity(msgid: str) -> str:
    return msgid


def render_nested(text: Text, gettext: Callable[[str], str] = _identity) -> str:
    """``text`` rendered through ``gettext``, parameters that are texts rendered first."""
    params = {key: render_nested(value, gettext) if isinstance(value, Text) else value
              for key, value in text.params.items()}
    return render(Text(text.msgid, params), gettext)


class SimError(Exception):
    """Base of the simulator's user-facing errors: ``reason`` is a localisable text."""

    def __init__(self, msgid: str, **params: Any) -> None:
        self.reason = Text(msgid, params)
        super().__init__(msgid)

    def __str__(self) -> str:
        return render_nested(self.reason)

    def localized(self, locale: str) -> str:
        """The message in ``locale`` (``de``, ``en``, ``ru``)."""
        from nightfall.i18n import gettext_for

        return render_nested(self.reason, gettext_for(locale))
