"""A revision number per game row, for several server processes on one database.

Every committed change of a game adds one to it; a process changes a game only from the
revision it holds (`UPDATE ... WHERE id = ? AND revision = ?`), so two processes racing on the
same game never both win (storage.py, cluster.py). Existing rows start at 0.

Revision ID: multiprocess
Revises: clocks_chat
Create Date: 2026-11-26
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "multiprocess"
down_revision = "clocks_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("revision", sa.Integer(), nullable=False,
                                   server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("revision")
