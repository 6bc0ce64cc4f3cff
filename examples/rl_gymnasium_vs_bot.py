"""A single-agent Gymnasium loop against a boardwright bot (any `make_agent` string).

The "policy" is random over the legal actions (from the observation's action mask); swap in a
learner. Prints the win rate against the bot.

    python examples/rl_gymnasium_vs_bot.py --env boardwright/Carcassonne-v0 --opponent greedy
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import boardwright.rl.gymnasium  # noqa: F401  (registers boardwright/<Game>-v0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--env", default="boardwright/Queens-v0")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--episodes", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = gymnasium.make(args.env, opponent=args.opponent)
    rng = np.random.default_rng(args.seed)
    wins = 0
    for episode in range(args.episodes):
        _obs, info = env.reset(seed=args.seed + episode)
        done, steps, reward = False, 0, 0.0
        while not done:
            action = int(rng.choice(info["legal_action_ids"]))  # == nonzeros of obs["action_mask"]
            _obs, reward, terminated, truncated, info = env.step(action)
            done, steps = terminated or truncated, steps + 1
        wins += reward > 0
        print(f"episode {episode}: reward {reward:+.1f} after {steps} decisions")
    print(f"won {wins}/{args.episodes} against {args.opponent}")
    env.close()


if __name__ == "__main__":
    main()
