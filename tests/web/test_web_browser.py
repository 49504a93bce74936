"""Complete games in a real browser (headless Chromium, Playwright): one browser context
per player and one for the game master, through the real pages of a real server
(uvicorn on a free port, SQLite in a temporary file). Takes screenshots of the main
pages; with ``NIGHTFALL_UPDATE_SCREENSHOTS=1`` they replace docs/screenshots/ (shown in
docs/web.md), otherwise they go to a temporary folder so a test run leaves the tree clean."""

from __future__ import annotations

import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
DOC_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SHOTS = (DOC_SHOTS if os.environ.get("NIGHTFALL_UPDATE_SCREENSHOTS") == "1"
         else Path(tempfile.mkdtemp(prefix="nightfall-shots-")))
# bounded waits, not timing: a shared CI machine at load 10+ took more than 15 s to
# create a game from a rule file (its short bot run) and to answer the click
TIMEOUT = 45_000

if not CHROMIUM.exists():
    if os.environ.get("CI"):
        pytest.fail("/usr/bin/chromium is missing in CI (scripts/install_chromium.sh)",
                    pytrace=False)
    pytestmark = pytest.mark.skip(reason="no /usr/bin/chromium (scripts/install_chromium.sh)")


def quiet_zone() -> str:
    """A time zone in which it is about five in the morning now. The server's scheduler
    fires deadlines by the real clock (I6.1's 13:00 and 21:00, C2.3's 19:30, 20:00 and
    22:00, in the rule sets' own zones), so a game created in the rule set's zone could
    have a stage closed by its deadline in the middle of a test run that crosses it: a
    run at 13:00 Moscow time saw "day 3/1" where the test had closed only one stage. Its
    games run in this zone instead, every deadline hours away. (``Etc/GMT-3`` is UTC+3.)"""
    offset = (5 - time.gmtime().tm_hour) % 24
    if offset > 14:
        offset -= 24
    return "Etc/GMT" + ("-" if offset > 0 else "+") + str(abs(offset))


def new_game(page: Any, server: str, ruleset: str, title: str) -> str:
    """Open the new-game form of ``ruleset`` and fill its title, its language and a
    time zone far from every deadline (:func:`quiet_zone`); returns that zone."""
    zone = quiet_zone()
    page.goto(f"{server}/new?ruleset={ruleset}&lang=en")
    page.fill("input[name=title]", title)
    page.select_option("select[name=locale]", "en")
    page.fill("input[name=opt_timezone]", zone)
    return zone


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    import uvicorn

    from nightfall.web import Settings, create_app

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db = tmp_path_factory.mktemp("web") / "browser.db"
    app = create_app(Settings(database_url=f"sqlite:///{db}", secret_key="browser-tests",
                              base_url=base, sse_interval=0.25, sse_max_seconds=60))
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            timeout_graceful_shutdown=1)
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield base
    instance.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


class Person:
    """One browser context: a player or the game master."""

    def __init__(self, browser: Any, name: str) -> None:
        self.name = name
        self.context = browser.new_context(viewport={"width": 1100, "height": 900},
                                           locale="en-GB", timezone_id="Europe/Berlin")
        self.context.set_default_timeout(TIMEOUT)
        self.page = self.context.new_page()
        self.url = ""

    def go(self, path: str = "") -> Any:
        self.page.goto(self.url + path)
        return self.page

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def act(person: Person, action: str, label: str | None = None, path: str = "") -> None:
    """Submit the form of ``action`` on the player's page (choosing ``label``)."""
    page = person.go(path)
    form = page.locator(f'form[data-action="{action}"]')
    if label is not None:
        form.locator("select").select_option(label=label)
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator("#error").count() == 0, page.locator("#error").inner_text()


