"""A form must be UTF-8 text (issue 18): raw bytes FF FE in a sign-up form made the
player "ÿþ" (Starlette falls back to Latin-1 silently). Undecodable forms are refused
with a clear message and change nothing; real UTF-8 (percent-encoded, as browsers send
it) keeps working, and uploaded files may hold any bytes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from nightfall.web.bodies import MAX_FORM_BYTES
from webkit import ROLES, Env, csrf_of, make_env, small_game

FORM = {"content-type": "application/x-www-form-urlencoded"}


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return make_env(tmp_path)


@pytest.mark.parametrize("name", [b"\xff\xfe", b"%FF%FE", b"Zo%EB", b"Zo\xc3\xab",
                                  b"%C3"], ids=["raw FF FE", "escaped FF FE",
                                                "Latin-1 escape", "raw UTF-8", "cut"])
def test_an_undecodable_name_is_refused(env: Env, name: bytes) -> None:
    game = small_game(env.service, start=False)
    csrf = csrf_of(env.client)
    body = b"csrf_token=" + csrf.encode() + b"&name=" + name
    page = env.client.post(f"/g/{game.game_id}/signup", content=body, headers=FORM)
    assert page.status_code == 400, page.text[:300]
    assert "not UTF-8 text" in page.text
    assert list(env.service.load(game.game_id).state.players) == list(ROLES)


def test_utf8_as_browsers_send_it_works(env: Env) -> None:
    game = small_game(env.service, start=False)
    csrf = csrf_of(env.client)
    body = b"csrf_token=" + csrf.encode() + b"&name=Zo%C3%AB+K"
    page = env.client.post(f"/g/{game.game_id}/signup", content=body, headers=FORM,
                           follow_redirects=False)
    assert page.status_code == 303
    assert "Zoë K" in env.service.load(game.game_id).state.players


def multipart(boundary: str, *parts: tuple[bytes, bytes]) -> bytes:
    lines = b""
    for disposition, data in parts:
        lines += (f"--{boundary}\r\n".encode() + b"Content-Disposition: form-data; "
                  + disposition + b"\r\n\r\n" + data + b"\r\n")
    return lines + f"--{boundary}--\r\n".encode()


def test_multipart_text_must_be_utf8_but_files_may_be_anything(env: Env) -> None:
    game = small_game(env.service)
    csrf = csrf_of(env.client)
    headers = {"content-type": "multipart/form-data; boundary=XyZ"}
    url = game.g + "/votecount"
    bad = multipart("XyZ", (b'name="csrf_token"', csrf.encode()),
                    (b'name="aliases"', b"Ann=\xff\xfe"))
    page = env.client.post(url, content=bad, headers=headers)
    assert page.status_code == 400 and "not UTF-8 text" in page.text
    bad_name = multipart("XyZ", (b'name="csrf_token"', csrf.encode()),
                         (b'name="pages"; filename="\xff.html"', b"<html></html>"))
    page = env.client.post(url, content=bad_name, headers=headers)
    assert page.status_code == 400 and "not UTF-8 text" in page.text
    binary = multipart("XyZ", (b'name="csrf_token"', csrf.encode()),
                       (b'name="pages"; filename="photo.png"', b"\x89PNG\xff\xfe" * 50))
    page = env.client.post(url, content=binary, headers=headers)
    assert page.status_code == 415  # read, and refused as what it is: not a thread page


def test_a_body_sent_in_chunks_is_read_no_further_than_its_limit(env: Env) -> None:
    game = small_game(env.service, start=False)
    csrf = csrf_of(env.client)

    def chunks() -> Iterator[bytes]:
        yield b"csrf_token=" + csrf.encode() + b"&name="
        for _ in range(MAX_FORM_BYTES // 1000 + 10):
            yield b"Z" * 1000

    page = env.client.post(f"/g/{game.game_id}/signup", content=chunks(), headers=FORM)
    assert page.status_code == 413
