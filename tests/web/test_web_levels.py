"""The lobby's named bot levels: offered by the catalogue, accepted when creating a game, and
stored as their agent strings (the record says which bot played)."""

from __future__ import annotations

from web_helpers import create

from boardwright.agents import LEVELS


def test_the_catalogue_offers_the_levels_with_their_agent_strings(api) -> None:
    body = api.get("/api/catalog").json()
    expected = [{"name": n, "agent": level.agent} for n, level in LEVELS.items()]
    assert [{"name": lv["name"], "agent": lv["agent"]} for lv in body["levels"]] == expected
    assert [lv["name"] for lv in body["levels"]] == ["easy", "medium", "hard"]
    for game in body["games"]:
        assert [lv["name"] for lv in game["levels"]] == ["easy", "medium", "hard"]
        assert all(lv["description"] for lv in game["levels"])


def test_a_game_created_with_levels_stores_their_agent_strings(api) -> None:
    created = create(api, "carcassonne", ["human", "Hard", "easy"], seed=3)
    assert [s["kind"] for s in created["seats"]] == ["human", "mcts:seconds=1", "greedy:depth=1"]
    assert [s.get("level") for s in created["seats"]] == [None, "hard", "easy"]
    row = api.app.state.storage.get(created["id"])
    assert [s["kind"] for s in row["seats"]] == ["human", "mcts:seconds=1", "greedy:depth=1"]
    summary = api.get(f"/api/games/{created['id']}").json()
    assert [s.get("level") for s in summary["seats"]] == [None, "hard", "easy"]


def test_an_agent_string_of_a_level_is_shown_with_the_level_name(api) -> None:
    created = create(api, "queens", ["human", "mcts:seconds=0.25"], seed=3)
    summary = api.get(f"/api/games/{created['id']}").json()
    assert summary["seats"][1] == {"seat": 1, "kind": "mcts:seconds=0.25", "connected": False,
                                   "level": "medium", "label": "medium bot", "seat_name": "Blue",
                                   "colour": summary["seats"][1]["colour"]}


def test_an_unknown_level_is_refused_with_the_levels_named(api) -> None:
    response = api.post("/api/games", json={"game": "carcassonne", "seats": ["human", "expert"]})
    assert response.status_code == 400
    assert "expert" in response.json()["error"] and "easy, medium, hard" in response.json()["error"]
    response = api.post("/api/games", json={"game": "carcassonne",
                                            "seats": ["human", "hard:seconds=60"]})
    assert response.status_code == 400
    assert "takes no parameters" in response.json()["error"]
