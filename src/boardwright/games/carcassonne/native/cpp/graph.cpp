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
        parent.push_back(static_cast<int16_t>(base + i));
        size.push_back(1);
        pennants.push_back(f.pennants);
        kind.push_back(f.kind);
        part_tile.push_back(tile_index);
        fig_head.push_back(-1);
        fig_tail.push_back(-1);
        fig_next.push_back(-1);
        for (int k = 0; k < w; ++k) multi.push_back(0);
        if (f.kind == FIELD) {
            open.push_back(0);
            tile_count.push_back(0);
        } else if (f.kind == MONASTERY) {
            open.push_back(8);
            tile_count.push_back(0);
        } else {
            open.push_back(f.nsides);
            tile_count.push_back(1);
            if (multi_bit >= 0 && multi_bit < 64 * w)
                multi[static_cast<size_t>(base + i) * w + multi_bit / 64] |= 1ull << (multi_bit % 64);
        }
    }
    tiles.push_back(PlacedTile{pos, static_cast<uint8_t>(type), static_cast<uint8_t>(quarter),
                               static_cast<int16_t>(base)});
    board.put(pos, tile_index);
    frontier.remove(pos);

    int touched[4];
    int ntouched = 0;
    for (int side = 0; side < 4; ++side) {
        const int32_t npos = pos + SIDE_OFFSET[side];
        const int ni = board.get(npos);
        const int opposite = (side + 2) & 3;
        if (ni < 0) {
            frontier.constrain(npos, opposite, v.side_types[side]);
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
                open[a] -= 2;
            } else {
                open[a] -= 1;
                open[b] -= 1;
                union_roots(a, b);
            }
            touched[ntouched++] = base + local;
        } else if (other_local >= 0) {
            // An abbey edge closes the neighbour's road or city without extending it.
            open[find(nt.base + other_local)] -= 1;
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
        if (open[root] == 0 &&
            std::find(completed.begin(), completed.end(), root) == completed.end())
            completed.push_back(root);
    }
    if (completed.size() > 1)  // roads first, then the rest, each group in order
        std::stable_sort(completed.begin(), completed.end(),
                         [this](int a, int b) { return (kind[a] != ROAD) < (kind[b] != ROAD); });
    if (v.monastery >= 0) {
        int part = base + v.monastery;
        int around = 0;
        for (int32_t d : SURROUNDING)
            if (board.get(pos + d) >= 0) ++around;
        open[part] = static_cast<int16_t>(8 - around);
    }
    for (int32_t d : SURROUNDING) {
        int ni = board.get(pos + d);
        if (ni < 0) continue;
        const PlacedTile& nt = tiles[ni];
        int m = variant_of(nt).monastery;
        if (m < 0) continue;
        int part = nt.base + m;
        open[part] -= 1;
        if (open[part] == 0) completed.push_back(part);
    }
    if (v.monastery >= 0 && open[base + v.monastery] == 0) completed.push_back(base + v.monastery);
}

}  // namespace carc
