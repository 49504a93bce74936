"""E-mail over an encrypted connection (issue 16): ``smtp+starttls://`` and ``smtps://``
against a real aiosmtpd server with a certificate of a certificate authority the test
makes (openssl), and a login that the server only accepts over TLS.

The client verifies the server's certificate (``ssl.create_default_context``): a site
whose mail server has a certificate of a private authority names it with OpenSSL's
``SSL_CERT_FILE``, which is what the test does; without it the certificate is refused
and the message waits for a retry."""

from __future__ import annotations

import ssl
import subprocess
import threading
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from mailkit import free_port
from nightfall.notify.config import parse_smtp_url
from nightfall.notify.mail import PermanentFailure, TemporaryFailure, build, send

USER, PASSWORD = "gm-mailer", "s3cret pass"


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(authority, server certificate, server key): a CA and a certificate it signed for
    ``localhost`` and 127.0.0.1."""
    folder = tmp_path_factory.mktemp("tls")
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
             "-keyout", "ca.key", "-out", "ca.pem", "-subj", "/CN=Nightfall test CA",
             cwd=folder)
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key",
             "-out", "server.csr", "-subj", "/CN=localhost", cwd=folder)
    (folder / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
             "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "server.pem",
             cwd=folder)
    return folder / "ca.pem", folder / "server.pem", folder / "server.key"


class _Keeper:
    def __init__(self) -> None:
        self.received: list[tuple[EmailMessage, bool]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        with self.lock:  # the message, and whether it came over TLS
            self.received.append((
                parsed, server.transport.get_extra_info("ssl_object") is not None))
        return "250 OK"


def _login(server: Any, session: Any, envelope: Any, mechanism: str, data: Any
           ) -> AuthResult:
    good = isinstance(data, LoginPassword) and (data.login, data.password) == (
        USER.encode(), PASSWORD.encode())
    return AuthResult(success=good, handled=False)


def _server_context(certificates: tuple[Path, Path, Path]) -> ssl.SSLContext:
    _, cert, key = certificates
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


@pytest.fixture
def starttls_server(certificates: tuple[Path, Path, Path]) -> Iterator[tuple[int, _Keeper]]:
    keeper, port = _Keeper(), free_port()
    controller = Controller(keeper, hostname="127.0.0.1", port=port,
                            server_hostname="localhost",
                            tls_context=_server_context(certificates), require_starttls=True,
                            authenticator=_login, auth_required=True)
    controller.start()
    try:
        yield port, keeper
    finally:
        controller.stop()


@pytest.fixture
def smtps_server(certificates: tuple[Path, Path, Path]) -> Iterator[tuple[int, _Keeper]]:
    keeper, port = _Keeper(), free_port()
    controller = Controller(keeper, hostname="127.0.0.1", port=port,
                            server_hostname="localhost",
                            ssl_context=_server_context(certificates),
                            # aiosmtpd does not count implicit TLS as TLS for AUTH
                            authenticator=_login, auth_required=True, auth_require_tls=False)
    controller.start()
    try:
        yield port, keeper
    finally:
        controller.stop()


def _mail() -> EmailMessage:
    return build(row_id=7, game_id="g1", to="ann@example.org",
                 mail_from="Nightfall <nightfall@example.org>", subject="[Nightfall] Night 1",
                 text="The night has begun.", html=None, locale="en", unsubscribe_url=None)


def _trust(monkeypatch: pytest.MonkeyPatch, certificates: tuple[Path, Path, Path]) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(certificates[0]))


def test_starttls_with_a_login_delivers_over_tls(
        starttls_server: tuple[int, _Keeper], certificates: tuple[Path, Path, Path],
        monkeypatch: pytest.MonkeyPatch) -> None:
    port, keeper = starttls_server
    _trust(monkeypatch, certificates)
    target = parse_smtp_url(f"smtp+starttls://{USER}:s3cret%20pass@localhost:{port}")
    send(target, _mail(), timeout=10)
    assert len(keeper.received) == 1
    message, over_tls = keeper.received[0]
    assert over_tls, "the message came in the clear"
    assert message["Subject"] == "[Nightfall] Night 1"


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_smtps_with_a_login_delivers_over_tls(
        smtps_server: tuple[int, _Keeper], certificates: tuple[Path, Path, Path],
        monkeypatch: pytest.MonkeyPatch) -> None:
    port, keeper = smtps_server
    _trust(monkeypatch, certificates)
    send(parse_smtp_url(f"smtps://{USER}:s3cret%20pass@localhost:{port}"), _mail(),
         timeout=10)
    assert [over_tls for _, over_tls in keeper.received] == [True]


def test_a_wrong_password_is_a_permanent_failure(
        starttls_server: tuple[int, _Keeper], certificates: tuple[Path, Path, Path],
        monkeypatch: pytest.MonkeyPatch) -> None:
    port, keeper = starttls_server
    _trust(monkeypatch, certificates)
    with pytest.raises(PermanentFailure, match="535"):
        send(parse_smtp_url(f"smtp+starttls://{USER}:wrong@localhost:{port}"), _mail(),
             timeout=10)
    assert keeper.received == []


def test_an_untrusted_certificate_is_refused_and_retried_later(
        starttls_server: tuple[int, _Keeper], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """Without the authority the certificate does not verify: nothing is sent (the
    password never crosses an unverified connection) and the worker tries again later."""
    port, keeper = starttls_server
    empty = tmp_path / "no-authorities.pem"
    empty.write_text("")
    monkeypatch.setenv("SSL_CERT_FILE", str(empty))
    monkeypatch.setenv("SSL_CERT_DIR", str(tmp_path))
    with pytest.raises(TemporaryFailure, match=r"CERTIFICATE_VERIFY_FAILED|certificate"):
        send(parse_smtp_url(f"smtp+starttls://{USER}:s3cret%20pass@localhost:{port}"),
             _mail(), timeout=10)
    assert keeper.received == []


def test_plain_smtp_to_a_server_that_requires_starttls_is_refused(
        starttls_server: tuple[int, _Keeper]) -> None:
    """The server offers no login before STARTTLS: the password is never sent in the
    clear, and the failure names the setting to change (a retry would not help)."""
    port, keeper = starttls_server
    with pytest.raises(PermanentFailure, match="smtp\\+starttls://"):
        send(parse_smtp_url(f"smtp://{USER}:s3cret%20pass@localhost:{port}"), _mail(),
             timeout=10)
    assert keeper.received == []
