// heuristic.py and position_features.py, step for step (see there for why each term exists).
#include "heuristic.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

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

// A free position next to a road or city, with the sides of it that face the feature.
struct Spot {
    int32_t pos;
    int mask;
};

// Figures grouped by feature, in the order their first figure was put: group k is the feature
// roots[k], its figures' parts are parts[at[k]] to parts[at[k] + size[k] - 1] in the order they
// were put, each held by occupant[who[...]].
struct Groups {
    std::vector<int> roots, size, at;
    std::vector<int> parts, who;
    std::vector<int> group;  // per occupant
    size_t n = 0;
};

// Every buffer the heuristic keeps from call to call, one set per thread (fetched once per call:
// reaching a thread_local of a shared library costs a call each time). A search evaluates many
// positions: once they have grown, no evaluation allocates.
struct Scratch {
    // The tiles left (`counts`, made from `pile`) and what depends on them alone: the number of
    // tiles closing a (pattern, mask) and the odds factor of c closing tiles over n spots.
    uint64_t game = 0;
    Vec<uint8_t> pile;
    std::vector<int> counts, fresh;
    uint64_t counts_id = 0;  // changes with the counts
    std::vector<int16_t> closing_count;  // [pattern << 4 | mask], -1: not yet counted
    std::vector<double> factor_value;    // [c * 65 + nspots], NaN: not yet computed
    std::vector<uint32_t> factor_keys;   // the entries set (cleared when the counts change)
    // Per evaluation: the odds of each root asked for, the group of each root.
    uint64_t call = 0;
    std::vector<uint64_t> odds_stamp;
    std::vector<double> odds_value;
    std::vector<uint64_t> group_stamp;
    std::vector<uint32_t> group_index;
    // Per lineage: the spots of roads and cities and the cities a field borders, for features
    // the base position already had.
    uint64_t lineage = 0;
    std::vector<uint64_t> spots_stamp;
    std::vector<uint32_t> spots_at, spots_n;
    std::vector<Spot> spots_pool;
    std::vector<uint64_t> odds_lineage, odds_counts;  // odds_base: for these lineage and counts
    std::vector<double> odds_base;
    std::vector<uint64_t> borders_stamp;
    std::vector<uint32_t> borders_at, borders_n;
    std::vector<int> borders_pool;
    std::vector<int> base_roots;  // (computing a field's borders)
    std::vector<int> cities;
    Groups groups;
    Vec<Barn> barns;
    std::vector<std::pair<int, int>> payees;

    void fit(size_t nparts) {  // room for every part id of the position
        if (odds_stamp.size() >= nparts) return;
        nparts = std::max(nparts, 2 * odds_stamp.size());
        odds_stamp.resize(nparts, 0);
        odds_value.resize(nparts, 0.0);
        group_stamp.resize(nparts, 0);
        group_index.resize(nparts, 0);
        spots_stamp.resize(nparts, 0);
        spots_at.resize(nparts, 0);
        spots_n.resize(nparts, 0);
        odds_lineage.resize(nparts, 0);
        odds_counts.resize(nparts, 0);
        odds_base.resize(nparts, 0.0);
        borders_stamp.resize(nparts, 0);
        borders_at.resize(nparts, 0);
        borders_n.resize(nparts, 0);
    }
};

Scratch& thread_scratch() {
    static thread_local Scratch s;
    return s;
}

uint64_t next_stamp() {
    static std::atomic<uint64_t> stamps{0};
    return ++stamps;
}

// The spots of the road or city `root`, in the order its parts' sides reach them
// (heuristic.CompletionOdds); at most 64.
int find_spots(const Graph& g, int root, Spot* spots) {
    int nspots = 0;
    for (int p = root; p >= 0; p = g.next_member(p, root)) {
        const PlacedTile& t = g.tiles[g.parts[p].tile];
        for (uint8_t side : g.feature_of(p).sides) {
            const int32_t spot = t.pos + SIDE_OFFSET[side];
            if (g.frontier_slot(spot) < 0) continue;
            const int bit = 1 << ((side + 2) & 3);
            int k = 0;
            while (k < nspots && spots[k].pos != spot) ++k;
            if (k == nspots) {
                if (nspots == 64) continue;  // (no feature has that many open spots)
                spots[nspots++] = {spot, bit};
            } else {
                spots[k].mask |= bit;
            }
        }
    }
    return nspots;
}

