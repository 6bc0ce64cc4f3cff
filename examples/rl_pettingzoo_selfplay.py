"""Self-play through the PettingZoo AEC environment: a tiny tabular-free "learner".

Every seat uses the same policy: with probability epsilon a random legal action, otherwise the
legal action with the highest running-average return seen for (game, action id). This trains
nothing heavy; it shows the loop (reset, agent_iter, last, action mask, step, final rewards).

    python examples/rl_pettingzoo_selfplay.py --game queens --episodes 20
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

from boardwright.rl.pettingzoo import env as make_env


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="queens", choices=["carcassonne", "queens", "shogun"])
    parser.add_argument("--episodes", type=int, default=10)
    parser.add_argument("--epsilon", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = make_env(args.game)
    rng = np.random.default_rng(args.seed)
    value_sum: dict[int, float] = defaultdict(float)
    value_n: dict[int, int] = defaultdict(int)
    for episode in range(args.episodes):
        env.reset(seed=args.seed + episode)
        taken: dict[str, list[int]] = defaultdict(list)
        final: dict[str, float] = {}
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                final[agent] = reward
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])  # == info["legal_action_ids"]
            if rng.random() < args.epsilon:
                action = int(rng.choice(legal))
            else:
                scores = [value_sum[a] / value_n[a] if value_n[a] else 0.0 for a in legal]
                action = int(legal[int(np.argmax(scores))])
            taken[agent].append(action)
            env.step(action)
        for agent, actions in taken.items():
            for a in actions:
                value_sum[a] += final.get(agent, 0.0)
                value_n[a] += 1
        print(f"episode {episode}: returns {final}, {sum(map(len, taken.values()))} steps")
    env.close()


if __name__ == "__main__":
    main()
