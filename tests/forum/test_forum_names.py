"""Name matching: exact, case, Unicode, spaces/underscores, aliases, unique prefixes —
and reports with suggestions instead of guesses."""

from __future__ import annotations

import pytest

from nightfall.forum.names import Match, NameMatcher, PlayerListError, name_key

PLAYERS = ["Anna Bell", "Bob", "Dan_the_Man", "Dana", "Jörg", "Zoë K", "ÆSIR"]


@pytest.fixture
def matcher() -> NameMatcher:
    return NameMatcher(PLAYERS, {"Bob": ["Bobby", "Robert"]}, others=["Spielleiter", "Bob"])


@pytest.mark.parametrize(
    ("text", "player", "how"),
    [
        ("Bob", "Bob", Match.EXACT),
        ("bob", "Bob", Match.CASE),
        ("BOB", "Bob", Match.CASE),
        ("  Bob!", "Bob", Match.EXACT),
        ("@Bob", "Bob", Match.EXACT),
        ("„Bob“", "Bob", Match.EXACT),
        ("Ｂｏｂ", "Bob", Match.NORMALISED),  # full-width letters (NFKC)
        ("dan the man", "Dan_the_Man", Match.NORMALISED),
        ("Dan  The_Man", "Dan_the_Man", Match.NORMALISED),
        ("anna_bell", "Anna Bell", Match.NORMALISED),
        ("JÖRG", "Jörg", Match.CASE),
        ("Jo\u0308rg", "Jörg", Match.NORMALISED),  # decomposed umlaut
        ("æsir", "ÆSIR", Match.CASE),
        ("Bob\u200b", "Bob", Match.EXACT),  # zero-width space
        ("Robert", "Bob", Match.ALIAS),
        ("bobby", "Bob", Match.ALIAS),
        ("Rob", "Bob", Match.PREFIX),
        ("Zoë", "Zoë K", Match.PREFIX),
        ("zo", "Zoë K", Match.PREFIX),
        ("Dana", "Dana", Match.EXACT),
        ("Dan_t", "Dan_the_Man", Match.PREFIX),
        ("Anna", "Anna Bell", Match.PREFIX),
    ],
)
def test_resolves(matcher: NameMatcher, text: str, player: str, how: Match) -> None:
    result = matcher.resolve(text)
    assert (result.player, result.match) == (player, how)


def test_ambiguous_prefix_lists_the_candidates(matcher: NameMatcher) -> None:
    result = matcher.resolve("Da")
    assert result.player is None and result.match is Match.AMBIGUOUS
    assert result.candidates == ("Dan_the_Man", "Dana")
    assert matcher.resolve("Dan").match is Match.AMBIGUOUS


def test_unknown_names_get_suggestions_never_a_guess(matcher: NameMatcher) -> None:
    result = matcher.resolve("Jorg")
    assert result.player is None and result.match is Match.UNKNOWN
    assert result.candidates == ("Jörg",)
    assert matcher.resolve("Bbo").candidates == ("Bob",)
    assert matcher.resolve("Xavier").candidates == ()
    assert matcher.resolve("").match is Match.UNKNOWN


def test_prefix_needs_two_characters(matcher: NameMatcher) -> None:
    assert matcher.resolve("J").match is Match.UNKNOWN
    assert NameMatcher(PLAYERS, min_prefix=1).resolve("J").player == "Jörg"


def test_known_non_players(matcher: NameMatcher) -> None:
    result = matcher.resolve("spielleiter")
    assert result.match is Match.NOT_A_PLAYER and result.player is None


def test_authors_match_in_full_only(matcher: NameMatcher) -> None:
    assert matcher.resolve_author("dan the man") == "Dan_the_Man"
    assert matcher.resolve_author("Robert") == "Bob"
    assert matcher.resolve_author("Dan") is None
    assert matcher.resolve_author("Spielleiter") is None


def test_inconsistent_player_lists() -> None:
    with pytest.raises(PlayerListError):
        NameMatcher(["Dan Man", "dan_man"])
    with pytest.raises(PlayerListError):
        NameMatcher(["Ann", "Bob"], {"Ann": ["bob"]})
    with pytest.raises(PlayerListError):
        NameMatcher(["Ann"], {"Eve": ["Evie"]})
    with pytest.raises(PlayerListError):
        NameMatcher(["Ann", " "])


def test_name_key() -> None:
    assert name_key("  Dan_the   Man ") == "dan the man"
    assert name_key("Straße") == "strasse"