// Completion odds of open roads and cities (heuristic.CompletionOdds), cached per call.
//
// With a lineage (positions that all descend from one base position, which stays unchanged:
// the children a greedy choice looks at), what a feature of the base reaches is found once for
// the lineage: a feature whose root has the size and open sides it had in the base was not
// touched (a tile laid next to it joins it, an abbey closes one of its sides), so its parts,
// its spots and the cities it borders are the base's. The patterns of the spots may differ and
// are read in each position; every value is then computed by the same operations in the same
// order as without the lineage.
struct Odds {
    State& st;
    const HeuristicData& h;
    Scratch& s;
    const Lineage* lineage;
    int left;
    double turns;

    Odds(State& state, const HeuristicData& hd, Scratch& sc, const Lineage* from)
        : st(state), h(hd), s(sc), lineage(from) {
        constexpr double unknown = std::numeric_limits<double>::quiet_NaN();
        left = static_cast<int>(state.pile.size());
        turns = static_cast<double>(left) / state.data->players;
        // The closing counts depend on the tiles left only: positions that share them (all
        // the children a greedy choice looks at) share the counts already computed. The same
        // pile (as it most often is) has the same counts.
        const Vec<uint8_t>& pile = state.pile;
        if (s.game != hd.id || s.pile.size() != pile.size() ||
            (pile.size() && std::memcmp(s.pile.data(), pile.data(), pile.size()) != 0)) {
            s.fresh.assign(state.data->tiles.size(), 0);
            for (uint8_t t : pile) s.fresh[t] += 1;
            if (s.game != hd.id || s.fresh != s.counts) {
                s.counts.swap(s.fresh);
                s.counts_id = next_stamp();
                s.game = hd.id;
                s.closing_count.assign(4096, -1);
                for (uint32_t key : s.factor_keys) s.factor_value[key] = unknown;
                s.factor_keys.clear();
            }
            s.pile = pile;
        }
        s.call = next_stamp();
        s.fit(state.graph.parts.size());
        if (lineage && s.lineage != lineage->id) {
            s.lineage = lineage->id;
            s.spots_pool.clear();
            s.borders_pool.clear();
        }
    }

    int closing(int pattern, int mask) {
        const int key = pattern << 4 | mask;
        if (s.closing_count[key] >= 0) return s.closing_count[key];
        int c = 0;
        const std::vector<int>& counts = s.counts;
        for (size_t t = 0; t < counts.size(); ++t)
            if (counts[t] && h.tile_closes(static_cast<int>(t), key)) c += counts[t];
        s.closing_count[key] = static_cast<int16_t>(c);
        return c;
    }

    // One spot's factor: 1 - (1 - c / left) ** (draw_share * turns / nspots).
    double factor(int c, int nspots) {
        const size_t key = static_cast<size_t>(c) * 65 + static_cast<size_t>(nspots);
        if (key >= s.factor_value.size())
            s.factor_value.resize(key + 1, std::numeric_limits<double>::quiet_NaN());
        const double known = s.factor_value[key];
        if (known == known) return known;
        const double draws = h.draw_share * turns / static_cast<double>(nspots);
        const double f = 1.0 - std::pow(1.0 - static_cast<double>(c) / left, draws);
        s.factor_value[key] = f;
        s.factor_keys.push_back(static_cast<uint32_t>(key));
        return f;
    }

    // Whether `root` is a feature of the lineage's base, untouched since.
    bool from_base(int root) const {
        const Graph& b = lineage->base->graph;
        if (root >= b.nparts()) return false;
        const Part& was = b.parts[root];
        const Part& now = st.graph.parts[root];
        return was.parent == root && was.size == now.size && was.open == now.open;
    }

    // Whether a tile laid since the base is next to one of the spots (and may have changed
    // its pattern: laying a tile constrains the free positions next to it, and no other).
    bool near_new_tiles(const Spot* spots, int nspots) const {
        const Vec<PlacedTile>& tiles = st.graph.tiles;
        for (size_t t = lineage->base->graph.tiles.size(); t < tiles.size(); ++t)
            for (int k = 0; k < nspots; ++k) {
                const int32_t d = spots[k].pos - tiles[t].pos;
                if (d == 1 || d == -1 || d == STRIDE || d == -STRIDE) return true;
            }
        return false;
    }

