"""Replays of finished games: every position as a spectator sees it, with the actions and their
words, built once (off the event loop) and kept for the last few games asked for.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import boardwright as bw
from boardwright.agents import HUMAN
from boardwright.agents.levels import level_of
from boardwright.web.ending import result
from boardwright.web.errors import RequestError
from boardwright.web.live import FINISHED
from boardwright.web.position import ViewCache, table_game, visible_scores
from boardwright.web.wording import MoveWords

if TYPE_CHECKING:
    from boardwright.web.manager import GameManager

REPLAY_CACHE = 4


def table_data(game: bw.Game, state: bw.State) -> dict[str, Any]:
    """The table data of a replayed position, as the live table showed it (ViewCache)."""
    return ViewCache(state).table_data(game)


def build_replay(row: dict[str, Any]) -> dict[str, Any]:
    """A finished game's replay from its stored row: the JSON body of GET .../replay, and the
    frames, table data, actions, texts and seats that each step's answer reads. The body
    carries the last step's table data (`final_table`: the final scoring) and how the game
    ended (`result`, ending.py), so the replay ends on the final board with its figures."""
    game = table_game(row["game"], row["players"], row["options"])
    words = MoveWords(game)
    state = game.new_game(row["seed"])
    frames = [state.view(None)]
    tables = [table_data(game, state)]
    actions, texts, seats = [], [], []
    for data in row["record"]:
        action = game.action_from_json(data)
        seats.append(state.current_player)
        # only finished games are replayed: their records are full information
        texts.append(words(state, action, bw.OMNISCIENT))
        state.apply(action)
        actions.append(action.to_json())
        frames.append(state.view(None))
        tables.append(table_data(game, state))
    scores = visible_scores(state, frames[-1])
    body = {"game": row["game"], "players": row["players"], "steps": len(actions),
            "frames": frames, "actions": actions, "descriptions": texts, "seats": seats,
            "kinds": [s["kind"] for s in row["seats"]],
            "names": [s.get("name") for s in row["seats"]],
            "levels": [level_of(s["kind"]) if s["kind"] != HUMAN else None for s in row["seats"]],
            "scores": scores, "final_table": tables[-1],
            "result": result(row["seats"], row.get("clock"), FINISHED, scores)}
    return {"body": json.dumps(body, separators=(",", ":")).encode("utf-8"),
            "frames": frames, "tables": tables, "actions": actions, "texts": texts,
            "seats": seats}


class Replays:
    """The replays a server serves, the last REPLAY_CACHE of them kept."""

    def __init__(self, manager: GameManager) -> None:
        self.manager = manager
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()

    async def _finished_record(self, game_id: str) -> dict[str, Any]:
        manager = self.manager
        live = manager.games.get(game_id)
        if live is not None and live.behind <= live.revision:  # else: the database's record
            if live.status != FINISHED:
                raise RequestError(403, "the replay opens when the game is finished")
            return {"game": live.name, "players": live.players, "options": live.options,
                    "seed": live.seed, "record": list(live.actions),
                    "seats": [dict(s) for s in live.seats],
                    "clock": live.clock.to_json() if live.clock is not None else None}
        row = (await asyncio.to_thread(manager.storage.get, game_id)
               if len(game_id) <= 64 else None)
        if row is None:
            raise RequestError(404, f"no game {game_id!r}")
        if row["status"] != FINISHED:
            raise RequestError(403, "the replay opens when the game is finished")
        return row

    async def replay(self, game_id: str) -> dict[str, Any]:
        """Every position of a finished game as a spectator sees it, with the actions."""
        cached = self._cache.get(game_id)
        if cached is not None:
            self._cache.move_to_end(game_id)
            return cached
        row = await self._finished_record(game_id)
        result = await asyncio.to_thread(build_replay, row)
        self._cache[game_id] = result
        while len(self._cache) > REPLAY_CACHE:
            self._cache.popitem(last=False)
        return result

    async def step(self, game_id: str, step: int) -> dict[str, Any]:
        """One step of a finished game's replay: its view, the action that led to it and the
        next one."""
        replay = await self.replay(game_id)
        total = len(replay["actions"])
        if not 0 <= step <= total:
            raise RequestError(404, f"no step {step}: this game has steps 0 to {total}")
        before = step - 1
        return {
            "step": step, "steps": total, "view": replay["frames"][step],
            "table": replay["tables"][step],
            "action": replay["actions"][before] if step else None,
            "seat": replay["seats"][before] if step else None,
            "text": replay["texts"][before] if step else None,
            "next_action": replay["actions"][step] if step < total else None,
        }
