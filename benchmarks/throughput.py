"""Random playouts per second: the raw speed of a game engine.

Plays complete games with uniformly random moves (legal_actions + apply, as any agent does) in
one process and prints games per second together with the command line that produced it.

    python benchmarks/throughput.py                 # every workload, 2 players
    python benchmarks/throughput.py --game carcassonne  # both Carcassonne workloads
    python benchmarks/throughput.py --workload base --games 2000 --players 4
    python benchmarks/throughput.py --workload abbey_mayor
    python benchmarks/throughput.py --game queens   # Queens & Princes (or --workload queens)
    python benchmarks/throughput.py --workload shogun  # Rise of the Shogun, 30-round cap
    python benchmarks/throughput.py --game carcassonne --engine python,native  # side by side
    python benchmarks/throughput.py --engine all    # every engine each game can run here

Workloads: `base` is the Carcassonne base game with farmers; `abbey_mayor` switches on every
component of the Abbey & Mayor expansion (tiles, abbeys, mayor, wagon, barn); `queens` is
Queens & Princes on the default map; `shogun` is HeroCard: Rise of the Shogun with the round cap
`max_rounds = 30` (the default of `boardwright simulate shogun`: the rules have no round limit,
and random players rarely reach the VP threshold). `--game` keeps the workloads of one game. `--option` adds
game options.

Engines: `--engine NAME[,NAME...]` plays each workload on every listed engine its game offers,
one after the other on the same seeds, and prints each figure and the ratio of the others to
the first; `--engine all` takes every engine the game can run on this machine (a compiled
engine that was not built is left out, with the reason). The default is the game's default
engine. The same seeds give the same games on every engine, so the decision counts must agree:
a difference is reported.
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


def measure(game: bw.Game, games: int, seed: int) -> tuple[float, int, int]:
    """(seconds, decisions, tiles) of `games` random games, after a short warm-up."""
    play_random_games(game, min(20, games), seed + 10**6)
    return play_random_games(game, games, seed)


def run_workload(name: str, engines: list[bw.Game], games: int, seed: int) -> None:
    """Play the workload on each engine in turn and print each figure, then the ratios."""
    first = engines[0]
    print(f"workload {name}: {first.name}, {first.num_players} players, options {first.options}")
    figures = []
    for game in engines:
        seconds, decisions, tiles = measure(game, games, seed)
        figures.append((game.engine, seconds, decisions))
        label = f"[{game.engine}] " if len(engines) > 1 else ""
        if len(engines) == 1:
            print(f"  engine: {game.engine}")
        print(f"  {label}games: {games} in {seconds:.2f} s")
        if game.name == "carcassonne":
            per_game = f"{tiles / max(games, 1):.1f} tiles/game"
        elif game.name == "shogun":
            per_game = (f"{decisions / max(games, 1):.1f} decisions/game, "
                        f"{tiles / max(games, 1):.1f} turns/game")
        else:
            per_game = f"{decisions / max(games, 1):.1f} turns/game"
        print(f"  {label}throughput: {games / seconds:.1f} games/s "
              f"({decisions / seconds:,.0f} decisions/s, {per_game})")
    base_engine, base_seconds, base_decisions = figures[0]
    for engine, seconds, decisions in figures[1:]:
        print(f"  {engine} / {base_engine}: {base_seconds / seconds:.2f}x the games per second")
        if decisions != base_decisions:
            print(f"  WARNING: {engine} took {decisions} decisions, {base_engine} "
                  f"{base_decisions}: the engines did not play the same games")


def engines_for(game_name: str, wanted: str | None) -> tuple[list[str], list[str]]:
    """The engines to run a workload of `game_name` on, and notes on those left out."""
    if wanted is None:
        return [bw.load(game_name).engine], []
    if wanted == "all":
        usable = bw.available_engines(game_name)
        kind = type(bw.load(game_name))
        notes = [f"{e} engine not available here ({kind.engine_unavailable(e)})"
                 for e in kind.engines if e not in usable]
        return usable, notes
    names = list(dict.fromkeys(e.strip() for e in wanted.split(",") if e.strip()))
    offered = type(bw.load(game_name)).engines
    return [e for e in names if e in offered], [
        f"{game_name} has no {e} engine" for e in names if e not in offered]


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
    parser.add_argument("--engine", metavar="NAME[,NAME...]|all", default=None,
                        help="the engines to compare side by side, e.g. python,native, or all "
                             "(default: the game's default engine)")
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
    plans = []
    for name in names:
        game_name, workload_options = WORKLOADS[name]
        workload_options = {**workload_options, **options}
        engines, notes = engines_for(game_name, args.engine)
        try:  # every engine and option is checked before anything is measured
            games = [bw.load(game_name, args.players, workload_options, engine=e) for e in engines]
        except bw.BoardwrightError as exc:
            parser.error(f"workload {name}: {exc}")
        plans.append((name, games, notes))
    if not any(games for _, games, _ in plans):
        offered = {WORKLOADS[n][0]: ", ".join(type(bw.load(WORKLOADS[n][0])).engines)
                   for n in names}
        parser.error(f"no workload has the engine(s) {args.engine!r}; engines: "
                     + "; ".join(f"{game}: {engines}" for game, engines in offered.items()))
    for name, games, notes in plans:
        for note in notes:
            print(f"workload {name}: {note}, left out")
        if games:
            run_workload(name, games, args.games, args.seed)


if __name__ == "__main__":
    main()
