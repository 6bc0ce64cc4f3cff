// N Carcassonne games stepped together in compiled code: the core of the vector environment
// (boardwright.rl.vector_native). Each step writes the observation, the action mask, the reward,
// the termination and the seat to move of every game into the caller's arrays; no Python object
// is made per game or per step. The other seats are played here by a named policy, or every
// decision is handed to the caller (self-play).
#pragma once

#include <cstdint>
#include <vector>

#include "heuristic.h"
#include "obs.h"
#include "playout.h"
#include "state.h"

namespace carc {

enum Opponent : uint8_t { O_SELF = 0, O_RANDOM = 1, O_GREEDY = 2 };

// The caller's arrays, one row per game.
struct VecBuffers {
    uint8_t* board = nullptr;      // (N, C, W, W), or (N, W, W, C): the ObsSpec's order
    int16_t* scalars = nullptr;    // (N, S)
    int8_t* mask = nullptr;        // (N, A)
    float* reward = nullptr;       // (N,)
    bool* terminated = nullptr;    // (N,)
    bool* truncated = nullptr;     // (N,)
    int32_t* to_move = nullptr;    // (N,)
    float* returns = nullptr;      // (N, players)
};

// Rank-based returns (core.game.rank_returns): each beaten opponent 1, each tie 1/2, in [-1, 1].
void rank_returns(const Vec<int32_t>& scores, float* out);

class VecEnv {
   public:
    VecEnv(const GameData* data, const std::vector<uint8_t>* bag, bool shuffle,
           const HeuristicData* heuristic, const ObsSpec* spec, int num_envs, Opponent mode,
           int seat, VecBuffers buffers);

    // Every game's random stream seeded with seeds[i], and a new game dealt from it.
    void reset(const int64_t* seeds);
    // Game i starts again now with this draw pile (tile indexes, drawn from the end).
    void start(int i, const std::vector<uint8_t>& pile);
    // The first game whose action is out of range (kind 1) or not legal (kind 2), or -1: every
    // out-of-range id is found before any illegal one. Games that ended are not checked.
    int check(const int64_t* actions, int& kind) const;
    // One learning id per game, already accepted by `check` (the binding calls it first, so
    // nothing is applied unless every one is good; an id that is not legal after all throws);
    // games that ended at the previous step start a new game instead and ignore theirs.
    // How many games ended at this step.
    int step(const int64_t* actions);
    const State& state(int i) const { return envs_[i].st; }
    int num_envs() const { return static_cast<int>(envs_.size()); }

   private:
    struct Env {
        State st;
        Rng rng{0};
        ObsTracker tracker;
        bool done = false;
        bool shown = false;  // its rows hold the last write of `st` (board, mask: `lids`)
        IdList lids, sids;  // the legal actions: learning ids, stable ids
    };
    // Before a new deal replaces game i: what its board row shows is zeroed where it was
    // written (channels last only: a tile cell's planes lie together), instead of the whole
    // row after the deal. Whether it was (begin's `erased`).
    bool erase(int i);
    void deal_next(int i);                  // game i's next game from its stream, begun
    void begin(int i, bool erased);         // after a new deal: the others play, all written
    void apply(Env& e, int64_t stable_id);  // one action, noted for the observation
    void play_others(Env& e);
    // Mask, observation, to_move; `full`: written whole (on a row `erased`, or cleared first).
    void publish(int i, int viewer, bool full, bool erased = false);
    uint8_t* board_row(int i) const { return buf_.board + static_cast<size_t>(i) * spec_->board_size(); }
    void prefetch(int i) const;                  // game i's memory asked for (vec.h)

    const GameData* data_;
    const std::vector<uint8_t>* bag_;
    bool shuffle_;
    const HeuristicData* heuristic_;
    const ObsSpec* spec_;
    Opponent mode_;
    int seat_;
    VecBuffers buf_;
    std::vector<Env> envs_;
};

}  // namespace carc
