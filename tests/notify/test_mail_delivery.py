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


def test_a_mail_server_that_refuses_or_is_away(tmp_path: Path, smtp: SmtpBox) -> None:
    """4xx: retried with backoff, then failed with the server's answer; 5xx: failed at
    once; no server at all: retried like a 4xx. The game goes on meanwhile."""
    from mailkit import free_port
    from nightfall.engine import Command

    notify = config(smtp.url, max_attempts=2)
    svc = service(sqlite_url(tmp_path), notify)
    game_id, _ = game_with_mail(svc, {"Ann": "ann@example.org"}, start=False)
    svc.notifications.set_reminder_minutes(game_id, 0)
    smtp.answer = "451 4.3.0 mailbox busy, try later"
    deliver = worker(svc, notify)
    assert deliver.drain() == {"pending": 1}  # the link mail: due again after a pause
    svc.clock.advance(seconds=1)  # type: ignore[attr-defined]
    assert deliver.drain() == {"failed": 1}
    [link] = svc.notifications.messages(game_id)
    assert link.status == "failed" and link.error and "451 4.3.0 mailbox busy" in link.error
    smtp.answer = "550 5.1.1 no such user"
    svc.start(game_id)
    assert deliver.drain() == {"failed": 2}  # the stage and Ann's team notice
    assert all("550 5.1.1 no such user" in (m.error or "")
               for m in svc.notifications.messages(game_id) if m.kind != "link")
    away = config(f"smtp://127.0.0.1:{free_port()}", max_attempts=2)
    svc.gm(game_id, "tell", target="Ann", text="Bist du da?")
    assert worker(svc, away).drain() == {"pending": 1}
    svc.submit(game_id, Command("elect", by="Ann", target="Bob"))  # the game goes on
    assert smtp.messages() == []


def test_his_zone_his_kinds_the_announcements_and_the_end(tmp_path: Path,
                                                          smtp: SmtpBox) -> None:
    """Bob reads his deadline in his own zone; Ann opts into the announcements and out of
    the stage mails; at the end everyone gets his result and the reveal link."""
    from nightfall.engine import Command

    notify = config(smtp.url)
    svc = service(sqlite_url(tmp_path), notify)
    created = svc.create("changelings", seed=3, options={"early_close": False},
                         title="Zonen")
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve"):
        svc.signup(created.id, name, timezone="Europe/Moscow" if name == "Bob" else None,
                   locale="en" if name == "Bob" else None,
                   email=f"{name.lower()}@example.org" if name in ("Ann", "Bob") else None,
                   vouched=True)
    svc.notifications.set_preferences(created.id, "Ann", {
        "stage": False, "reminder": True, "notice": True, "announcements": True,
        "end": True})
    svc.assign(created.id, {"Ann": "changeling", "Bob": "researcher", "Cid": "pony",
                            "Dee": "pony", "Eve": "shield"})
    svc.start(created.id)
    svc.submit(created.id, Command("elect", by="Bob", target="Cid"))
    svc.gm(created.id, "advance")  # the election closes: its result is announced
    svc.gm(created.id, "modkill", target="Ann")  # the only changeling leaves: ponies win
    worker(svc, notify).drain()
    mails: dict[tuple[str, str], str] = {}
    for m in smtp.messages():
        key = (str(m["To"]), str(m["Subject"]))
        mails[key] = mails.get(key, "") + text_of(m).replace("\r\n", "\n")
    bob_stage = mails[("bob@example.org", "[Zonen] Day 1 has begun")]
    assert "Deadline: 05.03.2024 21:30 MSK." in bob_stage  # 19:30 Berlin, in Moscow
    assert not any(to == "ann@example.org" and "begonnen" in subject
                   for to, subject in mails)  # Ann switched stage mails off
    announced = mails[("ann@example.org", "[Zonen] Verkündungen: Tag 1")]
    assert "> Cid wurde zum Anführer gewählt." in announced
    assert not any("Announcements" in subject for to, subject in mails)  # Bob: default off
    bob_end = mails[("bob@example.org", "[Zonen] The game is over")]
    assert "You have won!" in bob_end and "Your role: Researcher." in bob_end
    assert f"/g/{created.id}/reveal" in bob_end
    ann_end = mails[("ann@example.org", "[Zonen] Das Spiel ist vorbei")]
    assert "nicht gewonnen" in ann_end and "Deine Rolle: Changeling." in ann_end
