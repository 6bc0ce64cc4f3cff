"""A real PostgreSQL for the storage tests.

`BOARDWRIGHT_TEST_POSTGRES` names a scratch database to use. Without it, the tests start a
throwaway server of their own from the machine's PostgreSQL binaries (Debian's `postgresql`
package, which `make test` installs when it runs as root): a new cluster in a temporary folder,
reached through a Unix socket there, stopped at the end of the session. Only a machine without
those binaries skips the PostgreSQL runs, and says so.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

POSTGRES_ENV = "BOARDWRIGHT_TEST_POSTGRES"


def _server_binaries() -> Path | None:
    """The bin folder of the newest PostgreSQL server installed (Debian keeps one per version)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda path: int(Path(path).parts[-3]) if Path(path).parts[-3].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


def _as_server_user(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: there, run it as the `postgres` account."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    url = os.environ.get(POSTGRES_ENV)
    if url:
        yield url
        return
    binaries = _server_binaries()
    if binaries is None:
        pytest.skip(f"no PostgreSQL server here (install Debian's postgresql, or set {POSTGRES_ENV} "
                    "to a scratch database URL)")
    # (not under pytest's temporary folder: that one is closed to other accounts)
    home = Path(tempfile.mkdtemp(prefix="boardwright-postgres-"))
    data, sockets = home / "data", home / "run"
    sockets.mkdir()
    if os.geteuid() == 0:
        shutil.chown(home, "postgres")
        shutil.chown(sockets, "postgres")
    port = "54329"

    def run(*args: str) -> None:
        subprocess.run(_as_server_user([str(binaries / args[0]), *args[1:]]), check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)

    run("initdb", "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8")
    run("pg_ctl", "-D", str(data), "-w", "-l", str(home / "server.log"), "-o",
        f"-k {sockets} -p {port} -c listen_addresses='' -c fsync=off", "start")
    try:
        yield f"postgresql+psycopg://postgres@/postgres?host={sockets}&port={port}"
    finally:
        run("pg_ctl", "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(home, ignore_errors=True)


def _drop_tables(url: str) -> None:
    """Drop every table the server creates (a scratch PostgreSQL database is shared by tests)."""
    from sqlalchemy import text

    from boardwright.web import storage

    engine = storage.make_engine(url)
    with engine.begin() as connection:
        for table in ("analyses", "chat_messages", "seat_holders", "identities", "ratings",
                      "games", "alembic_version"):  # the tables of modules not imported here
            connection.execute(text(f"DROP TABLE IF EXISTS {table} CASCADE"
                                    if engine.dialect.name == "postgresql"
                                    else f"DROP TABLE IF EXISTS {table}"))
        storage.Base.metadata.drop_all(connection)  # every table of the schema, dependents first
    engine.dispose()


@pytest.fixture
def postgres_db(postgres_url: str) -> Iterator[str]:
    """A real PostgreSQL database URL alone, its tables dropped before and after the test."""
    from boardwright.web import storage

    url = storage.resolve_url(postgres_url)
    _drop_tables(url)
    yield url
    _drop_tables(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL: a SQLite file, and again a real PostgreSQL (its tables dropped before and
    after the test)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    from boardwright.web import storage

    url = storage.resolve_url(request.getfixturevalue("postgres_url"))
    _drop_tables(url)
    yield url
    _drop_tables(url)


@pytest.fixture
def api(tmp_path):
    """A test client of the app on a fresh SQLite file (a test module may define its own, with
    other settings of the app)."""
    from web_helpers import client, sqlite_url

    with client(sqlite_url(tmp_path)) as test_client:
        yield test_client
