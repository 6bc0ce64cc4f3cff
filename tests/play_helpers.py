"""Playing a whole game between agents, for tests of any game: every move an agent makes is
checked to be legal before it is applied."""

from __future__ import annotations

import boardwright as bw
from boardwright.agents import make_agent


def play_out(game: bw.Game, specs: list[str], seed: int) -> bw.State:
    """A game of `game` from `new_game(seed)` to its end, seat i played by agent `specs[i]`
    (seeded from `seed`)."""
    state = game.new_game(seed)
    agents = [make_agent(spec, seed=seed + seat) for seat, spec in enumerate(specs)]
    while not state.is_terminal:
        action = agents[state.current_player].act(state)
        assert action in state.legal_actions()
        state.apply(action)
    return state
