"""`mcts-v2` on a fixed budget, for matches that compare evaluations rather than speed.

`mcts-v2` takes no parameters (a quarter second a decision, as it was kept). To measure what a
new evaluation is worth on its own, both sides must search the same number of playouts:

    python benchmarks/match.py mcts:iterations=300 mcts-v2-budget:iterations=300 \\
        --import benchmarks/budget_baseline.py --bar 0.55 --low 0.45 --workers 2

The two then differ only in what judges the playouts' leaves (and anything else changed in
`mcts` since `mcts-v2` was kept).
"""

from __future__ import annotations

import boardwright as bw
from boardwright.agents.baselines import MCTSv2Agent


def budgeted_v2(seed: int | None = None, iterations: int = 300) -> MCTSv2Agent:
    return MCTSv2Agent(seed, iterations=iterations)


bw.register_agent("mcts-v2-budget", budgeted_v2, parameters={"iterations": int})
