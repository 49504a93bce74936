"""``nightfall serve --mail-catcher``: an SMTP server inside the process (aiosmtpd) that
keeps what it receives, and a page listing it, so a GM can try every e-mail on one
machine without a mail server. Nothing leaves the machine; what it caught is lost when
the server stops. The page (its address printed at start, with a random key in it) shows
every player's mail — private links included: it is for trying things out, not for a
real game."""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


@dataclass(frozen=True)
class Caught:
    at: datetime
    sender: str
    recipients: tuple[str, ...]
    message: EmailMessage

    @property
    def subject(self) -> str:
        return str(self.message.get("Subject", ""))

    @property
    def text(self) -> str:
        part = self.message.get_body(preferencelist=("plain",))
        return part.get_content() if part is not None else ""


class _Keeper:
    def __init__(self) -> None:
        self.caught: list[Caught] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        with self.lock:
            self.caught.append(Caught(datetime.now(UTC), str(envelope.mail_from),
                                      tuple(envelope.rcpt_tos), parsed))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class MailCatcher:
    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self._keeper = _Keeper()
        self._controller = Controller(self._keeper, hostname="127.0.0.1", port=self.port)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._controller.start()

    def stop(self) -> None:
        self._controller.stop()

    def messages(self) -> list[Caught]:
        with self._keeper.lock:
            return list(reversed(self._keeper.caught))
