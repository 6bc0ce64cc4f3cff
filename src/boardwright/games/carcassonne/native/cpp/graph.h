// The board and its features, tracked incrementally with a union-find over feature parts: the
// same structure as features.py (part ids, union by size, roots, the order of completions), so
// the two engines name every part and root alike and their positions can be compared exactly.
#pragma once

#include <climits>
#include <cstdint>
#include <vector>

#include "tiles.h"

namespace carc {

struct PlacedTile {
    int32_t pos;
    uint8_t type;
    uint8_t quarter;
    int16_t base;   // id of the tile's first part
};

// Free positions next to a tile with their side-type patterns, in the order Python's dict
// keeps them (insertion order; a position leaves when a tile is laid on it). A position that
// leaves is marked dead in place (so the others keep their slots) and the dead are swept out
// once they outnumber the living; loops skip them with `alive`.
struct Frontier {
    static constexpr int32_t DEAD = INT32_MIN;
    std::vector<int32_t> pos;
    std::vector<uint8_t> pattern;
    std::vector<int64_t> place_base;  // the id of placing there turned 0 (+ quarter turns)
    int dead = 0;

    bool alive(size_t i) const { return pos[i] != DEAD; }
    size_t live() const { return pos.size() - static_cast<size_t>(dead); }
};

// Position -> index of the placed tile, or slot of a frontier position (open addressing;
// positions are never removed: a frontier position becomes a tile's).
struct BoardMap {
    std::vector<int32_t> keys;
    std::vector<int16_t> values;
    uint32_t mask = 0;
    int shift = 28;

    void init(size_t capacity) {
        size_t cap = 16;
        shift = 28;
        while (cap < capacity) {
            cap <<= 1;
            --shift;
        }
        keys.assign(cap, INT32_MIN);
        values.assign(cap, -1);  // (assign keeps the memory of a state dealt again)
        mask = static_cast<uint32_t>(cap - 1);
    }
    // Fibonacci hashing: the high bits of the product, so that neighbouring positions (which
    // differ in their low bits) spread over the table.
    uint32_t hash(int32_t p) const { return (static_cast<uint32_t>(p) * 2654435769u) >> shift; }
    // The raw value: a tile index (>= 0), a frontier slot s stored as -(s + 2), or -1.
    int raw(int32_t p) const {
        uint32_t i = hash(p) & mask;
        while (true) {
            int32_t k = keys[i];
            if (k == p) return values[i];
            if (k == INT32_MIN) return -1;
            i = (i + 1) & mask;
        }
    }
    int get(int32_t p) const {  // the index of the tile at p, or -1
        int v = raw(p);
        return v >= 0 ? v : -1;
    }
    void put(int32_t p, int16_t v) {
        uint32_t i = hash(p) & mask;
        while (keys[i] != INT32_MIN && keys[i] != p) i = (i + 1) & mask;
        keys[i] = p;
        values[i] = v;
    }
};

// One feature part of a placed tile; a root's entries describe its whole feature.
struct Part {
    int16_t parent, size, open, tile_count;
    int16_t part_tile;                  // index into Graph::tiles
    int16_t fig_head, fig_tail, fig_next;  // parts holding figures, in the order they came
    int16_t mem_next, mem_tail;         // every part of a feature: a list from its root
    uint8_t pennants, kind;
};

struct Graph {
    const GameData* data = nullptr;
    std::vector<PlacedTile> tiles;   // in placement order
    BoardMap board;
    Frontier frontier;
    // Per part (a root's entries describe its whole feature).
    std::vector<Part> parts;
    std::vector<uint64_t> multi;     // per part: multi_words words of multi-tile bits
    int multi_count = 0;             // multi tiles placed so far

    void init(const GameData* d, size_t max_tiles) {
        data = d;
        // Tiles and frontier positions (at most twice the tiles, and 4) at half load or less.
        board.init(2 * (3 * max_tiles + 4));
        tiles.clear();
        frontier.pos.clear();
        frontier.pattern.clear();
        frontier.place_base.clear();
        frontier.dead = 0;
        parts.clear();
        multi.clear();
        multi_count = 0;
        // Room for every part of the game up front: laying a tile then never reallocates.
        const size_t nparts = 6 * (max_tiles + 1);
        parts.reserve(nparts);
        multi.reserve(nparts * d->multi_words);
        tiles.reserve(max_tiles + 1);
        frontier.pos.reserve(2 * max_tiles + 8);
        frontier.pattern.reserve(2 * max_tiles + 8);
        frontier.place_base.reserve(2 * max_tiles + 8);
    }

    int find(int part) {
        Part* p = parts.data();
        while (p[part].parent != part) {
            p[part].parent = p[p[part].parent].parent;
            part = p[part].parent;
        }
        return part;
    }
    int find_const(int part) const {
        while (parts[part].parent != part) part = parts[part].parent;
        return part;
    }

