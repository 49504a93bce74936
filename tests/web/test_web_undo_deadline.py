"""After an undo the GM is asked for the new deadline and no page claims one that does
not exist (issue 18); an old deadline still ahead is kept."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from nightfall.web.forms import encode
from webkit import START, Env, Small, csrf_of


def _act(env: Env, small: Small, **fields: str) -> str:
    csrf = csrf_of(env.client, small.g)
    response = env.client.post(small.g + "/act", data={"csrf_token": csrf, **fields})
    assert response.status_code == 200, response.text
    return response.text


def test_undo_after_the_old_deadline_asks_the_gm_for_a_new_one(env: Env, small: Small) -> None:
    svc = env.service
    svc.gm(small.game_id, "shorten", minutes=100_000)  # day 1 ends now (C2.6) ...
    env.clock.advance(minutes=1)  # ... and the next page load resolves it
    assert svc.load(small.game_id).state.phase_label == "day 1"
    env.client.get(small.g)
    assert svc.load(small.game_id).state.phase_label == "night 1/1"
    page = _act(env, small, action="undo")
    state = svc.load(small.game_id).state
    assert state.phase_label == "day 1" and state.deadline is None
    assert "The phase has no deadline now: set a new one below" in page
    assert 'id="no-deadline"' in page and 'name="until"' in page
    assert "runs to its deadline" not in page and "Deadline:" not in page
    player = env.client.get(small.p("Ann")).text
    assert "Deadline:" not in player
    assert "No deadline: this phase runs until the game master closes it" in player
    # a player's move no longer promises "until the deadline"
    csrf = csrf_of(env.client, small.p("Ann"))
    saved = env.client.post(small.p("Ann") + "/act", data={
        "csrf_token": csrf, "action": "elect", "option": encode(("Bob",), None),
        "phase": "day 1"}).text
    assert "You can change it until the phase closes." in saved
    assert "until the deadline" not in saved
    # the GM sets it, in the game's zone (Europe/Berlin: 20:00 local is 19:00 UTC)
    page = _act(env, small, action="set_deadline", until="2024-03-01T20:00", phase="day 1")
    assert svc.load(small.game_id).state.deadline == datetime(2024, 3, 1, 19, 0, tzinfo=UTC)
    assert 'id="no-deadline"' not in page and "Deadline:" in page
    assert "set a new deadline for the phase: 01.03.2024 20:00 CET" in page


def test_a_deadline_in_the_past_is_refused_and_changes_nothing(env: Env, small: Small) -> None:
    svc = env.service
    svc.gm(small.game_id, "shorten", minutes=100_000)
    env.clock.advance(minutes=1)
    env.client.get(small.g)
    svc.undo(small.game_id)
    head = svc.meta(small.game_id).head_seq
    csrf = csrf_of(env.client, small.g)
    response = env.client.post(small.g + "/act", data={
        "csrf_token": csrf, "action": "set_deadline", "until": "2024-03-01T12:00",
        "phase": "day 1"})
    assert response.status_code == 400 and "The new deadline must lie ahead" in response.text
    assert svc.meta(small.game_id).head_seq == head


def test_undo_keeps_an_old_deadline_that_still_lies_ahead(env: Env, small: Small) -> None:
    svc = env.service
    old = svc.load(small.game_id).state.deadline
    assert old is not None and old > START
    svc.gm(small.game_id, "advance")  # the GM closes day 1 early
    assert svc.load(small.game_id).state.phase_label == "night 1/1"
    env.clock.advance(minutes=5)
    page = _act(env, small, action="undo")
    state = svc.load(small.game_id).state
    assert state.phase_label == "day 1" and state.deadline == old
    assert "The phase runs until its old deadline, 02.03.2024 19:30 CET." in page
    assert 'id="no-deadline"' not in page
    assert old - START > timedelta(hours=1)
