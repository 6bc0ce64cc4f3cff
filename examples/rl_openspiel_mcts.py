"""OpenSpiel's MCTS bot against OpenSpiel's random bot on a boardwright game.

    python examples/rl_openspiel_mcts.py --game carcassonne --games 2 --simulations 20

Chance is explicit (EXPLICIT_STOCHASTIC, `boardwright.rl.openspiel`): at a chance node the
example samples the outcome by its probability, and inside its search MCTS samples the draws
of each simulation itself, so it never sees a coming tile or card. `--seed` seeds the bots and
the chance outcomes (the initial state is the same for every game). Shogun gets a short round
cap here to keep the run quick.
"""

from __future__ import annotations

import argparse
import json

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.bots import uniform_random

import boardwright.rl.openspiel  # noqa: F401  (registers python_boardwright_<game>)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="queens", choices=["carcassonne", "queens", "shogun"])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    options = json.dumps({"max_rounds": 5}) if args.game == "shogun" else ""
    game = pyspiel.load_game(f"python_boardwright_{args.game}", {"options": options})
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    total = 0.0
    for index in range(args.games):
        mcts_seat = index % 2
        bots = [None, None]
        bots[mcts_seat] = mcts.MCTSBot(game, 2.0, args.simulations, evaluator,
                                       random_state=rng, solve=False)
        bots[1 - mcts_seat] = uniform_random.UniformRandomBot(1 - mcts_seat, rng)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        result = state.returns()[mcts_seat]
        total += result
        print(f"game {index}: MCTS in seat {mcts_seat} scored {result:+.1f} "
              f"({len(state.history())} steps, chance outcomes included)")
    print(f"MCTS mean return {total / args.games:+.2f} over {args.games} games")


if __name__ == "__main__":
    main()
