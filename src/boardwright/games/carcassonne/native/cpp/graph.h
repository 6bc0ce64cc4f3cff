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
// keeps them (insertion order; a position leaves when a tile is laid on it).
struct Frontier {
    std::vector<int32_t> pos;
    std::vector<uint8_t> pattern;

    int find(int32_t p) const {
        for (size_t i = 0; i < pos.size(); ++i)
            if (pos[i] == p) return static_cast<int>(i);
        return -1;
    }
    void constrain(int32_t p, int side, uint8_t side_type) {
        int i = find(p);
        if (i < 0) {
            pos.push_back(p);
            pattern.push_back(static_cast<uint8_t>(side_type << (2 * side)));
        } else {
            pattern[i] |= static_cast<uint8_t>(side_type << (2 * side));
        }
    }
    void remove(int32_t p) {
        int i = find(p);
        if (i < 0) return;
        pos.erase(pos.begin() + i);
        pattern.erase(pattern.begin() + i);
    }
};

// Position -> index of the placed tile (open addressing; positions are never removed).
struct BoardMap {
    std::vector<int32_t> keys;
    std::vector<int16_t> values;
    uint32_t mask = 0;

    void init(size_t capacity) {
        size_t cap = 16;
        while (cap < capacity) cap <<= 1;
        keys.assign(cap, INT32_MIN);
        values.assign(cap, -1);
        mask = static_cast<uint32_t>(cap - 1);
    }
    static uint32_t hash(int32_t p) { return static_cast<uint32_t>(p) * 2654435761u; }
    int get(int32_t p) const {
        uint32_t i = hash(p) & mask;
        while (true) {
            int32_t k = keys[i];
            if (k == p) return values[i];
            if (k == INT32_MIN) return -1;
            i = (i + 1) & mask;
        }
    }
    void put(int32_t p, int16_t v) {
        uint32_t i = hash(p) & mask;
        while (keys[i] != INT32_MIN && keys[i] != p) i = (i + 1) & mask;
        keys[i] = p;
        values[i] = v;
    }
};

struct Graph {
    const GameData* data = nullptr;
    std::vector<PlacedTile> tiles;   // in placement order
    BoardMap board;
    Frontier frontier;
    // Per part (a root's entries describe its whole feature).
    std::vector<int16_t> parent, size, open, pennants, tile_count;
    std::vector<uint8_t> kind;
    std::vector<int16_t> part_tile;  // index into `tiles`
    std::vector<int16_t> fig_head, fig_tail, fig_next;  // parts holding figures, in order
    std::vector<uint64_t> multi;     // per part: multi_words words of multi-tile bits
    int multi_count = 0;             // multi tiles placed so far

    void init(const GameData* d, size_t max_tiles) {
        data = d;
        board.init(4 * (max_tiles + 2));
        // Room for every part of the game up front: laying a tile then never reallocates.
        const size_t parts = 6 * (max_tiles + 1);
        for (auto* v : {&parent, &size, &open, &pennants, &tile_count, &part_tile, &fig_head,
                        &fig_tail, &fig_next})
            v->reserve(parts);
        kind.reserve(parts);
        multi.reserve(parts * d->multi_words);
        tiles.reserve(max_tiles + 1);
        frontier.pos.reserve(2 * max_tiles + 8);
        frontier.pattern.reserve(2 * max_tiles + 8);
    }

    int find(int part) {
        int16_t* p = parent.data();
        while (p[part] != part) {
            p[part] = p[p[part]];
            part = p[part];
        }
        return part;
    }
    int find_const(int part) const {
        while (parent[part] != part) part = parent[part];
        return part;
    }

    int nparts() const { return static_cast<int>(parent.size()); }
    int32_t part_pos(int part) const { return tiles[part_tile[part]].pos; }
    int part_local(int part) const { return part - tiles[part_tile[part]].base; }
    const VariantDef& variant_of(const PlacedTile& t) const {
        return data->tiles[t.type].variants[t.quarter];
    }
    const FeatureDef& feature_of(int part) const {
        const PlacedTile& t = tiles[part_tile[part]];
        return variant_of(t).features[part - t.base];
    }
    bool has_figures(int root) const { return fig_head[root] >= 0; }
    bool is_complete(int root) const { return open[root] == 0 && kind[root] != FIELD; }

    int union_roots(int a, int b) {
        if (size[a] < size[b]) std::swap(a, b);
        parent[b] = static_cast<int16_t>(a);
        size[a] += size[b];
        open[a] += open[b];
        pennants[a] += pennants[b];
        if (kind[a] == ROAD || kind[a] == CITY) {
            int w = data->multi_words;
            uint64_t* ma = &multi[static_cast<size_t>(a) * w];
            const uint64_t* mb = &multi[static_cast<size_t>(b) * w];
            int shared = 0;
            for (int i = 0; i < w; ++i) {
                shared += __builtin_popcountll(ma[i] & mb[i]);
                ma[i] |= mb[i];
            }
            tile_count[a] = static_cast<int16_t>(tile_count[a] + tile_count[b] - shared);
        }
        if (fig_head[b] >= 0) {
            if (fig_head[a] < 0) {
                fig_head[a] = fig_head[b];
            } else {
                fig_next[fig_tail[a]] = fig_head[b];
            }
            fig_tail[a] = fig_tail[b];
        }
        return a;
    }

    // Lay a validated tile; returns the roots it completed (roads, then cities, then
    // monasteries), exactly as FeatureGraph.add_tile.
    void add_tile(int32_t pos, int type, int quarter, std::vector<int>& completed);

    void place_figure(int part) {
        int root = find(part);
        fig_next[part] = -1;
        if (fig_head[root] < 0) fig_head[root] = static_cast<int16_t>(part);
        else fig_next[fig_tail[root]] = static_cast<int16_t>(part);
        fig_tail[root] = static_cast<int16_t>(part);
    }
    void figures(int root, std::vector<int>& out) const {
        out.clear();
        for (int p = fig_head[root]; p >= 0; p = fig_next[p]) out.push_back(p);
    }
    void clear_figures(int root, std::vector<int>& out) {
        figures(root, out);
        fig_head[root] = fig_tail[root] = -1;
    }
};

}  // namespace carc
