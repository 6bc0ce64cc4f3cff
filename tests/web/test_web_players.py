"""Named players over HTTP and websockets: choosing and changing a name, the cookie, "my
games", a seat bound by its invitation link, rejoining by the cookie alone, open seats taken."""

from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import select
from web_helpers import client, create, receive, receive_until, seat_socket, sqlite_url

from boardwright.web import protocol as P
from boardwright.web.identity import COOKIE, IDENTITIES, HOLDERS
from boardwright.web.names import InvalidNameError, name_key, validate_name

from players_helpers import as_player, first_state, new_player, socket


@pytest.mark.parametrize("raw, why", [
    ("", "at least"), ("a", "at least"), ("x" * 25, "at most"), (7, "string"),
    ("<b>bold</b>", "not '<'"), ("Ann\u202eLee", "U+202E"), ("Ann\x00Lee", "U+0000"),
    ("-Ann", "starts with"), ("bot", "reserved"), ("Spectator", "reserved"),
    ("a&b", "not '&'"), ("bot:hard", "not ':'"), ("\u200bAnn", "U+200B"),
])
def test_names_that_are_refused_say_why(raw, why) -> None:
    with pytest.raises(InvalidNameError) as info:
        validate_name(raw)
    assert why in str(info.value)


def test_names_are_normalised_and_compared_without_case_spaces_or_punctuation() -> None:
    assert validate_name("  Ann   Lee ") == validate_name("Ann\n\tLee") == "Ann Lee"
    assert validate_name("Zoë") == "Zoë" and validate_name("Zoe\u0308") == "Zoë"  # NFC
    assert validate_name("Łukasz_9") == "Łukasz_9"
    assert validate_name("李小龍") == "李小龍"
    assert validate_name("O'Neil") == "O'Neil"
    assert name_key("Ann Lee") == name_key("ann_lee") == name_key("ANN.LEE") == "annlee"
    assert name_key("Straße") == name_key("STRASSE")


def test_choose_change_and_keep_a_name_with_an_http_only_cookie(tmp_path) -> None:
    with client(sqlite_url(tmp_path)) as api:
        assert api.get("/api/me").json() == {"id": None, "name": None}
        response = api.post("/api/me", json={"name": "Ann"})
        assert response.status_code == 201
        me = response.json()
        assert me["name"] == "Ann" and len(me["id"]) == 12
        header = response.headers["set-cookie"]
        key = response.cookies[COOKIE]
        assert "httponly" in header.lower() and "samesite=lax" in header.lower()
        assert "path=/" in header.lower() and "max-age=" in header.lower()
        assert key not in response.text and len(key) >= 43
        # the database keeps the key's hash, never the key
        storage = api.app.state.storage
        with storage.engine.connect() as connection:
            row = connection.execute(select(IDENTITIES)).mappings().one()
        assert row["key_hash"] == hashlib.sha256(key.encode()).hexdigest()
        assert key not in str(dict(row))
        # the cookie is the player: renewed on each visit
        again = api.get("/api/me")
        assert again.json() == me and COOKIE in again.cookies
        renamed = api.post("/api/me", json={"name": "Ann Lee"})
        assert renamed.status_code == 200 and renamed.json() == {"id": me["id"], "name": "Ann Lee"}
        assert COOKIE not in renamed.cookies  # the key does not change
        assert api.get("/api/me").json()["name"] == "Ann Lee"
        # another browser cannot take the name, in any spelling
        api.cookies.clear()
        for spelling in ("ann lee", "ANN_LEE", "Ann.Lee"):
            taken = api.post("/api/me", json={"name": spelling})
            assert taken.status_code == 409 and "taken" in taken.json()["error"]
        bad = api.post("/api/me", json={"name": "<script>"})
        assert bad.status_code == 400 and "not '<'" in bad.json()["error"]
        assert api.post("/api/me", json={"nickname": "x"}).status_code == 400
        assert api.post("/api/me", content=b"{").status_code == 400
        # a key that is not one is nobody
        assert api.get("/api/me", headers=as_player("forged")).json()["name"] is None
        assert api.get("/api/me", headers=as_player("x" * 5000)).json()["name"] is None


