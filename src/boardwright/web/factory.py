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
    """What `boardwright serve` gives the app (its command-line options, checked)."""

    db: str
    bot_delay: float = 0.3
    bot_workers: int | None = None
    hint_seconds: float = 1.0
    agents: list[str] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)  # modules/files registering agents
    policies: dict[str, str] = field(default_factory=dict)

    def to_env(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_env(cls) -> ServeSettings:
        text = os.environ.get(SETTINGS_ENV)
        if not text:
            raise RuntimeError(f"{SETTINGS_ENV} is not set: the workers' app is started by "
                               "`boardwright serve --workers N`")
        return cls(**json.loads(text))


def build(settings: ServeSettings) -> Any:
    """The app of these settings, as `boardwright serve` runs it (a process of its own)."""
    from boardwright.agents.registry import import_agents
    from boardwright.web.app import create_app

    for source in settings.imports:
        import_agents(source)
    application = create_app(settings.db, bot_delay=settings.bot_delay,
                             bot_workers=settings.bot_workers,
                             hint_seconds=settings.hint_seconds, agents=settings.agents,
                             policies=settings.policies)
    application.state.freeze_gc = True  # a process of its own: see app.py's lifespan
    return application


def app_from_env() -> Any:
    """uvicorn's factory for each worker process."""
    return build(ServeSettings.from_env())
