"""Helpers of the named-player tests: players made through the API, sockets that carry a
player's cookie, and games played to their end by first legal moves."""

from __future__ import annotations

from typing import Any

from web_helpers import receive_until, seat_protocols

from boardwright.web.identity import COOKIE

# A short Carcassonne draw pile whose tiles all fit (games of 2-4 players end in seconds).
SHORT_PILE = ["E", "U", "V", "J", "D", "K", "B", "W", "L", "A"]


def new_player(api: Any, name: str) -> str:
    """Choose `name` from a browser without a cookie; returns the player's key (the cookie).
    The test client's own cookie jar is left empty: each request says whose it is."""
    api.cookies.clear()
    response = api.post("/api/me", json={"name": name})
    assert response.status_code == 201, response.text
    key = response.cookies.get(COOKIE)
    assert key
    api.cookies.clear()
    return key


def as_player(key: str | None) -> dict[str, str]:
    """Request headers of the player whose key this is (none: an anonymous visitor)."""
    return {"cookie": f"{COOKIE}={key}"} if key else {}


def socket(api: Any, game_id: str, key: str | None = None, token: str | None = None,
           seat: int | None = None) -> Any:
    """A game's websocket with a player's cookie and/or a seat token (`seat`: ?seat=n)."""
    query = f"?seat={seat}" if seat is not None else ""
    return api.websocket_connect(f"/ws/games/{game_id}{query}", subprotocols=seat_protocols(token),
                                 headers=as_player(key))


def first_state(ws: Any) -> dict[str, Any]:
    return receive_until(ws, lambda f: f["type"] == "state")


def play_to_end(sockets: dict[int, Any], timeout: float = 60.0,
                start: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Play every seat in `sockets` by its first legal move until the game ends (the other
    seats are bots); returns the final state frame as the first socket saw it. `start`: the
    last state frame each socket has already read (default: read one now)."""
    frames = dict(start) if start else {seat: first_state(ws) for seat, ws in sockets.items()}

    def after(seat: int, step: int) -> dict[str, Any]:
        frames[seat] = receive_until(
            sockets[seat], lambda f: f["type"] == "state" and f["step"] > step, timeout=timeout)
        return frames[seat]

    while True:
        top = max(frames.values(), key=lambda f: f["step"])
        if top["status"] == "finished":
            break
        mover = top["current_player"]
        if mover in sockets:
            if frames[mover]["step"] < top["step"]:
                after(mover, top["step"] - 1)
            frame = frames[mover]
            sockets[mover].send_json({"type": "move", "action": frame["legal_actions"][0],
                                      "step": frame["step"]})
            after(mover, frame["step"])
        else:  # a bot moves: any socket sees it
            after(next(iter(sockets)), top["step"])
    first = next(iter(sockets))
    if frames[first]["status"] != "finished":
        frames[first] = receive_until(sockets[first], lambda f: f["type"] == "state"
                                      and f["status"] == "finished", timeout=timeout)
    return frames[first]
