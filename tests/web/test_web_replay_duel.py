"""A Rise of the Shogun replay stepped into a duel carries the duel as the live table shows it:
both sides' plays with their counted values in the game's words, and the totals."""

from __future__ import annotations

import boardwright as bw
from shogun_paths import DUEL_SEED, in_duel, steer
from web_helpers import create, receive_until, seat_socket


def test_a_replay_step_in_the_middle_of_a_duel_carries_the_duel(api) -> None:
    path = steer(in_duel, DUEL_SEED)
    n = len(path.actions)
    # the game stops two decisions into the duel: finished, so replayed, mid-duel
    options = {**path.options, "max_decisions": n + 2}
    game = bw.load("shogun", 2, options)
    state = game.new_game(path.seed)
    for action in path.actions:
        state.apply(game.action_from_json(action))
    block = next(a.to_json() for a in state.legal_actions() if a.to_json()["type"] == "duel_play")
    record = path.actions + [block, {"type": "duel_pass"}]
    created = create(api, "shogun", ["human", "human"], seed=path.seed, options=options)
    sockets = [seat_socket(api, created, seat) for seat in (0, 1)]
    with sockets[0] as first, sockets[1] as second:
        by_seat = {0: first, 1: second}
        replayed = game.new_game(path.seed)
        for step, action in enumerate(record):
            ws = by_seat[replayed.current_player]
            ws.send_json({"type": "move", "action": action, "step": step})
            receive_until(ws, lambda f, s=step: f["type"] == "state" and f["step"] == s + 1)
            replayed.apply(game.action_from_json(action))
        assert replayed.is_terminal
        seen_live = receive_until(by_seat[0], lambda f: f["type"] == "state"
                                  and f["status"] == "finished")
    assert seen_live["step"] == n + 2
    game_id = created["id"]
    step = api.get(f"/api/games/{game_id}/replay/{n + 1}").json()
    duel = step["view"]["duel"]
    at = game.new_game(path.seed)
    for action in record[:n + 1]:
        at.apply(game.action_from_json(action))
    assert duel == at.view(None)["duel"]  # as a spectator of the live table saw it
    assert [p["seat"] for p in duel["plays"]] == [1 - path.seat, path.seat]
    words = duel["play_words"]
    assert [w["card"] for w in words] == [p["card"] for p in duel["plays"]]
    assert all(w["counted"] == w["base"] + w["combo"] > 0 and w["text"].endswith(str(w["counted"]))
               for w in words), words
    assert duel["attack_total"] == sum(w["counted"] for w in words if w["seat"] == duel["attacker"])
    assert duel["block_total"] == sum(w["counted"] for w in words if w["seat"] == duel["defender"])
    # the whole replay's frames carry it too, and the step before the attack has none
    replay = api.get(f"/api/games/{game_id}/replay").json()
    assert replay["frames"][n + 1]["duel"] == duel
    assert replay["frames"][n - 1]["duel"] is None