    int frontier_slot(int32_t p) const {
        int v = board.raw(p);
        return v <= -2 ? -v - 2 : -1;
    }
    // Record that the free position p must show `side_type` on its side `side`.
    void constrain(int32_t p, int side, uint8_t side_type, int64_t id_base) {
        int slot = frontier_slot(p);
        if (slot < 0) {
            board.put(p, static_cast<int16_t>(-static_cast<int>(frontier.pos.size()) - 2));
            frontier.pos.push_back(p);
            frontier.pattern.push_back(static_cast<uint8_t>(side_type << (2 * side)));
            frontier.place_base.push_back(id_base);
        } else {
            frontier.pattern[slot] |= static_cast<uint8_t>(side_type << (2 * side));
        }
    }
    void leave_frontier(int32_t p) {
        int slot = frontier_slot(p);
        if (slot < 0) return;
        frontier.pos[slot] = Frontier::DEAD;
        frontier.dead += 1;
        if (frontier.dead > 8 && 2 * static_cast<size_t>(frontier.dead) > frontier.live()) sweep();
    }
    void sweep() {
        size_t out = 0;
        for (size_t i = 0; i < frontier.pos.size(); ++i) {
            if (!frontier.alive(i)) continue;
            frontier.pos[out] = frontier.pos[i];
            frontier.pattern[out] = frontier.pattern[i];
            frontier.place_base[out] = frontier.place_base[i];
            board.put(frontier.pos[out], static_cast<int16_t>(-static_cast<int>(out) - 2));
            ++out;
        }
        frontier.pos.resize(out);
        frontier.pattern.resize(out);
        frontier.place_base.resize(out);
        frontier.dead = 0;
    }

    int nparts() const { return static_cast<int>(parts.size()); }
    int32_t part_pos(int part) const { return tiles[parts[part].part_tile].pos; }
    int part_local(int part) const { return part - tiles[parts[part].part_tile].base; }
    const VariantDef& variant_of(const PlacedTile& t) const {
        return data->tiles[t.type].variants[t.quarter];
    }
    const FeatureDef& feature_of(int part) const {
        const PlacedTile& t = tiles[parts[part].part_tile];
        return variant_of(t).features[part - t.base];
    }
    bool has_figures(int root) const { return parts[root].fig_head >= 0; }
    bool is_complete(int root) const { return parts[root].open == 0 && parts[root].kind != FIELD; }

    int union_roots(int a, int b) {
        if (parts[a].size < parts[b].size) std::swap(a, b);
        parts[b].parent = static_cast<int16_t>(a);
        parts[a].size += parts[b].size;
        parts[a].open += parts[b].open;
        parts[a].pennants += parts[b].pennants;
        if (parts[a].kind == ROAD || parts[a].kind == CITY) {
            int w = data->multi_words;
            uint64_t* ma = &multi[static_cast<size_t>(a) * w];
            const uint64_t* mb = &multi[static_cast<size_t>(b) * w];
            int shared = 0;
            for (int i = 0; i < w; ++i) {
                shared += __builtin_popcountll(ma[i] & mb[i]);
                ma[i] |= mb[i];
            }
            parts[a].tile_count = static_cast<int16_t>(parts[a].tile_count + parts[b].tile_count - shared);
        }
        parts[parts[a].mem_tail].mem_next = static_cast<int16_t>(b);
        parts[a].mem_tail = parts[b].mem_tail;
        if (parts[b].fig_head >= 0) {
            if (parts[a].fig_head < 0) {
                parts[a].fig_head = parts[b].fig_head;
            } else {
                parts[parts[a].fig_tail].fig_next = parts[b].fig_head;
            }
            parts[a].fig_tail = parts[b].fig_tail;
        }
        return a;
    }

    // Lay a validated tile; returns the roots it completed (roads, then cities, then
    // monasteries), exactly as FeatureGraph.add_tile.
    void add_tile(int32_t pos, int type, int quarter, std::vector<int>& completed);

    void place_figure(int part) {
        int root = find(part);
        parts[part].fig_next = -1;
        if (parts[root].fig_head < 0) parts[root].fig_head = static_cast<int16_t>(part);
        else parts[parts[root].fig_tail].fig_next = static_cast<int16_t>(part);
        parts[root].fig_tail = static_cast<int16_t>(part);
    }
    void figures(int root, std::vector<int>& out) const {
        out.clear();
        for (int p = parts[root].fig_head; p >= 0; p = parts[p].fig_next) out.push_back(p);
    }
    void clear_figures(int root, std::vector<int>& out) {
        figures(root, out);
        parts[root].fig_head = parts[root].fig_tail = -1;
    }
};

}  // namespace carc
