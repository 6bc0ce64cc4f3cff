// Laying a tile: new parts, joins with the neighbours, completions (features.py add_tile).
#include <algorithm>

#include "graph.h"

namespace carc {

void Graph::add_tile(int32_t pos, int type, int quarter, std::vector<int>& completed) {
    const TileDef& tile = data->tiles[type];
    const VariantDef& v = tile.variants[quarter];
    const int base = nparts();
    const int n = static_cast<int>(v.features.size());
    const int16_t tile_index = static_cast<int16_t>(tiles.size());
    const int w = data->multi_words;
    int multi_bit = -1;
    if (tile.multi) multi_bit = multi_count++;
    for (int i = 0; i < n; ++i) {
        const FeatureDef& f = v.features[i];
        Part part;
        part.parent = static_cast<int16_t>(base + i);
        part.size = 1;
        part.pennants = f.pennants;
        part.kind = f.kind;
        part.part_tile = tile_index;
        part.fig_head = part.fig_tail = part.fig_next = -1;
        part.mem_next = -1;
        part.mem_tail = static_cast<int16_t>(base + i);
        for (int k = 0; k < w; ++k) multi.push_back(0);
        if (f.kind == FIELD) {
            part.open = 0;
            part.tile_count = 0;
        } else if (f.kind == MONASTERY) {
            part.open = 8;
            part.tile_count = 0;
        } else {
            part.open = f.nsides;
            part.tile_count = 1;
            if (multi_bit >= 0 && multi_bit < 64 * w)
                multi[static_cast<size_t>(base + i) * w + multi_bit / 64] |= 1ull << (multi_bit % 64);
        }
        parts.push_back(part);
    }
    tiles.push_back(PlacedTile{pos, static_cast<uint8_t>(type), static_cast<uint8_t>(quarter),
                               static_cast<int16_t>(base)});
    leave_frontier(pos);
    board.put(pos, tile_index);

    int touched[4];
    int ntouched = 0;
    for (int side = 0; side < 4; ++side) {
        const int32_t npos = pos + SIDE_OFFSET[side];
        const int ni = board.get(npos);
        const int opposite = (side + 2) & 3;
        if (ni < 0) {
            const int64_t cell = static_cast<int64_t>(unpack_x(npos) + data->radius) * data->width +
                                 (unpack_y(npos) + data->radius);
            constrain(npos, opposite, v.side_types[side], cell * 4);
            continue;
        }
        const PlacedTile& nt = tiles[ni];
        const VariantDef& nv = variant_of(nt);
        int local = v.side_feature[side];
        int other_local = nv.side_feature[opposite];
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
        int around = 0;
        for (int32_t d : SURROUNDING)
            if (board.get(pos + d) >= 0) ++around;
        parts[part].open = static_cast<int16_t>(8 - around);
    }
    for (int32_t d : SURROUNDING) {
        int ni = board.get(pos + d);
        if (ni < 0) continue;
        const PlacedTile& nt = tiles[ni];
        int m = variant_of(nt).monastery;
        if (m < 0) continue;
        int part = nt.base + m;
        parts[part].open -= 1;
        if (parts[part].open == 0) completed.push_back(part);
    }
    if (v.monastery >= 0 && parts[base + v.monastery].open == 0) completed.push_back(base + v.monastery);
}

}  // namespace carc
