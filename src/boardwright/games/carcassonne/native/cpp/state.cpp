// Turn flow, legal actions and scoring: state.py and the capabilities, step for step.
#include "state.h"

#include <algorithm>

namespace carc {

namespace {

constexpr int32_t CORNER_POINT[4] = {-STRIDE - 1, -1, 0, -STRIDE};  // NW, NE, SE, SW
// The four tiles around a barn point: offset, corner bit (NW=0 NE=1 SE=2 SW=3), half-edge.
constexpr int32_t AROUND_DELTA[4] = {0, STRIDE, 1, STRIDE + 1};
constexpr int AROUND_CORNER[4] = {2, 3, 1, 0};
constexpr int AROUND_HALF[4] = {3, 6, 2, 0};

inline bool is_hole(uint8_t pattern) {
    return (pattern & 3) && (pattern & 12) && (pattern & 48) && (pattern & 192);
}

}  // namespace

void State::setup(const GameData* d, Vec<uint8_t> pile_from_end, bool chance_mode) {
    // Everything is reset in place, so a state dealt again keeps its memory.
    data = d;
    const int n = d->players;
    graph.init(d, pile_from_end.size() + 1);
    pile = std::move(pile_from_end);
    discarded.clear();
    tile = -1;
    phase = PLACE;
    has_last_pos = false;
    pending.clear();
    occupant.clear();
    history.clear();
    log.clear();
    turn = 0;
    wagon_queue.clear();
    final_round_on = false;
    final_round.clear();
    barns.clear();
    has_new_barn = false;
    explicit_chance = chance_mode;
    chance_discarded = false;
    legal.valid = false;
    turn_player = actor = d->starting_seat;
    scores.assign(n, 0);
    const size_t nfig = d->figure_names.size();
    supply.assign(n * nfig, 0);
    for (int s = 0; s < n; ++s)
        for (size_t f = 0; f < nfig; ++f) supply[s * nfig + f] = static_cast<int16_t>(d->supply[f]);
    abbeys_left.assign(n, static_cast<int16_t>(d->abbeys));
    history.reserve(4 * pile.size() + 8);
    log.reserve(pile.size() + 8);
    legal.ids.reserve(64);
    Vec<int> completed;
    graph.add_tile(pack(0, 0), d->start_tile, 0, completed);
    start_turn();
}

namespace {
template <typename V>
size_t held(const V& v) { return v.capacity() * sizeof(*v.data()); }
}  // namespace

std::vector<std::pair<const char*, size_t>> State::memory_items() const {
    const Graph& g = graph;
    return {{"state", sizeof(State)},
            {"tiles", held(g.tiles)},
            {"board", held(g.board.slots)},
            {"frontier", held(g.frontier.pos) + held(g.frontier.pattern)},
            {"parts", held(g.parts)},
            {"pile", held(pile) + held(discarded)},
            {"seats", held(scores) + held(supply) + held(abbeys_left) + held(final_round)},
            {"figures", held(occupant) + held(g.figure_links) + held(g.figure_heads) +
                            held(wagon_queue) + held(barns) + held(pending)},
            {"history", held(history)},
            {"log", held(log)},
            {"legal", held(legal.ids)}};
}

size_t State::memory_bytes() const {
    size_t total = 0;
    for (const auto& item : memory_items()) total += item.second;
    return total;
}

bool State::at_turn_start() const {
    if (actor != turn_player) return false;
    if (phase == PLACE) return history.empty() || history.back() != data->draw_id;
    return phase == CHOOSE || phase == FINAL_ROUND;
}

int64_t State::deploy_id(int32_t pos, int location, int figure) const {
    const int64_t cell = position_index(unpack_x(pos), unpack_y(pos)) * data->nlocations + location;
    return data->deploy_base + cell * static_cast<int64_t>(data->figure_names.size()) + figure;
}

Decoded State::decode(int64_t id) const {
    Decoded out;
    const int r = data->radius, w = data->width;
    // The cell's row and column (FastDiv: no division instruction).
    auto at_cell = [&](int64_t cell) {
        const int64_t row = data->by_width.quotient(cell);
        out.x = static_cast<int32_t>(row) - r;
        out.y = static_cast<int32_t>(cell - row * w) - r;
    };
    if (id == data->pass_id) { out.kind = A_PASS; return out; }
    if (id == data->draw_id) { out.kind = A_DRAW; return out; }
    if (id >= data->abbey_base) {
        out.kind = A_ABBEY;
        at_cell(id - data->abbey_base);
        return out;
    }
    if (id < data->deploy_base) {
        out.kind = A_PLACE;
        out.quarter = static_cast<int>(id % 4);
        at_cell(id / 4);
        return out;
    }
    const int64_t nfig = static_cast<int64_t>(data->figure_names.size());
    const int64_t rest = id - data->deploy_base;
    const int64_t cell_location = data->by_figures.quotient(rest);
    out.kind = A_DEPLOY;
    out.figure = static_cast<int>(rest - cell_location * nfig);
    const int64_t cell = data->by_locations.quotient(cell_location);
    out.location = static_cast<int>(cell_location - cell * data->nlocations);
    at_cell(cell);
    return out;
}

// -- legal actions ------------------------------------------------------------------------

bool State::has_hole() const {
    const Frontier& f = graph.frontier;
    for (size_t i = 0; i < f.pos.size(); ++i)
        if (f.alive(i) && is_hole(f.pattern[i])) return true;
    return false;
}

void State::holes(std::vector<int32_t>& out) const {
    out.clear();
    const Frontier& f = graph.frontier;
    for (size_t i = 0; i < f.pos.size(); ++i)
        if (f.alive(i) && is_hole(f.pattern[i])) out.push_back(f.pos[i]);
}

const Vec<int64_t>& State::legal_ids() {
    if (legal.valid) return legal.ids;
    legal.ids.clear();
    switch (phase) {
        case PLACE: {
            const TileDef& t = data->tiles[tile];
            const Frontier& f = graph.frontier;
            const size_t nslots = f.pos.size();
            legal.ids.reserve(4 * nslots);
            int64_t* out = legal.ids.data();
            // Without branches on the (unpredictable) fits: every turn is written, and the end
            // moves past those that fit.
            for (size_t i = 0; i < nslots; ++i) {
                const unsigned mask = f.alive(i) ? t.fits[f.pattern[i]] : 0u;
                const int64_t base = place_id(f.pos[i], 0);
                for (int q = 0; q < 4; ++q) {
                    *out = base + q;
                    out += (mask >> q) & 1u;
                }
            }
            legal.ids.set_size(static_cast<size_t>(out - legal.ids.data()));
            break;
        }
        case DEPLOY:
            deploy_actions(legal.ids);
            break;
        case OVER:
        case CHANCE:
            break;
        case CHOOSE:
        case FINAL_ROUND: {
            if (phase == CHOOSE) legal.ids.push_back(data->draw_id);
            else if (data->abbey_end == END_VOLUNTARY) legal.ids.push_back(data->pass_id);
            std::vector<int32_t> h;
            holes(h);
            for (int32_t p : h) legal.ids.push_back(abbey_id(p));
            break;
        }
        case WAGON_MOVE: {
            legal.ids.push_back(data->pass_id);
            std::vector<int> parts;
            wagon_targets(parts);
            for (int part : parts)
                legal.ids.push_back(deploy_id(graph.part_pos(part), graph.feature_of(part).location,
                                          data->fig_wagon));
            break;
        }
    }
    legal.valid = true;
    return legal.ids;
}

bool State::is_legal_id(int64_t id) {
    const Vec<int64_t>& ids = legal_ids();
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

bool State::field_has_barn(int root) {
    for (const Barn& b : barns)
        if (graph.find(b.part) == root) return true;
    return false;
}

void State::deploy_actions(Vec<int64_t>& out) {
    out.push_back(data->pass_id);
    const int seat = turn_player;
    const int idx = graph.board.get(last_pos);
    const PlacedTile& t = graph.tiles[idx];
    const VariantDef& v = graph.variant_of(t);
    bool any_rule = false;
    for (const FigureRule& rule : data->figure_rules)
        if (supply_of(seat, rule.figure) > 0) any_rule = true;
    if (any_rule) {
        for (size_t local = 0; local < v.features.size(); ++local) {
            const FeatureDef& f = v.features[local];
            int root = graph.find(t.base + static_cast<int>(local));
            if (graph.has_figures(root)) continue;
            if (f.kind == FIELD && !barns.empty() && field_has_barn(root)) continue;
            for (const FigureRule& rule : data->figure_rules)
                if (supply_of(seat, rule.figure) > 0 && (rule.kinds & (1 << f.kind)))
                    out.push_back(deploy_id(last_pos, f.location, rule.figure));
        }
    }
    if (data->fig_barn >= 0 && supply_of(seat, data->fig_barn) > 0) {
        for (int corner = 0; corner < 4; ++corner) {
            int32_t point;
            if (free_barn_point(corner, point) >= 0)
                out.push_back(deploy_id(last_pos, data->corner_location[corner], data->fig_barn));
        }
    }
}

// -- barns --------------------------------------------------------------------------------

int State::barn_field_part(int32_t point) const {
    int part = -1;
    for (int i = 0; i < 4; ++i) {
        int idx = graph.board.get(point + AROUND_DELTA[i]);
        if (idx < 0) return -1;
        const PlacedTile& t = graph.tiles[idx];
        const VariantDef& v = graph.variant_of(t);
        if (!(v.field_corners & (1 << AROUND_CORNER[i]))) return -1;
        if (part < 0) part = t.base + v.half_feature[AROUND_HALF[i]];
    }
    return part;
}

int State::free_barn_point(int corner, int32_t& point) {
    point = last_pos + CORNER_POINT[corner];
    int part = barn_field_part(point);
    if (part < 0 || field_has_barn(graph.find(part))) return -1;
    return part;
}

void State::barn_after_scoring() {
    if (has_new_barn) {
        int root = graph.find(barn_field_part(new_barn));
        score_field(root, 3, R_BARN_PLACED);
    }
    const PlacedTile& t = graph.tiles[graph.board.get(last_pos)];
    const VariantDef& v = graph.variant_of(t);
    for (size_t local = 0; local < v.features.size(); ++local) {
        if (v.features[local].kind != FIELD) continue;
        int root = graph.find(t.base + static_cast<int>(local));
        if (graph.has_figures(root) && field_has_barn(root)) score_field(root, 1, R_BARN_JOINED);
    }
}

void State::barn_final_scoring() {
    Vec<Barn> sorted = barns;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Barn& a, const Barn& b) { return a.point < b.point; });
    std::vector<std::pair<int, int>> seen;
    for (const Barn& b : sorted) {
        std::pair<int, int> key(b.seat, graph.find(b.part));
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
        seen.push_back(key);
    }
    for (const auto& key : seen)
        add_points(static_cast<uint8_t>(1u << key.first), 4 * completed_cities(key.second), F_BARN,
                   false);
}

