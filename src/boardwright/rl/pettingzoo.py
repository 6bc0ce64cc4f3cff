"""PettingZoo AEC environment for any boardwright game.

    from boardwright.rl.pettingzoo import env, parallel_env
    e = env("carcassonne", players=2, farmers=False)
    p = parallel_env("carcassonne", players=2)   # the parallel API (a turn-based game: only the
                                                 # mover's action is applied at each step)

Agents are `player_0 .. player_{n-1}` (seats). Each agent's action space is
`Discrete(space.size)`: the game's learning action space (`boardwright.rl.action_spaces`;
Carcassonne's is `boardwright.games.carcassonne.learning_space`, 4,448 ids in the base game),
or the stable ids with `actions="stable"`. Its observation is a dict: the arrays of the game's
encoder (`boardwright.rl.observations`, `encoder.spaces()`) for that seat — only what that seat
may see: `{"board": uint8 planes, "scalars": int16}` for Carcassonne, `{"observation": float32
vector}` for the other games — and `"action_mask"`, an int8 vector marking the legal action ids
(all zeros when it is not that agent's turn).
Rewards are 0 until the end, then `state.returns()` (rank based, zero sum, in [-1, 1]).
The info of the agent to move holds `legal_action_ids`: the mask's nonzeros as a sorted tuple
of ints, as in the Gymnasium environment (PettingZoo leaves the contents of infos to the
environment; the mask itself stays in the observation, where PettingZoo's classic games put
it). Turn order follows `state.current_player` (a seat can act several times in a row).
An illegal action raises `IllegalActionError`, an id that is not an integer in the space
`MalformedActionError` (both `BoardwrightError`s), and the game is left as it was.
`max_steps` (optional) truncates long episodes. Chance comes from the game seed, drawn from the
`reset(seed=...)` stream.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from boardwright.rl import make_game
from boardwright.rl.action_spaces import action_space_for, mask_of
from boardwright.rl.observations import encoder_for, observation_dict_space


def env(game: str, players: int = 2, render_mode: str | None = None,
        max_steps: int | None = None, actions: str = "learning",
        **options: Any) -> BoardwrightAEC:
    """A PettingZoo AEC environment of the named game; extra keywords are game options."""
    return BoardwrightAEC(game, players=players, options=options, render_mode=render_mode,
                          max_steps=max_steps, actions=actions)


raw_env = env


def parallel_env(game: str, players: int = 2, render_mode: str | None = None,
                 max_steps: int | None = None, actions: str = "learning",
                 **options: Any) -> ParallelEnv:
    """The same game through PettingZoo's parallel API: every step takes a dict of actions and
    returns every agent's observation, reward, termination, truncation and info.

    The games are played in turns, so a step applies the action of the agent to move only
    (the one whose `action_mask` has ones; the others' actions are ignored and may be
    anything), as PettingZoo's `turn_based_aec_to_parallel` does; the AEC environment above
    stays the natural form, and this one serves code written for simultaneous agents."""
    return turn_based_aec_to_parallel(env(game, players=players, render_mode=render_mode,
                                          max_steps=max_steps, actions=actions, **options))


class BoardwrightAEC(AECEnv):
    metadata = {  # noqa: RUF012
        "render_modes": ["ansi"], "name": "boardwright_v0", "is_parallelizable": False,
    }

    def __init__(self, game: str, players: int = 2, options: dict[str, Any] | None = None,
                 render_mode: str | None = None, max_steps: int | None = None,
                 actions: str = "learning") -> None:
        super().__init__()
        self.game = make_game(game, players, options)
        self.space = action_space_for(self.game, actions)
        self.metadata = dict(self.metadata, name=f"boardwright_{game}_v0")
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.encoder = encoder_for(self.game)
        self.num_actions = self.space.size
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = observation_dict_space(self.encoder, self.num_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._seed_rng = np.random.default_rng()
        self.state = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- AEC API ---------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        self.state = self.game.new_game(int(self._seed_rng.integers(2**62)))
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._legal: Any = None
        self._mover_obs: tuple[int, Any] = (-1, None)
        self.agent_selection = self.possible_agents[self.state.current_player]
        self._set_infos()

    def _set_infos(self) -> None:
        for a in self.agents:
            self.infos[a] = {}
        if not self.state.is_terminal and not any(self.truncations.values()):
            mover = self.possible_agents[self.state.current_player]
            self.infos[mover] = {"legal_action_ids": tuple(self.legal().ids.tolist())}

    def legal(self) -> Any:
        """The legal actions of the seat to move with their ids (`LegalIds`: sorted `ids`,
        `action(id)`, `id_of(action)`), cached until the next step."""
        if self._legal is None:
            # the mover's observation comes with it (one call of a compiled writer), kept for
            # `observe` until the next step
            mover = self.state.current_player
            obs, self._legal = self.encoder.observe(self.state, mover, self.space, track=True)
            self._mover_obs = (mover, obs)
        return self._legal

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        observation = None
        if not self.state.is_terminal and seat == self.state.current_player:
            mask = mask_of(self.num_actions, self.legal().ids)
            kept_seat, kept = self._mover_obs
            if kept_seat == seat:
                observation = dict(kept)
        else:
            mask = np.zeros(self.num_actions, dtype=np.int8)
        if observation is None:
            observation = self.encoder.encode_state(self.state, seat)
        observation["action_mask"] = mask
        return observation

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.state.apply(self.legal().action(action))  # raises, changing nothing, if illegal
        self._legal = None
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_terminal:
            returns = self.state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                self.terminations[a] = True
            # the dead agents leave in seat order
            self.agent_selection = self.agents[0]
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            if self.max_steps is not None and self.steps >= self.max_steps:
                for a in self.agents:
                    self.truncations[a] = True
                self.agent_selection = self.agents[0]
            else:
                self.agent_selection = self.possible_agents[self.state.current_player]
        self._set_infos()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The terminal rendering of the position as text (render_mode "ansi")."""
        if self.render_mode is None:
            return None
        return render_text(self.game, self.state)

    def close(self) -> None:
        pass


def render_text(game: Any, state: Any) -> str:
    """The game's terminal renderer, as plain text."""
    import io

    from rich.console import Console

    from boardwright.render import renderer_for

    console = Console(file=io.StringIO(), width=120, color_system=None)
    renderer = renderer_for(game)
    console.print(renderer.heading(state))
    for part in renderer.position(state):
        console.print(part)
    return console.file.getvalue()