    double of(int root) {
        if (s.odds_stamp[root] == s.call) return s.odds_value[root];
        Graph& g = st.graph;
        Spot local[64];
        const Spot* spots = local;
        int nspots = 0;
        bool keep = false;  // the odds are the base's patterns' (under these counts)
        if (g.parts[root].kind == ROAD || g.parts[root].kind == CITY) {
            if (lineage && from_base(root)) {
                if (s.spots_stamp[root] != s.lineage) {
                    nspots = find_spots(g, root, local);
                    s.spots_stamp[root] = s.lineage;
                    s.spots_at[root] = static_cast<uint32_t>(s.spots_pool.size());
                    s.spots_n[root] = static_cast<uint32_t>(nspots);
                    s.spots_pool.insert(s.spots_pool.end(), local, local + nspots);
                }
                spots = s.spots_pool.data() + s.spots_at[root];
                nspots = static_cast<int>(s.spots_n[root]);
                keep = !near_new_tiles(spots, nspots);
                if (keep && s.odds_lineage[root] == s.lineage && s.odds_counts[root] == s.counts_id) {
                    s.odds_stamp[root] = s.call;
                    s.odds_value[root] = s.odds_base[root];
                    return s.odds_base[root];
                }
            } else {
                nspots = find_spots(g, root, local);
            }
        }
        double odds = (nspots > 0 && left) ? 1.0 : 0.0;
        if (odds != 0.0) {
            for (int k = 0; k < nspots; ++k) {
                const int pattern = g.frontier.pattern[g.frontier_slot(spots[k].pos)];
                const int c = closing(pattern, spots[k].mask);
                if (c == 0) { odds = 0.0; break; }
                odds *= factor(c, nspots);
            }
        }
        s.odds_stamp[root] = s.call;
        s.odds_value[root] = odds;
        if (keep) {
            s.odds_lineage[root] = s.lineage;
            s.odds_counts[root] = s.counts_id;
            s.odds_base[root] = odds;
        }
        return odds;
    }

    // The distinct roots of the cities a field borders, in the order its parts reach them.
    void field_cities(int field_root, std::vector<int>& out) {
        out.clear();
        Graph& g = st.graph;
        if (lineage && from_base(field_root)) {
            // The base's border parts, one per city of the base: cities only join from the
            // base to this position, so the first part reaching each city here is among them.
            // (Stored after them: the base's roots of those cities, all different.)
            if (s.borders_stamp[field_root] != s.lineage) base_borders(field_root);
            const uint32_t nb = s.borders_n[field_root];
            const int* borders = s.borders_pool.data() + s.borders_at[field_root];
            const int* roots = borders + nb;
            uint32_t kept = 0;  // cities not joined since the base: their roots are the base's
            while (kept < nb && g.parts[roots[kept]].parent == roots[kept]) ++kept;
            if (kept == nb) {
                out.assign(roots, roots + nb);
                return;
            }
            for (uint32_t i = 0; i < nb; ++i) {
                const int r = g.find(borders[i]);
                if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
            }
            return;
        }
        for (int p = field_root; p >= 0; p = g.next_member(p, field_root)) {
            const PlacedTile& t = g.tiles[g.parts[p].tile];
            for (uint8_t b : g.feature_of(p).borders) {
                const int r = g.find(t.base + b);
                if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
            }
        }
    }

    void base_borders(int field_root) {
        const Graph& b = lineage->base->graph;
        s.borders_stamp[field_root] = s.lineage;
        s.borders_at[field_root] = static_cast<uint32_t>(s.borders_pool.size());
        s.base_roots.clear();
        for (int p = field_root; p >= 0; p = b.next_member(p, field_root)) {
            const PlacedTile& t = b.tiles[b.parts[p].tile];
            for (uint8_t border : b.feature_of(p).borders) {
                const int part = t.base + border;
                const int r = b.find(part);
                if (std::find(s.base_roots.begin(), s.base_roots.end(), r) != s.base_roots.end())
                    continue;
                s.base_roots.push_back(r);
                s.borders_pool.push_back(part);
            }
        }
        s.borders_n[field_root] = static_cast<uint32_t>(s.base_roots.size());
        s.borders_pool.insert(s.borders_pool.end(), s.base_roots.begin(), s.base_roots.end());
    }
};

// (Odds's constructor has fitted the scratch to the position.)
const Groups& groups_of(State& st, Scratch& s) {
    Groups& groups = s.groups;
    const size_t nocc = st.occupant.size();
    if (groups.group.size() < nocc) {
        groups.roots.resize(nocc);
        groups.size.resize(nocc);
        groups.at.resize(nocc);
        groups.parts.resize(nocc);
        groups.who.resize(nocc);
        groups.group.resize(nocc);
    }
    size_t n = 0;
    for (size_t i = 0; i < nocc; ++i) {
        const int r = st.graph.find(st.occupant[i].part);
        if (s.group_stamp[r] != s.call) {
            s.group_stamp[r] = s.call;
            s.group_index[r] = static_cast<uint32_t>(n);
            groups.roots[n] = r;
            groups.size[n] = 0;
            ++n;
        }
        const int k = static_cast<int>(s.group_index[r]);
        groups.group[i] = k;
        groups.size[k] += 1;
    }
    int at = 0;
    for (size_t k = 0; k < n; ++k) {
        groups.at[k] = at;
        at += groups.size[k];
        groups.size[k] = 0;
    }
    for (size_t i = 0; i < nocc; ++i) {
        const int k = groups.group[i];
        const int slot = groups.at[k] + groups.size[k]++;
        groups.parts[slot] = st.occupant[i].part;
        groups.who[slot] = static_cast<int>(i);
    }
    groups.n = n;
    return groups;
}

