"""`boardwright serve`: its options and errors (running it is tested in test_web_restart.py)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

pytest.importorskip("fastapi", reason="the web table needs the server extra")

from boardwright.cli import app

runner = CliRunner()


def test_serve_is_a_command_with_host_port_and_db() -> None:
    result = runner.invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for flag in ("--host", "--port", "--db", "--bot-delay"):
        assert flag in result.output
    assert "serve" in runner.invoke(app, ["--help"]).output


@pytest.mark.parametrize("args, message", [
    (["--port", "0"], "--port must be from 1 to 65535"),
    (["--bot-delay", "-1"], "--bot-delay must be 0 or more"),
    (["--bot-workers", "0"], "--bot-workers must be at least 1"),
    (["--log-level", "loud"], "--log-level must be one of"),
    (["--db", "nosuchdialect://x"], "cannot open the database"),
])
def test_serve_refuses_bad_arguments(args, message) -> None:
    result = runner.invoke(app, ["serve", *args])
    assert result.exit_code != 0
    assert message in " ".join(result.output.split())


def test_serve_offers_the_agents_it_is_given(tmp_path, monkeypatch, own_agent_registry) -> None:
    """--agent strings reach the app (checked at start-up); --import loads a file first."""
    import sys

    import uvicorn

    monkeypatch.delitem(sys.modules, "plugin_agents_registering", raising=False)
    served = {}
    monkeypatch.setattr(uvicorn, "run", lambda application, **kwargs: served.update(
        app=application))
    db = f"sqlite:///{tmp_path / 'x.db'}"
    result = runner.invoke(app, ["serve", "--db", db, "--agent", "matcher", "--agent",
                                 "first:last=on", "--import", "plugin_agents_registering"])
    assert result.exit_code == 0, result.output
    assert served["app"].state.manager.lobby.agents == ("matcher", "first:last=on")
    for args, message in ((["--agent", "nobody"], "unknown agent 'nobody'"),
                          (["--agent", "matcher:depth=2"], "has no parameter 'depth'"),
                          (["--import", "no_such_module_here"], "--import no_such_module_here: "
                                                                "ModuleNotFoundError")):
        result = runner.invoke(app, ["serve", "--db", db, *args])
        assert result.exit_code == 2, result.output
        assert message in " ".join(result.output.split())
    sys.modules.pop("plugin_agents_registering", None)  # a later import registers again
