"""The notification pages through the app (TestClient): a bad address at sign-up changes
nothing, the one-click unsubscribe works without a cookie (RFC 8058) while opening the
link does not unsubscribe, "send me my link again" answers alike for every address, the
calendar feeds follow a moved deadline, and the GM sees every message's status (and
why e-mail waits without a mail server) and can resend."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient
from icalendar import Calendar
from sqlalchemy import select

from mailkit import SmtpBox, text_of
from nightfall.notify.contacts import UNSUBSCRIBED
from nightfall.service import FixedClock, GameService
from nightfall.store import schema
from nightfall.web import Settings, create_app
from notifykit import BASE, START, config, game_with_mail, sqlite_url, worker
from webkit import csrf_of


def app_for(svc: GameService) -> TestClient:
    app = create_app(Settings(secret_key="test-secret", base_url=BASE), service=svc)
    return TestClient(app, base_url=BASE)


def make(tmp_path: Path, smtp_url: str | None = None) -> tuple[GameService, TestClient]:
    svc = GameService(url=sqlite_url(tmp_path), clock=FixedClock(START),
                      notify=config(smtp_url))
    return svc, app_for(svc)


def test_a_bad_address_at_sign_up_changes_nothing(tmp_path: Path) -> None:
    svc, client = make(tmp_path)
    created = svc.create("changelings", 1, title="Anmeldung")
    token = csrf_of(client, f"/g/{created.id}/signup")
    answer = client.post(f"/g/{created.id}/signup", data={
        "csrf_token": token, "name": "Zed", "email": "zed@@example", "locale": "de"})
    assert answer.status_code == 400
    assert "zed@@example ist keine brauchbare E-Mail-Adresse." in answer.text
    assert "Zed" not in svc.load(created.id).state.players
    with svc.engine.connect() as conn:
        assert conn.execute(select(schema.contacts)).all() == []
        assert conn.execute(select(schema.outbox)).all() == []


def test_one_click_unsubscribe(tmp_path: Path, smtp: SmtpBox) -> None:
    notify = config(smtp.url)
    svc = GameService(url=sqlite_url(tmp_path), clock=FixedClock(START), notify=notify)
    client = app_for(svc)
    game_id, _ = game_with_mail(svc, {"Ann": "ann@example.org"})
    worker(svc, notify).drain()
    link = smtp.messages()[0]["List-Unsubscribe"].strip("<>")
    path = link.removeprefix(BASE)
    assert client.get(path).status_code == 200  # opening it only asks
    assert svc.notifications.contact(game_id, "Ann").email_state != UNSUBSCRIBED  # type: ignore[union-attr]
    fresh = TestClient(client.app, base_url=BASE)  # a mail client: no cookie, no CSRF token
    answer = fresh.post(path, content="List-Unsubscribe=One-Click",
                        headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 200
    assert svc.notifications.contact(game_id, "Ann").email_state == UNSUBSCRIBED  # type: ignore[union-attr]
    before = len(smtp.messages())
    svc.gm(game_id, "tell", target="Ann", text="Hörst du mich?")
    worker(svc, notify).drain()
    assert len(smtp.messages()) == before
    assert fresh.post("/email/unsubscribe/not-a-key").status_code == 404


def test_send_me_my_link_again_answers_alike(tmp_path: Path, smtp: SmtpBox) -> None:
    notify = config(smtp.url)
    svc = GameService(url=sqlite_url(tmp_path), clock=FixedClock(START), notify=notify)
    client = app_for(svc)
    game_id, tokens = game_with_mail(svc, {"Ann": "ann@example.org"})
    worker(svc, notify).drain()
    sent = len(smtp.messages())
    answers = []
    for address in ("ann@example.org", "nobody@example.org", "not an address"):
        token = csrf_of(client, f"/g/{game_id}")
        answer = client.post(f"/g/{game_id}/link", data={"csrf_token": token,
                                                          "email": address},
                             follow_redirects=True)
        assert answer.status_code == 200
        answers.append(re.sub(r'value="[^"]+"', "", answer.text))
    assert answers[0] == answers[1] == answers[2]
    assert "ist ein neuer privater Link an sie unterwegs" in answers[0]
    worker(svc, notify).drain()
    [again] = smtp.messages()[sent:]
    assert again["To"] == "ann@example.org"
    new = re.search(rf"{re.escape(BASE)}/p/([\w-]+)", text_of(again))
    assert new is not None and new.group(1) != tokens["Ann"]
    assert client.get(f"/p/{new.group(1)}").status_code == 200
    assert client.get(f"/p/{tokens['Ann']}").status_code == 404  # the old one stopped


def test_the_calendar_follows_the_deadline(tmp_path: Path) -> None:
    svc, client = make(tmp_path)
    game_id, tokens = game_with_mail(svc, {})

    def events(path: str) -> list[object]:
        answer = client.get(path)
        assert answer.headers["content-type"].startswith("text/calendar")
        return list(Calendar.from_ical(answer.content).walk("VEVENT"))

    [day] = events(f"/g/{game_id}/calendar.ics")
    assert str(day["SUMMARY"]) == "Frist: Tag 1 (Testspiel)"
    assert day["DTSTART"].dt.isoformat() == "2024-03-05T18:30:00+00:00"
    svc.gm(game_id, "extend", minutes=90)
    [moved] = events(f"/p/{tokens['Bob']}/calendar.ics")
    assert moved["UID"] == day["UID"] and int(moved["SEQUENCE"]) == 1
    assert moved["DTSTART"].dt.isoformat() == "2024-03-05T20:00:00+00:00"
    svc.gm(game_id, "advance")
    stages = events(f"/g/{game_id}/calendar.ics")
    assert [str(e["SUMMARY"]) for e in stages] == [
        "Frist: Tag 1 (Testspiel)", "Frist: Nacht 1, Abschnitt 1 (Testspiel)"]


def test_the_gm_sees_each_message_and_resends(tmp_path: Path, smtp: SmtpBox) -> None:
    svc, client = make(tmp_path)  # no mail server yet
    created_games = svc.store.list_games()
    assert created_games == []
    game_id, _ = game_with_mail(svc, {"Ann": "ann@example.org"})
    gm_token = svc.store.issue_token(game_id, None)
    page = client.get(f"/gm/{gm_token}")
    assert "Kein Mailserver eingerichtet (NIGHTFALL_SMTP_URL)" in page.text
    assert page.text.count('data-status="pending"') >= 3
    notify = config(smtp.url)  # a server is configured: sending starts
    worker(svc, notify).drain()
    page = client.get(f"/gm/{gm_token}")
    assert 'data-status="sent"' in page.text and "zugestellt" in page.text
    stage = next(m for m in svc.notifications.messages(game_id) if m.kind == "stage")
    assert stage.resendable
    link = next(m for m in svc.notifications.messages(game_id) if m.kind == "link")
    assert not link.resendable  # the private link was scrubbed after sending
    token = csrf_of(client, f"/gm/{gm_token}")
    answer = client.post(f"/gm/{gm_token}/resend", data={"csrf_token": token,
                                                         "message": str(stage.id)},
                         follow_redirects=True)
    assert "Die Nachricht steht wieder in der Warteschlange." in answer.text
    before = len(smtp.messages())
    worker(svc, notify).drain()
    [copy] = smtp.messages()[before:]
    assert copy["Subject"] == "[Testspiel] Tag 1 hat begonnen"


def test_his_page_sets_address_kinds_and_push(tmp_path: Path, smtp: SmtpBox) -> None:
    notify = config(smtp.url, allow_private=False)
    svc = GameService(url=sqlite_url(tmp_path), clock=FixedClock(START), notify=notify)
    client = app_for(svc)
    game_id, tokens = game_with_mail(svc, {})
    page = f"/p/{tokens['Dee']}"
    token = csrf_of(client, page)
    bad = client.post(page + "/email", data={"csrf_token": token, "email": "dee@"},
                      follow_redirects=True)
    assert "dee@ ist keine brauchbare E-Mail-Adresse." in bad.text
    assert svc.notifications.contact(game_id, "Dee") is None
    done = client.post(page + "/email", data={"csrf_token": token,
                                              "email": "dee@example.org"},
                       follow_redirects=True)
    assert 'data-state="pending"' in done.text
    worker(svc, notify).drain()
    [confirm] = smtp.messages()  # the confirmation only; his link waits for it
    assert confirm["To"] == "dee@example.org" and "bestätige" in str(confirm["Subject"])
    refused = client.post(page + "/notify", data={
        "csrf_token": token, "kind_stage": "on", "push": "json://127.0.0.1:9/x"},
        follow_redirects=True)
    assert "privates Netz" in refused.text
    contact = svc.notifications.contact(game_id, "Dee")
    assert contact is not None and contact.push_url is None
    assert contact.wants("stage") and not contact.wants("notice")  # the kinds were saved
