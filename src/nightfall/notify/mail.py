"""E-mail: a message of the outbox as MIME (plain text plus HTML) and its sending by SMTP.

Every mail names the game in its subject, carries a stable ``Message-ID`` (the same for a
retry or a resend, so a mail client can recognise a copy), ``Auto-Submitted`` and
``List-Unsubscribe`` with ``List-Unsubscribe-Post: List-Unsubscribe=One-Click`` (RFC 8058:
the link switches his e-mail off with one POST, no login).
"""

from __future__ import annotations

import smtplib
import ssl
from email.message import EmailMessage
from email.utils import formatdate, parseaddr

from nightfall.notify.config import SmtpTarget


class TemporaryFailure(Exception):
    """The server or the network said "not now": try again later."""


class PermanentFailure(Exception):
    """The server refused the message for good (a 5xx answer): do not try again."""


def message_id(row_id: int, game_id: str, mail_from: str) -> str:
    domain = parseaddr(mail_from)[1].rpartition("@")[2] or "localhost"
    return f"<nightfall.{game_id}.{row_id}@{domain}>"


def build(*, row_id: int, game_id: str, to: str, mail_from: str, subject: str, text: str,
          html: str | None, locale: str, unsubscribe_url: str | None) -> EmailMessage:
    message = EmailMessage()
    message["From"] = mail_from
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = message_id(row_id, game_id, mail_from)
    message["Auto-Submitted"] = "auto-generated"
    if unsubscribe_url:
        message["List-Unsubscribe"] = f"<{unsubscribe_url}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(text)
    if html:
        message.add_alternative(html, subtype="html")
    message["Content-Language"] = locale  # after the body: set_content drops Content-*
    return message


def _answer(code: int, text: bytes | str) -> str:
    words = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
    return f"{code} {words}".strip()


def send(target: SmtpTarget, message: EmailMessage, timeout: float) -> None:
    """Hand ``message`` to the server; :class:`TemporaryFailure` or :class:`PermanentFailure`
    with the server's answer if it is not accepted."""
    context = ssl.create_default_context()
    try:
        client = (smtplib.SMTP_SSL(target.host, target.port, timeout=timeout, context=context)
                  if target.scheme == "smtps"
                  else smtplib.SMTP(target.host, target.port, timeout=timeout))
        with client:
            if target.scheme == "smtp+starttls":
                client.starttls(context=context)
            if target.user:
                client.login(target.user, target.password or "")
            client.send_message(message)
    except smtplib.SMTPRecipientsRefused as refused:
        answers = [_answer(code, text) for code, text in refused.recipients.values()]
        if all(code >= 500 for code, _ in refused.recipients.values()):
            raise PermanentFailure("; ".join(answers)) from None
        raise TemporaryFailure("; ".join(answers)) from None
    except smtplib.SMTPNotSupportedError as missing:  # no AUTH (or STARTTLS) offered:
        # a setting to change (e.g. the server wants smtp+starttls://), not a busy server
        raise PermanentFailure(f"{missing} (check NIGHTFALL_SMTP_URL: "
                               f"smtp+starttls:// or smtps://)") from None
    except smtplib.SMTPResponseException as answer:
        text = _answer(answer.smtp_code, answer.smtp_error)
        if answer.smtp_code >= 500:
            raise PermanentFailure(text) from None
        raise TemporaryFailure(text) from None
    except (OSError, smtplib.SMTPException) as error:  # refused, timed out, disconnected
        raise TemporaryFailure(f"{type(error).__name__}: {error}") from None
