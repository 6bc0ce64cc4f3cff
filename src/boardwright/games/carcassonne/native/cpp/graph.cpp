// Laying a tile: new parts, joins with the neighbours, completions (features.py add_tile).
#include <algorithm>

#include "graph.h"

namespace carc {

void Graph::add_tile(int32_t pos, int type, int quarter, Vec<int>& completed) {
    const TileDef& tile = data->tiles[type];
    const VariantDef& v = tile.variants[quarter];
    const int base = nparts();
    const int n = static_cast<int>(v.features.size());
    const int16_t tile_index = static_cast<int16_t>(tiles.size());
    for (int i = 0; i < n; ++i) {
        const FeatureDef& f = v.features[i];
        Part part;
        part.parent = part.mem_next = static_cast<int16_t>(base + i);
        part.size = 1;
        part.figured = 0;
        part.kind = f.kind;
        part.tile = static_cast<uint32_t>(tile_index);
        part.pennants = f.pennants;
        if (f.kind == FIELD) {
            part.open = 0;
            part.tile_count = 0;
        } else if (f.kind == MONASTERY) {
            part.open = 8;
            part.tile_count = 0;
        } else {
            part.open = f.nsides;
            part.tile_count = 1;
        }
        parts.push_back(part);
    }
    tiles.push_back(PlacedTile{pos, static_cast<uint8_t>(type), static_cast<uint8_t>(quarter),
                               static_cast<int16_t>(base)});
    monastery_part.push_back(static_cast<int16_t>(v.monastery >= 0 ? base + v.monastery : -1));
    leave_frontier(pos);
    board.put(pos, tile_index);
    // The eight cells around, looked up once (the map changes below only where a side's free
    // cell joins the frontier, which leaves the others' values as they are).
    int around[8];
    for (int j = 0; j < 8; ++j) around[j] = board.raw(pos + SURROUNDING[j]);
    ntouched_around = 0;

    int touched[4];
    int ntouched = 0;
    for (int side = 0; side < 4; ++side) {
        const int32_t npos = pos + SIDE_OFFSET[side];
        const int ni = around[SIDE_IN_SURROUNDING[side]];
        const int opposite = (side + 2) & 3;
        if (ni < 0) {
            constrain_raw(npos, ni, opposite, v.side_types[side]);
            continue;
        }
        const PlacedTile& nt = tiles[ni];
        const VariantDef& nv = variant_of(nt);
        int local = v.side_feature[side];
        int other_local = nv.side_feature[opposite];
        if (other_local >= 0) touched_around[ntouched_around++] = static_cast<int16_t>(nt.base + other_local);
        for (int h = 2 * opposite; h < 2 * opposite + 2; ++h)
            if (nv.half_feature[h] >= 0)
                touched_around[ntouched_around++] = static_cast<int16_t>(nt.base + nv.half_feature[h]);
        if (local >= 0) {
            int a = find(base + local);
            int b = find(nt.base + other_local);
            if (a == b) {
                parts[a].open -= 2;
            } else {
                parts[a].open -= 1;
                parts[b].open -= 1;
                union_roots(a, b);
            }
            touched[ntouched++] = base + local;
        } else if (other_local >= 0) {
            // An abbey edge closes the neighbour's road or city without extending it.
            parts[find(nt.base + other_local)].open -= 1;
            touched[ntouched++] = nt.base + other_local;
        }
        // Field half-edges: sL meets opposite R and sR meets opposite L.
        const int halves[2][2] = {{2 * side, 2 * opposite + 1}, {2 * side + 1, 2 * opposite}};
        for (const auto& h : halves) {
            int l = v.half_feature[h[0]];
            if (l < 0) continue;
            int o = nv.half_feature[h[1]];
            if (o < 0) continue;
            int a = find(base + l);
            int b = find(nt.base + o);
            if (a != b) union_roots(a, b);
        }
    }

    completed.clear();
    for (int i = 0; i < ntouched; ++i) {
        int root = find(touched[i]);
        if (parts[root].open == 0 &&
            std::find(completed.begin(), completed.end(), root) == completed.end())
            completed.push_back(root);
    }
    if (completed.size() > 1)  // roads first, then the rest, each group in order
        std::stable_sort(completed.begin(), completed.end(),
                         [this](int a, int b) { return (parts[a].kind != ROAD) < (parts[b].kind != ROAD); });
    if (v.monastery >= 0) {
        int part = base + v.monastery;
        int neighbours = 0;
        for (int j = 0; j < 8; ++j)
            if (around[j] >= 0) ++neighbours;
        parts[part].open = static_cast<int16_t>(8 - neighbours);
    }
    for (int j = 0; j < 8; ++j) {  // (a cell without a tile reads entry 0: no monastery)
        const int part = monastery_part[std::max(around[j], -1) + 1];
        if (part < 0) continue;
        touched_around[ntouched_around++] = static_cast<int16_t>(part);
        parts[part].open -= 1;
        if (parts[part].open == 0) completed.push_back(part);
    }
    if (v.monastery >= 0 && parts[base + v.monastery].open == 0) completed.push_back(base + v.monastery);
}

int Graph::shared_tiles(int a, int b) {
    // Walk the smaller feature (b, joined into a by size); a tile counts once, at the first of
    // its parts that lies in b.
    int shared = 0;
    const uint8_t kind = parts[b].kind;
    int p = b;
    do {
        const PlacedTile& t = tiles[parts[p].tile];
        if (data->tiles[t.type].multi) {
            const VariantDef& v = variant_of(t);
            const int n = static_cast<int>(v.features.size());
            const int local = p - t.base;
            bool first = true, in_a = false;
            for (int other = 0; other < n; ++other) {
                if (other == local || v.features[other].kind != kind) continue;
                const int root = find(t.base + other);
                if (root == b && other < local) first = false;
                if (root == a) in_a = true;
            }
            if (first && in_a) ++shared;
        }
        p = parts[p].mem_next;
    } while (p != b);
    return shared;
}

}  // namespace carc
