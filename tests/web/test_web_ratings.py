"""Ratings: the update at a rated game's end is OpenSkill's own (checked against the library
for 2 and 4 players), it commits with the finished record, and nothing else changes a rating
(a property test over games of every kind)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce
from sqlalchemy import select
from web_helpers import client, create, engine_state, receive_until, sqlite_url

from boardwright.web import ratings as R
from boardwright.web import storage as S

from players_helpers import SHORT_PILE, as_player, first_state, new_player, play_to_end, socket


def stored_ratings(storage: Any) -> dict[tuple[str, str], tuple[float, float, int]]:
    with storage.engine.connect() as connection:
        rows = connection.execute(select(R.RATINGS)).all()
    return {(row.game, row.player): (row.mu, row.sigma, row.games) for row in rows}


def library_update(before: list[tuple[float, float]], returns: list[float]) -> list[Any]:
    """What openskill itself says, computed here without the module under test."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [team[0] for team in model.rate(teams, ranks=[-r for r in returns])]


def test_rate_is_the_librarys_plackett_luce_with_ties() -> None:
    before = [R.Rating(25.0, 25 / 3), R.Rating(30.0, 4.0), R.Rating(20.0, 6.0)]
    returns = [1.0, -0.5, -0.5]  # seat 0 first, seats 1 and 2 tied
    after = R.rate(before, returns)
    expected = library_update([(r.mu, r.sigma) for r in before], returns)
    assert [(a.mu, a.sigma) for a in after] == [(e.mu, e.sigma) for e in expected]
    assert after[0].mu > 25.0 and after[1].mu < 30.0
    with pytest.raises(ValueError):
        R.rate(before, [1.0, 0.0])


def play_rated(api: Any, key: str, seats: list[str], seed: int) -> tuple[str, dict[str, Any]]:
    """A Carcassonne game on the short pile: the named player in seat 0, bots elsewhere,
    played to its end by first legal moves. Returns its id and the final state frame."""
    created = create(api, "carcassonne", seats, seed=seed, options={"draw_order": SHORT_PILE})
    assert created["rated"] is True
    with socket(api, created["id"], key, created["seats"][0]["token"]) as ws:
        frame = play_to_end({0: ws})
    return created["id"], frame


@pytest.mark.parametrize("bots", [["random"], ["random", "greedy", "easy"]],
                         ids=["2 players", "4 players"])
def test_a_rated_games_update_is_exactly_the_librarys(tmp_path, bots) -> None:
    with client(sqlite_url(tmp_path)) as api:
        storage = api.app.state.storage
        ann = new_player(api, "Ann")
        me = api.get("/api/me", headers=as_player(ann)).json()["id"]
        keys = [f"id:{me}"] + [R.bot_key(b if b != "easy" else "greedy:depth=1") for b in bots]
        assert keys[1:] == [f"bot:{b}" for b in bots]  # a level is rated under its name
        expected_before = [(25.0, 25 / 3)] * len(keys)
        for game_number in (1, 2):  # the second game starts from the first one's ratings
            game_id, frame = play_rated(api, ann, ["human", *bots], seed=10 + game_number)
            returns = engine_state(storage, game_id).returns()
            expected = library_update(expected_before, returns)
            table = stored_ratings(storage)
            for seat, (key, new) in enumerate(zip(keys, expected)):
                assert table[("carcassonne", key)] == (new.mu, new.sigma, game_number)
                change = frame["seats"][seat]["rating"]
                assert change["player"] == key
                assert (change["before"]["mu"], change["before"]["sigma"]) == expected_before[seat]
                assert (change["after"]["mu"], change["after"]["sigma"]) == (new.mu, new.sigma)
                assert change["change"] == round(new.ordinal() - PlackettLuce().rating(
                    mu=expected_before[seat][0], sigma=expected_before[seat][1]).ordinal(), 2)
            assert frame["rated"] is True
            row = storage.get(game_id)
            assert row["rated"] is True and row["status"] == "finished"
            assert [s["rating"]["after"]["mu"] for s in row["seats"]] == [e.mu for e in expected]
            expected_before = [(e.mu, e.sigma) for e in expected]
        board = api.get("/api/leaderboard/carcassonne").json()["players"]
        assert {p["player"] for p in board} == set(keys)
        assert [p["rating"] for p in board] == sorted((p["rating"] for p in board), reverse=True)
        ann_row = next(p for p in board if p["player"] == keys[0])
        assert ann_row["name"] == "Ann" and ann_row["kind"] == "player" and ann_row["games"] == 2
        assert next(p for p in board if p["player"] == "bot:random")["name"] == "random"


