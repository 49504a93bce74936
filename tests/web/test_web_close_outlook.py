"""The GM is warned before he closes a stage (issue 18): the dashboard names the next
stage's deadline and how long it leaves, the close button asks with that text, and a
shortening that would end the stage is asked again and changes nothing until confirmed."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

from webkit import Env, Small, csrf_of

LATE = datetime(2024, 3, 1, 20, 52, tzinfo=UTC)  # 21:52 in Berlin, day 1 still open
WARNING = ("Closing day 1 now starts night 1, stage 1, whose deadline is 01.03.2024 22:00 "
           "CET: 8 minutes from now.")


def test_the_dashboard_says_what_closing_now_leaves(env: Env, small: Small) -> None:
    env.clock.set(LATE)
    page = env.client.get(small.g).text
    outlook = re.search(r'<p class="hint outlook short" id="close-outlook">([^<]*)</p>', page)
    assert outlook is not None and html.unescape(outlook.group(1)) == WARNING
    confirm = re.search(r'data-confirm="([^"]*)"><input type="hidden" name="csrf_token"'
                        r'[^>]*><input type="hidden" name="phase" value="day 1"><input '
                        r'type="hidden" name="action" value="advance">', page)
    assert confirm is not None
    assert html.unescape(confirm.group(1)) == WARNING + " Close the phase now?"


def test_a_shortening_that_ends_the_stage_is_asked_again(env: Env, small: Small) -> None:
    svc = env.service
    env.clock.set(LATE)
    head = svc.meta(small.game_id).head_seq
    csrf = csrf_of(env.client, small.g)
    fields = {"csrf_token": csrf, "action": "shorten", "minutes": "20000", "phase": "day 1"}
    response = env.client.post(small.g + "/act", data=fields)
    assert response.status_code == 409
    assert "Shortening by 20000 minutes ends day 1 now." in response.text
    assert WARNING in html.unescape(response.text) and 'id="confirm-shorten-yes"' in response.text
    assert svc.meta(small.game_id).head_seq == head  # nothing changed
    # a shortening that leaves time is done at once
    response = env.client.post(small.g + "/act", data={**fields, "minutes": "60"})
    assert response.status_code == 200 and 'id="confirm-shorten"' not in response.text
    assert svc.load(small.game_id).state.phase_label == "day 1"
    # confirmed, it ends the stage
    env.client.post(small.g + "/act", data={**fields, "confirm_end": "yes"})
    env.clock.advance(seconds=1)
    env.client.get(small.g)
    assert svc.load(small.game_id).state.phase_label == "night 1/1"
