"""Apprise channels against a real HTTP receiver (``json://``) the test starts: the game's
channels get the public announcements only, a player's own push channel his messages;
URLs are shown masked, never logged, and refused when unknown, forbidden or private."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from sqlalchemy import select

from mailkit import JsonReceiver
from nightfall.engine import Command
from nightfall.notify.contacts import BadContact
from nightfall.store import schema
from notifykit import config, game_with_mail, service, sqlite_url, worker


def test_a_game_channel_gets_the_public_stage_and_announcements(
        tmp_path: Path, receiver: JsonReceiver, caplog: pytest.LogCaptureFixture) -> None:
    notify = config(None)
    svc = service(sqlite_url(tmp_path), notify)
    game_id, _ = game_with_mail(svc, {}, start=False)
    url = receiver.url("secret-hook-token")
    channel = svc.notifications.add_channel(game_id, url)
    assert channel.shown == f"json://127.0.0.1:{receiver.port}/…"
    assert [c.shown for c in svc.notifications.list_channels(game_id)] == [channel.shown]
    svc.start(game_id)
    svc.gm(game_id, "advance")  # day 1's election closes: the leader is announced (C4)
    with caplog.at_level(logging.DEBUG):
        done = worker(svc, notify).drain()
    assert done["sent"] >= 2, done
    texts = [post["title"] + "\n" + post["message"] for post in receiver.posts]
    assert all(post["path"] == "/secret-hook-token" for post in receiver.posts)
    assert any("Tag 1 hat begonnen" in text for text in texts)
    game = svc.load(game_id)
    public = [a for a in game.view(None)["announcements"]]
    assert public, "the election's result is announced"
    for text in texts:  # nothing but public facts: no role of a living player, no notice
        for name, player in game.state.players.items():
            if player.alive:
                assert f"{name} ist Changeling" not in text
        assert "Changelings seid" not in text  # Ann's team notice (C1.7) stays hers
    assert "secret-hook-token" not in caplog.text and url not in caplog.text


def test_a_channel_that_fails_is_retried_then_failed_without_its_secret(
        tmp_path: Path, receiver: JsonReceiver) -> None:
    notify = config(None, max_attempts=2)
    svc = service(sqlite_url(tmp_path), notify)
    game_id, _ = game_with_mail(svc, {}, start=False)
    svc.notifications.add_channel(game_id, receiver.url("another-secret-token"))
    receiver.status = 503
    svc.start(game_id)
    first = worker(svc, notify).drain()
    assert first == {"pending": 1}  # a temporary failure: due again after the backoff
    svc.clock.advance(seconds=5)  # type: ignore[attr-defined]
    second = worker(svc, notify).drain()
    assert second == {"failed": 1}
    [message] = svc.notifications.messages(game_id)
    assert message.status == "failed" and message.attempts == 2
    assert message.error and "503" in message.error
    assert "another-secret-token" not in message.error
    assert len(receiver.posts) == 2 * notify.quick_tries  # each try retried quickly once
    svc.submit(game_id, Command("elect", by="Bob", target="Cid"))  # the game goes on


@pytest.mark.parametrize(("url", "why"), [
    ("nonsense://x/y", "Unknown or unusable channel URL"),
    ("syslog://", "are not allowed here"),
    ("just text", "That is not a channel URL"),
    ("json://127.0.0.1:9/hook", "private network"),
    ("json://localhost/hook", "private network"),
    ("ntfy://10.1.2.3/topic", "private network"),
])
def test_bad_channel_urls_are_refused_and_change_nothing(tmp_path: Path, url: str,
                                                         why: str) -> None:
    notify = config(None, allow_private=False)
    svc = service(sqlite_url(tmp_path), notify)
    game_id, _ = game_with_mail(svc, {}, start=False)
    with pytest.raises(BadContact) as refused:
        svc.notifications.add_channel(game_id, url)
    assert why in refused.value.text.msgid
    assert svc.notifications.list_channels(game_id) == []


def test_a_players_push_channel_gets_his_own_messages(tmp_path: Path,
                                                      receiver: JsonReceiver) -> None:
    notify = config(None)
    svc = service(sqlite_url(tmp_path), notify)
    game_id, _ = game_with_mail(svc, {}, start=False)
    shown = svc.notifications.set_push(game_id, "Ann", receiver.url("ann-topic"))
    assert shown is not None and "ann-topic" not in shown
    svc.start(game_id)
    worker(svc, notify).drain()
    titles = sorted(post["title"] for post in receiver.posts)
    assert titles == ["[Testspiel] Neue private Mitteilung", "[Testspiel] Tag 1 hat begonnen"]
    with svc.engine.connect() as conn:
        players = {r[0] for r in conn.execute(select(schema.outbox.c.player))}
    assert players == {"Ann"}
    receiver.posts.clear()
    svc.notifications.set_push(game_id, "Ann", None)
    svc.gm(game_id, "advance")
    worker(svc, notify).drain()
    assert receiver.posts == []
