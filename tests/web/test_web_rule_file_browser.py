"""A GM's rule file through real headless Chromium (Playwright) and a real server (issue
20, docs/web.md): uploaded from a file, checked, the game created and played as far as its
first day, with every player's page in the browser showing his own role and no other's;
a broken file pasted into the form shows its problems by key and line and creates
nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_web_browser import (  # the same server and browser set-up as the other tests
    CHROMIUM,
    Person,
    act,
    browser,
    deal_and_start,
    phase_of,
    server,
    sign_up,
)

from rulekit import broken_rules, house_rules

__all__ = ["browser", "server"]  # the fixtures, used by name

if not CHROMIUM.exists():
    pytestmark = pytest.mark.skip(reason="no /usr/bin/chromium (scripts/install_chromium.sh)")


def test_an_uploaded_rule_file_makes_a_game_that_plays_in_the_browser(
        browser: Any, server: str, tmp_path: Path) -> None:
    rules = tmp_path / "house.yaml"
    rules.write_bytes(house_rules("browser-ponies"))
    gm = Person(browser, "GM")
    page = gm.page
    page.goto(f"{server}/new?lang=en")
    form = page.locator("form.rule-file-form")
    form.locator("input[name=rules_file]").set_input_files(str(rules))
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()
    assert "browser-ponies" in page.locator("p.rule-file-ok").inner_text()
    page.fill("input[name=title]", "Browser house rules")
    page.select_option("select[name=locale]", "en")
    page.locator("form.new-game button[type=submit]").click()
    page.wait_for_url("**/gm/**")
    gm.url = page.url.split("?")[0]
    assert "Browser house rules" in page.content()

    names = ["Ann", "Bob", "Cid", "Dee", "Eve"]
    players = sign_up(browser, gm, names, {"Bob": "de"})
    deal_and_start(gm, {"pony": 3, "changeling": 1, "researcher": 1})
    assert phase_of(gm) == "day 1"
    roles = {name: str(p.go().locator("#role").get_attribute("data-role"))
             for name, p in players.items()}
    assert sorted(roles.values()) == ["changeling", "pony", "pony", "pony", "researcher"]
    assert "Deine Rolle" in players["Bob"].go().content()  # the file's German texts
    for name, person in players.items():
        html = person.go().content()
        for other, role in roles.items():
            if other != name and role != roles[name]:
                assert f'data-role="{role}"' not in html, (name, other)
    # the day's vote through the thread's form, seen by another player
    act(players["Ann"], "elect", "Cid", "/thread")
    assert "Ann votes for Cid as leader." in players["Dee"].go("/thread").content()
    # the status page shows the file's own status post (``status_post:``, C16.1)
    gm.go().locator("a", has_text="Status post").first.click()
    gm.page.wait_for_load_state()
    post = gm.page.locator("#status-text").inner_text()
    assert "First day phase and leader election... running" in post
    # nobody has left: each name with his own description only, by name
    assert post.splitlines()[-5:] == [f"{name}: {name}, a test pony" for name in names]
    for person in (gm, *players.values()):
        person.context.close()


def test_a_broken_rule_file_shows_its_problems_by_key_and_line(browser: Any,
                                                               server: str) -> None:
    data, line = broken_rules("browser-broken")
    gm = Person(browser, "GM")
    page = gm.page
    page.goto(f"{server}/new?lang=de")
    form = page.locator("form.rule-file-form")
    # pasted at once (typing 50 kB through fill() took longer than the timeout under load)
    form.locator("textarea[name=rules_text]").evaluate("(area, text) => { area.value = text; }",
                                                       data.decode())
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()
    listed = page.locator("ul.rule-problems li").all_inner_texts()
    # the checker's message in the GM's language too (rulefile/messages.py)
    assert f"roles.pony.faction (Zeile {line}): unbekannte Seite 'poneys'" in listed
    assert "nichts wurde angelegt" in page.locator(".rule-errors").inner_text()
    assert page.locator("input[name=rules_data]").count() == 0
    # the pasted file is still there to correct
    assert page.locator("textarea[name=rules_text]").input_value().startswith("# Changelings")
    gm.context.close()