// -- wagons -------------------------------------------------------------------------------

void State::feature_parts(int root, std::vector<int>& out) {
    // Every part of the feature, by position then part id (the tiles it covers, in order).
    out.clear();
    for (int p = root; p >= 0; p = graph.next_member(p, root)) out.push_back(p);
    std::sort(out.begin(), out.end(), [this](int a, int b) {
        int32_t pa = graph.part_pos(a), pb = graph.part_pos(b);
        return pa != pb ? pa < pb : a < b;
    });
}

void State::linked_parts(int part, std::vector<int>& out) {
    out.clear();
    const PlacedTile& t = graph.tiles[graph.parts[part].tile];
    const VariantDef& v = graph.variant_of(t);
    const int local = part - t.base;
    for (const auto& link : v.links) {
        if (link.first == local) out.push_back(t.base + link.second);
        else if (link.second == local) out.push_back(t.base + link.first);
    }
    if (v.abbey) {
        for (int side = 0; side < 4; ++side) {
            const PlacedTile& nt = graph.tiles[graph.board.get(t.pos + SIDE_OFFSET[side])];
            int other = graph.variant_of(nt).side_feature[(side + 2) & 3];
            if (other >= 0) out.push_back(nt.base + other);
        }
    } else {
        for (uint8_t side : v.features[local].sides) {
            int idx = graph.board.get(t.pos + SIDE_OFFSET[side]);
            if (idx < 0) continue;
            const PlacedTile& nt = graph.tiles[idx];
            const VariantDef& nv = graph.variant_of(nt);
            if (nv.abbey) out.push_back(nt.base + nv.monastery);
        }
    }
}

