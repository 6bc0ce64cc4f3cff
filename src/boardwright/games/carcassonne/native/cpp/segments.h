// The 15 segments of a tile a feature part covers (segments.py): the observation draws
// figures and features on them, the learned value counts what each seat holds on them.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "state.h"

namespace carc {

constexpr int SEGMENTS = 15;
constexpr int SEG_IN1 = 12, SEG_IN2 = 13, SEG_MONASTERY = 14;

// [tile type][quarter][local feature] -> bit g set: the part covers segment g
using SegmentMasks = std::vector<std::array<std::vector<uint16_t>, 4>>;
SegmentMasks segment_masks(const GameData& data);

}  // namespace carc
