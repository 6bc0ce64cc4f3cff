// Static data of a configured Carcassonne game: tile geometry (read by the Python side from the
// same data files and handed over once per game), figure rules and the action-id layout.
// Everything here is immutable and shared by all states of a game.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace carc {

// Feature kinds and side types, as in tiles.py.
enum Kind : uint8_t { CITY = 0, ROAD = 1, FIELD = 2, MONASTERY = 3 };
enum SideType : uint8_t { NO_SIDE = 0, CITY_SIDE = 1, ROAD_SIDE = 2, FIELD_SIDE = 3 };

// Packed board positions: x * STRIDE + y, as in actions.py (the order of sorted positions
// matters: barn points are paid in that order).
constexpr int32_t STRIDE = 1024;
constexpr int32_t HALF_STRIDE = 512;
inline int32_t pack(int32_t x, int32_t y) { return x * STRIDE + y; }
inline int32_t unpack_x(int32_t pos) {
    return (pos + HALF_STRIDE) >> 10;  // floor division by STRIDE, as Python's divmod
}
inline int32_t unpack_y(int32_t pos) { return pos - unpack_x(pos) * STRIDE; }
static_assert(STRIDE == 1 << 10, "unpack_x shifts by log2(STRIDE)");
static_assert((-1 >> 1) == -1, "signed right shift is arithmetic");

constexpr std::array<int32_t, 4> SIDE_OFFSET = {-1, STRIDE, 1, -STRIDE};
constexpr std::array<int32_t, 8> SURROUNDING = {-STRIDE - 1, -1, STRIDE - 1, -STRIDE,
                                                STRIDE,      -STRIDE + 1, 1, STRIDE + 1};
// SURROUNDING's index of each side's cell (SIDE_OFFSET[s] == SURROUNDING[SIDE_IN_SURROUNDING[s]]).
constexpr std::array<int, 4> SIDE_IN_SURROUNDING = {1, 4, 6, 3};
static_assert(SURROUNDING[1] == SIDE_OFFSET[0] && SURROUNDING[4] == SIDE_OFFSET[1] &&
              SURROUNDING[6] == SIDE_OFFSET[2] && SURROUNDING[3] == SIDE_OFFSET[3],
              "SIDE_IN_SURROUNDING follows both tables");

// Division of a non-negative number by a divisor fixed once per game, as a product: an integer
// division costs tens of cycles, and decoding an action id took up to four of them.
// q = x * m >> 32 with m = ceil(2**32 / d) is exact for 0 <= x < 2**32 / d: with
// e = m * d - 2**32 < d, x * m / 2**32 = x / d + x * e / (d * 2**32), and x * e < 2**32 keeps
// the floor. Other numbers (none that an action id gives) are divided.
struct FastDiv {
    int64_t d = 1;
    uint64_t m = 1ull << 32, limit = 1ull << 32;
    void set(int64_t divisor) {
        d = divisor;
        m = ((1ull << 32) + static_cast<uint64_t>(d) - 1) / static_cast<uint64_t>(d);
        limit = (1ull << 32) / static_cast<uint64_t>(d);
    }
    int64_t quotient(int64_t x) const {
        if (x >= 0 && static_cast<uint64_t>(x) < limit)
            return static_cast<int64_t>((static_cast<uint64_t>(x) * m) >> 32);
        return x / d;
    }
};

struct FeatureDef {
    uint8_t kind = FIELD;
    uint8_t pennants = 0;
    uint8_t nsides = 0;                 // city/road: sides it reaches
    std::vector<uint8_t> sides;         // city/road side indexes (sorted)
    std::vector<uint8_t> borders;       // field: local indexes of bordered cities
    int32_t location = -1;              // index into the game's sorted location names
};

struct VariantDef {
    std::vector<FeatureDef> features;
    std::array<uint8_t, 4> side_types{};
    std::array<int8_t, 4> side_feature{};
    std::array<int8_t, 8> half_feature{};
    int8_t monastery = -1;
    uint8_t field_corners = 0;          // bit c set: corner c (NW, NE, SE, SW) is a field corner
    bool abbey = false;
    std::vector<std::pair<uint8_t, uint8_t>> links;  // first-edition within-tile links
};

struct TileDef {
    std::string name;
    bool abbey = false;
    std::array<VariantDef, 4> variants;
    std::array<uint8_t, 4> canonical{};
    std::array<uint8_t, 256> fits{};    // frontier pattern -> bit mask of fitting distinct turns
    bool multi = false;                 // two or more parts of one kind (road or city)
};

// A kind of figure placed on features like a follower (follower, mayor, wagon).
struct FigureRule {
    int figure = 0;                     // index into the game's figure names
    uint8_t kinds = 0;                  // bit k set: may stand on kind k
    bool pennant_strength = false;      // the mayor: strength = the city's pennants
};

enum AbbeyEnd : uint8_t { END_MANDATORY = 0, END_NONE = 1, END_VOLUNTARY = 2 };

// Everything a state needs from its game; built once per game object.
struct GameData {
    int players = 2;
    int starting_seat = 0;
    bool small_city_first_edition = false;
    std::vector<TileDef> tiles;
    int start_tile = 0;
    int abbey_tile = -1;                // tile index of the abbey, -1 without abbeys
    // Figures: names in the game's order (follower, mayor, wagon, barn as configured).
    std::vector<std::string> figure_names;
    std::vector<FigureRule> figure_rules;   // in the order deploy actions are offered
    std::vector<int> supply;                 // per figure: pieces each player starts with
    int fig_follower = 0, fig_mayor = -1, fig_wagon = -1, fig_barn = -1;
    // Capabilities (zero / off when not configured).
    int abbeys = 0;
    AbbeyEnd abbey_end = END_MANDATORY;
    bool wagon_connected = false, wagon_traverse = false;
    // Action ids (CarcassonneGame._build_action_space).
    int radius = 0, width = 1;
    int64_t deploy_base = 0, abbey_base = 0, draw_id = 0, pass_id = 0;
    int nlocations = 0;
    FastDiv by_width, by_locations, by_figures;  // set with width, nlocations, figure_names
    std::vector<std::string> locations;      // sorted location names
    std::array<int32_t, 4> corner_location{};  // location ids of NW, NE, SE, SW
};

}  // namespace carc
