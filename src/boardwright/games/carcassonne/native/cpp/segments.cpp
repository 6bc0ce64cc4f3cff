#include "segments.h"

#include <string>

namespace carc {

SegmentMasks segment_masks(const GameData& data) {
    // A part covers: a city, its sides and their halves; a road, its sides; a field, its
    // half-sides and enclosed locations; a monastery or abbey, MONASTERY.
    SegmentMasks segments(data.tiles.size());
    for (size_t t = 0; t < data.tiles.size(); ++t) {
        for (int q = 0; q < 4; ++q) {
            const VariantDef& v = data.tiles[t].variants[q];
            std::vector<uint16_t>& out = segments[t][q];
            out.assign(v.features.size(), 0);
            for (size_t f = 0; f < v.features.size(); ++f) {
                const FeatureDef& def = v.features[f];
                uint16_t mask = 0;
                if (def.kind == CITY) {
                    for (uint8_t s : def.sides) mask |= (1u << s) | (1u << (4 + 2 * s)) | (1u << (5 + 2 * s));
                } else if (def.kind == ROAD) {
                    for (uint8_t s : def.sides) mask |= 1u << s;
                } else if (def.kind == FIELD) {
                    for (int h = 0; h < 8; ++h)
                        if (v.half_feature[h] == static_cast<int8_t>(f)) mask |= 1u << (4 + h);
                    const std::string& name = data.locations[def.location];
                    if (name.find("IN1") != std::string::npos) mask |= 1u << SEG_IN1;
                    if (name.find("IN2") != std::string::npos) mask |= 1u << SEG_IN2;
                } else {
                    mask |= 1u << SEG_MONASTERY;
                }
                out[f] = mask;
            }
        }
    }
    return segments;
}

}  // namespace carc
