"""Named bot levels: easy, medium and hard, each a fixed agent string.

Agent strings stay the interface (`mcts:seconds=0.5`); a level is a name for one of them, so a
person choosing an opponent does not need to know the parameters, and every front end (the
terminal's `--players human,hard`, `simulate`, the web lobby) means the same bot by the same
name. This module is the one place the levels are defined; the README gives each level's
measured win rate against `greedy`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    name: str
    agent: str  # the agent string the level stands for (what a stored game records)
    why: str  # what kind of opponent it is, for people choosing one


LEVELS: dict[str, Level] = {level.name: level for level in (
    # One decision ahead only: it places the tile by the heuristic without looking at the
    # figure it could put on it afterwards, so it leaves points a beginner can take.
    Level("easy", "greedy:depth=1",
          "greedy one decision ahead: places tiles by the heuristic without weighing the "
          "figure that could follow; beatable by beginners"),
    # A quarter second of search per decision: clearly stronger than greedy, still quick
    # enough that a game against it never waits on the bot.
    Level("medium", "mcts:seconds=0.25",
          "Monte Carlo search, 0.25 s per decision: stronger than greedy, and quick"),
    # One second per decision: the strongest setting that keeps a 2-player game at a
    # comfortable pace on a shared server (the server allows at most 10 s).
    Level("hard", "mcts:seconds=1",
          "Monte Carlo search, 1 s per decision: the strongest level"),
)}


def level_agent(spec: str) -> str:
    """The agent string of a level name (`"hard"` -> `"mcts:seconds=1"`, case and surrounding
    spaces ignored); any other string comes back unchanged."""
    level = LEVELS.get(spec.strip().lower())
    return level.agent if level is not None else spec


def level_of(agent: str) -> str | None:
    """The level whose agent string is `agent` (or whose name it is), else None."""
    name = agent.strip().lower()
    if name in LEVELS:
        return name
    for level in LEVELS.values():
        if level.agent == agent.strip():
            return level.name
    return None
