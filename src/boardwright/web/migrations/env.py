"""Alembic environment of the web table's database.

The server runs it programmatically (storage.ensure_schema passes its connection in
`config.attributes["connection"]`). From a shell:

    alembic -c src/boardwright/web/migrations/alembic.ini upgrade head
    alembic -c src/boardwright/web/migrations/alembic.ini revision --autogenerate -m "..."

with the database taken from $BOARDWRIGHT_DB (default: sqlite:///boardwright.db).
"""

from __future__ import annotations

from alembic import context

from boardwright.web.schema import Base
from boardwright.web.storage import make_engine, resolve_url

config = context.config
target_metadata = Base.metadata


def run_migrations_offline() -> None:
    context.configure(url=resolve_url(config.get_main_option("sqlalchemy.url")),
                      target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_with(connection) -> None:  # type: ignore[no-untyped-def]
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=True, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        run_with(connection)
        return
    engine = make_engine(resolve_url(config.get_main_option("sqlalchemy.url")))
    try:
        with engine.begin() as connection:
            run_with(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
