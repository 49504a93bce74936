"""Real servers for the notification tests: an SMTP server (aiosmtpd) that keeps and
parses what it receives and can be told to answer "try later" or "never", and an HTTP
receiver for Apprise ``json://`` channels. Both listen on loopback ports of their own and
stop with the test."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class _Handler:
    def __init__(self, box: SmtpBox) -> None:
        self.box = box

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          options: Any) -> str:
        if self.box.answer is not None:
            return self.box.answer
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.box.delay:
            time.sleep(self.box.delay)  # a slow server (blocks its own loop thread only)
        parsed = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        with self.box.lock:
            self.box.received.append(parsed)
        return "250 OK"


class SmtpBox:
    """An SMTP server on 127.0.0.1 keeping every message it accepts (parsed)."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.received: list[EmailMessage] = []
        self.lock = threading.Lock()
        #: when set (e.g. "451 try later", "550 no such user"), every recipient gets it
        self.answer: str | None = None
        self.delay = 0.0
        self.controller = Controller(_Handler(self), hostname="127.0.0.1", port=self.port)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> SmtpBox:
        self.controller.start()
        return self

    def stop(self) -> None:
        self.controller.stop()

    def messages(self) -> list[EmailMessage]:
        with self.lock:
            return list(self.received)

    def wait_for(self, count: int, seconds: float = 20.0) -> list[EmailMessage]:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if len(self.messages()) >= count:
                return self.messages()
            time.sleep(0.05)
        return self.messages()


def text_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def html_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("html",))
    assert part is not None
    return str(part.get_content())


class JsonReceiver:
    """An HTTP server that keeps the JSON bodies posted to it (Apprise ``json://``)."""

    def __init__(self) -> None:
        self.posts: list[dict[str, Any]] = []
        self.status = 200
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                receiver.posts.append({"path": self.path, **json.loads(body or b"{}")})
                self.send_response(receiver.status)
                self.end_headers()
                self.wfile.write(b"ok" if receiver.status < 400 else b"busy, try later")

            def log_message(self, *_: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = int(self.server.server_address[1])
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str = "hook") -> str:
        return f"json://127.0.0.1:{self.port}/{path}"

    def start(self) -> JsonReceiver:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def eventually(check: Callable[[], bool], seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return check()
