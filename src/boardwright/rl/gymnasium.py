"""Gymnasium single-agent environments: one seat learns, bots play the other seats.

Importing this module registers `boardwright/Carcassonne-v0`, `boardwright/Queens-v0` and
`boardwright/Shogun-v0`:

    import gymnasium, boardwright.rl.gymnasium
    env = gymnasium.make("boardwright/Carcassonne-v0", opponent="greedy")

Keywords: `opponent` (any `make_agent` string, default "random"; or a list, one per other seat),
`seat` (the learner's seat, default 0), `players` (default 2), `options` (game options; Shogun
defaults to `max_rounds=30`), `max_steps` (truncation after that many learner steps).

Spaces are those of the PettingZoo environment: `Discrete(game.num_distinct_actions)` and a dict
observation `{"observation", "action_mask"}` from the learner's view. The reward is 0 until the
end, then the learner's `returns()` value. An illegal action ends the episode with reward -1 and
`info["illegal_action"] = True` (so random `action_space.sample()` never crashes a loop; use the
mask). `info["action_mask"]` repeats the mask for wrappers that expect it there and
`info["legal_action_ids"]` lists its nonzeros (sorted; cheaper than scanning a large mask).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from boardwright.agents import make_agent
from boardwright.rl import make_game
from boardwright.rl.observations import HIGH, LOW, encoder_for

GAMES = {"carcassonne": "Carcassonne", "queens": "Queens", "shogun": "Shogun"}


class BoardwrightEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(self, game: str, opponent: str | Sequence[str] = "random", seat: int = 0,
                 players: int = 2, options: dict[str, Any] | None = None,
                 max_steps: int | None = None, render_mode: str | None = None) -> None:
        self.game = make_game(game, players, options)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not in 0..{players - 1}")
        self.seat = seat
        specs = [opponent] * (players - 1) if isinstance(opponent, str) else list(opponent)
        if len(specs) != players - 1:
            raise ValueError(f"{players - 1} opponents needed, {len(specs)} given")
        self.opponent_specs = specs
        make_agent(specs[0], seed=0) if specs else None  # fail early on a bad bot string
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.encoder = encoder_for(self.game)
        self.num_actions = self.game.num_distinct_actions
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(LOW, HIGH, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
        })
        self.action_space = spaces.Discrete(self.num_actions)
        self.state = None

    def _legal(self) -> dict[int, Any]:
        if self.state.is_terminal:
            return {}
        return dict(zip(self.state.legal_action_ids(), self.state.legal_actions()))

    def _observe(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        self._legal_now = self._legal()
        if self._legal_now:
            mask[list(self._legal_now)] = 1
        obs = {"observation": self.encoder.encode(self.state.view(self.seat), self.seat),
               "action_mask": mask}
        return obs, {"action_mask": mask, "legal_action_ids": np.array(sorted(self._legal_now))}

    def _play_opponents(self) -> None:
        state = self.state
        while not state.is_terminal and state.current_player != self.seat:
            state.apply(self.opponents[state.current_player].act(state))

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        rng = self.np_random
        self.state = self.game.new_game(int(rng.integers(2**62)))
        others = [s for s in range(self.game.num_players) if s != self.seat]
        self.opponents = {s: make_agent(spec, seed=int(rng.integers(2**31)))
                          for s, spec in zip(others, self.opponent_specs)}
        self.steps = 0
        self._play_opponents()
        return self._observe()

    def step(self, action: Any):
        legal = self._legal_now
        action = int(action)
        if action not in legal:
            obs, info = self._observe()
            info["illegal_action"] = True
            return obs, -1.0, True, False, info
        self.state.apply(legal[action])
        self.steps += 1
        self._play_opponents()
        obs, info = self._observe()
        terminated = self.state.is_terminal
        reward = float(self.state.returns()[self.seat]) if terminated else 0.0
        truncated = (not terminated and self.max_steps is not None and self.steps >= self.max_steps)
        return obs, reward, terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from boardwright.rl.pettingzoo import render_text
        return render_text(self.game, self.state)


def _register() -> None:
    for name, title in GAMES.items():
        env_id = f"boardwright/{title}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="boardwright.rl.gymnasium:BoardwrightEnv",
                               kwargs={"game": name}, disable_env_checker=False)


_register()
