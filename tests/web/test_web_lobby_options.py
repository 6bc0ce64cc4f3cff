"""The lobby's data: the catalog carries each game's option specs (the game's own, per player
count), and open seats: created without a token, listed as open, taken once by whoever asks
(POST /api/games/{id}/seats/{seat}/take), whose token then plays the seat."""

from __future__ import annotations

import pytest
from players_helpers import as_player, first_state, new_player, socket
from web_helpers import create

import boardwright as bw


def test_the_catalog_carries_every_games_option_specs_per_player_count(api) -> None:
    games = {g["name"]: g for g in api.get("/api/catalog").json()["games"]}
    for name in ("carcassonne", "queens", "shogun"):
        entry = games[name]
        assert sorted(map(int, entry["option_specs"])) == entry["players"]
        for players in entry["players"]:
            served = entry["option_specs"][str(players)]
            assert served == [s.to_json() for s in bw.option_specs(name, players)]
        first = entry["option_specs"][str(entry["players"][0])]
        assert entry["options_help"] == {o["name"]: o["help"] for o in first}
    carcassonne = {o["name"]: o for o in games["carcassonne"]["option_specs"]["2"]}
    assert carcassonne["expansions"]["choices"] == ["abbey_mayor"]
    assert carcassonne["expansions"]["labels"] == {"abbey_mayor": "Abbey & Mayor"}
    assert carcassonne["abbeys"] == {
        "name": "abbeys", "type": "int", "default": 1, "min": 0, "max": 20,
        "requires": {"expansions": "abbey_mayor"}, "help": carcassonne["abbeys"]["help"],
        "label": "Abbey tiles per player"}
    assert carcassonne["starting_seat"]["seat"] is True  # a seat, shown counted from 1
    assert carcassonne["start_tile"]["advanced"] is True and "advanced" not in carcassonne["farmers"]
    assert carcassonne["starting_seat"]["max"] == 1
    assert games["carcassonne"]["option_specs"]["5"][3]["max"] == 4
    shogun = {o["name"]: o for o in games["shogun"]["option_specs"]["3"]}
    assert shogun["vp_threshold"]["default"] == 22
    assert (shogun["heroes"]["min"], shogun["heroes"]["max"]) == (3, 3)


def test_an_open_seat_is_taken_once_by_a_named_player_who_plays_it_by_cookie(api) -> None:
    created = create(api, "carcassonne", ["human", "open", "greedy"], seed=3,
                     options={"draw_order": ["E", "U", "V"]})
    game_id = created["id"]
    open_seat = created["seats"][1]
    assert open_seat["open"] is True and open_seat["kind"] == "human"
    assert "token" not in open_seat and "join_url" not in open_seat
    listed = next(g for g in api.get("/api/games?status=open").json() if g["id"] == game_id)
    assert [s.get("open", False) for s in listed["seats"]] == [False, True, False]
    assert api.app.state.storage.get(game_id)["seats"][1]["token_hash"] is None

    take = f"/api/games/{game_id}/seats/1/take"
    assert api.post(take).status_code == 401  # no name: open seats are for named players
    bob, ann = new_player(api, "Bob"), new_player(api, "Ann")
    taken = api.post(take, headers=as_player(bob))
    assert taken.status_code == 200, taken.text
    assert taken.json()["play_url"] == f"/play/{game_id}?seat=1"
    again = api.post(take, headers=as_player(ann))
    assert again.status_code == 409 and "not open" in again.json()["error"]
    summary = api.get(f"/api/games/{game_id}").json()
    assert not any(s.get("open") for s in summary["seats"])
    assert summary["seats"][1]["name"] == "Bob"
    stored = api.app.state.storage.get(game_id)["seats"][1]
    assert "open" not in stored and stored["token_hash"] is None and stored["joined"] is True
    with socket(api, game_id, bob) as ws:
        frame = first_state(ws)
        assert frame["seat"] == 1 and frame["view"] is not None


@pytest.mark.parametrize(("path", "status", "says"), [
    ("/api/games/nosuchgame/seats/0/take", 404, "no game"),
    ("/api/games/{id}/seats/7/take", 404, "seats 0 to 2"),
    ("/api/games/{id}/seats/0/take", 409, "not open"),  # the creator's own (invitation) seat
    ("/api/games/{id}/seats/2/take", 409, "a bot's"),
])
def test_only_an_open_seat_can_be_taken(api, path: str, status: int, says: str) -> None:
    created = create(api, "carcassonne", ["human", "open", "random"], seed=3)
    player = new_player(api, "Cleo")
    response = api.post(path.format(id=created["id"]), headers=as_player(player))
    assert response.status_code == status and says in response.json()["error"]


def test_an_open_seat_of_a_finished_game_cannot_be_taken(api) -> None:
    ended = create(api, "carcassonne", ["human", "open"], seed=3, options={"draw_order": []})
    player = new_player(api, "Dana")
    response = api.post(f"/api/games/{ended['id']}/seats/1/take", headers=as_player(player))
    assert response.status_code == 409 and "is over" in response.json()["error"]
