"""Matching what a post says to the players of the game — never by guessing.

A text names a player when it is, in this order: the name or an alias exactly; the same
ignoring case; the same after Unicode normalisation (NFKC, case folding, spaces and
underscores alike, surrounding punctuation dropped); or a unique prefix of one player's
normalised name or alias. A prefix shared by several players is ``ambiguous``; anything
else is ``unknown`` and comes with the nearest names (``difflib``) as suggestions for the
GM.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from nightfall.engine.text import N_, Text

_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_SEPARATORS = re.compile(r"[\s_]+")
_EDGE_PUNCTUATION = "\"'`´«»„“”‚‘’()[]{}<>.,;:!?¡¿*~|/\\-–—…"


def name_key(text: str) -> str:
    """The normalised form of a name: NFKC, case-folded, spaces and underscores alike."""
    normal = unicodedata.normalize("NFKC", text).translate(_INVISIBLE).casefold()
    normal = unicodedata.normalize("NFKC", normal)
    return _SEPARATORS.sub(" ", normal).strip()


def clean_mention(text: str) -> str:
    """``text`` without surrounding whitespace, punctuation and a leading ``@``."""
    cleaned = " ".join(text.translate(_INVISIBLE).split())
    cleaned = cleaned.strip(_EDGE_PUNCTUATION + " ")
    return cleaned.removeprefix("@").strip(_EDGE_PUNCTUATION + " ")


class Match(StrEnum):
    """How a text was matched to a player (or why it was not)."""

    EXACT = "exact"
    CASE = "case"
    NORMALISED = "normalised"
    ALIAS = "alias"
    PREFIX = "prefix"
    NOT_A_PLAYER = "not_a_player"
    """The text names someone known not to be a player (e.g. another poster)."""
    AMBIGUOUS = "ambiguous"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Resolution:
    """The outcome of matching one text."""

    text: str
    match: Match
    player: str | None = None
    candidates: tuple[str, ...] = ()

    @property
    def resolved(self) -> bool:
        return self.player is not None


class PlayerListError(ValueError):
    """The player list or an alias is inconsistent (two players with one name ...).

    The GM reads why in the language of his command (``nightfall votecount --locale``), so
    the error carries ``reason``, an English msgid with parameters; ``str(error)`` is the
    English sentence."""

    def __init__(self, msgid: str, **params: str) -> None:
        self.reason = Text(msgid, params)
        super().__init__(msgid.format(**params))


class NameMatcher:
    """Resolves texts to players; see the module docstring for the rules."""

    def __init__(
        self,
        players: Sequence[str],
        aliases: Mapping[str, Iterable[str]] | None = None,
        *,
        others: Iterable[str] = (),
        min_prefix: int = 2,
    ) -> None:
        self.players: tuple[str, ...] = tuple(players)
        self.min_prefix = min_prefix
        self._exact: dict[str, tuple[str, Match]] = {}
        self._case: dict[str, str] = {}
        self._keys: dict[str, str] = {}
        for player in self.players:
            if not player.strip():
                raise PlayerListError(N_("empty player name"))
            key = name_key(player)
            if key in self._keys:
                raise PlayerListError(N_("players {first} and {second} have the same name"),
                                      first=repr(self._keys[key]), second=repr(player))
            self._exact[player] = (player, Match.EXACT)
            self._case[player.casefold()] = player
            self._keys[key] = player
        for player, spellings in (aliases or {}).items():
            owner = self._keys.get(name_key(player))
            if owner is None:
                raise PlayerListError(N_("alias for unknown player {name}"), name=repr(player))
            for alias in spellings:
                key = name_key(alias)
                if not key:
                    continue
                if key in self._keys and self._keys[key] != owner:
                    raise PlayerListError(
                        N_("alias {alias} of {owner} is the name of {other}"),
                        alias=repr(alias), owner=repr(owner), other=repr(self._keys[key]))
                self._keys[key] = owner
                self._exact.setdefault(alias, (owner, Match.ALIAS))
        self._others = {
            name_key(other): other for other in others if name_key(other) not in self._keys
        }

    def resolve(self, text: str) -> Resolution:
        """Match the text of a vote to a player."""
        cleaned = clean_mention(text)
        if cleaned in self._exact:
            player, how = self._exact[cleaned]
            return Resolution(cleaned, how, player)
        if cleaned.casefold() in self._case:
            return Resolution(cleaned, Match.CASE, self._case[cleaned.casefold()])
        key = name_key(cleaned)
        if not key:
            return Resolution(cleaned, Match.UNKNOWN)
        if key in self._keys:
            player = self._keys[key]
            how = Match.NORMALISED if name_key(player) == key else Match.ALIAS
            return Resolution(cleaned, how, player)
        if key in self._others:
            return Resolution(cleaned, Match.NOT_A_PLAYER, candidates=(self._others[key],))
        if len(key) >= self.min_prefix:
            owners = self._ordered({p for k, p in self._keys.items() if k.startswith(key)})
            if len(owners) == 1:
                return Resolution(cleaned, Match.PREFIX, owners[0])
            if owners:
                return Resolution(cleaned, Match.AMBIGUOUS, candidates=owners)
        return Resolution(cleaned, Match.UNKNOWN, candidates=self.suggest(key))

    def resolve_author(self, author: str) -> str | None:
        """The player who wrote as ``author`` (no prefixes: a poster is named in full)."""
        if author in self._exact:
            return self._exact[author][0]
        return self._keys.get(name_key(author))

    def suggest(self, key: str, count: int = 3) -> tuple[str, ...]:
        """The players whose names or aliases are nearest to the normalised ``key``."""
        close = difflib.get_close_matches(key, list(self._keys), n=count * 2, cutoff=0.6)
        owners: list[str] = []
        for match in close:
            owner = self._keys[match]
            if owner not in owners:
                owners.append(owner)
        return tuple(owners[:count])

    def _ordered(self, players: set[str]) -> tuple[str, ...]:
        return tuple(p for p in self.players if p in players)
