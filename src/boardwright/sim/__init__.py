"""Simulations: many games between agents, in parallel or on Ray, with statistics.

    runner.py      GameJob, play_game -> GameResult, make_jobs (seeds, seat rotation)
    stats.py       per-agent wins, Wilson intervals, mean scores, Bradley–Terry Elo + bootstrap
    parallel.py    in-process or multiprocessing runs, clean Ctrl-C (collect)
    ray_runner.py  the same jobs as Ray tasks (Ray imported lazily)
    output.py      JSON / CSV results, per-game record files

The CLI front-end is `boardwright simulate`.
"""

from boardwright.sim.parallel import Collected, ProcessRunner, collect, run_jobs
from boardwright.sim.runner import GameJob, GameResult, game_seed, make_jobs, play_game, rotate
from boardwright.sim.stats import AgentStats, summarize

__all__ = ["AgentStats", "Collected", "GameJob", "GameResult", "ProcessRunner", "collect",
           "game_seed", "make_jobs", "play_game", "rotate", "run_jobs", "summarize"]