void State::wagon_targets(std::vector<int>& parts) {
    parts.clear();
    const WagonEntry& head = wagon_queue.front();
    auto is_free = [this](int root) { return graph.parts[root].open > 0 && !graph.has_figures(root); };
    if (!data->wagon_connected) {
        // Targets in order of first appearance, each with its parts in range.
        std::vector<int> roots;
        std::vector<std::vector<int>> groups;
        for (int i = -1; i < 8; ++i) {
            int idx = graph.board.get(head.pos + (i < 0 ? 0 : SURROUNDING[i]));
            if (idx < 0) continue;
            const PlacedTile& t = graph.tiles[idx];
            const VariantDef& v = graph.variant_of(t);
            for (size_t local = 0; local < v.features.size(); ++local) {
                if (v.features[local].kind == FIELD) continue;
                int part = t.base + static_cast<int>(local);
                int root = graph.find(part);
                if (!is_free(root)) continue;
                auto it = std::find(roots.begin(), roots.end(), root);
                if (it == roots.end()) {
                    roots.push_back(root);
                    groups.push_back({part});
                } else {
                    groups[it - roots.begin()].push_back(part);
                }
            }
        }
        for (const auto& g : groups) parts.insert(parts.end(), g.begin(), g.end());
        return;
    }
    std::vector<int> seen{head.root}, queue{head.root}, fparts, linked, target;
    size_t next = 0;
    while (next < queue.size()) {
        int root = queue[next++];
        feature_parts(root, fparts);
        std::vector<int> own = fparts;
        for (int part : own) {
            linked_parts(part, linked);
            for (int other : linked) {
                int other_root = graph.find(other);
                if (std::find(seen.begin(), seen.end(), other_root) != seen.end() ||
                    graph.parts[other_root].kind == FIELD)
                    continue;
                seen.push_back(other_root);
                bool free = is_free(other_root);
                if (free) {
                    feature_parts(other_root, target);
                    parts.insert(parts.end(), target.begin(), target.end());
                }
                if (data->wagon_traverse && (free || graph.parts[other_root].open == 0))
                    queue.push_back(other_root);
            }
        }
    }
}

