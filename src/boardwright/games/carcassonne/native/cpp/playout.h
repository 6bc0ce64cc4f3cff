// Whole games and playouts in compiled code: a small fast generator and the random policy.
#pragma once

#include <cstdint>
#include <vector>

#include "state.h"

namespace carc {

// splitmix64: small, fast and good enough for choosing moves and shuffling piles.
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed) {}
    uint64_t next() {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    uint32_t below(uint32_t n) {  // uniform in [0, n) (Lemire's multiply-shift)
        return static_cast<uint32_t>((static_cast<uint64_t>(static_cast<uint32_t>(next() >> 32)) * n) >> 32);
    }
};

// A new game dealt natively: the game's tile bag shuffled by `rng` (not Python's shuffle, so
// these games are not those of `new_game(seed)`; they are for batch simulation).
void deal(State& st, const GameData* data, const std::vector<uint8_t>& bag, Rng& rng,
          bool shuffle = true);

// Play uniformly random legal actions to the end; returns the number of actions.
int random_playout(State& st, Rng& rng);

}  // namespace carc

namespace carc {

struct HeuristicData;

// Playout policies: uniform, the game's rollout policy (keep figures: pass whenever a figure
// could be put), and greedy (the greedy agent's one-turn heuristic lookahead).
enum Policy : uint8_t { P_RANDOM = 0, P_GAME = 1, P_GREEDY = 2 };

// When a playout stops: after `min_plies` at least; then, with `turn_leaves`, at the `turns`-th
// start of seat `me`'s turn (or after `max_plies`); at the end of the game in any case.
struct PlayoutStop {
    int me = 0;
    int min_plies = 0;
    bool turn_leaves = true;
    int max_plies = 200;
    int turns = 1;  // with turn_leaves: stop at the turns-th start of a turn of `me`
};

// Play on in place; returns the final scores (terminal) or the leaf values (`evaluation` or
// `heuristic` of the game; with `leaf`, the linear evaluation by those kept weights), and
// whether the game ended.
struct LinearWeights;
std::vector<double> playout(State& st, Policy policy, Rng& rng, const PlayoutStop& stop,
                            const HeuristicData& h, bool& terminal,
                            const LinearWeights* leaf = nullptr);

// The greedy agent's choice (greedy.greedy_action with depth 2), ties broken by `rng`. The
// position is unchanged but for its union-find paths, compressed (every part under its root).
int64_t greedy_choice(State& st, Rng& rng, const HeuristicData& h, int depth = 2);

}  // namespace carc
