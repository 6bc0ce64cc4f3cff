"""Who created a game: the name its creator played under (the lobby's "host").

Null for games created without a name, and for every game created before this revision.

Revision ID: host
Revises: multiprocess
Create Date: 2026-11-28
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "host"
down_revision = "multiprocess"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("host", sa.String(length=100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("host")
