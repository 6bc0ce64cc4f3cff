"""Players and ratings: identities (a name and the hash of the browser's key), the seats they
hold, ratings per game, and whether a game is rated.

Revision ID: identity
Revises: 0002
Create Date: 2026-11-26
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "identity"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "identities",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("name_key", sa.String(length=100), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key_hash"),
        sa.UniqueConstraint("name_key"),
    )
    op.create_table(
        "seat_holders",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("identity_id", sa.String(length=16), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["identity_id"], ["identities.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    op.create_index("ix_seat_holders_identity_id", "seat_holders", ["identity_id"])
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(length=64), nullable=False),
        sa.Column("player", sa.String(length=160), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game", "player"),
    )
    # a plain ADD COLUMN (SQLite has it): a batch copy of the table is not needed
    op.add_column("games", sa.Column("rated", sa.Boolean(), nullable=False,
                                     server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rated")
    op.drop_table("ratings")
    op.drop_index("ix_seat_holders_identity_id", table_name="seat_holders")
    op.drop_table("seat_holders")
    op.drop_table("identities")
