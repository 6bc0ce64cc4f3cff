"""Self-play positions for Carcassonne's learned value, made by the compiled engine.

Each game is dealt by `new_game(seed + index)` on the native engine and played by the greedy
agent's compiled choice (`greedy_action_id`), with a share `--explore` of the decisions taken
uniformly at random instead, so the positions also cover moves the greedy agent would not make
(the search's playouts are greedy, its candidates are not). At the start of every turn, for the
seat whose turn begins, one row is recorded:

* `hand`: every seat's hand-made features (`position_features.FEATURES`, the linear
  evaluation's inputs), in seat order relative to that seat (the seat first);
* `pooled`: that seat's lossless observation (`boardwright.rl.observations`: board planes and
  scalars), each board plane summed over the window, then the scalars (unscaled);
* `t` (share of the pile left) and the game index;
* the target, read when the game ends: every seat's final score, relative seats again.

With `--continuations K`, only `--per-game` turn starts of each game are recorded, and each one's
target is the mean final score of K continuations instead of the game's own: the position is
determinized for its seat (the pile shuffled anew) and played on to the end by the same policy,
K times. The luck still to come (a variance of about 490 points² in the 2-player margin) then
weighs K times less in each target, so the same learning sees the systematic part far sooner.

Rows are appended to `--out` in chunks (`<out>/chunk-<first game>.npz`), one file per `--chunk`
games, so a stopped run resumes where it was (finished chunks are skipped).

    python benchmarks/value_data.py --games 20000 --out runs/value-2p-am          # ~6 min a core
    python benchmarks/value_data.py --games 4000 --players 4 --out runs/value-4p-am
    python benchmarks/value_data.py --games 12000 --continuations 8 --first 100000 --chunk 50 \
        --out runs/value-2p-am-k8                     # 8 positions a game, ~45 min on 2 cores
"""

from __future__ import annotations

import argparse
import random
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

import boardwright as bw
from boardwright.rl.observations import encoder_for

OPTION_SETS = {"base": {}, "abbey_mayor": {"expansions": ["abbey_mayor"]}}


def play_move(state, rng: random.Random, explore: float) -> None:
    """One move of the data's policy: greedy, or uniformly random with probability `explore`."""
    if rng.random() < explore:
        state._apply_id(rng.choice(state.legal_action_ids()))
    else:
        state._apply_id(state.greedy_action_id(rng.getrandbits(64)))


def play_on(state, rng: random.Random, explore: float) -> None:
    """The data's policy to the end of the game."""
    while not state.is_terminal:
        play_move(state, rng, explore)


def relative(values, seat: int, players: int) -> list:
    """Per-seat values in relative seats: `seat` first, then the seats after it."""
    return [values[(seat + k) % players] for k in range(players)]


def continued(state, seat: int, players: int, times: int, rng: random.Random,
              explore: float) -> list[float]:
    """The mean final scores (relative seats from `seat`) of `times` continuations of `state`,
    each on a pile order drawn anew."""
    totals = [0.0] * players
    for _ in range(times):
        copy = state.determinize(seat, random.Random(rng.getrandbits(64)))
        play_on(copy, rng, explore)
        for k, score in enumerate(relative(copy.scores, seat, players)):
            totals[k] += score
    return [total / times for total in totals]


def play_chunk(job: tuple[int, int, int, str, float, str, int, int]) -> str:
    """Play games [first, first + count) and write their rows; returns the chunk's path."""
    first, count, players, options, explore, out, continuations, per_game = job
    path = Path(out) / f"chunk-{first:07d}.npz"
    if path.exists():
        return str(path)
    game = bw.load("carcassonne", players=players, options=OPTION_SETS[options],
                   engine="native")
    encoder = encoder_for(game)
    buffers = encoder.empty()
    hand_rows, pooled_rows, t_rows, game_rows, final_rows = [], [], [], [], []
    rng = random.Random(first * 7919 + 17)
    for index in range(first, first + count):
        state = game.new_game(index)
        seats_of_rows = []
        means = []
        turn = 0
        # With continuations: the turn starts recorded (a game has about one a tile).
        picked = (set(rng.sample(range(1, game.pile_size + 1), per_game)) if continuations
                  else None)
        while not state.is_terminal:
            if state.at_turn_start:
                turn += 1
            if state.at_turn_start and (picked is None or turn in picked):
                seat = state.current_player
                hand_rows.append(relative(state.seat_features(), seat, players))
                encoder.encode_into(state, seat, buffers)
                board = buffers["board"]
                pooled_rows.append(np.concatenate([
                    board.reshape(board.shape[0], -1).sum(axis=1, dtype=np.int32),
                    buffers["scalars"].astype(np.int32)]))
                t_rows.append(len(state.pile) / game.pile_size)
                game_rows.append(index)
                seats_of_rows.append(seat)
                if continuations:
                    means.append(continued(state, seat, players, continuations, rng, explore))
            play_move(state, rng, explore)
        scores = state.scores
        if continuations:
            final_rows.extend(means)
        else:
            final_rows.extend(relative(scores, seat, players) for seat in seats_of_rows)
        assert len(final_rows) == len(hand_rows)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_suffix(".tmp.npz")
    np.savez_compressed(temp, hand=np.asarray(hand_rows, dtype=np.float32),
                        pooled=np.asarray(pooled_rows, dtype=np.int32),
                        t=np.asarray(t_rows, dtype=np.float32),
                        game=np.asarray(game_rows, dtype=np.int32),
                        final=np.asarray(final_rows, dtype=np.float32))
    temp.rename(path)
    return str(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--options", choices=OPTION_SETS, default="abbey_mayor")
    parser.add_argument("--explore", type=float, default=0.1,
                        help="share of decisions played at random instead of greedily")
    parser.add_argument("--chunk", type=int, default=250)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--continuations", type=int, default=0,
                        help="targets: the mean of this many continuations (0: the game's end)")
    parser.add_argument("--per-game", type=int, default=8,
                        help="with --continuations: turn starts recorded per game")
    parser.add_argument("--first", type=int, default=0, help="the first game's index")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    jobs = [(first, min(args.chunk, args.first + args.games - first), args.players, args.options,
             args.explore, args.out, args.continuations, args.per_game)
            for first in range(args.first, args.first + args.games, args.chunk)]
    began = time.perf_counter()
    with Pool(args.workers) as pool:
        for done, path in enumerate(pool.imap_unordered(play_chunk, jobs), 1):
            print(f"{done}/{len(jobs)} {path} {time.perf_counter() - began:.0f} s", flush=True)


if __name__ == "__main__":
    main()
