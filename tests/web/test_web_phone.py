"""The GM dashboard and a player's page on a phone, and their accessibility (issue 18),
in headless Chromium (Playwright) against a real server: at 390 px the page must not be
wider than the screen (it was 671 px), live updates are announced (an ``aria-live``
region), every control is reached with the keyboard, and axe-core (vendored, see
``tests/web/vendor/README.md``) finds no WCAG 2 A/AA violation — contrast included."""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import ARGS, CHROMIUM, TIMEOUT, free_port

from webkit import Small, small_game

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytestmark = pytest.mark.skip(reason="no /usr/bin/chromium (scripts/install_chromium.sh)")

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Small, Any]]:
    import uvicorn

    from nightfall.service import GameService
    from nightfall.web import Settings, create_app

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db = tmp_path_factory.mktemp("phone") / "phone.db"
    service = GameService(url=f"sqlite:///{db}")
    app = create_app(Settings(database_url=None, secret_key="phone-tests", base_url=base,
                              sse_interval=0.25, sse_max_seconds=30), service=service)
    small = small_game(service)
    service.gm(small.game_id, "say", text="Welcome to a game with a rather long first post "
               "whose words must wrap on a narrow screen: Supercalifragilisticexpialidocious.")
    instance = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                             log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield base, small, service
    instance.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                      bypass_csp=True,  # to inject axe-core
                                      has_touch=True, locale="en-GB",
                                      timezone_id="Europe/Berlin")
        context.set_default_timeout(TIMEOUT)
        yield context.new_page()
        browser.close()


def _pages(served: tuple[str, Small, Any]) -> dict[str, str]:
    base, small, _ = served
    return {"gm": base + small.g, "player": base + small.p("Ann"),
            "thread": base + small.p("Ann") + "/thread"}


@pytest.mark.parametrize("which", ["gm", "player", "thread"])
def test_no_page_is_wider_than_a_phone(served: tuple[str, Small, Any], phone: Any,
                                       which: str) -> None:
    phone.goto(_pages(served)[which])
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{which}: {width} px of page on a {PHONE['width']} px screen"
    # nothing sticks out of the screen, however the page scrolls
    wide = phone.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
                     && !e.closest('.scroll-x'))
        .map(e => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className).slice(0, 5)""")
    assert wide == [], f"{which}: {wide}"


@pytest.mark.parametrize("which", ["gm", "player"])
def test_live_updates_are_announced(served: tuple[str, Small, Any], phone: Any,
                                    which: str) -> None:
    """A live update says what it brought in a polite status region that the update
    itself does not replace (the parts it swaps in are not announced by screen readers)."""
    _, small, service = served
    phone.goto(_pages(served)[which])
    region = phone.locator("#live-status")
    assert region.get_attribute("role") == "status"
    assert region.get_attribute("aria-live") == "polite"
    assert phone.locator("#live #live-status").count() == 0
    phone.wait_for_function("document.body.dataset.live === '1'")
    service.gm(small.game_id, "say", text=f"A live post for the {which} page.")
    phone.wait_for_function(
        "document.getElementById('live-status').textContent === 'New post in the thread.'")


@pytest.mark.parametrize("which", ["gm", "player", "thread"])
def test_axe_finds_no_wcag_violation(served: tuple[str, Small, Any], phone: Any,
                                     which: str) -> None:
    assert hashlib.sha256(AXE.read_bytes()).hexdigest() == AXE_SHA256, "axe.min.js changed"
    phone.goto(_pages(served)[which])
    phone.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = phone.evaluate("""() => axe.run(document, {runOnly: {type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})""")
    problems = [f"{v['id']}: {v['help']} — {[n['target'] for n in v['nodes']][:4]}"
                for v in result["violations"]]
    assert problems == [], f"{which}:\n" + "\n".join(problems)


def test_the_gm_reaches_every_control_with_the_keyboard(served: tuple[str, Small, Any],
                                                         phone: Any) -> None:
    phone.goto(_pages(served)["gm"])
    controls = phone.evaluate("""() => [...document.querySelectorAll(
        'main button, main select, main input:not([type=hidden]), main textarea, main a[href]')]
        .filter(e => e.offsetParent !== null).length""")
    reached: set[str] = set()
    for _ in range(controls + 5):
        phone.keyboard.press("Tab")
        reached.add(phone.evaluate("""() => { const e = document.activeElement;
            const s = getComputedStyle(e);
            return e.tagName + '|' + (e.id || e.name || e.textContent.trim().slice(0, 30))
                   + '|' + (s.outlineStyle !== 'none' || s.boxShadow !== 'none') }"""))
    assert phone.evaluate("() => document.querySelector('#close-now') !== null")
    assert any(r.startswith("BUTTON|close-now|") for r in reached), sorted(reached)[:20]
    # every focused control shows where the focus is
    unmarked = [r for r in reached if r.endswith("|false") and not r.startswith("BODY")]
    assert unmarked == [], unmarked


def test_the_thread_catches_up_with_a_post_made_before_its_stream_connected(
        served: tuple[str, Small, Any], phone: Any) -> None:
    """The stream starts from the head it finds when it connects: a post made between
    the page's rendering and that moment (held here by keeping the request back) must
    still appear, without a reload; it did not before the stream's ``open`` caught up."""
    _, small, service = served
    held: list[Any] = []
    phone.route("**/events", lambda route: held.append(route))
    try:
        phone.goto(_pages(served)["thread"])
        phone.wait_for_function("document.querySelectorAll('li.post').length > 0")
        text = "Posted while the stream of the page was still connecting."
        service.gm(small.game_id, "say", text=text)
        assert phone.locator(f"li.post:has-text('{text}')").count() == 0  # not yet
        deadline = time.monotonic() + TIMEOUT / 1000
        while not held:
            assert time.monotonic() < deadline, "the page never opened its stream"
            phone.wait_for_timeout(50)
        for route in held:
            route.continue_()
        phone.wait_for_function("document.body.dataset.live === '1'")
        phone.locator(f"li.post:has-text('{text}')").wait_for()
        assert phone.locator(f"li.post:has-text('{text}')").count() == 1  # appended once
    finally:
        phone.unroute("**/events")
