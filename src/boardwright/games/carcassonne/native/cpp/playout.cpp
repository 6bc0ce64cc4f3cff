#include "playout.h"

namespace carc {

void deal(State& st, const GameData* data, const std::vector<uint8_t>& bag, Rng& rng,
          bool shuffle) {
    Vec<uint8_t>& pile = st.pile;
    pile.assign(bag.data(), bag.data() + bag.size());
    if (shuffle)
        for (size_t i = pile.size(); i > 1; --i) std::swap(pile[i - 1], pile[rng.below(static_cast<uint32_t>(i))]);
    st.setup(data, std::move(pile));
}

int random_playout(State& st, Rng& rng) {
    int steps = 0;
    while (!st.is_terminal()) {
        const Vec<int64_t>& ids = st.legal_ids();
        st.apply_id(ids[rng.below(static_cast<uint32_t>(ids.size()))]);
        ++steps;
    }
    return steps;
}

}  // namespace carc

#include <cmath>
#include <limits>

#include "heuristic.h"

namespace carc {

namespace {

double relative_value(const double* v, int n, int seat) {
    if (n == 1) return v[0];
    double best = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; ++i)
        if (i != seat && v[i] > best) best = v[i];
    return v[seat] - best;
}

// A state per lookahead depth, kept from call to call: copying a position into one reuses its
// memory instead of allocating a new one for every child a greedy choice looks at.
State& scratch(int depth) {
    static thread_local State states[8];
    return states[depth];
}

double lookahead(State& st, int seat, int depth, const HeuristicData& h, const Lineage& lineage) {
    if (depth > 0 && !st.is_terminal() && st.current_player() == seat) {
        double best = -std::numeric_limits<double>::infinity();
        const Vec<int64_t>& ids = st.legal_ids();  // st is not changed below
        for (int64_t id : ids) {
            State& child = scratch(depth);
            child = st;
            child.apply_id(id);
            best = std::max(best, lookahead(child, seat, depth - 1, h, lineage));
        }
        return best;
    }
    double values[8];
    potential_scores(st, h, values, &lineage);
    return relative_value(values, st.data->players, seat);
}

}  // namespace

int64_t greedy_choice(State& st, Rng& rng, const HeuristicData& h, int depth) {
    const int seat = st.current_player();
    const Vec<int64_t>& ids = st.legal_ids();  // st is not changed below
    // Every part straight under its root (roots do not change): the copies below find roots
    // in a step or two.
    for (int p = 0, n = st.graph.nparts(); p < n; ++p) st.graph.find(p);
    const Lineage lineage(st);                 // every position looked at descends from st
    static thread_local std::vector<int64_t> best;
    best.clear();
    double best_value = -std::numeric_limits<double>::infinity();
    for (int64_t id : ids) {
        State& child = scratch(depth);
        child = st;
        child.apply_id(id);
        double value = lookahead(child, seat, depth - 1, h, lineage);
        if (value > best_value + 1e-9) {
            best.assign(1, id);
            best_value = value;
        } else if (std::fabs(value - best_value) <= 1e-9) {
            best.push_back(id);
        }
    }
    return best[rng.below(static_cast<uint32_t>(best.size()))];
}

std::vector<double> playout(State& st, Policy policy, Rng& rng, const PlayoutStop& stop,
                            const HeuristicData& h, bool& terminal, const LinearWeights* leaf) {
    int plies = 0;
    int turn_starts = 0;  // starts of `me`'s turn met since min_plies
    auto at_leaf = [&]() {
        return st.current_player() == stop.me && st.at_turn_start() && ++turn_starts >= stop.turns;
    };
    while (!st.is_terminal() &&
           (plies < stop.min_plies ||
            (stop.turn_leaves && plies < stop.max_plies && !at_leaf()))) {
        const Vec<int64_t>& ids = st.legal_ids();
        int64_t id;
        if (policy == P_GREEDY && ids.size() > 1) {
            id = greedy_choice(st, rng, h);
        } else if (policy == P_GAME && ids.size() > 1 && ids.front() == st.data->pass_id) {
            id = ids.front();  // keep the figure (CarcassonneGame.rollout_action)
        } else {
            id = ids[rng.below(static_cast<uint32_t>(ids.size()))];
        }
        st.apply_id(id);
        ++plies;
    }
    terminal = st.is_terminal();
    if (terminal) return std::vector<double>(st.scores.begin(), st.scores.end());
    if (leaf) return evaluate(st, h, *leaf);
    return evaluate(st, h);
}

}  // namespace carc
