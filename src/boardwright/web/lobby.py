"""The lobby: creating games (seats, bots, options, clock, rating) and listing them.

A visitor creates a game with POST /api/games; the lobby checks every field (a refusal names
what is wrong), stores the new game and seats it: each human seat gets its token (or is left
open for a named player to take: seating.py), each bot seat its agent string, checked against
what this server offers. Listings and summaries come from memory for the games played here,
else from the database (always from it when several processes share one: cluster.py).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any

import boardwright as bw
from boardwright.agents import AGENTS, HUMAN, make_agent, parse_agent_spec
from boardwright.agents.levels import LEVELS, level_agent, level_of
from boardwright.agents.registry import registered_names
from boardwright.web.clocks import Clock, parse_control
from boardwright.web.ending import result
from boardwright.web.errors import RequestError
from boardwright.web.listing import presented
from boardwright.web.live import FINISHED, OPEN, RUNNING, LiveGame, iso, seat_entry
from boardwright.web.position import public_scores, table_game
from boardwright.web.storage import STATUSES, now
from boardwright.web.tokens import hash_token, new_game_id, new_token

if TYPE_CHECKING:
    from boardwright.web.manager import GameManager

OPEN_SEAT = "open"  # a seat entry of a new game: a human seat anyone may take later
MAX_PLAYERS = 8
MAX_LIVE_GAMES = 5000
MAX_SEED = 2**63 - 1
# Limits on bot strings, so a game cannot occupy a worker for hours per move.
AGENT_LIMITS = {"seconds": 10.0, "iters": 200_000, "iterations": 200_000, "workers": 1,
                "max_nodes": 2_000_000, "depth": 3}


def check_agent(spec: str, offered: Collection[str] = ()) -> None:
    """Parse a bot string or level name (InvalidOptionError when unknown) and refuse
    parameters that would make one decision too long for a shared server.

    Visitors choose among the built-in agents (with parameters, within AGENT_LIMITS) and the
    agent strings the server offers (`offered`, from `boardwright serve --agent`), exactly as
    offered: an agent registered in the server process or installed as a plugin is not
    playable from the lobby unless the server says so, and its parameters are the server's."""
    spec = level_agent(spec)
    name, params = parse_agent_spec(spec)
    if name not in AGENTS and name.lower() not in LEVELS and spec.strip() not in offered:
        shown = ", ".join(offered) if offered else "none"
        known = name in registered_names()  # listed only: a visitor's name imports nothing
        what = f"agent {name!r} is not offered on this server" if known else \
            f"unknown agent {name!r}"
        raise bw.InvalidOptionError(
            f"{what}: this server offers the built-in agents ({', '.join(sorted(AGENTS))}), "
            f"the levels ({', '.join(LEVELS)}) and these agent strings: {shown}")
    make_agent(spec, seed=0)
    if name not in AGENTS:
        return
    for key, value in params.items():
        limit = AGENT_LIMITS.get(key)
        if limit is None:
            continue
        try:
            number = float(value)
        except ValueError:
            continue
        if number > limit:
            raise bw.InvalidOptionError(f"agent {spec!r}: {key} may be at most {limit:g} on "
                                        "this server")