// The seats that take a feature's points: a lone figure takes them unless it is a mayor in a
// city without pennants; several figures go by majority (with mayors' strengths).
uint8_t winners_of(State& st, const Groups& groups, size_t k) {
    const int root = groups.roots[k];
    const int* parts = groups.parts.data() + groups.at[k];
    const int* who = groups.who.data() + groups.at[k];
    const int size = groups.size[k];
    if (size == 1) {
        const Occupant& o = st.occupant[who[0]];
        if (o.figure == st.data->fig_mayor && st.graph.parts[root].pennants <= 0) return 0;
        return static_cast<uint8_t>(1u << o.seat);
    }
    bool strength = false;
    for (int i = 0; i < size; ++i)
        if (st.occupant[who[i]].figure == st.data->fig_mayor) strength = true;
    return st.majority(parts, static_cast<size_t>(size), root, strength);
}

// (seat, field root) of each barn owner, once per field and owner, in barn-point order.
const std::vector<std::pair<int, int>>& barn_payees(State& st, Scratch& s) {
    Vec<Barn>& sorted = s.barns;
    sorted = st.barns;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Barn& a, const Barn& b) { return a.point < b.point; });
    std::vector<std::pair<int, int>>& out = s.payees;
    out.clear();
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

Lineage::Lineage(const State& b) : base(&b), id(next_stamp()), scratch(&thread_scratch()) {}

void potential_scores(State& st, const HeuristicData& h, double* values, const Lineage* lineage) {
    const int n = st.data->players;
    for (int s = 0; s < n; ++s) values[s] = static_cast<double>(st.scores[s]);
    Scratch& scr = lineage ? *static_cast<Scratch*>(lineage->scratch) : thread_scratch();
    Odds odds(st, h, scr, lineage);
    const double hand = h.follower_in_hand * std::min(1.0, odds.turns / h.hand_horizon);
    std::vector<int>& cities = scr.cities;
    const Groups& groups = groups_of(st, scr);
    Graph& g = st.graph;
    for (size_t i = 0; i < groups.n; ++i) {
        const int root = groups.roots[i];
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
        uint8_t winners = winners_of(st, groups, i);
        for (int s = 0; s < n; ++s)
            if (winners >> s & 1) values[s] += points;
        for (int k = groups.at[i], end = k + groups.size[i]; k < end; ++k)
            values[st.occupant[groups.who[k]].seat] += back;
    }
    if (st.data->fig_barn >= 0)
        for (const auto& payee : barn_payees(st, scr)) {
            // The completed cities the field borders (State::completed_cities).
            odds.field_cities(payee.second, cities);
            int completed = 0;
            for (int c : cities)
                if (!g.parts[c].open) ++completed;
            values[payee.first] += 4 * completed;
        }
    const size_t nfig = st.data->figure_names.size();
    for (int s = 0; s < n; ++s)
        values[s] += hand * st.supply[s * nfig + st.data->fig_follower];
}

std::vector<double> potential_scores(State& st, const HeuristicData& h) {
    std::vector<double> values(st.data->players);
    potential_scores(st, h, values.data());
    return values;
}

