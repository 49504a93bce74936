"""Notifications: e-mail, chat and push channels (Apprise) and calendar feeds.

Everything a player is told outside his page goes through the **transactional outbox**
(``outbox.py``): the messages an event causes are rows written in the same database
transaction as the event (``EventStore`` calls :meth:`Notifier.plan` before it commits), so
a rolled-back command sends nothing and a committed one always sends. Each message to a
player is composed from that player's projection only (``compose.py``: ``Game.view`` and
``Game.legal_commands``), a channel message from the public projection only. The delivery
worker (``worker.py``) claims due rows, sends them by SMTP (``mail.py``) or Apprise
(``channels.py``) and records the outcome; ``calendar.py`` serves the deadline feeds.
See docs/notifications.md.
"""

from __future__ import annotations
