"""`boardwright serve`: the web table (lobby, tables, replays) on uvicorn."""

from __future__ import annotations

import os
from typing import Annotated

import typer
from rich.text import Text

import boardwright as bw
from boardwright.agents.registry import import_agents
from boardwright.cli.apps import app
from boardwright.cli.common import FAILURE, USAGE, fail, new_console
from boardwright.render.safe_text import visible

LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")  # uvicorn's

@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", metavar="URL",
        help="SQLAlchemy database URL (default $BOARDWRIGHT_DB, else sqlite:///boardwright.db "
             "in the working directory; postgresql+psycopg://... for PostgreSQL).")] = None,
    bot_delay: Annotated[float, typer.Option(
        help="Seconds each bot move takes at least, so people can follow it.")] = 0.3,
    bot_workers: Annotated[int | None, typer.Option(
        help="Processes that compute bot moves (default: the CPUs, at most 4).")] = None,
    hint_seconds: Annotated[float, typer.Option(
        help="Seconds of search behind a hint at the table.")] = 1.0,
    create_limit: Annotated[int, typer.Option(
        help="New games each visitor (a named player, else an address) may create per "
             "--create-window; 0: no limit.")] = 20,
    create_window: Annotated[float, typer.Option(
        help="Seconds of the --create-limit window.")] = 60.0,
    bot_only_games: Annotated[int, typer.Option(
        help="Bot-only games each visitor may have in play at a time; 0: no limit.")] = 3,
    bot_only_seconds: Annotated[float, typer.Option(
        help="Seconds of search a bot of a bot-only game may take per decision at most; 0: "
             "as its agent string says.")] = 0.5,
    claim_after: Annotated[float, typer.Option(
        help="Seconds every other player of a game must have been disconnected before the one "
             "who stayed may claim the win or end the game.")] = 60.0,
    log_level: Annotated[str, typer.Option(
        help="uvicorn's log level (critical, error, warning, info, debug, trace); seat tokens "
             "are redacted at every level.")] = "info",
    agent: Annotated[list[str] | None, typer.Option(
        "--agent", metavar="AGENT",
        help="Offer this agent string in the lobby besides the built-in agents, e.g. an "
             "installed plugin's agent (see `boardwright agents`); visitors may choose exactly "
             "the strings offered. Repeat for several.")] = None,
    imports: Annotated[list[str] | None, typer.Option(
        "--import", metavar="MODULE|FILE.py",
        help="Import a module or file that registers agents of your own before --agent is "
             "read (offer them with --agent); repeat for several.")] = None,
    workers: Annotated[int, typer.Option(
        help="Server processes on the one port (more than 1 needs a PostgreSQL --db: the "
             "processes share the games through it).")] = 1,
    policy: Annotated[list[str] | None, typer.Option(
        "--policy", metavar="NAME=FILE",
        help="Offer a trained policy file (examples/learn_carcassonne.py's policy.npz) in the "
             "lobby as the seat 'policy NAME', for the game and player count it plays; the "
             "file is read now (a relative path from this directory). Visitors never name "
             "files. Repeat for several.")] = None,
) -> None:
    """Run the web table: a lobby, game tables and replays in the browser (needs the server
    extra: pip install 'boardwright\\[server]')."""
    console = new_console()
    try:
        import uvicorn
        from sqlalchemy.engine import make_url

        from boardwright.web.app import MAX_WS_BYTES
        from boardwright.web.factory import FACTORY, SETTINGS_ENV, ServeSettings
        from boardwright.web.logsafe import uvicorn_log_config
        from boardwright.web.storage import resolve_url
    except ImportError as exc:
        fail(f"the web table needs the server extra: pip install 'boardwright[server]' "
              f"({exc.name} is missing)", USAGE)
    if not 0 < port < 65536:
        fail(f"--port must be from 1 to 65535, not {port}", USAGE)
    if bot_delay < 0:
        fail(f"--bot-delay must be 0 or more, not {bot_delay}", USAGE)
    if not 0 < hint_seconds <= 10:
        fail(f"--hint-seconds must be more than 0 and at most 10, not {hint_seconds}", USAGE)
    if create_limit < 0:
        fail(f"--create-limit must be 0 (no limit) or more, not {create_limit}", USAGE)
    if not 0 < create_window <= 86_400:
        fail(f"--create-window must be more than 0 and at most 86400, not {create_window}",
             USAGE)
    if bot_only_games < 0:
        fail(f"--bot-only-games must be 0 (no limit) or more, not {bot_only_games}", USAGE)
    if not 0 <= bot_only_seconds <= 10:
        fail(f"--bot-only-seconds must be from 0 (no budget) to 10, not {bot_only_seconds}",
             USAGE)
    if bot_workers is not None and bot_workers < 1:
        fail(f"--bot-workers must be at least 1, not {bot_workers}", USAGE)
    if log_level.lower() not in LOG_LEVELS:
        fail(f"--log-level must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}", USAGE)
    url = resolve_url(db)
    if workers < 1:
        fail(f"--workers must be at least 1, not {workers}", USAGE)
    if workers > 1 and make_url(url).get_backend_name() != "postgresql":
        fail(f"--workers {workers} needs a PostgreSQL --db: the processes share the games "
             "through its notifications, and a SQLite file is one process's database "
             "(give --db postgresql+psycopg://..., or run one worker)", USAGE)
    for source in imports or []:
        try:
            import_agents(source)
        except bw.BoardwrightError as exc:
            fail(str(exc), USAGE)
    policies: dict[str, str] = {}
    for item in policy or []:
        name, sep, path = item.partition("=")
        if not sep or not name.strip() or not path.strip():
            fail(f"--policy {item!r}: give NAME=FILE, e.g. --policy "
                  "carcassonne-rl=runs/carcassonne/policy.npz", USAGE)
        if name.strip() in policies:
            fail(f"--policy {name.strip()!r} is given twice", USAGE)
        policies[name.strip()] = path.strip()
    try:
        shown = make_url(url).render_as_string(hide_password=True)
        settings = ServeSettings(
            url, bot_delay=bot_delay, bot_workers=bot_workers, hint_seconds=hint_seconds,
            agents=list(agent or []), imports=list(imports or []), policies=policies,
            create_limit=create_limit, create_window=create_window,
            bot_only_games=bot_only_games, bot_only_seconds=bot_only_seconds,
            claim_after=claim_after)
        application = settings.create_app()
    except bw.BoardwrightError as exc:  # an --agent or --policy that is unknown or does not load
        fail(str(exc), USAGE)
    except Exception as exc:  # a bad URL, an unreachable database
        fail(f"cannot open the database {url.split('@')[-1]}: {exc}", FAILURE)
    processes = f" · {workers} processes" if workers > 1 else ""
    console.print(Text(f"boardwright web table on http://{visible(host)}:{port}/ · database "
                       f"{visible(shown)}{processes}",
                       style="bold"), soft_wrap=True)
    options = dict(host=host, port=port, ws_max_size=MAX_WS_BYTES,
                   log_level=log_level.lower(), log_config=uvicorn_log_config(log_level))
    if workers > 1:  # each worker builds the same app from the settings (factory.py)
        application.state.storage.dispose()  # this one only checked them
        os.environ[SETTINGS_ENV] = settings.to_env()
        uvicorn.run(FACTORY, factory=True, workers=workers, **options)
        return
    application.state.freeze_gc = True  # a process of its own: see app.py's lifespan
    uvicorn.run(application, **options)