def test_a_request_from_another_origin_cannot_act_with_the_cookie(tmp_path) -> None:
    with client(sqlite_url(tmp_path)) as api:
        key = new_player(api, "Ann")
        evil = {**as_player(key), "origin": "http://evil.example"}
        refused = api.post("/api/me", json={"name": "Mallory"}, headers=evil)
        assert refused.status_code == 403
        assert api.get("/api/me", headers=as_player(key)).json()["name"] == "Ann"
        created = create(api, "carcassonne", ["human", "open"])
        took = api.post(f"/api/games/{created['id']}/seats/1/take", headers=evil)
        assert took.status_code == 403
        # a websocket from another origin is a spectator, whatever seat the cookie holds
        ok = {**as_player(key), "origin": "http://testserver"}
        assert api.post(f"/api/games/{created['id']}/seats/1/take", headers=ok).status_code == 200
        with api.websocket_connect(f"/ws/games/{created['id']}", headers=evil) as ws:
            assert first_state(ws)["seat"] is None
        with api.websocket_connect(f"/ws/games/{created['id']}", headers=ok) as ws:
            assert first_state(ws)["seat"] == 1


def test_an_invitation_opened_by_a_named_player_binds_the_seat_and_the_cookie_rejoins(
        tmp_path) -> None:
    with client(sqlite_url(tmp_path)) as api:
        ann, bob = new_player(api, "Ann"), new_player(api, "Bob")
        created = create(api, "carcassonne", ["human", "human"], seed=3)
        game_id = created["id"]
        tokens = [s["token"] for s in created["seats"]]
        with socket(api, game_id, ann, tokens[0]) as ws:
            frame = first_state(ws)
            assert frame["seat"] == 0 and frame["seats"][0]["name"] == "Ann"
            assert "name" not in frame["seats"][1]
        summary = api.get(f"/api/games/{game_id}").json()
        assert [s.get("name") for s in summary["seats"]] == ["Ann", None]
        listed = next(g for g in api.get("/api/games").json() if g["id"] == game_id)
        assert listed["seats"][0]["name"] == "Ann"
        # any tab with the cookie sits at Ann's seat without the token
        with socket(api, game_id, ann) as ws:
            frame = first_state(ws)
            assert frame["seat"] == 0 and frame["legal_actions"]
            ws.send_json({"type": "move", "action": frame["legal_actions"][0], "step": 0})
            assert receive_until(ws, lambda f: f["type"] == "state")["step"] == 1
        # without the cookie (or with someone else's) the same address is a spectator's
        for key in (None, bob):
            with socket(api, game_id, key) as ws:
                assert first_state(ws)["seat"] is None
        # the invitation still works for whoever has it, and does not change the holder
        with socket(api, game_id, bob, tokens[0]) as ws:
            assert first_state(ws)["seat"] == 0
        assert api.get(f"/api/games/{game_id}").json()["seats"][0]["name"] == "Ann"
        # Bob joins by his invitation: one seat each
        with socket(api, game_id, bob, tokens[1]) as ws:
            assert first_state(ws)["seats"][1]["name"] == "Bob"
        # Ann's games: the game, her seat, where to open it
        mine = api.get("/api/me/games", headers=as_player(ann)).json()
        assert [(g["id"], g["my_seat"], g["url"]) for g in mine] == \
            [(game_id, 0, f"/play/{game_id}?seat=0")]
        assert api.get("/api/me/games", headers=as_player(bob)).json()[0]["my_seat"] == 1
        assert api.get("/api/me/games").status_code == 401


def test_a_player_holds_one_seat_per_game(tmp_path) -> None:
    with client(sqlite_url(tmp_path)) as api:
        ann = new_player(api, "Ann")
        created = create(api, "carcassonne", ["human", "human"])
        tokens = [s["token"] for s in created["seats"]]
        with socket(api, created["id"], ann, tokens[0]) as ws:
            assert first_state(ws)["seat"] == 0
        with socket(api, created["id"], ann, tokens[1]) as ws:  # plays it, not bound
            frame = first_state(ws)
            assert frame["seat"] == 1 and "name" not in frame["seats"][1]
        with api.app.state.storage.engine.connect() as connection:
            held = connection.execute(select(HOLDERS.c.seat)).scalars().all()
        assert held == [0]


