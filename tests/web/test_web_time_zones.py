"""Times on the pages name their zone (issue 18): a post's time in the thread is in the
reader's zone with the zone named, and the status post's times are said to be the game's."""

from __future__ import annotations

import re

from nightfall.engine import Command
from webkit import ROLES, Env, Small


def test_post_times_name_their_zone(env: Env) -> None:
    svc = env.service
    created = svc.create("changelings", 7, {"early_close": True}, "en", title="Zones")
    tokens = {name: svc.signup(created.id, name, timezone="UTC" if name == "Ann" else None)
              for name in ROLES}
    svc.assign(created.id, ROLES)
    svc.start(created.id)
    svc.submit(created.id, Command("post", by="Ann", text="Morning!"))
    public = env.client.get(f"/g/{created.id}").text  # the game's zone, Europe/Berlin
    times = re.findall(r"<time>([^<]*)</time>", public)
    assert times and all(t.endswith(" CET") for t in times), times
    mine = env.client.get(f"/p/{tokens['Ann']}/thread").text  # Ann reads in UTC
    mine_times = re.findall(r"<time>([^<]*)</time>", mine)
    assert mine_times and all(t.endswith(" UTC") for t in mine_times), mine_times


def test_the_status_post_says_whose_zone_its_times_are_in(env: Env, small: Small) -> None:
    page = env.client.get(f"/g/{small.game_id}/status").text
    assert "Times in this text are in the game&#39;s time zone, Europe/Berlin." in page