@pytest.mark.parametrize("game, options", [("queens", {}), ("shogun", {"max_rounds": 2})])
def test_queens_and_shogun_are_rated_by_their_own_ranking(tmp_path, game, options) -> None:
    # the first legal move every time is quicker than 20 frames a second: no rate limit here
    with client(sqlite_url(tmp_path), rate_limit=10_000) as api:
        storage = api.app.state.storage
        ann = new_player(api, "Ann")
        created = create(api, game, ["human", "random"], seed=1, options=options)
        with socket(api, created["id"], ann, created["seats"][0]["token"]) as ws:
            frame = play_to_end({0: ws})
        returns = engine_state(storage, created["id"]).returns()
        expected = library_update([(25.0, 25 / 3)] * 2, returns)
        assert [(s["rating"]["after"]["mu"], s["rating"]["after"]["sigma"])
                for s in frame["seats"]] == [(e.mu, e.sigma) for e in expected]
        board = api.get(f"/api/leaderboard/{game}").json()["players"]
        assert sorted(p["name"] for p in board) == ["Ann", "random"]


def test_games_that_are_not_rated_change_no_rating(tmp_path) -> None:
    with client(sqlite_url(tmp_path), hint_iterations=8) as api:
        storage = api.app.state.storage
        ann = new_player(api, "Ann")
        options = {"draw_order": SHORT_PILE}
        # created unrated
        unrated = create(api, "carcassonne", ["human", "random"], rated=False, options=options)
        assert unrated["rated"] is False
        # an unnamed player in a rated game: stored as unrated at the end
        anonymous = create(api, "carcassonne", ["human", "random"], options=options)
        # a move taken back, and a hint asked: no longer rated
        undone = create(api, "carcassonne", ["human", "random"], options=options)
        hinted = create(api, "carcassonne", ["human", "random"], options=options)
        with socket(api, unrated["id"], ann, unrated["seats"][0]["token"]) as ws:
            assert play_to_end({0: ws})["rated"] is False
        with socket(api, anonymous["id"], None, anonymous["seats"][0]["token"]) as ws:
            end = play_to_end({0: ws})
            assert end["rated"] is False and "rating" not in end["seats"][0]
        with socket(api, undone["id"], ann, undone["seats"][0]["token"]) as ws:
            frame = first_state(ws)
            assert frame["rated"] is True
            ws.send_json({"type": "move", "action": frame["legal_actions"][0], "step": 0})
            receive_until(ws, lambda f: f["type"] == "state" and f["step"] == 1)
            ws.send_json({"type": "undo"})
            frame = receive_until(ws, lambda f: f["type"] == "state" and f["step"] == 0)
            assert frame["rated"] is False
            assert play_to_end({0: ws}, start={0: frame})["rated"] is False
        with socket(api, hinted["id"], ann, hinted["seats"][0]["token"]) as ws:
            frame = first_state(ws)
            ws.send_json({"type": "hint"})
            seen: list[dict[str, Any]] = []
            receive_until(ws, lambda f: f["type"] == "hint", seen=seen)
            told = [f for f in seen if f["type"] == "state"]
            assert told and told[-1]["rated"] is False  # everyone is told at once
            assert play_to_end({0: ws}, start={0: told[-1]})["rated"] is False
        assert stored_ratings(storage) == {}
        for game in (unrated, anonymous, undone, hinted):
            assert storage.get(game["id"])["rated"] is False
        assert api.get("/api/leaderboard/carcassonne").json()["players"] == []
        assert api.get("/api/leaderboard/nosuchgame").status_code == 404
        # bots alone are never rated
        assert create(api, "carcassonne", ["random", "random"], options=options)["rated"] is False