class Lobby:
    """Creates a server's games and lists them. `agents`: the agent strings the server offers
    beyond the built-in ones; `policies`: the policy agent strings offered, each with the game
    and player count it plays (it is offered for those only)."""

    def __init__(self, manager: GameManager, agents: Collection[str] = (),
                 policies: Mapping[str, tuple[str, int]] | None = None) -> None:
        self.manager = manager
        self.policies = dict(policies or {})
        self.agents = tuple(a.strip() for a in agents) + tuple(self.policies)

    async def create(self, body: Any, visitor: str | None = None,
                     host: str | None = None) -> dict[str, Any]:
        """Create the game `body` describes; `visitor` (limits.py) when the creation counts
        against a visitor's limits; `host`: the name its creator plays under (None: a visitor
        without one), shown in the lobby's row."""
        manager = self.manager
        if visitor is not None:  # over the window's count: refused before any work
            manager.limits.check(visitor)
        if not isinstance(body, dict):
            raise RequestError(400, "the body must be a JSON object with \"game\" and \"seats\"")
        unknown = sorted(set(body) - {"game", "players", "options", "seats", "seed", "rated",
                                      "clock", "on_timeout"})
        if unknown:
            raise RequestError(400, f"unknown field(s) {', '.join(map(repr, unknown))}; "
                                    "known: game, players, options, seats, seed, rated, clock, "
                                    "on_timeout")
        rated = body.get("rated", True)
        if type(rated) is not bool:
            raise RequestError(400, "\"rated\" must be true or false")
        name = body.get("game")
        if not isinstance(name, str) or not name:
            raise RequestError(400, f"\"game\" must name a game: {', '.join(bw.available_games())}")
        seats = body.get("seats")
        players = body.get("players")
        if players is not None and (type(players) is not int or not 1 <= players <= MAX_PLAYERS):
            raise RequestError(400, f"\"players\" must be a whole number from 1 to {MAX_PLAYERS}")
        if seats is None:
            seats = [HUMAN] * (players or 2)
        if (not isinstance(seats, list) or not seats or len(seats) > MAX_PLAYERS
                or not all(isinstance(s, str) and (0 < len(s.strip()) <= 100
                                                   or s.strip() in self.agents) for s in seats)):
            # (an agent string the server offers may be longer: a policy names its file)
            raise RequestError(400, "\"seats\" must list one entry per seat: \"human\", \"open\" "
                                    "(a human seat anyone may take later) or a bot "
                                    "such as \"random\", \"greedy\" or \"mcts:seconds=0.5\"")
        if players is None:
            players = len(seats)
        if players != len(seats):
            raise RequestError(400, f"\"players\" is {players} but \"seats\" lists {len(seats)}")
        options = body.get("options")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise RequestError(400, "\"options\" must be a JSON object of option names to values")
        seed = body.get("seed")
        if seed is not None and (type(seed) is not int or not 0 <= seed <= MAX_SEED):
            raise RequestError(400, f"\"seed\" must be a whole number from 0 to {MAX_SEED}")
        if seed is None:
            seed = secrets.randbelow(2**31)
        # a level name is stored as its agent string: the record says which bot played; an
        # open seat is a human seat without a token, for a named player to take (seating.py)
        opened = [s.strip().lower() == OPEN_SEAT for s in seats]
        kinds = [HUMAN if s.strip().lower() in (HUMAN, OPEN_SEAT) else level_agent(s.strip())
                 for s in seats]
        if len([g for g in manager.games.values() if g.status != FINISHED]) >= MAX_LIVE_GAMES:
            raise RequestError(503, "the server has too many games in play; try again later")
        try:
            for kind in dict.fromkeys(kinds):
                if kind != HUMAN:
                    check_agent(kind, self.agents)
                    plays = self.policies.get(kind.strip())
                    if plays is not None and plays != (name, players):
                        raise bw.InvalidOptionError(
                            f"{kind.strip()} plays {plays[0]} with {plays[1]} players, not "
                            f"{name} with {players}")
            if HUMAN not in kinds:  # bots alone: the game's own limit makes it end
                options, _ = bw.bots_only_options(name, options)
            game = table_game(name, players, options)
            state = game.new_game(seed)
            state.view(None)
            control = parse_control(body.get("clock"), body.get("on_timeout"))
            if control is not None and HUMAN not in kinds:
                raise bw.InvalidOptionError("a clock needs a human seat: bots have no clock")
        except bw.BoardwrightError as exc:
            raise RequestError(400, str(exc)) from None
        tokens = [new_token() if kind == HUMAN and not o else None
                  for kind, o in zip(kinds, opened)]
        stamp = now()
        row = {
            "id": new_game_id(), "game": name, "version": game.version, "players": players,
            "options": options, "seed": seed,
            "seats": [{"kind": kind, "token_hash": hash_token(t) if t else None,
                       "joined": False, **({"open": True} if o else {})}
                      for kind, t, o in zip(kinds, tokens, opened)],
            "record": [], "status": RUNNING if HUMAN not in kinds else OPEN, "step": 0,
            "scores": public_scores(state), "created": stamp, "updated": stamp,
            "rated": rated and HUMAN in kinds,  # bots alone are never rated
            "clock": Clock.new(control, players).to_json() if control is not None else None,
            "host": host,
        }
        assert manager.writer is not None
        admission = (manager.limits.admit(visitor, HUMAN not in kinds)
                     if visitor is not None else None)
        try:
            await manager.writer.insert(row)
        except BaseException:
            if admission is not None:
                admission.cancel()
            raise
        live = LiveGame(row, game, state, [], None)
        manager.adopt(live)
        if admission is not None:
            admission.confirm(live.id)
        manager.bot_driver.schedule(live)
        seat_info = []
        for seat, (kind, token) in enumerate(zip(kinds, tokens)):
            entry: dict[str, Any] = {"seat": seat, "kind": kind}
            level = level_of(kind) if kind != HUMAN else None
            if level is not None:
                entry["level"] = level
            if opened[seat]:
                entry["open"] = True
            if token is not None:
                # in the fragment: browsers never send it, so no server or proxy logs it
                entry["join_url"] = f"/play/{live.id}#token={token}"
                entry["token"] = token
            seat_info.append(entry)
        return {"id": live.id, "seats": seat_info, "spectate_url": f"/play/{live.id}",
                "rated": live.rated}

    async def listing(self, status: str | None, game: str | None = None
                      ) -> list[dict[str, Any]]:
        """The games of a status (all when None), of game `game` only when given."""
        manager = self.manager
        if status is not None and status not in STATUSES:
            raise RequestError(400, f"status must be one of {', '.join(STATUSES)}, "
                                    f"not {status!r}")
        if game is not None and game not in bw.available_games():
            raise RequestError(400, f"no game {game[:64]!r}: "
                                    f"{', '.join(bw.available_games())}")
        wanted = [status] if status else list(STATUSES)
        if manager.cluster.shared:  # other processes create and play games too: ask the database
            rows = await asyncio.to_thread(manager.storage.listing, wanted, game=game)
            return [self.row_summary(r) for r in rows]
        out = [g.summary() for g in manager.games.values()
               if g.status in wanted and g.status != FINISHED and game in (None, g.name)]
        if FINISHED in wanted:
            rows = await asyncio.to_thread(manager.storage.listing, [FINISHED], game=game)
            out.extend(self.row_summary(r) for r in rows)
        out.sort(key=lambda s: s["created"], reverse=True)
        return out

    def row_summary(self, row: dict[str, Any]) -> dict[str, Any]:
        """A game's summary: from memory when it is live, else from its row (no record)."""
        live = self.manager.games.get(row["id"])
        if live is not None and live.revision >= row.get("revision", 0):
            return live.summary()
        return presented({
            "id": row["id"], "game": row["game"], "players": row["players"],
            "options": row["options"], "status": row["status"], "created": iso(row["created"]),
            "seats": [seat_entry(s, seat["kind"], False, seat)
                      for s, seat in enumerate(row["seats"])],
            "step": row["step"], "scores": row["scores"], "rated": bool(row.get("rated")),
            "clock": row["clock"]["control"] if row.get("clock") else None,
            "host": row.get("host"),
            "result": result(row["seats"], row.get("clock"), row["status"], row["scores"]),
        })

    async def summary(self, game_id: str) -> dict[str, Any]:
        manager = self.manager
        live = manager.games.get(game_id)
        if live is not None and live.behind <= live.revision:
            return live.summary()
        row = (await asyncio.to_thread(manager.storage.get, game_id)
               if len(game_id) <= 64 else None)
        if row is None:
            raise RequestError(404, f"no game {game_id!r}")
        return self.row_summary(row)
