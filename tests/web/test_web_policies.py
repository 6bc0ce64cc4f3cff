"""Trained policies in the web lobby: the operator names the files (`create_app(policies=...)`,
`boardwright serve --policy NAME=FILE`), the catalogue offers each for the game and player
count it plays, a game is created and played with one, and visitors can neither name a file of
their own nor use a policy for another game."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web table needs the server extra")
pytest.importorskip("numpy", reason="policies need the rl extra")

from policy_helpers import carcassonne_policy, queens_policy
from typer.testing import CliRunner
from web_helpers import client, create, engine_state, game_socket, receive_until, sqlite_url

import boardwright as bw
from boardwright.cli import app as cli_app
from boardwright.rl.policies import PolicyFileError


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return {"carcassonne-rl": carcassonne_policy(tmp_path / "carcassonne.npz"),
            "queens-rl": queens_policy(tmp_path / "queens.npz")}


@pytest.fixture
def api(tmp_path: Path, files: dict[str, Path]):
    """The app of tests/web/conftest.py's `api`, serving the two policy files."""
    with client(sqlite_url(tmp_path), policies={n: str(p) for n, p in files.items()},
                rate_limit=100_000) as test_client:
        yield test_client


def test_the_catalogue_offers_each_policy_for_its_game(api, files) -> None:
    games = {g["name"]: g for g in api.get("/api/catalog").json()["games"]}
    [offered] = games["carcassonne"]["policies"]
    assert offered["name"] == "carcassonne-rl" and offered["players"] == 2
    assert offered["agent"] == f"policy:path={files['carcassonne-rl']}"
    assert offered["description"].startswith("carcassonne, 2 players, carcassonne-linear")
    assert [p["name"] for p in games["queens"]["policies"]] == ["queens-rl"]
    assert games["shogun"]["policies"] == []
    assert not any(a.startswith("policy") for g in games.values() for a in g["agents"])


def test_a_game_against_a_policy_is_played_to_the_end(api, files) -> None:
    spec = f"policy:path={files['carcassonne-rl']}"
    created = create(api, "carcassonne", [spec, "random"], seed=4)
    assert [s["kind"] for s in created["seats"]] == [spec, "random"]
    with game_socket(api, created["id"]) as ws:
        frame = receive_until(ws, lambda f: f["type"] == "state" and f["status"] == "finished",
                              timeout=120)
    state = engine_state(api.app.state.storage, created["id"])
    assert state.is_terminal and frame["scores"] == state.scores
    stored = api.app.state.storage.get(created["id"])
    assert [s["kind"] for s in stored["seats"]] == [spec, "random"]


def test_visitors_choose_among_the_offered_policies_only(api, files, tmp_path) -> None:
    own = carcassonne_policy(tmp_path / "mine.npz")
    offered = f"policy:path={files['carcassonne-rl']}"
    for seat in (f"policy:path={own}", "policy:path=/etc/passwd", offered + ",sample=on"):
        response = api.post("/api/games", json={"game": "carcassonne",
                                                "seats": ["human", seat]})
        assert response.status_code == 400, seat
        assert "agent 'policy' is not offered on this server" in response.json()["error"]
    response = api.post("/api/games", json={"game": "queens", "seats": ["human", offered]})
    assert response.status_code == 400
    assert "plays carcassonne with 2 players, not queens with 2" in response.json()["error"]
    response = api.post("/api/games", json={"game": "carcassonne",
                                            "seats": ["human", "random", offered]})
    assert response.status_code == 400
    assert "plays carcassonne with 2 players, not carcassonne with 3" in \
        response.json()["error"]


def test_a_bad_policy_file_stops_the_app_from_starting(tmp_path: Path) -> None:
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not an archive")
    for policies, message in (({"x": str(tmp_path / "missing.npz")}, "no such file"),
                              ({"x": str(junk)}, "is not a numpy archive"),
                              ({"bad name": str(junk)}, "policy name 'bad name'")):
        with pytest.raises(bw.InvalidOptionError, match=message):
            client(sqlite_url(tmp_path, "x.db"), policies=policies).__enter__()
    with pytest.raises(PolicyFileError):
        client(sqlite_url(tmp_path, "y.db"), policies={"x": str(junk)}).__enter__()


def test_serve_takes_policy_files_by_name(tmp_path, files, monkeypatch) -> None:
    import uvicorn

    served = {}
    monkeypatch.setattr(uvicorn, "run", lambda application, **kwargs: served.update(
        app=application))
    db = f"sqlite:///{tmp_path / 'x.db'}"
    runner = CliRunner()
    path = files["carcassonne-rl"]
    result = runner.invoke(cli_app, ["serve", "--db", db, "--policy", f"carcassonne-rl={path}"])
    assert result.exit_code == 0, result.output
    assert served["app"].state.manager.lobby.policies == {f"policy:path={path}": ("carcassonne", 2)}
    for args, message in ((["--policy", "nofile"], "give NAME=FILE"),
                          (["--policy", f"a={path}", "--policy", f"a={path}"], "given twice"),
                          (["--policy", f"a={tmp_path / 'none.npz'}"], "no such file")):
        result = runner.invoke(cli_app, ["serve", "--db", db, *args])
        assert result.exit_code == 2, result.output
        assert message in " ".join(result.output.split())
