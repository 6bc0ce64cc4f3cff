"""Random playouts per second: the raw speed of a game engine.

Plays complete games with uniformly random moves (legal_actions + apply, as any agent does) in
one process and prints games per second together with the command line that produced it.

    python benchmarks/throughput.py                 # every workload, 2 players
    python benchmarks/throughput.py --game carcassonne  # both Carcassonne workloads
    python benchmarks/throughput.py --workload base --games 2000 --players 4
    python benchmarks/throughput.py --workload abbey_mayor
    python benchmarks/throughput.py --game queens   # Queens & Princes (or --workload queens)
    python benchmarks/throughput.py --workload shogun  # Rise of the Shogun, 30-round cap

Workloads: `base` is the Carcassonne base game with farmers; `abbey_mayor` switches on every
component of the Abbey & Mayor expansion (tiles, abbeys, mayor, wagon, barn); `queens` is
Queens & Princes on the default map; `shogun` is HeroCard: Rise of the Shogun with the round cap
`max_rounds = 30` (the default of `boardwright simulate shogun`: the rules have no round limit,
and random players rarely reach the VP threshold). `--game` keeps the workloads of one game. `--option` adds
game options.
"""

from __future__ import annotations

import argparse
import platform
import random
import shlex
import sys
import time

import boardwright as bw


def play_random_games(game: bw.Game, games: int, seed: int) -> tuple[float, int, int]:
    """Play `games` random games; returns (seconds, decisions, tiles placed)."""
    rng = random.Random(seed)
    decisions = tiles = 0
    start = time.perf_counter()
    for index in range(games):
        state = game.new_game(seed + index)
        choice = rng.choice
        while not state.is_terminal:
            state.apply(choice(state.legal_actions()))
            decisions += 1
        tiles += state.turn if hasattr(state, "turn") else 0
    return time.perf_counter() - start, decisions, tiles


# name -> (game, options)
WORKLOADS: dict[str, tuple[str, dict]] = {
    "base": ("carcassonne", {"farmers": True}),
    "abbey_mayor": ("carcassonne", {"farmers": True, "expansions": ["abbey_mayor"]}),
    "queens": ("queens", {}),
    "shogun": ("shogun", {"max_rounds": 30}),
}


def run_workload(name: str, game: bw.Game, games: int, seed: int) -> None:
    play_random_games(game, min(20, games), seed + 10**6)  # warm-up
    seconds, decisions, tiles = play_random_games(game, games, seed)
    print(f"workload {name}: {game.name}, {game.num_players} players, options {game.options}")
    print(f"  games: {games} in {seconds:.2f} s")
    if game.name == "carcassonne":
        per_game = f"{tiles / max(games, 1):.1f} tiles/game"
    elif game.name == "shogun":
        per_game = (f"{decisions / max(games, 1):.1f} decisions/game, "
                    f"{tiles / max(games, 1):.1f} turns/game")
    else:
        per_game = f"{decisions / max(games, 1):.1f} turns/game"
    print(f"  throughput: {games / seconds:.1f} games/s "
          f"({decisions / seconds:,.0f} decisions/s, {per_game})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--game", choices=sorted({g for g, _ in WORKLOADS.values()}),
                        help="only the workloads of this game")
    parser.add_argument("--workload", choices=sorted(WORKLOADS) + ["all"], default="all")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=JSON",
                        help="game option, e.g. --option farmers=false")
    args = parser.parse_args(argv)
    import json

    options = {}
    for item in args.option:
        key, _, value = item.partition("=")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    print(f"command: python {shlex.join([sys.argv[0], *(argv if argv is not None else sys.argv[1:])])}")
    print(f"machine: {platform.python_implementation()} {platform.python_version()} "
          f"on {platform.machine()}, one process")
    names = list(WORKLOADS) if args.workload == "all" else [args.workload]
    if args.game is not None:
        names = [name for name in names if WORKLOADS[name][0] == args.game]
        if not names:
            parser.error(f"workload {args.workload!r} is not a {args.game} workload")
    for name in names:
        game_name, workload_options = WORKLOADS[name]
        workload_options = {**workload_options, **options}
        run_workload(name, bw.load(game_name, args.players, workload_options), args.games, args.seed)


if __name__ == "__main__":
    main()
