"""An agent of one's own, registered by a call: a one-turn lookahead over sampled worlds.

For each legal action it imagines `samples` worlds consistent with what it may see
(`state.determinize`), plays the action in each, lets the other seats answer with the game's
playout policy until it is its turn again (or the game ends), and judges the outcome with the
game's `evaluation` (its own value minus the best opponent's). It plays the action with the best
average. It uses only the game-agnostic API, so it plays every game, built-in or plugin.

Run it (about 25 s on 2 cores): 60 games of Goofspiel against the greedy bot in 2 worker
processes, then against the example package's `matcher` agent,

    python examples/lookahead_agent.py

or use it wherever agent strings go once this file is imported, e.g.

    boardwright simulate goofspiel -a lookahead:samples=4,greedy -n 50 -w 2 \\
        --import examples/lookahead_agent.py
    python benchmarks/match.py lookahead greedy --game goofspiel \
        --import examples/lookahead_agent.py

Registering by a call makes the agent known in this process; a simulation's worker processes
get the registration with their jobs (the class is sent by reference: it must be defined at the
top level of a module they can import, as here). To offer it without importing a file, declare
it as a `boardwright.agents` entry point of an installed package (examples/goofspiel does so for
`matcher`): then the command line, the benchmarks and `boardwright serve --agent` find it by name.
"""

from __future__ import annotations

import random
from typing import Any

import boardwright as bw

MAX_REPLY_PLIES = 200  # a game whose other seats never hand the turn back is judged here


class LookaheadAgent:
    """One-turn lookahead, averaged over `samples` determinized worlds per action."""

    name = "lookahead"

    def __init__(self, seed: int | None = None, samples: int = 8) -> None:
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        self.rng = random.Random(seed)
        self.samples = samples

    def act(self, state: Any) -> Any:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        me = state.current_player
        best: list[Any] = []
        best_value = float("-inf")
        for action in actions:
            value = sum(self._outcome(state, action, me) for _ in range(self.samples))
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return self.rng.choice(best)

    def _outcome(self, state: Any, action: Any, me: int) -> float:
        """My value minus the best other's, after `action` in one sampled world and the other
        seats' replies."""
        world = state.determinize(me, self.rng)
        world.apply(action)
        game = world.game
        plies = 0
        while not world.is_terminal and world.current_player != me and plies < MAX_REPLY_PLIES:
            world.apply(game.rollout_action(world, world.legal_actions(), self.rng))
            plies += 1
        values = game.final_values(world) if world.is_terminal else game.evaluation(world)
        others = [v for seat, v in enumerate(values) if seat != me]
        return values[me] - max(others) if others else values[me]


# The registration runs when the file is imported (by this script, by `--import`, or by a
# spawned worker that unpickles the class), so the name is known wherever the class is.
bw.register_agent("lookahead", LookaheadAgent, parameters={"samples": int})


def main() -> None:
    from boardwright.sim.parallel import run_jobs
    from boardwright.sim.runner import make_jobs
    from boardwright.sim.stats import summarize

    if "goofspiel" not in bw.available_games():
        raise SystemExit("install the example game first: pip install -e examples/goofspiel")
    for opponent in ("greedy", "matcher"):
        jobs = make_jobs("goofspiel", 2, {}, ["lookahead:samples=8", opponent], games=60,
                         base_seed=2026)
        results = list(run_jobs(jobs, workers=2))
        for row in summarize(results, bootstrap=0):
            print(f"{row.agent:>20}: {100 * row.win_rate:5.1f}% of {row.games} games won, "
                  f"mean score {row.mean_score:.1f}")


if __name__ == "__main__":
    main()