def test_take_an_open_seat(tmp_path) -> None:
    with client(sqlite_url(tmp_path)) as api:
        ann, bob = new_player(api, "Ann"), new_player(api, "Bob")
        created = create(api, "carcassonne", ["open", "open", "human", "random"], seed=5)
        game_id = created["id"]
        assert [("token" in s, s.get("open", False)) for s in created["seats"]] == [
            (False, True), (False, True), (True, False), (False, False)]
        take = f"/api/games/{game_id}/seats/%d/take"
        assert api.post(take % 1).status_code == 401  # no name
        taken = api.post(take % 1, headers=as_player(bob))
        assert taken.status_code == 200, taken.text
        body = taken.json()
        assert body["seat"] == 1 and body["play_url"] == f"/play/{game_id}?seat=1"
        assert body["game"]["seats"][1]["name"] == "Bob"
        again = api.post(take % 1, headers=as_player(ann))
        assert again.status_code == 409 and "not open" in again.json()["error"]
        holds = api.post(take % 0, headers=as_player(bob))
        assert holds.status_code == 409 and "already hold seat 2" in holds.json()["error"]
        invited = api.post(take % 2, headers=as_player(ann))  # an invitation is not open
        assert invited.status_code == 409 and "not open" in invited.json()["error"]
        bot = api.post(take % 3, headers=as_player(ann))
        assert bot.status_code == 409 and "bot" in bot.json()["error"]
        assert api.post(take % 7, headers=as_player(ann)).status_code == 404
        assert api.post("/api/games/nosuchgame/seats/0/take",
                        headers=as_player(ann)).status_code == 404
        with socket(api, game_id, bob) as ws:
            assert first_state(ws)["seat"] == 1
        # the game opens when its last human seat is taken or joined
        assert api.post(take % 0, headers=as_player(ann)).status_code == 200
        assert api.get(f"/api/games/{game_id}").json()["status"] == "open"
        with seat_socket(api, created, 2) as ws:
            assert receive(ws)["seat"] == 2
        assert api.get(f"/api/games/{game_id}").json()["status"] == "running"
        mine = api.get("/api/me/games", headers=as_player(ann)).json()
        assert {g["id"] for g in mine} == {game_id}


def test_names_are_kept_in_the_replay_and_after_a_restart(tmp_path) -> None:
    from players_helpers import SHORT_PILE, play_to_end

    url = sqlite_url(tmp_path)
    with client(url) as api:
        ann = new_player(api, "Ann")
        created = create(api, "carcassonne", ["human", "random"], seed=2,
                         options={"draw_order": SHORT_PILE})
        with socket(api, created["id"], ann, created["seats"][0]["token"]) as ws:
            first_state(ws)
        game_id = created["id"]
    with client(url) as api:  # a new server process: names and holders come back
        with socket(api, game_id, ann) as ws:
            frame = play_to_end({0: ws})
        assert frame["seats"][0]["name"] == "Ann"
        replay = api.get(f"/api/games/{game_id}/replay").json()
        assert replay["names"] == ["Ann", None]
        assert replay["levels"] == [None, None]  # "random" is an agent, not a level


def test_a_replay_names_the_level_of_each_bot_seat() -> None:
    """The replay page names a bot's seat by its label ("bot: hard"), as the players list does:
    the replay says each seat's level."""
    import json

    from boardwright.agents.levels import LEVELS
    from boardwright.web.replays import build_replay

    row = {"game": "carcassonne", "players": 3, "options": {}, "seed": 1, "record": [],
           "seats": [{"kind": "human", "name": "Ann"}, {"kind": LEVELS["hard"].agent},
                     {"kind": "random"}]}
    body = json.loads(build_replay(row)["body"])
    assert body["names"] == ["Ann", None, None]
    assert body["levels"] == [None, "hard", None]
