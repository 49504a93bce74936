"""Rule files (issue 20, docs/rules-format.md): the bytes of every rule file a game was
created with, keyed by their SHA-256, and each game's hash (NULL: a built-in rule set).
Additive: every old game keeps playing by its plugin.

Revision ID: 0004_r20
Revises: 0003_i15b
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_r20"
down_revision = "0003_i15b"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rule_files",
        sa.Column("sha256", sa.String(64), primary_key=True),
        sa.Column("format", sa.String(40), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("terms", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rule_file", sa.String(64),
                                   sa.ForeignKey("rule_files.sha256",
                                                 name="fk_games_rule_file"),
                                   nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rule_file")
    op.drop_table("rule_files")