// -- applying -----------------------------------------------------------------------------

void State::apply_id(int64_t id) {
    const Decoded a = decode(id);
    legal.valid = false;
    switch (phase) {
        case PLACE: {
            history.push_back(static_cast<int32_t>(id));
            put_tile(pack(a.x, a.y), tile, a.quarter);
            return;
        }
        case DEPLOY: {
            history.push_back(static_cast<int32_t>(id));
            if (a.kind == A_DEPLOY) {
                const int32_t pos = pack(a.x, a.y);
                const PlacedTile& t = graph.tiles[graph.board.get(pos)];
                if (a.figure == data->fig_barn) {
                    const int seat = turn_player;
                    int corner = 0;
                    while (data->corner_location[corner] != a.location) ++corner;
                    int32_t point;
                    int part = free_barn_point(corner, point);
                    supply_ref(seat, data->fig_barn) -= 1;
                    barns.push_back(Barn{point, static_cast<int8_t>(seat), static_cast<int16_t>(part)});
                    has_new_barn = true;
                    new_barn = point;
                } else {
                    const VariantDef& v = graph.variant_of(t);
                    int local = 0;
                    while (v.features[local].location != a.location) ++local;
                    put_figure(turn_player, a.figure, t.base + local);
                }
            }
            finish_turn();
            return;
        }
        case CHOOSE:
        case FINAL_ROUND: {
            history.push_back(static_cast<int32_t>(id));
            if (a.kind == A_ABBEY) {
                abbeys_left[turn_player] -= 1;
                tile = data->abbey_tile;
                put_tile(pack(a.x, a.y), data->abbey_tile, 0);
            } else if (a.kind == A_DRAW) {
                draw();
            } else {  // pass in a voluntary final round
                if (!open_next_final()) final_scoring();
            }
            return;
        }
        case WAGON_MOVE: {
            const int seat = wagon_queue.front().seat;
            if (a.kind == A_PASS) {
                supply_ref(seat, data->fig_wagon) += 1;
            } else {
                const PlacedTile& t = graph.tiles[graph.board.get(pack(a.x, a.y))];
                const VariantDef& v = graph.variant_of(t);
                int local = 0;
                while (v.features[local].location != a.location) ++local;
                occupant.push_back(Occupant{static_cast<int16_t>(t.base + local),
                                            static_cast<int8_t>(seat),
                                            static_cast<int8_t>(data->fig_wagon)});
                graph.place_figure(t.base + local);
            }
            history.push_back(static_cast<int32_t>(id));
            wagon_queue.erase(wagon_queue.begin());
            if (!wagon_queue.empty()) {
                actor = wagon_queue.front().seat;
            } else {
                actor = turn_player;
                advance();
            }
            return;
        }
        case OVER:
        case CHANCE:
            return;
    }
}

void State::put_tile(int32_t pos, int type, int quarter) {
    graph.add_tile(pos, type, quarter, pending);
    last_pos = pos;
    has_last_pos = true;
    turn += 1;
    phase = DEPLOY;
}