# -- the property: only finished rated games change ratings --------------------------------------

SEAT = st.one_of(st.sampled_from(["random", "greedy", "greedy:depth=1"]),
                 st.sampled_from([None, "p1", "p2", "p3"]))
GAME = st.fixed_dictionaries({
    "seats": st.lists(SEAT, min_size=2, max_size=4),
    "rated": st.booleans(),
    "finished": st.booleans(),
    "returns": st.lists(st.sampled_from([-1.0, 0.0, 0.5, 1.0]), min_size=4, max_size=4),
})


def seat_entries(spec: list[str | None]) -> list[dict[str, Any]]:
    """Stored seats: a bot string, or a human seat held by identity pN (None: unnamed)."""
    out = []
    for entry in spec:
        if entry in ("random", "greedy", "greedy:depth=1"):
            out.append({"kind": entry, "token_hash": None, "joined": False})
        else:
            seat = {"kind": "human", "token_hash": None, "joined": True}
            if entry is not None:
                seat.update(identity=entry, name=entry.upper())
            out.append(seat)
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games=st.lists(GAME, min_size=1, max_size=6))
def test_ratings_change_only_when_a_rated_eligible_game_finishes(games) -> None:
    with tempfile.TemporaryDirectory() as folder:
        storage = S.Storage(f"sqlite:///{Path(folder) / 'p.db'}")
        try:
            for number, game in enumerate(games):
                seats = seat_entries(game["seats"])
                returns = game["returns"][:len(seats)]
                game_id = f"g{number}"
                storage.insert({"id": game_id, "game": "carcassonne", "version": "1",
                                "players": len(seats), "options": {}, "seed": 1, "seats": seats,
                                "record": [], "status": "running", "step": 0, "scores": [],
                                "rated": game["rated"], "created": S.now(),
                                "updated": S.now()})
                before = stored_ratings(storage)
                values = {"status": "finished" if game["finished"] else "running"}
                # what the server does on a game's last move (authority.commit)
                op = R.finishing(storage, game_id, "carcassonne", game["rated"], seats, returns,
                                 values) if game["finished"] else None
                if op is None:
                    storage.update(game_id, values)
                else:
                    storage.apply_batch([("call", None, op)])
                after = stored_ratings(storage)
                keys = R.seat_keys(seats)
                eligible = game["finished"] and game["rated"] and keys is not None
                if not eligible:
                    assert after == before
                    assert storage.get(game_id)["rated"] is (game["rated"] and not game["finished"])
                    continue
                assert storage.get(game_id)["rated"] is True
                changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
                assert changed == {("carcassonne", k) for k in R.changing_keys(keys)}
                for key in R.changing_keys(keys):
                    games_before = before.get(("carcassonne", key), (0, 0, 0))[2]
                    assert after[("carcassonne", key)][2] == games_before + 1
        finally:
            storage.dispose()


def test_names_seats_and_ratings_on_sqlite_and_postgresql(db_url) -> None:
    """The same queries on both databases: the rating's locked read and upsert, the
    leaderboard's join of keys to names, "my games", and a deleted game's seat holders."""
    with client(db_url) as api:
        storage = api.app.state.storage
        ann = new_player(api, "Ann")
        game_id, frame = play_rated(api, ann, ["human", "random"], seed=4)
        assert frame["rated"] is True
        second, _ = play_rated(api, ann, ["human", "random"], seed=5)
        board = api.get("/api/leaderboard/carcassonne").json()["players"]
        assert {(p["name"], p["kind"], p["games"]) for p in board} == \
            {("Ann", "player", 2), ("random", "bot", 2)}
        mine = api.get("/api/me/games", headers=as_player(ann)).json()
        assert [g["id"] for g in mine] == [second, game_id]  # the newest first
        assert all(g["url"] == f"/replay/{g['id']}" for g in mine)
        storage.delete(game_id)
        mine = api.get("/api/me/games", headers=as_player(ann)).json()
        assert [g["id"] for g in mine] == [second]


