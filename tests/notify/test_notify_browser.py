"""E-mail in a real browser (headless Chromium) against a real server with its delivery
worker running (``build_app``, what ``nightfall serve`` runs) and a real SMTP server: a
player gives his address at sign-up, gets only the confirmation, confirms it in the
browser, then receives his private link; later "send me my link again" on the game's
page mails him a new one (and says the same for an address nobody has)."""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mailkit import SmtpBox, text_of
from notifykit import config

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
if not CHROMIUM.exists():
    if os.environ.get("CI"):
        pytest.fail("/usr/bin/chromium is missing in CI", pytrace=False)
    pytestmark = pytest.mark.skip(reason="no /usr/bin/chromium")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def site(tmp_path: Path, smtp: SmtpBox) -> Iterator[tuple[str, Any]]:
    from dataclasses import replace

    import uvicorn

    from nightfall.service import GameService
    from nightfall.web import Settings
    from nightfall.web.server import build_app

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    url = f"sqlite:///{tmp_path / 'browser.db'}"
    service = GameService(url=url, notify=replace(config(smtp.url), base_url=base))
    app = build_app(Settings(database_url=url, secret_key="browser-notify", base_url=base),
                    service, scheduler_interval=0.5)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    yield base, service
    server.should_exit = True
    thread.join(timeout=10)


def mail_to(smtp: SmtpBox, count: int) -> Any:
    found = smtp.wait_for(count, 20)
    assert len(found) >= count, [m["Subject"] for m in found]
    return found[count - 1]


def test_email_opt_in_and_send_my_link_again(site: tuple[str, Any], smtp: SmtpBox) -> None:
    base, service = site
    game_id = service.create("changelings", 5, title="Browserspiel").id
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        context = browser.new_context(locale="de-DE", timezone_id="Europe/Berlin")
        context.set_default_timeout(45_000)  # a bound, not a timing (loaded CI)
        page = context.new_page()
        page.goto(f"{base}/g/{game_id}/signup")
        page.fill("input[name=name]", "Fluttershy")
        page.fill("input[name=email]", "flutter@example.org")
        page.select_option("select[name=locale]", "de")
        page.locator("form.signup button[type=submit]").click()
        page.wait_for_url("**/p/**")
        own_link = page.url.split("#")[0]
        assert "Ein Bestätigungslink ist an flutter@example.org unterwegs" in page.content()
        assert page.locator("#email-state").get_attribute("data-state") == "pending"
        confirm = mail_to(smtp, 1)
        assert confirm["Subject"] == "[Browserspiel] Bitte bestätige deine E-Mail-Adresse"
        assert own_link not in text_of(confirm)
        time.sleep(1.5)  # the worker looks every 2 s: nothing else goes out unconfirmed
        assert len(smtp.messages()) == 1
        found = re.search(rf"{re.escape(base)}/email/confirm/\S+", text_of(confirm))
        assert found is not None
        page.goto(found.group(0))
        page.locator("#notify-button").click()
        page.wait_for_load_state()
        assert "Adresse bestätigt" in page.content()
        link = mail_to(smtp, 2)
        assert link["Subject"] == "[Browserspiel] Dein privater Link"
        assert own_link in text_of(link)
        page.goto(own_link)
        assert page.locator("#email-state").get_attribute("data-state") == "confirmed"

        other = browser.new_context(locale="de-DE").new_page()  # he lost it: another device
        other.goto(f"{base}/g/{game_id}")
        for address in ("nobody@example.org", "flutter@example.org"):
            other.fill("#link input[name=email]", address)
            other.locator("#link-again").click()
            other.wait_for_load_state()
            assert other.locator(".flash").inner_text().startswith(
                "Wenn diese Adresse zu einem Spieler dieses Spiels gehört")
        again = mail_to(smtp, 3)
        assert [str(m["To"]) for m in smtp.messages()] == ["flutter@example.org"] * 3
        new_link = re.search(rf"{re.escape(base)}/p/\S+", text_of(again))
        assert new_link is not None and new_link.group(0) != own_link
        other.goto(new_link.group(0))
        assert "Fluttershy" in other.content()
        assert page.goto(own_link).status == 404  # the old link stopped working
        browser.close()