void State::put_figure(int seat, int figure, int part) {
    supply_ref(seat, figure) -= 1;
    occupant.push_back(Occupant{static_cast<int16_t>(part), static_cast<int8_t>(seat),
                                static_cast<int8_t>(figure)});
    graph.place_figure(part);
}

void State::finish_turn() {
    Vec<int> roots;
    roots.swap(pending);
    for (int root : roots) score_feature(root, true);
    pending.clear();
    if (data->fig_barn >= 0) barn_after_scoring();
    has_new_barn = false;
    resume_turn();
}

void State::resume_turn() {
    if (!wagon_queue.empty()) {
        const int n = data->players, first = turn_player;
        std::stable_sort(wagon_queue.begin(), wagon_queue.end(),
                         [n, first](const WagonEntry& a, const WagonEntry& b) {
                             return ((a.seat - first) % n + n) % n < ((b.seat - first) % n + n) % n;
                         });
        phase = WAGON_MOVE;
        actor = wagon_queue.front().seat;
        return;
    }
    advance();
}

void State::advance() {
    if (final_round_on) {
        if (!open_next_final()) final_scoring();
        return;
    }
    turn_player = (turn_player + 1) % data->players;
    start_turn();
}

void State::start_turn() {
    actor = turn_player;
    if (data->abbeys > 0 && !pile.empty() && abbeys_left[turn_player] > 0) {
        if (has_hole()) {
            phase = CHOOSE;
            tile = -1;
            return;
        }
    }
    draw();
}

void State::draw() { draw_on(false); }

bool State::take_top() {
    const int t = pile.back();
    pile.pop_back();
    const TileDef& def = data->tiles[t];
    const Frontier& f = graph.frontier;
    for (size_t i = 0; i < f.pattern.size(); ++i) {
        if (f.fitting(def.fits, i)) {  // (one branch a slot, not one for each operand)
            tile = t;
            phase = PLACE;
            return true;
        }
    }
    discarded.push_back(static_cast<uint8_t>(t));
    return false;
}

void State::draw_on(bool discarded_now) {
    while (!pile.empty()) {
        if (explicit_chance && stop_for_chance(discarded_now)) return;
        if (take_top()) return;
        discarded_now = true;
    }
    tile = -1;
    const int n = data->players;
    const int last_player = discarded_now ? turn_player : (turn_player - 1 + n) % n;
    if (data->abbeys > 0 && data->abbey_end != END_NONE && !final_round_on) {
        final_round_on = true;
        final_round.clear();
        for (int step = 1; step <= n; ++step)
            final_round.push_back(static_cast<int8_t>((last_player + step) % n));
        if (open_next_final()) return;
    }
    final_scoring();
}

// -- chance mode --------------------------------------------------------------------------

bool State::stop_for_chance(bool discarded_now) {
    // One tile type left is no chance event (ChanceScript.choose): drawn at once.
    const uint8_t first = pile[0];
    for (size_t i = 1; i < pile.size(); ++i) {
        if (pile[i] != first) {
            phase = CHANCE;
            tile = -1;
            chance_discarded = discarded_now;
            legal.valid = false;
            return true;
        }
    }
    return false;
}

void State::chance_outcomes(std::vector<std::pair<int, int>>& out) const {
    out.clear();
    if (phase != CHANCE) return;
    int counts[256] = {};
    for (uint8_t t : pile) counts[t] += 1;
    for (int t = 0; t < 256; ++t)
        if (counts[t]) out.emplace_back(t, counts[t]);
}

bool State::chance_possible(int type) const {
    if (phase != CHANCE || type < 0 || type > 255) return false;
    for (uint8_t t : pile)
        if (t == type) return true;
    return false;
}

void State::apply_chance(int type) {
    size_t at = pile.size();
    while (pile[--at] != type) {}
    std::swap(pile[at], pile.back());
    legal.valid = false;
    if (take_top()) return;
    draw_on(true);
}

bool State::open_next_final() {
    while (!final_round.empty()) {
        int seat = final_round.front();
        final_round.erase(final_round.begin());
        if (abbeys_left[seat] > 0) {
            if (has_hole()) {
                turn_player = actor = seat;
                phase = FINAL_ROUND;
                tile = -1;
                return true;
            }
        }
    }
    return false;
}

// -- scoring ------------------------------------------------------------------------------

