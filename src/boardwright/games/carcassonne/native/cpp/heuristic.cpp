// heuristic.py and position_features.py, step for step (see there for why each term exists).
#include "heuristic.h"

#include <algorithm>
#include <atomic>
#include <cmath>

namespace carc {

namespace {

bool closes(const TileDef& tile, int pattern, int mask) {
    for (int q = 0; q < 4; ++q) {
        if (!(tile.fits[pattern] & (1 << q))) continue;
        const VariantDef& v = tile.variants[q];
        bool all = true;
        for (int s = 0; s < 4 && all; ++s) {
            if (!(mask >> s & 1)) continue;
            int local = v.side_feature[s];
            if (local < 0) { all = false; break; }
            for (uint8_t t : v.features[local].sides)
                if (!(mask >> t & 1)) { all = false; break; }
        }
        if (all) return true;
    }
    return false;
}

int feature_value(const State& st, int root, bool complete) {
    const Graph& g = st.graph;
    const uint8_t k = g.parts[root].kind;
    if (k == ROAD) return g.parts[root].tile_count;
    if (k == CITY) {
        int tiles = g.parts[root].tile_count, pen = g.parts[root].pennants;
        if (complete && !(st.data->small_city_first_edition && tiles == 2)) return 2 * (tiles + pen);
        return tiles + pen;
    }
    return 9 - g.parts[root].open;
}

// Completion odds of open roads and cities (heuristic.CompletionOdds), cached per call.
struct Odds {
    State& st;
    const HeuristicData& h;
    int left;
    double turns;
    // Buffers kept from call to call (one evaluation at a time per thread).
    std::vector<int>& counts;                         // tiles left per type
    std::vector<std::pair<int, int>>& closing_cache;  // (pattern << 4 | mask, closing tiles)
    std::vector<std::pair<int, double>>& odds_cache;  // (root, odds)

    static std::vector<int>& counts_buffer() { static thread_local std::vector<int> v; return v; }
    static std::vector<std::pair<int, int>>& closing_buffer() {
        static thread_local std::vector<std::pair<int, int>> v;
        return v;
    }
    static std::vector<std::pair<int, double>>& odds_buffer() {
        static thread_local std::vector<std::pair<int, double>> v;
        return v;
    }

    Odds(State& s, const HeuristicData& hd)
        : st(s), h(hd), counts(counts_buffer()), closing_cache(closing_buffer()),
          odds_cache(odds_buffer()) {
        left = static_cast<int>(s.pile.size());
        turns = static_cast<double>(left) / s.data->players;
        // The closing counts depend on the tiles left only: positions that share them (all
        // the children a greedy choice looks at) share the counts already computed.
        static thread_local std::vector<int> fresh;
        static thread_local uint64_t last_game = 0;
        fresh.assign(s.data->tiles.size(), 0);
        for (uint8_t t : s.pile) fresh[t] += 1;
        if (last_game != hd.id || fresh != counts) {
            counts.swap(fresh);
            closing_cache.clear();
            last_game = hd.id;
        }
        odds_cache.clear();
    }

    int closing(int pattern, int mask) {
        const int key = pattern << 4 | mask;
        for (const auto& e : closing_cache)
            if (e.first == key) return e.second;
        int c = 0;
        for (size_t t = 0; t < counts.size(); ++t)
            if (counts[t] && h.tile_closes(static_cast<int>(t), key)) c += counts[t];
        closing_cache.emplace_back(key, c);
        return c;
    }

    double of(int root) {
        for (const auto& e : odds_cache)
            if (e.first == root) return e.second;
        Graph& g = st.graph;
        // Open spots: free positions next to the feature, with the sides facing it.
        std::pair<int32_t, int> spots[64];
        int nspots = 0;
        if (g.parts[root].kind == ROAD || g.parts[root].kind == CITY) {
            for (int p = root; p >= 0; p = g.next_member(p, root)) {
                const PlacedTile& t = g.tiles[g.parts[p].tile];
                for (uint8_t side : g.feature_of(p).sides) {
                    const int32_t spot = t.pos + SIDE_OFFSET[side];
                    if (g.frontier_slot(spot) < 0) continue;
                    const int bit = 1 << ((side + 2) & 3);
                    int k = 0;
                    while (k < nspots && spots[k].first != spot) ++k;
                    if (k == nspots) {
                        if (nspots == 64) continue;  // (no feature has that many open spots)
                        spots[nspots++] = {spot, bit};
                    } else {
                        spots[k].second |= bit;
                    }
                }
            }
        }
        double odds = (nspots > 0 && left) ? 1.0 : 0.0;
        if (odds != 0.0) {
            const double draws = h.draw_share * turns / static_cast<double>(nspots);
            for (int k = 0; k < nspots; ++k) {
                const int pattern = g.frontier.pattern[g.frontier_slot(spots[k].first)];
                const int c = closing(pattern, spots[k].second);
                if (c == 0) { odds = 0.0; break; }
                odds *= 1.0 - std::pow(1.0 - static_cast<double>(c) / left, draws);
            }
        }
        odds_cache.emplace_back(root, odds);
        return odds;
    }

