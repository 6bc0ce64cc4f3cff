"""The web table built from the environment: what each of `boardwright serve --workers N`'s
processes runs. uvicorn starts each worker in a process of its own and builds its app with an
import string and a factory (it cannot pickle an app), so `serve` puts its checked settings in
SETTINGS_ENV as JSON and every worker makes the same app from them. Several workers share the
games through PostgreSQL (cluster.py, relay.py); SQLite is one process's database."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from typing import Any

SETTINGS_ENV = "BOARDWRIGHT_SERVE_SETTINGS"
FACTORY = "boardwright.web.factory:app_from_env"


@dataclass
class ServeSettings:
    """What `boardwright serve` gives the app: its command-line options, checked, with the
    command's meanings (0 for a limit: none). One process and N workers build the app from
    them alike (`create_app`), so no option is lost on the way to a worker."""

    db: str
    bot_delay: float = 0.3
    bot_workers: int | None = None
    hint_seconds: float = 1.0
    agents: list[str] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)  # modules/files registering agents
    policies: dict[str, str] = field(default_factory=dict)
    create_limit: int = 20
    create_window: float = 60.0
    bot_only_games: int = 3
    bot_only_seconds: float = 0.5
    claim_after: float = 60.0

    def to_env(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_env(cls) -> ServeSettings:
        text = os.environ.get(SETTINGS_ENV)
        if not text:
            raise RuntimeError(f"{SETTINGS_ENV} is not set: the workers' app is started by "
                               "`boardwright serve --workers N`")
        return cls(**json.loads(text))

    def create_app(self) -> Any:
        """The app of these settings (`imports` already imported)."""
        from boardwright.web.app import create_app

        return create_app(self.db, bot_delay=self.bot_delay, bot_workers=self.bot_workers,
                          hint_seconds=self.hint_seconds, agents=self.agents,
                          policies=self.policies, create_limit=self.create_limit or None,
                          create_window=self.create_window,
                          bot_only_games=self.bot_only_games or None,
                          bot_only_seconds=self.bot_only_seconds or None,
                          claim_after=self.claim_after)


def build(settings: ServeSettings) -> Any:
    """The app of these settings, as `boardwright serve` runs it (a process of its own)."""
    from boardwright.agents.registry import import_agents

    for source in settings.imports:
        import_agents(source)
    application = settings.create_app()
    application.state.freeze_gc = True  # a process of its own: see app.py's lifespan
    return application


def app_from_env() -> Any:
    """uvicorn's factory for each worker process."""
    return build(ServeSettings.from_env())
