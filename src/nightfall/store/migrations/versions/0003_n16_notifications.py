"""Notifications: players' contacts, game channels, reminder settings and the outbox.

Revision ID: 0003_n16
Revises: 0003_f17
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_n16"
down_revision = "0003_f17"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "contacts",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("player", sa.String(80), primary_key=True),
        sa.Column("email", sa.String(320), nullable=True),
        sa.Column("email_state", sa.String(16), nullable=False),
        sa.Column("confirm_hash", sa.String(64), nullable=True),
        sa.Column("unsubscribe_key", sa.String(64), nullable=False),
        sa.Column("push_url", sa.String(2000), nullable=True),
        sa.Column("preferences", sa.JSON, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_contacts_email", "contacts", ["game_id", "email"])
    op.create_index("ix_contacts_confirm", "contacts", ["confirm_hash"])
    op.create_index("ix_contacts_unsubscribe", "contacts", ["unsubscribe_key"])
    op.create_table(
        "channels",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("shown", sa.String(300), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_channels_game", "channels", ["game_id"])
    op.create_table(
        "notify_settings",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("reminder_minutes", sa.Integer, nullable=False),
    )
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("player", sa.String(80), nullable=True),
        sa.Column("channel_id", sa.Integer, nullable=True),
        sa.Column("transport", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("locale", sa.String(8), nullable=False),
        sa.Column("subject", sa.String(300), nullable=False),
        sa.Column("body_text", sa.String, nullable=False),
        sa.Column("body_html", sa.String, nullable=True),
        sa.Column("condition", sa.JSON, nullable=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claim", sa.String(32), nullable=True),
        sa.Column("last_error", sa.String(1000), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_outbox_due", "outbox", ["status", "due_at"])
    op.create_index("ix_outbox_game", "outbox", ["game_id", "id"])


def downgrade() -> None:
    for index, table in (("ix_outbox_game", "outbox"), ("ix_outbox_due", "outbox"),
                         ("ix_channels_game", "channels"),
                         ("ix_contacts_unsubscribe", "contacts"),
                         ("ix_contacts_confirm", "contacts"), ("ix_contacts_email", "contacts")):
        op.drop_index(index, table_name=table)
    for table in ("outbox", "notify_settings", "channels", "contacts"):
        op.drop_table(table)