    // The distinct roots of the cities a field borders.
    void field_cities(int field_root, std::vector<int>& out) {
        out.clear();
        Graph& g = st.graph;
        for (int p = field_root; p >= 0; p = g.next_member(p, field_root)) {
            const PlacedTile& t = g.tiles[g.parts[p].tile];
            for (uint8_t b : g.feature_of(p).borders) {
                const int r = g.find(t.base + b);
                if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
            }
        }
    }
};

// Figures grouped by feature, in the order their first figure was put. The buffers are kept
// from call to call (a search evaluates many positions): no allocation once they have grown.
struct Groups {
    std::vector<int> roots;
    std::vector<std::vector<int>> parts;
    size_t n = 0;
};

Groups& groups_of(State& st) {
    static thread_local Groups groups;
    groups.n = 0;
    for (const Occupant& o : st.occupant) {
        const int r = st.graph.find(o.part);
        size_t k = 0;
        while (k < groups.n && groups.roots[k] != r) ++k;
        if (k == groups.n) {
            if (groups.roots.size() == k) {
                groups.roots.push_back(r);
                groups.parts.emplace_back();
            }
            groups.roots[k] = r;
            groups.parts[k].clear();
            ++groups.n;
        }
        groups.parts[k].push_back(o.part);
    }
    return groups;
}

const Occupant& occupant_of(const State& st, int part) {
    for (const Occupant& o : st.occupant)
        if (o.part == part) return o;
    return st.occupant.front();  // unreachable: every grouped part has an occupant
}

// The seats that take a feature's points: a lone figure takes them unless it is a mayor in a
// city without pennants; several figures go by majority (with mayors' strengths).
uint8_t winners_of(State& st, int root, const std::vector<int>& parts) {
    if (parts.size() == 1) {
        const Occupant& o = occupant_of(st, parts[0]);
        if (o.figure == st.data->fig_mayor && st.graph.parts[root].pennants <= 0) return 0;
        return static_cast<uint8_t>(1u << o.seat);
    }
    bool strength = false;
    for (int p : parts)
        if (occupant_of(st, p).figure == st.data->fig_mayor) strength = true;
    return st.majority(parts, root, strength);
}

// (seat, field root) of each barn owner, once per field and owner, in barn-point order.
std::vector<std::pair<int, int>> barn_payees(State& st) {
    Vec<Barn> sorted = st.barns;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Barn& a, const Barn& b) { return a.point < b.point; });
    std::vector<std::pair<int, int>> out;
    for (const Barn& b : sorted) {
        std::pair<int, int> key(b.seat, st.graph.find(b.part));
        if (std::find(out.begin(), out.end(), key) == out.end()) out.push_back(key);
    }
    return out;
}

}  // namespace

void build_closers(const GameData& data, HeuristicData& h) {
    static std::atomic<uint64_t> games{0};
    h.id = ++games;
    h.closes.assign(data.tiles.size(), std::array<uint64_t, 64>{});
    for (size_t t = 0; t < data.tiles.size(); ++t)
        for (int pattern = 0; pattern < 256; ++pattern)
            for (int mask = 0; mask < 16; ++mask)
                if (closes(data.tiles[t], pattern, mask)) {
                    const int key = pattern << 4 | mask;
                    h.closes[t][key >> 6] |= 1ull << (key & 63);
                }
}

std::vector<double> potential_scores(State& st, const HeuristicData& h) {
    const int n = st.data->players;
    std::vector<double> values(n);
    for (int s = 0; s < n; ++s) values[s] = static_cast<double>(st.scores[s]);
    Odds odds(st, h);
    const double hand = h.follower_in_hand * std::min(1.0, odds.turns / h.hand_horizon);
    static thread_local std::vector<int> cities;
    const Groups& groups = groups_of(st);
    Graph& g = st.graph;
    for (size_t i = 0; i < groups.n; ++i) {
        const int root = groups.roots[i];
        const std::vector<int>& parts = groups.parts[i];
        double points, done = 0.0;
        if (g.parts[root].kind == FIELD) {
            odds.field_cities(root, cities);
            int completed = 0;
            for (int c : cities)
                if (!g.parts[c].open) ++completed;
            points = 3.0 * completed;
            double open_sum = 0.0;
            for (int c : cities)
                if (g.parts[c].open) open_sum += odds.of(c);
            points += h.open_city_farm * 3.0 * open_sum;
        } else {
            points = static_cast<double>(feature_value(st, root, false));
            bool monastery = g.parts[root].kind == MONASTERY;
            if (g.parts[root].open && !monastery) {
                done = odds.of(root);
                if (g.parts[root].kind == CITY)
                    points += done * (static_cast<double>(feature_value(st, root, true)) - points);
            }
        }
        const double back = done * hand;
        uint8_t winners = winners_of(st, root, parts);
        for (int s = 0; s < n; ++s)
            if (winners >> s & 1) values[s] += points;
        for (int p : parts) values[occupant_of(st, p).seat] += back;
    }
    if (st.data->fig_barn >= 0)
        for (const auto& payee : barn_payees(st))
            values[payee.first] += 4 * st.completed_cities(payee.second);
    const size_t nfig = st.data->figure_names.size();
    for (int s = 0; s < n; ++s)
        values[s] += hand * st.supply[s * nfig + st.data->fig_follower];
    return values;
}

