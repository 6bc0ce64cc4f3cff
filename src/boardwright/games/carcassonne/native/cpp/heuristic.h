// The greedy heuristic (heuristic.py) and the learned evaluation (evaluation.py and
// position_features.py) in compiled code: the same terms, computed in the same order.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "segments.h"
#include "state.h"
#include "value_net.h"

namespace carc {

constexpr int NUM_FEATURES = 18;  // position_features.FEATURES
enum FeatureIndex {
    X_SCORE, X_CITY, X_CITY_RETURNS, X_ROAD, X_ROAD_RETURNS, X_MONASTERY, X_MONASTERY_OPEN,
    X_FARM_DONE, X_FARM_ODDS, X_FARM_OPEN, X_BARN, X_FOLLOWERS, X_MAYOR, X_WAGON,
    X_BARN_PIECES, X_ABBEYS, X_DEAD, X_FARMERS
};

// A linear evaluation's weights (evaluation.EvaluationWeights): per feature, and for the bonus
// of the seat to move, the coefficients of 1, t and t^2; and the learned value's network
// (value_net.py) whose correction the version adds, if it has one ("learned").
struct LinearWeights {
    std::string name;
    std::array<std::array<double, 3>, NUM_FEATURES> weights{};
    std::array<double, 3> to_move{};
    std::shared_ptr<const ValueNet> net;
};

// What the heuristic reads from the game: its constants and, per tile type, which side
// patterns and masks it can close (heuristic.closes).
struct HeuristicData {
    double follower_in_hand = 1.5, hand_horizon = 6.0, draw_share = 0.1, open_city_farm = 1.0;
    std::vector<std::array<uint64_t, 64>> closes;  // [type]: bit (pattern << 4 | mask)
    bool tile_closes(int type, int key) const { return (closes[type][key >> 6] >> (key & 63)) & 1u; }
    std::array<std::array<double, 3>, NUM_FEATURES> weights{};
    std::array<double, 3> to_move{};
    // The other evaluations by name (Game.evaluation_versions): the earlier fits kept for the
    // named baseline bots (evaluation.KEPT_VERSIONS), and "learned" where a network is shipped.
    std::vector<LinearWeights> versions;
    const LinearWeights* version(const std::string& name) const {
        for (const LinearWeights& v : versions)
            if (v.name == name) return &v;
        return nullptr;
    }
    SegmentMasks segments;  // what each part covers (filled when a version's network reads holders)
    int pile_size = 1;
    uint64_t id = 0;  // unique per game made in this process (keys caches shared by calls)
};

void build_closers(const GameData& data, HeuristicData& h);

// Positions that all descend from one `base` position by a few actions, the base unchanged
// meanwhile (the children a greedy choice looks at): the heuristic finds what the base's
// untouched features reach once for all of them instead of once per position. A new Lineage
// (a new id) for every base, and for a base that has changed.
struct Lineage {
    const State* base;
    uint64_t id;
    void* scratch;  // the heuristic's buffers of the thread (found once, not per position)
    explicit Lineage(const State& b);
};

// The greedy heuristic's value of each seat (heuristic.potential_scores) into values[0, players).
void potential_scores(State& st, const HeuristicData& h, double* values,
                      const Lineage* lineage = nullptr);
std::vector<double> potential_scores(State& st, const HeuristicData& h);
std::vector<std::array<double, NUM_FEATURES>> seat_features(State& st, const HeuristicData& h);
std::vector<double> evaluate(State& st, const HeuristicData& h);
// The same with the weights of another version instead of the game's current ones, plus its
// network's correction where it has one.
std::vector<double> evaluate(State& st, const HeuristicData& h, const LinearWeights& w);

}  // namespace carc
