"""E-mail through the outbox to a real SMTP server the test starts (aiosmtpd): who gets
what, in which language, with which links and headers — and nothing before an address is
confirmed."""

from __future__ import annotations

import re
from pathlib import Path

from sqlalchemy import select

from mailkit import SmtpBox, html_of, text_of
from nightfall.store import schema
from notifykit import BASE, config, game_with_mail, service, sqlite_url, worker


def test_vouched_addresses_get_their_link_and_the_stage(tmp_path: Path, smtp: SmtpBox) -> None:
    notify = config(smtp.url)
    svc = service(sqlite_url(tmp_path), notify)
    game_id, tokens = game_with_mail(svc, {"Ann": "ann@example.org", "Bob": "bob@example.org"})
    done = worker(svc, notify).drain()
    assert done["sent"] == 5, done
    got = {(str(m["To"]), str(m["Subject"])) for m in smtp.messages()}
    assert got == {
        ("ann@example.org", "[Testspiel] Dein privater Link"),
        ("bob@example.org", "[Testspiel] Dein privater Link"),
        ("ann@example.org", "[Testspiel] Tag 1 hat begonnen"),
        ("bob@example.org", "[Testspiel] Tag 1 hat begonnen"),
        ("ann@example.org", "[Testspiel] Neue private Mitteilung"),  # C1.7: her team
    }
    for message in smtp.messages():
        text, html = text_of(message), html_of(message)
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert re.fullmatch(rf"<{re.escape(BASE)}/email/unsubscribe/[\w-]+>",
                            message["List-Unsubscribe"])
        assert message["Content-Language"] == "de"
        assert message["Message-ID"].startswith(f"<nightfall.{game_id}.")
        links = re.findall(r"https?://\S+", text)
        assert links and all(link.startswith(BASE + "/") for link in links)
        owner = "Ann" if message["To"] == "ann@example.org" else "Bob"
        other = "Bob" if owner == "Ann" else "Ann"
        assert tokens[other] not in text and tokens[other] not in html
        if "Link" in message["Subject"]:
            assert f"{BASE}/p/{tokens[owner]}" in text and f"{BASE}/p/{tokens[owner]}" in html
        else:
            assert "/p/" not in text  # only the link mail carries a login
        if "begonnen" in message["Subject"]:
            assert "Frist: 05.03.2024 19:30 CET." in text  # the election's deadline
    with svc.engine.connect() as conn:
        bodies = [r[0] for r in conn.execute(select(schema.outbox.c.body_text))]
    assert not any(token in body for body in bodies for token in tokens.values()), (
        "a sent link stays in the outbox")


def test_an_unconfirmed_address_gets_only_the_confirmation(tmp_path: Path,
                                                            smtp: SmtpBox) -> None:
    notify = config(smtp.url)
    svc = service(sqlite_url(tmp_path), notify)
    _, tokens = game_with_mail(svc, {"Cid": "cid@example.org"}, vouched=False)
    worker(svc, notify).drain()
    [confirm] = smtp.messages()
    assert confirm["To"] == "cid@example.org"
    assert confirm["Subject"] == "[Testspiel] Bitte bestätige deine E-Mail-Adresse"
    key = re.search(rf"{re.escape(BASE)}/email/confirm/([\w-]+)", text_of(confirm))
    assert key is not None and tokens["Cid"] not in text_of(confirm)
    assert svc.notifications.confirm(key.group(1)) is not None
    worker(svc, notify).drain()
    [_, link] = smtp.messages()
    assert link["Subject"] == "[Testspiel] Dein privater Link"
    assert f"{BASE}/p/{tokens['Cid']}" in text_of(link)