std::vector<std::array<double, NUM_FEATURES>> seat_features(State& st, const HeuristicData& h) {
    const int n = st.data->players;
    std::vector<std::array<double, NUM_FEATURES>> vectors(n);
    for (auto& v : vectors) v.fill(0.0);
    for (int s = 0; s < n; ++s) vectors[s][X_SCORE] = static_cast<double>(st.scores[s]);
    Scratch& scr = thread_scratch();
    Odds odds(st, h, scr, nullptr);
    std::vector<int>& cities = scr.cities;
    const Groups& groups = groups_of(st, scr);
    Graph& g = st.graph;
    for (size_t i = 0; i < groups.n; ++i) {
        const int root = groups.roots[i];
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
        uint8_t winners = winners_of(st, groups, i);
        for (int s = 0; s < n; ++s)
            if (winners >> s & 1)
                for (int k = 0; k < nterms; ++k) vectors[s][terms[k].first] += terms[k].second;
        for (int k = groups.at[i], end = k + groups.size[i]; k < end; ++k) {
            auto& v = vectors[st.occupant[groups.who[k]].seat];
            if (returns >= 0) {
                v[returns] += done;
                if (done == 0.0) v[X_DEAD] += 1.0;
            } else if (kind == FIELD) {
                v[X_FARMERS] += 1.0;
            }
        }
    }
    if (st.data->fig_barn >= 0)
        for (const auto& payee : barn_payees(st, scr))
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

namespace {

// The observation's holders planes summed over the board (value_net.held_segments), appended
// to x: per relative seat k from `mover` and segment g, over every placed tile, the figures of
// that seat in the feature of the part covering g.
void held_segments(State& st, const SegmentMasks& segments, int mover, std::vector<double>& x) {
    const int n = st.data->players;
    const size_t first = x.size();
    x.resize(first + static_cast<size_t>(SEGMENTS) * n, 0.0);
    if (st.occupant.empty()) return;
    Graph& g = st.graph;
    std::vector<std::pair<int, std::array<int, 8>>> held;  // (root, figures by seat)
    for (const Occupant& o : st.occupant) {
        const int root = g.find(o.part);
        auto at = std::find_if(held.begin(), held.end(), [root](const auto& e) { return e.first == root; });
        if (at == held.end()) {
            held.push_back({root, {}});
            at = held.end() - 1;
        }
        at->second[o.seat] += 1;
    }
    // Only the parts of held features: each feature's members, listed from its root.
    for (const auto& [root, counts] : held) {
        for (int p = root; p >= 0; p = g.next_member(p, root)) {
            const PlacedTile& t = g.tiles[g.parts[p].tile];
            const unsigned mask = segments[t.type][t.quarter][p - t.base];
            for (int seat = 0; seat < n; ++seat) {
                const int count = counts[seat];
                if (!count) continue;
                const size_t block = first + static_cast<size_t>(SEGMENTS) * ((seat - mover + n) % n);
                for (unsigned m = mask; m; m &= m - 1) x[block + __builtin_ctz(m)] += count;
            }
        }
    }
}

using SeatFeatures = std::vector<std::array<double, NUM_FEATURES>>;

std::vector<double> linear_evaluation(State& st, const HeuristicData& h, const SeatFeatures& vectors,
                                      const std::array<std::array<double, 3>, NUM_FEATURES>& w,
                                      const std::array<double, 3>& to_move) {
    const double t = static_cast<double>(st.pile.size()) / std::max(1, h.pile_size);
    const double tt = t * t;
    double weights[NUM_FEATURES];
    for (int k = 0; k < NUM_FEATURES; ++k)
        weights[k] = w[k][0] + w[k][1] * t + w[k][2] * tt;
    const double tempo = to_move[0] + to_move[1] * t + to_move[2] * tt;
    std::vector<double> values(vectors.size());
    for (size_t s = 0; s < vectors.size(); ++s) {
        double sum = 0.0;
        for (int k = 0; k < NUM_FEATURES; ++k) sum += weights[k] * vectors[s][k];
        values[s] = sum;
    }
    if (!st.is_terminal()) values[st.turn_player] += tempo;
    return values;
}

}  // namespace

std::vector<double> evaluate(State& st, const HeuristicData& h) {
    return linear_evaluation(st, h, seat_features(st, h), h.weights, h.to_move);
}

std::vector<double> evaluate(State& st, const HeuristicData& h, const LinearWeights& w) {
    const SeatFeatures vectors = seat_features(st, h);
    std::vector<double> values = linear_evaluation(st, h, vectors, w.weights, w.to_move);
    if (w.net && !st.is_terminal()) {
        // The network reads the position from the seat whose turn it is: every seat's features
        // from that seat on, then t and t^2; its outputs are per relative seat.
        const ValueNet& net = *w.net;
        const int n = static_cast<int>(values.size());
        const int mover = st.turn_player;
        const double t = static_cast<double>(st.pile.size()) / std::max(1, h.pile_size);
        std::vector<double> x;
        x.reserve(static_cast<size_t>(n) * (NUM_FEATURES + SEGMENTS) + 2);
        for (int k = 0; k < n; ++k) {
            const auto& v = vectors[(mover + k) % n];
            x.insert(x.end(), v.begin(), v.end());
        }
        x.push_back(t);
        x.push_back(t * t);
        if (net.holders) held_segments(st, h.segments, mover, x);
        const std::vector<double> out = net.output(x.data());
        for (int k = 0; k < n; ++k) values[(mover + k) % n] += out[k];
    }
    return values;
}

}  // namespace carc
