"""Hidden information is sacred in messages too: every e-mail or push message to a player
holds only what his own view holds, and a channel message only public facts.

Random games (legal commands, deadlines, the GM talking) run; after every move the
messages it causes (``drafts_for``, what the outbox writes) are checked line by line: a
quoted line (a notice, an announcement) must be one of the reader's own notices or a
public announcement, rendered; no other player's notice or GM message appears; a channel
message quotes public announcements only and names no role of a living player."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamekit import GM_TALK, PONY_SPECIALS, TEAM_ROLES, all_commands, make_game, play_at_random
from nightfall.engine import Game
from nightfall.engine.talk import notice_text
from nightfall.engine.text import from_data
from nightfall.notify.compose import Reader
from nightfall.notify.outbox import drafts_for

URL = "http://nightfall.test/g/x"


def reader(locale: str) -> Reader:
    return Reader(locale, None, "Leak test")


def check_messages(game: Game, new: list[object], locale: str) -> None:
    readers = {name: reader(locale) for name in game.state.players}
    public_reader = reader(locale)
    drafts = drafts_for(game, new, readers, public_reader, URL)  # type: ignore[arg-type]
    announced = {public_reader.text(from_data(a["text"]))
                 for a in game.view(None)["announcements"]}
    for player, draft in drafts:
        text = draft.subject + "\n" + draft.text()
        names = set(game.state.players)
        if player is None:
            assert set(draft.quoted) <= announced, draft
            for line in draft.lines:  # its own words name nobody: only quotes may
                assert not any(name in line for name in names), line
            secrets = [reader(locale).text(notice_text(game.ruleset, n))
                       for ns in game.state.notices.values() for n in ns]
            if not game.state.ended:
                for name, person in game.state.players.items():
                    role = reader(locale).term("role", person.role or "")
                    assert not (person.alive and f"{name} ({role})" in text)
            for secret in secrets:
                if secret not in announced:
                    assert secret not in text, (secret, text)
            continue
        view = game.view(player)
        own = {readers[player].text(notice_text(game.ruleset, n))
               for n in (view.get("me") or {}).get("notices") or []}
        assert set(draft.quoted) <= own | announced, (player, draft)
        for line in draft.lines:  # its own words name him alone
            assert not any(name in line for name in names - {player}), (player, line)
        if game.state.ended:
            continue
        for other, notices in game.state.notices.items():
            if other == player:
                continue
            for notice in notices:
                rendered = readers[player].text(notice_text(game.ruleset, notice))
                if rendered not in own and rendered not in announced:
                    assert rendered not in text, (player, other, rendered)
                if notice.get("kind") == "gm_message":
                    assert str(notice["text"]).strip() not in text, (player, other)


@st.composite
def games(draw: st.DrawFn) -> Game:
    size = draw(st.integers(min_value=5, max_value=10))
    team = [draw(st.sampled_from(TEAM_ROLES)) for _ in range(draw(st.integers(1, 2)))]
    specials = draw(st.lists(st.sampled_from(PONY_SPECIALS), min_size=2, max_size=size - 3))
    roles = (team + specials + ["pony"] * size)[:size]
    return make_game(list(draw(st.permutations(roles))), draw(st.integers(0, 2**32)))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), data=st.data(), locale=st.sampled_from(["de", "en", "ru"]))
def test_messages_never_leak(game: Game, data: st.DataObject, locale: str) -> None:
    check_messages(game, list(game.events), locale)  # the start (make_game started it)
    seen = [len(game.events)]

    def after(game: Game, _: bool) -> None:
        new = list(game.events[seen[0]:])
        seen[0] = len(game.events)
        check_messages(game, new, locale)

    play_at_random(game, data, 80, all_commands, after, extra=GM_TALK)


def test_a_private_notice_reaches_only_its_reader() -> None:
    """The check above can fail: Ann's team notice (C1.7) is hers; composed for Bob from
    Ann's view it would be caught."""
    game = make_game(["changeling", "researcher", "pony", "pony", "shield"], seed=4)
    new = list(game.events)
    drafts = drafts_for(game, new, {"P00": reader("en"), "P01": reader("en")}, reader("en"),
                        URL)
    ann = [d for p, d in drafts if p == "P00" and d.kind == "notice"]
    assert ann and not [d for p, d in drafts if p == "P01" and d.kind == "notice"]
    bob_text = "\n".join(d.text() for p, d in drafts if p == "P01")
    assert all(q not in bob_text for d in ann for q in d.quoted)
