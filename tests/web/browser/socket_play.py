"""Moves sent to a running web table through each seat's own websocket, as its browser would
send them: a test brings a game to the position it needs in a fraction of the time pages
rendering every step take, then opens the pages it looks at."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest

import boardwright as bw
from boardwright.web import protocol as P

connect = pytest.importorskip("websockets.sync.client",
                              reason="the websocket client of the server extra").connect


def play_by_socket(site: Any, created: dict[str, Any], game: bw.Game, seed: int,
                   actions: list[dict[str, Any]], start: int = 0,
                   stop: int | None = None) -> None:
    """Send `actions[start:stop]` (JSON) of the game `created` (every seat human, `game` on
    `seed`), each by the seat to move, waiting until that seat sees it made; an error frame
    fails the test."""
    state = game.new_game(seed)
    for action in actions[:start]:
        state.apply(game.action_from_json(action))
    url = site.base.replace("http", "ws", 1) + f"/ws/games/{created['id']}"
    with ExitStack() as stack:
        sockets = {s["seat"]: stack.enter_context(connect(
            url, subprotocols=[P.SUBPROTOCOL, P.TOKEN_PREFIX + s["token"]], max_queue=None))
            for s in created["seats"]}
        for step, action in enumerate(actions[start:stop], start):
            ws = sockets[state.current_player]
            ws.send(json.dumps({"type": "move", "action": action, "step": step}))
            while True:
                frame = json.loads(ws.recv(timeout=15))
                assert frame["type"] != "error", frame
                if frame["type"] == "state" and frame["step"] == step + 1:
                    break
            state.apply(game.action_from_json(action))
