"""Gymnasium single-agent environments: one seat learns, bots play the other seats.

Importing this module registers `boardwright/Carcassonne-v0`, `boardwright/Queens-v0`,
`boardwright/Shogun-v0`, and one id per installed game plugin (`env_id_of`: Goofspiel ->
`boardwright/Goofspiel-v0`):

    import gymnasium, boardwright.rl.gymnasium
    env = gymnasium.make("boardwright/Carcassonne-v0", opponent="greedy")

Keywords: `opponent` (any `make_agent` string, default "random"; or a list, one per other seat),
`seat` (the learner's seat, default 0), `players` (default 2), `options` (game options; Shogun
defaults to `max_rounds=30`; game options may also be given as keywords of their own, as
PettingZoo's `env` takes them: `make("boardwright/Goofspiel-v0", cards=5)`; a keyword that is
neither is an `InvalidOptionError` naming both lists), `max_steps` (truncation after that many
learner steps), `actions` ("learning", the default: the game's learning action space,
`boardwright.rl.action_spaces`; "stable": the engine's stable ids).

Spaces are those of the PettingZoo environment: `Discrete(space.size)` (Carcassonne: 4,448 ids
in the base game, see `boardwright.games.carcassonne.learning_space` for their layout) and a dict
observation of the learner's seat: the arrays of the game's encoder (`encoder.spaces()`:
`{"board", "scalars"}` for Carcassonne, `{"observation"}` for the others, see
`boardwright.rl.observations`) and `"action_mask"`. The reward is 0 until the
end, then the learner's `returns()` value. An illegal or malformed action ends the episode with
reward -1 and `info["illegal_action"] = True` (so random `action_space.sample()` never crashes a
loop; use the mask). `info["action_mask"]` repeats the mask for wrappers that expect it there
and `info["legal_action_ids"]` lists its nonzeros: a sorted tuple of ints, cheaper than scanning
the mask.

Vector environments: `boardwright/Carcassonne-v0` also has a vector entry point
(`boardwright.rl.vector.CarcassonneVectorEnv`: N games stepped by the compiled engine in one
call), which `gymnasium.make_vec(env_id, num_envs)` uses when no `vectorization_mode` is given
and `vectorization_mode="vector_entry_point"` names. `gymnasium.make_vec(env_id, num_envs,
vectorization_mode="sync" | "async")` batches copies of this environment, for every game. Gymnasium merges the sub-environments' infos key by key: a number becomes
an array of shape (num_envs,), an array of fixed shape one of shape (num_envs, ...), anything else
an object array of shape (num_envs,); `info["_key"]` marks the environments that reported `key`.
That is why `legal_action_ids` is a tuple, not an array: the number of legal actions differs from
one environment to the next, and arrays of different lengths cannot be stacked. So in a vector
env `info["legal_action_ids"][i]` is the tuple of environment i and `info["action_mask"]` has
shape (num_envs, num_actions). With the default autoreset (next step), an environment that has
just ended reports no legal action; its next action is ignored (any id will do) and the step
resets it.

Render modes: "ansi" (`render()` returns the position as text) and "human" (the text is printed
to standard output after every `reset` and `step`, at most `render_fps` frames per second so a
person can follow the game; `render()` returns None).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.core.errors import BoardwrightError, InvalidOptionError
from boardwright.rl import make_game
from boardwright.rl.action_spaces import action_space_for, mask_of
from boardwright.rl.observations import encoder_for, observation_dict_space

GAMES = {"carcassonne": "Carcassonne", "queens": "Queens", "shogun": "Shogun"}


class BoardwrightEnv(gymnasium.Env):
    """One seat of a boardwright game as a Gymnasium environment (see the module docstring)."""

    #: "human" frames are paced to `render_fps`; "ansi" frames are returned, not paced.
    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, game: str, opponent: str | Sequence[str] = "random", seat: int = 0,
                 players: int = 2, options: dict[str, Any] | None = None,
                 max_steps: int | None = None, render_mode: str | None = None,
                 actions: str = "learning", **option_keywords: Any) -> None:
        self.game = make_game(game, players, merge_option_keywords(game, players, options,
                                                                   option_keywords))
        self.space = action_space_for(self.game, actions)
        if not 0 <= seat < players:
            raise InvalidOptionError(f"seat {seat} is not in 0..{players - 1}")
        self.seat = seat
        specs = [opponent] * (players - 1) if isinstance(opponent, str) else list(opponent)
        if len(specs) != players - 1:
            raise InvalidOptionError(f"{players - 1} opponents needed, {len(specs)} given")
        self.opponent_specs = specs
        for spec in specs:  # fail early on a bad bot string
            make_agent(spec, seed=0)
        self.max_steps = max_steps
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidOptionError(f"render_mode {render_mode!r} is not one of "
                                     f"{', '.join(self.metadata['render_modes'])}")
        self.render_mode = render_mode
        self._last_frame = -float("inf")
        self.encoder = encoder_for(self.game)
        self.num_actions = self.space.size
        self.observation_space = observation_dict_space(self.encoder, self.num_actions)
        self.action_space = spaces.Discrete(self.num_actions)
        self.state = None

    def _observe(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        obs, legal = self.encoder.observe(self.state, self.seat, self.space, track=True)
        self._legal_now = legal
        mask = mask_of(self.num_actions, legal.ids)
        obs["action_mask"] = mask
        return obs, {"action_mask": mask, "legal_action_ids": tuple(legal.ids.tolist())}

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
        if self.render_mode == "human":
            self.render()
        return self._observe()

    def step(self, action: Any):
        try:
            chosen = self._legal_now.action(action)
        except BoardwrightError:
            obs, info = self._observe()
            info["illegal_action"] = True
            return obs, -1.0, True, False, info
        self.state.apply(chosen)
        self.steps += 1
        self._play_opponents()
        obs, info = self._observe()
        terminated = self.state.is_terminal
        reward = float(self.state.returns()[self.seat]) if terminated else 0.0
        truncated = (not terminated and self.max_steps is not None and self.steps >= self.max_steps)
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, truncated, info

    def render(self) -> str | None:
        """The position as text ("ansi"), or printed at most `render_fps` times a second ("human")."""
        if self.render_mode is None or self.state is None:
            return None
        from boardwright.rl.pettingzoo import render_text
        text = render_text(self.game, self.state)
        if self.render_mode == "ansi":
            return text
        wait = self._last_frame + 1.0 / self.metadata["render_fps"] - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        sys.stdout.write(text)
        sys.stdout.flush()
        self._last_frame = time.monotonic()
        return None


ENV_KEYWORDS = ("opponent", "seat", "players", "options", "max_steps", "render_mode", "actions")


def merge_option_keywords(game: str, players: int, options: dict[str, Any] | None,
                          keywords: dict[str, Any]) -> dict[str, Any] | None:
    """`options` with the game options given as keywords added: each keyword must be an
    option of the game (`bw.option_specs`) and not also be in `options`; InvalidOptionError
    naming the keyword and what is accepted otherwise."""
    if not keywords:
        return options
    known = [spec.name for spec in bw.option_specs(game, players)]
    for name in keywords:
        if name not in known:
            raise InvalidOptionError(
                f"unknown keyword {name!r} for {env_id_of(game)}: neither an environment "
                f"keyword ({', '.join(ENV_KEYWORDS)}) nor a {game} option "
                f"({', '.join(known) or 'it has none'})")
    both = sorted(set(keywords) & set(options or {}))
    if both:
        raise InvalidOptionError(f"option {both[0]!r} is given twice, as a keyword and in "
                                 "options")
    return {**(options or {}), **keywords}


def env_id_of(game: str) -> str:
    """The Gymnasium id of a game's environment: `boardwright/Queens-v0`; a plugin game's from
    its name (`goofspiel` -> `boardwright/Goofspiel-v0`, `my_game` -> `boardwright/MyGame-v0`)."""
    title = GAMES.get(game) or "".join(part.title() for part in game.replace("-", "_").split("_"))
    return f"boardwright/{title}-v0"


def _register() -> None:
    """An id for every available game, installed plugins included (listed, not imported: the
    plugin is imported when its environment is made). Carcassonne's also has a vector entry
    point, `boardwright.rl.vector.CarcassonneVectorEnv` (N games stepped by one kernel):
    `make_vec(id, n, vectorization_mode="vector_entry_point")`, the default `make_vec` mode for
    an id that has one; "sync" and "async" still stack copies of `BoardwrightEnv`."""
    for name in bw.available_games():
        env_id = env_id_of(name)
        if env_id not in gymnasium.registry:
            vector = "boardwright.rl.vector:CarcassonneVectorEnv" if name == "carcassonne" else None
            gymnasium.register(id=env_id, entry_point="boardwright.rl.gymnasium:BoardwrightEnv",
                               vector_entry_point=vector, kwargs={"game": name},
                               disable_env_checker=False)


_register()
