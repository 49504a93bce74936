"""Rate limits: one row per limited key (a player's link) with its next free moment.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_limits",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("tat", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rate_limits")
