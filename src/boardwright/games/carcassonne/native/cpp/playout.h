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