std::vector<std::array<double, NUM_FEATURES>> seat_features(State& st, const HeuristicData& h) {
    const int n = st.data->players;
    std::vector<std::array<double, NUM_FEATURES>> vectors(n);
    for (auto& v : vectors) v.fill(0.0);
    for (int s = 0; s < n; ++s) vectors[s][X_SCORE] = static_cast<double>(st.scores[s]);
    Odds odds(st, h);
    static thread_local std::vector<int> cities;
    const Groups& groups = groups_of(st);
    Graph& g = st.graph;
    for (size_t i = 0; i < groups.n; ++i) {
        const int root = groups.roots[i];
        const std::vector<int>& parts = groups.parts[i];
        // The majority terms (index, value), the returns index and the completion odds.
        std::pair<int, double> terms[3];
        int nterms = 0, returns = -1;
        double done = 0.0;
        const uint8_t kind = g.parts[root].kind;
        if (kind == FIELD) {
            odds.field_cities(root, cities);
            int completed = 0, open_count = 0;
            double open_sum = 0.0;
            for (int c : cities) {
                if (!g.parts[c].open) ++completed;
            }
            for (int c : cities)
                if (g.parts[c].open) { open_sum += odds.of(c); ++open_count; }
            terms[nterms++] = {X_FARM_DONE, 3.0 * completed};
            terms[nterms++] = {X_FARM_ODDS, 3.0 * open_sum};
            terms[nterms++] = {X_FARM_OPEN, 3.0 * open_count};
        } else {
            double points = static_cast<double>(feature_value(st, root, false));
            if (kind == MONASTERY) {
                terms[nterms++] = {X_MONASTERY, points};
                terms[nterms++] = {X_MONASTERY_OPEN, static_cast<double>(g.parts[root].open)};
            } else if (!g.parts[root].open) {
                terms[nterms++] = {kind == CITY ? X_CITY : X_ROAD, points};
            } else {
                done = odds.of(root);
                if (kind == CITY) {
                    points += done * (static_cast<double>(feature_value(st, root, true)) - points);
                    terms[nterms++] = {X_CITY, points};
                    returns = X_CITY_RETURNS;
                } else {
                    terms[nterms++] = {X_ROAD, points};
                    returns = X_ROAD_RETURNS;
                }
            }
        }
        uint8_t winners = winners_of(st, root, parts);
        for (int s = 0; s < n; ++s)
            if (winners >> s & 1)
                for (int k = 0; k < nterms; ++k) vectors[s][terms[k].first] += terms[k].second;
        for (int p : parts) {
            auto& v = vectors[occupant_of(st, p).seat];
            if (returns >= 0) {
                v[returns] += done;
                if (done == 0.0) v[X_DEAD] += 1.0;
            } else if (kind == FIELD) {
                v[X_FARMERS] += 1.0;
            }
        }
    }
    if (st.data->fig_barn >= 0)
        for (const auto& payee : barn_payees(st))
            vectors[payee.first][X_BARN] += 4.0 * st.completed_cities(payee.second);
    const GameData& d = *st.data;
    const size_t nfig = d.figure_names.size();
    for (int s = 0; s < n; ++s) {
        auto& v = vectors[s];
        v[X_FOLLOWERS] = st.supply[s * nfig + d.fig_follower];
        v[X_MAYOR] = d.fig_mayor >= 0 ? st.supply[s * nfig + d.fig_mayor] : 0;
        v[X_WAGON] = d.fig_wagon >= 0 ? st.supply[s * nfig + d.fig_wagon] : 0;
        v[X_BARN_PIECES] = d.fig_barn >= 0 ? st.supply[s * nfig + d.fig_barn] : 0;
        v[X_ABBEYS] = d.abbeys > 0 ? st.abbeys_left[s] : 0;
    }
    return vectors;
}

std::vector<double> evaluate(State& st, const HeuristicData& h) {
    const double t = static_cast<double>(st.pile.size()) / std::max(1, h.pile_size);
    const double tt = t * t;
    double weights[NUM_FEATURES];
    for (int k = 0; k < NUM_FEATURES; ++k)
        weights[k] = h.weights[k][0] + h.weights[k][1] * t + h.weights[k][2] * tt;
    const double tempo = h.to_move[0] + h.to_move[1] * t + h.to_move[2] * tt;
    auto vectors = seat_features(st, h);
    std::vector<double> values(vectors.size());
    for (size_t s = 0; s < vectors.size(); ++s) {
        double sum = 0.0;
        for (int k = 0; k < NUM_FEATURES; ++k) sum += weights[k] * vectors[s][k];
        values[s] = sum;
    }
    if (!st.is_terminal()) values[st.turn_player] += tempo;
    return values;
}

}  // namespace carc
