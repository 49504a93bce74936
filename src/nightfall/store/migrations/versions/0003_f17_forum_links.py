"""A game's forum thread: its link, every count made of it, and the page cache.

Revision ID: 0003_f17
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_f17"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "forum_links",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("credentials", sa.JSON, nullable=False),
        sa.Column("auto_submit", sa.Boolean, nullable=False),
        sa.Column("review_minutes", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "forum_counts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("claim", sa.String(120), nullable=True),
        sa.Column("phase", sa.String(32), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("result", sa.JSON, nullable=True),
    )
    op.create_index("ux_forum_counts_claim", "forum_counts", ["game_id", "claim"],
                    unique=True)
    op.create_index("ix_forum_counts_game", "forum_counts", ["game_id", "id"])
    op.create_table(
        "forum_pages",
        sa.Column("url_hash", sa.String(64), primary_key=True),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("etag", sa.String(300), nullable=True),
        sa.Column("last_modified", sa.String(100), nullable=True),
        sa.Column("body", sa.LargeBinary, nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("forum_pages")
    op.drop_index("ix_forum_counts_game", "forum_counts")
    op.drop_index("ux_forum_counts_claim", "forum_counts")
    op.drop_table("forum_counts")
    op.drop_table("forum_links")