def test_a_loss_on_time_is_rated_as_a_loss(tmp_path) -> None:
    """Two named players, one second a move, "lose" on time-out: Red lets its clock run out,
    so Blue wins the game and the rating update, as the library rates Blue first."""
    with client(sqlite_url(tmp_path)) as api:
        storage = api.app.state.storage
        ann, bob = new_player(api, "Ann"), new_player(api, "Bob")
        created = create(api, "queens", ["human", "human"], seed=4, clock={"per_move": 1},
                         on_timeout="lose")
        with socket(api, created["id"], ann, created["seats"][0]["token"]) as red, \
                socket(api, created["id"], bob, created["seats"][1]["token"]) as blue:
            first_state(red)
            over = receive_until(blue, lambda f: f["type"] == "state"
                                 and f["status"] == "finished", timeout=10)
        assert over["clock"]["lost"] == [0] and over["rated"] is True
        expected = library_update([(25.0, 25 / 3)] * 2, [-1.0, 0.0])
        row = storage.get(created["id"])
        assert [s["rating"]["after"]["mu"] for s in row["seats"]] == [e.mu for e in expected]
        assert expected[1].mu > 25.0 > expected[0].mu
        table = stored_ratings(storage)
        keys = [s["rating"]["player"] for s in row["seats"]]
        assert [table[("queens", k)][0] for k in keys] == [e.mu for e in expected]


def test_standing_returns_put_the_seats_out_on_time_below_the_rest() -> None:
    from boardwright.web import clocks as K
    clock = K.Clock.new(K.parse_control({"per_move": 5}, "lose"), 4)
    assert K.standing_returns(clock, [1.0, -1.0, 0.0, 0.5]) == [1.0, -1.0, 0.0, 0.5]
    clock.lost.extend([2, 0])  # seat 2 out first, then seat 0
    assert K.standing_returns(clock, [1.0, -1.0, 0.0, 0.5]) == [-2.0, -1.0, -3.0, 0.5]
    assert K.standing_returns(None, [0.0, 1.0]) == [0.0, 1.0]


def test_the_finishing_write_is_conditional_on_the_games_revision(tmp_path) -> None:
    """Another server process changed the game first: the finished record, the seats' rating
    changes and the ratings are all left unwritten; at the right revision all are written."""
    with client(sqlite_url(tmp_path)) as api:
        storage = api.app.state.storage
        created = create(api, "queens", ["human", "human"], seed=3)  # nobody moves meanwhile
        revision = storage.get(created["id"])["revision"]
        seats = [{"kind": "random"}, {"kind": "greedy"}]

        def finish(at: int) -> R.FinishRating:
            return R.FinishRating(storage, created["id"], "queens", seats,
                                  ["bot:random", "bot:greedy"], [1.0, -1.0],
                                  {"status": "finished"}, revision=at)

        stale = storage.apply_batch([("call", created["id"], finish(revision + 5))])[0]
        assert isinstance(stale, S.StaleRevision)
        assert stored_ratings(storage) == {}
        assert storage.get(created["id"])["revision"] == revision
        done = storage.apply_batch([("call", created["id"], finish(revision))])[0]
        assert done == revision + 1
        assert set(stored_ratings(storage)) == {("queens", "bot:random"), ("queens", "bot:greedy")}
        assert storage.get(created["id"])["seats"][0]["rating"]["player"] == "bot:random"