def gm_close(gm: Person) -> None:
    """Close the phase, accepting the confirmation that names the next deadline."""
    page = gm.go()
    asked: list[str] = []

    def accept(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    page.locator("#close-now").click()
    page.wait_for_load_state()
    assert asked, "closing the phase was not confirmed"
    assert page.locator("#error").count() == 0, page.locator("#error").inner_text()


def phase_of(person: Person) -> str:
    return str(person.go().locator("[data-phase]").first.get_attribute("data-phase"))


def sign_up(browser: Any, gm: Person, names: list[str], languages: dict[str, str]
            ) -> dict[str, Person]:
    signup_url = gm.go().locator("#signup-link").input_value()
    players = {}
    for name in names:
        person = Person(browser, name)
        page = person.page
        page.goto(signup_url)
        page.fill("input[name=name]", name)
        page.fill("input[name=description]", f"{name}, a test pony")
        page.select_option("select[name=locale]", languages.get(name, "en"))
        page.locator("form.signup button[type=submit]").click()
        page.wait_for_url("**/p/**")
        person.url = page.url.split("#")[0]
        players[name] = person
    return players


def deal_and_start(gm: Person, roles: dict[str, int]) -> None:
    page = gm.go()
    page.check("input[name=mode][value=pick]")
    for field in page.locator("input[name^=role_]").all():
        role = str(field.get_attribute("name")).removeprefix("role_")
        field.fill(str(roles.get(role, 0)))
    page.locator("form.deal button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator("#error").count() == 0, page.locator("#error").inner_text()
    page.locator("#setup button[type=submit]").click()
    page.wait_for_load_state()


def post(person: Person, text: str) -> None:
    page = person.go("/thread")
    page.fill("#post-text", text)
    page.locator("form.post-form button[type=submit]").click()
    page.wait_for_load_state()


def test_a_complete_changelings_game(browser: Any, server: str) -> None:
    gm = Person(browser, "GM")
    page = gm.page
    new_game(page, server, "changelings", "Browser Changelings")
    page.locator("form.new-game button[type=submit]").click()
    page.wait_for_url("**/gm/**")
    gm.url = page.url.split("?")[0]

    names = ["Ann", "Bob", "Cid", "Dee", "Eve"]
    players = sign_up(browser, gm, names, {"Ann": "de"})
    deal_and_start(gm, {"pony": 3, "changeling": 1, "researcher": 1})
    assert phase_of(gm) == "day 1"

    roles = {name: str(p.go().locator("#role").get_attribute("data-role"))
             for name, p in players.items()}
    assert sorted(roles.values()) == ["changeling", "pony", "pony", "pony", "researcher"]
    changeling = next(n for n, r in roles.items() if r == "changeling")
    researcher = next(n for n, r in roles.items() if r == "researcher")
    ponies = [n for n, r in roles.items() if r == "pony"]
    assert "Deine Rolle" in players["Ann"].go().content()  # Ann signed up in German
    # a player's page never shows another's role while both are alive
    for name, person in players.items():
        html = person.go().content()
        for other, role in roles.items():
            if other != name:
                assert f'data-role="{role}"' not in html or role == roles[name]

    # day 1: posts with the role-play conventions, live updates, the leader election
    watcher = players[ponies[0]]
    watcher.go("/thread")
    writer = players[researcher]
    post(writer, "*waves* Good morning! **sleepy** ((back in 5)) //who is it?//")
    watcher.page.locator(f'li.post[data-player="{researcher}"] em.action').wait_for()
    for name in names:
        if name != researcher:
            post(players[name], f"Hello, I am {name}. *sits down*")
    leader = ponies[1]
    for name in names:
        act(players[name], "elect", leader, "/thread")
    thread = players[researcher].go("/thread")
    assert thread.locator("li.post.vote").count() == len(names)
    assert thread.locator("em.action").count() >= len(names)
    players[researcher].shot("thread")

    gm_close(gm)  # the deadline, closed by the game master
    assert phase_of(gm) == "night 1/1"
    assert "elected leader" in gm.go().content()
    assert players["Eve"].go("/thread").locator("#thread-closed").count() == 1

    # night 1: the researcher looks first, then the changeling abducts (early close)
    victim = ponies[0]
    act(players[researcher], "investigate", changeling)
    gm.go().locator("#preview").wait_for()
    act(players[changeling], "abduct", victim)
    assert phase_of(gm) == "day 2"
    page = players[researcher].go()
    expected = (f"Dein Blick auf {changeling} verrät: Changeling." if researcher == "Ann"
                else f"Your look at {changeling} reveals: Changeling.")  # Ann reads German
    assert expected in page.content()
    assert players[victim].go("/thread").locator("#thread-closed").count() == 1
    assert "abducted" in players[victim].go().content() or "entführt" in (
        players[victim].go().content())

    # day 2: everybody left votes the changeling out
    for name in names:
        if name == victim:
            continue
        target = changeling if name != changeling else researcher
        act(players[name], "vote", target, "/thread")
    players[researcher].go()
    players[researcher].shot("player")
    gm.go()
    gm.shot("gm-dashboard")
    gm_close(gm)
    assert phase_of(gm) == "ended"
    assert "the ponies won" in gm.go().content()

    # the status post and the full reveal, seen by everybody
    status = gm.go().locator("a", has_text="Status post").first
    status.click()
    gm.page.wait_for_load_state()
    assert "leader election... finished" in gm.page.content()
    gm.shot("status-post")
    for person in [gm, *players.values()]:
        reveal = person.page
        reveal.goto(gm.url.split("/gm/")[0] + "/g/" + _game_id(gm) + "/reveal?lang=en")
        assert reveal.locator("#roles tbody tr").count() == len(names)
        assert "Step 1:" in reveal.content()
    players["Ann"].shot("reveal")
    for person in [gm, *players.values()]:
        person.context.close()


def test_a_changelings_night_of_team_notes_and_the_love_potion(browser: Any,
                                                                server: str) -> None:
    """Issue 15 in a real browser: a changeling's page names his teammate's choice before
    he chooses and, after his differing choice closed stage 1 early, says nobody is taken;
    the love potion picks two players with two drop-downs, the same one twice is refused
    with a clear message, two different ones become lovers."""
    gm = Person(browser, "GM")
    page = gm.page
    new_game(page, server, "changelings", "Browser lovers")
    page.locator("form.new-game button[type=submit]").click()
    page.wait_for_url("**/gm/**")
    gm.url = page.url.split("?")[0]
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
    players = sign_up(browser, gm, names, {})
    deal_and_start(gm, {"changeling": 2, "love_potion": 1, "pony": 3})
    roles = {name: str(p.go().locator("#role").get_attribute("data-role"))
             for name, p in players.items()}
    first, second = (n for n, r in roles.items() if r == "changeling")
    potion = next(n for n, r in roles.items() if r == "love_potion")
    ponies = [n for n, r in roles.items() if r == "pony"]
    gm_close(gm)  # day 1: chance elects a leader
    assert phase_of(gm) == "night 1/1"

    act(players[first], "abduct", ponies[0])
    note = players[second].go().locator(".move-note")
    assert note.inner_text() == (f"{first} chose abduct → {ponies[0]}: if you choose anything "
                                 "else, nobody is abducted or replaced tonight (C7.1, C7.2).")
    assert players[potion].go().locator(".move-note").count() == 0
    act(players[second], "abduct", ponies[1])  # the last awaited input: stage 1 closes
    assert phase_of(gm) == "night 1/2"
    told = "Your team did not agree: nobody is abducted or replaced tonight (C7.1, C7.2)."
    assert players[second].page.locator(".move-note").inner_text() == told
    assert players[first].go().locator(".move-note").inner_text() == told

    love = players[potion].go().locator('form[data-action="love"]')
    assert love.locator("select").count() == 2
    assert love.locator("select[name=first] option").count() == len(names) + 1
    love.locator("select[name=first]").select_option(label=ponies[2])
    love.locator("select[name=second]").select_option(label=ponies[2])
    love.locator("button[type=submit]").click()
    players[potion].page.wait_for_load_state()
    assert players[potion].page.locator("#error").inner_text() == "Name two different players."
    love = players[potion].page.locator('form[data-action="love"]')
    love.locator("select[name=first]").select_option(label=ponies[2])
    love.locator("select[name=second]").select_option(label=first)
    love.locator("button[type=submit]").click()
    players[potion].page.wait_for_load_state()
    assert players[potion].page.locator("#error").count() == 0
    assert phase_of(gm) == "day 2"  # the last input of stage 2: the night resolved
    assert f"You are in love with {first}." in players[ponies[2]].go().content()
    assert f"You are in love with {ponies[2]}." in players[first].go().content()
    for person in [gm, *players.values()]:
        person.context.close()


def test_counting_forum_votes_on_the_gm_page(browser: Any, server: str) -> None:
    """The "Count forum votes" section in a real browser: a saved thread uploaded with
    the file picker, the count and the post to copy shown, the votes submitted."""
    gm = Person(browser, "GM")
    page = gm.page
    zone = ZoneInfo(new_game(page, server, "changelings", "Browser forum count"))
    page.locator("form.new-game button[type=submit]").click()
    page.wait_for_url("**/gm/**")
    gm.url = page.url.split("?")[0]
    for name in ["Ann", "Bob", "Cleo", "Dan", "Eve"]:  # the players of day4.bbcode
        page = gm.go()
        page.fill("#signup input[name=name]", name)
        page.locator("#signup form.inline button[type=submit]").first.click()
        page.wait_for_load_state()
    deal_and_start(gm, {"pony": 3, "changeling": 1, "researcher": 1})

    page = gm.go()
    section = page.locator("#votecount")
    section.locator("input[name=pages]").set_input_files(
        str(Path(__file__).parents[1] / "forum" / "fixtures" / "day4.bbcode"))
    # the window in the game's zone (the form's times are read in it; the quiet zone
    # moves with the hour of the run): Berlin 17:00-19:30, around the file's posts,
    # 18:00-18:40 Berlin time (its "timezone:" line)
    for field, hour, minute in (("since", 17, 0), ("deadline", 19, 30)):
        moment = datetime(2012, 12, 24, hour, minute, tzinfo=ZoneInfo("Europe/Berlin"))
        section.locator(f"input[name={field}]").fill(
            f"{moment.astimezone(zone):%Y-%m-%d %H:%M}")
    section.locator("form.votecount-form button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator("#error").count() == 0, page.locator("#error").inner_text()
    tally = {row.get_attribute("data-player"): row.get_attribute("data-votes")
             for row in page.locator("#votecount-tally tbody tr").all()}
    assert tally == {"Cleo": "2", "Dan": "1", "Ann": "1"}  # Bob, Ann; Eve; Dan
    reasons = page.locator("#votecount-invalid li").evaluate_all(
        "items => items.map(li => li.dataset.reason)")
    assert sorted(reasons) == ["edited", "not_a_player", "not_a_player", "quoted"]
    post = page.locator("#votecount-post")
    assert post.input_value().startswith("[b]Vote count[/b] — Changelings")
    page.locator("#votecount button.copy").click()
    assert "copied" in str(page.locator("#votecount button.copy").get_attribute("class"))
    gm.shot("gm-votecount")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#votecount-submit").click()
    page.locator("#votecount-submitted").wait_for()
    outcome = page.locator("#votecount-submitted li").evaluate_all(
        "items => items.map(li => [li.dataset.voter, li.dataset.accepted])")
    # day 1 elects a leader (C5.1): the counted red names go in as election votes
    assert sorted(outcome) == [["Ann", "yes"], ["Bob", "yes"], ["Dan", "yes"], ["Eve", "yes"]]
    assert page.locator("#votecount-submitted .tag.warn").count() == 0
    gm.context.close()


def island_ready() -> bool:
    try:
        from nightfall.rulesets import RULESET_IDS, get_ruleset
        from nightfall.rulesets.island.newspaper import newspaper  # noqa: F401

        return "island" in RULESET_IDS and get_ruleset("island").id == "island"
    except Exception:
        return False


@pytest.mark.skipif(not island_ready(), reason="the Island rule set is not there yet")
def test_a_complete_island_game(browser: Any, server: str) -> None:
    gm = Person(browser, "GM")
    page = gm.page
    new_game(page, server, "island", "Browser Island")
    page.fill("input[name=seed]", "11")
    page.uncheck("input[name=opt_random_events]")
    page.fill("input[name=opt_items_per_player]", "1")
    page.locator("form.new-game button[type=submit]").click()
    page.wait_for_url("**/gm/**")
    gm.url = page.url.split("?")[0]

    names = ["Ann", "Bob", "Cid", "Dee", "Eve"]
    players = sign_up(browser, gm, names, {"Dee": "ru"})
    deal_and_start(gm, {"werewolf": 1, "seer": 1, "passenger": 3})
    assert phase_of(gm) == "day 1/1"
    roles = {name: str(p.go().locator("#role").get_attribute("data-role"))
             for name, p in players.items()}
    werewolf = next(n for n, r in roles.items() if r == "werewolf")
    seer = next(n for n, r in roles.items() if r == "seer")
    for person in players.values():
        assert person.go().locator("#items li").count() == 1  # one item each
    assert "Твоя роль" in players["Dee"].go().content()

    for day in range(1, 5):
        alive = [n for n in names if players[n].go().locator(".departed").count() == 0]
        for name in alive:
            post(players[name], f"Day {day}: *looks around* I am {name}.")
        gm_close(gm)  # 13:00: the first stage ends
        assert phase_of(gm) == f"day {day}/2"
        if seer in alive:
            act(players[seer], "check", werewolf)
        victims = [n for n in alive if n not in (werewolf, seer)]
        if victims:
            act(players[werewolf], "eat", victims[0])
        for name in alive:
            if name != werewolf:
                act(players[name], "vote", werewolf)
        if day == 1:
            players[seer].go()
            players[seer].shot("island-player")
            gm.go()
            gm.shot("island-gm-dashboard")
        gm_close(gm)  # 21:00: the vote and the night
        if phase_of(gm) == "ended":
            break
    assert phase_of(gm) == "ended"
    newspaper = gm.go().locator("a", has_text="Newspaper").first
    newspaper.click()
    gm.page.wait_for_load_state()
    assert "The Island Newspaper" in gm.page.content()
    gm.shot("newspaper")
    for person in [gm, *players.values()]:
        person.page.goto(server + "/g/" + _game_id(gm) + "/reveal?lang=en")
        assert person.page.locator("#roles tbody tr").count() == len(names)
    for person in [gm, *players.values()]:
        person.context.close()


def _game_id(gm: Person) -> str:
    return str(gm.go().locator("code").first.inner_text())