uint8_t State::majority(const int* parts, size_t nparts, int root, bool use_strength) {
    int totals[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    bool present[8] = {false, false, false, false, false, false, false, false};
    for (size_t i = 0; i < nparts; ++i) {
        const int part = parts[i];
        const Occupant* occ = nullptr;
        for (const Occupant& o : occupant)
            if (o.part == part) { occ = &o; break; }
        int strength = 1;
        if (use_strength && occ->figure == data->fig_mayor) strength = graph.parts[root].pennants;
        totals[occ->seat] += strength;
        present[occ->seat] = true;
    }
    int best = 0;
    bool any = false;
    for (int s = 0; s < 8; ++s)
        if (present[s] && (!any || totals[s] > best)) { best = totals[s]; any = true; }
    if (!any || best <= 0) return 0;
    uint8_t mask = 0;
    for (int s = 0; s < 8; ++s)
        if (present[s] && totals[s] == best) mask |= static_cast<uint8_t>(1u << s);
    return mask;
}

void State::add_points(uint8_t winners, int points, FeatureName feature, bool complete,
                       Reason reason) {
    for (int s = 0; s < data->players; ++s)
        if (winners & (1u << s)) scores[s] += points;
    log.push_back(LogEntry{static_cast<int16_t>(turn), feature, complete, points, winners,
                           static_cast<uint8_t>(reason)});
}

int State::completed_cities(int field_root) {
    static thread_local std::vector<int> roots;  // (a buffer kept from call to call)
    roots.clear();
    for (int p = field_root; p >= 0; p = graph.next_member(p, field_root)) {
        const PlacedTile& t = graph.tiles[graph.parts[p].tile];
        for (uint8_t b : graph.feature_of(p).borders) {
            int r = graph.find(t.base + b);
            if (graph.parts[r].open == 0 && std::find(roots.begin(), roots.end(), r) == roots.end())
                roots.push_back(r);
        }
    }
    return static_cast<int>(roots.size());
}

void State::score_feature(int root, bool complete) {
    std::vector<int> parts;
    graph.clear_figures(root, parts);
    if (parts.empty()) return;
    const uint8_t k = graph.parts[root].kind;
    int points;
    if (k == ROAD) {
        points = graph.parts[root].tile_count;
    } else if (k == CITY) {
        int tiles = graph.parts[root].tile_count, pen = graph.parts[root].pennants;
        if (complete && !(data->small_city_first_edition && tiles == 2)) points = 2 * (tiles + pen);
        else points = tiles + pen;
    } else {
        points = 9 - graph.parts[root].open;
    }
    bool use_strength = false;
    if (data->fig_mayor >= 0)
        for (int part : parts)
            for (const Occupant& o : occupant)
                if (o.part == part && o.figure == data->fig_mayor) use_strength = true;
    uint8_t winners = majority(parts, root, use_strength);
    add_points(winners, points, static_cast<FeatureName>(k), complete);
    for (int part : parts) {
        auto it = std::find_if(occupant.begin(), occupant.end(),
                               [part](const Occupant& o) { return o.part == part; });
        Occupant o = *it;
        occupant.erase(it);
        if (o.figure == data->fig_wagon && complete) {
            wagon_queue.push_back(WagonEntry{o.seat, graph.part_pos(part), static_cast<int16_t>(root)});
        } else {
            supply_ref(o.seat, o.figure) += 1;
        }
    }
}

void State::score_field(int root, int points_per_city, Reason reason) {
    std::vector<int> parts;
    graph.clear_figures(root, parts);
    if (parts.empty()) return;
    int points = points_per_city * completed_cities(root);
    uint8_t winners = majority(parts, root, false);
    add_points(winners, points, F_FIELD, false, reason);
    for (int part : parts) {
        auto it = std::find_if(occupant.begin(), occupant.end(),
                               [part](const Occupant& o) { return o.part == part; });
        Occupant o = *it;
        occupant.erase(it);
        supply_ref(o.seat, o.figure) += 1;
    }
}

void State::final_scoring() {
    std::vector<int16_t> order;
    for (const Occupant& o : occupant) order.push_back(o.part);
    std::vector<int> seen, fields;
    for (int part : order) {
        int root = graph.find(part);
        if (std::find(seen.begin(), seen.end(), root) != seen.end()) continue;
        seen.push_back(root);
        if (graph.parts[root].kind == FIELD) fields.push_back(root);
        else score_feature(root, false);
    }
    for (int root : fields) score_field(root, 3, R_NONE);
    if (data->fig_barn >= 0) barn_final_scoring();
    phase = OVER;
    actor = -1;
    tile = -1;
    legal.valid = false;
}

}  // namespace carc
