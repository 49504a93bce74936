"""Observer links (Island I6.7): an access token may belong to an observer, an outsider
the GM let into the thread, instead of a player; additive, every old token is a
player's or the GM's.

Revision ID: 0003_i15b
Revises: 0003_n16
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_i15b"
down_revision = "0003_n16"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("access_tokens") as batch:
        batch.add_column(sa.Column("observer", sa.Boolean, nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("access_tokens") as batch:
        batch.drop_column("observer")
