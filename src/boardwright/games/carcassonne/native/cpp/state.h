// One Carcassonne position and its turn flow (state.py), with the Abbey & Mayor capabilities
// (capabilities/*.py) as plain branches on the game's data. Actions are the game's stable
// integer ids; the Python side turns them into action objects.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "graph.h"
#include "tiles.h"
#include "vec.h"

namespace carc {

// CHANCE: a state in chance mode (`explicit_chance`) waits for the tile of a draw
// (`apply_chance`); no seat decides.
enum Phase : uint8_t {
    PLACE = 0, DEPLOY = 1, OVER = 2, CHOOSE = 3, FINAL_ROUND = 4, WAGON_MOVE = 5, CHANCE = 6
};

// `current_player()` at a chance node: core/chance.py's CHANCE (a finished game gives -1).
constexpr int CHANCE_PLAYER = -2;

// Log entry: a scoring (state.py add_points).
enum FeatureName : uint8_t { F_CITY = 0, F_ROAD = 1, F_FIELD = 2, F_MONASTERY = 3, F_BARN = 4 };
enum Reason : uint8_t { R_NONE = 0, R_BARN_PLACED = 1, R_BARN_JOINED = 2 };

struct LogEntry {
    int16_t turn;
    uint8_t feature;
    bool complete;
    int32_t points;
    uint8_t players;   // bit mask of the seats paid
    uint8_t reason;
};

struct Occupant {
    int16_t part;
    int8_t seat;
    int8_t figure;
};

struct WagonEntry {
    int8_t seat;
    int32_t pos;
    int16_t root;
};

struct Barn {
    int32_t point;
    int8_t seat;
    int16_t part;   // the field part at the point
};

// A decoded action id.
enum ActionKind : uint8_t { A_PLACE, A_DEPLOY, A_ABBEY, A_DRAW, A_PASS };
struct Decoded {
    ActionKind kind;
    int32_t x = 0, y = 0;
    int quarter = 0, location = 0, figure = 0;
};

// A cache that copies as empty: a clone computes its legal actions when asked, and holds no
// memory for them until then.
struct LegalCache {
    Vec<int64_t> ids;
    bool valid = false;

    LegalCache() = default;
    LegalCache(const LegalCache&) {}
    LegalCache& operator=(const LegalCache&) {
        valid = false;
        return *this;
    }
};

struct State {
    const GameData* data = nullptr;
    Graph graph;
    Vec<uint8_t> pile;        // drawn from the end
    Vec<uint8_t> discarded;
    int tile = -1;
    Phase phase = PLACE;
    int turn_player = 0, actor = 0;
    int32_t last_pos = 0;
    bool has_last_pos = false;
    Vec<int> pending;
    Vec<int32_t> scores;
    Vec<int16_t> supply;      // seat * nfig + figure
    Vec<int16_t> abbeys_left; // per seat
    Vec<Occupant> occupant;   // in the order figures were put (a dict in state.py)
    Vec<int32_t> history;     // action ids (every id of a game is below 2**31)
    Vec<LogEntry> log;
    int turn = 0;
    Vec<WagonEntry> wagon_queue;
    bool final_round_on = false;
    Vec<int8_t> final_round;
    Vec<Barn> barns;          // in placement order
    bool has_new_barn = false;
    int32_t new_barn = 0;
    // Chance mode (CarcassonneGame.new_chance_game(native=True)): the pile is unordered and each
    // draw with more than one tile type left stops at a CHANCE node instead of popping the pile;
    // `chance_discarded` keeps the draw's "a tile was discarded" across the stop.
    bool explicit_chance = false;
    bool chance_discarded = false;
    // Legal action ids of this position, computed on demand (a copy starts without them).
    LegalCache legal;

    void setup(const GameData* d, Vec<uint8_t> pile_from_end, bool chance_mode = false);
    size_t memory_bytes() const;  // the state and everything it owns
    std::vector<std::pair<const char*, size_t>> memory_items() const;  // memory_bytes by part

    // The protocol.
    int current_player() const {
        return phase == OVER ? -1 : phase == CHANCE ? CHANCE_PLAYER : actor;
    }
    bool is_terminal() const { return phase == OVER; }
    bool at_turn_start() const;
    const Vec<int64_t>& legal_ids();
    bool is_legal_id(int64_t id);
    void apply_id(int64_t id);  // the id must be legal

    // Chance mode. At a CHANCE node: the tile types left in the pile and how many of each
    // (type index ascending, counts > 0; the probability of a type is count / pile size).
    void chance_outcomes(std::vector<std::pair<int, int>>& out) const;
    // Whether `type` can be drawn now (a CHANCE node and a tile of that type in the pile).
    bool chance_possible(int type) const;
    // Draw a tile of `type` (chance_possible must hold): as CarcassonneState._chance_draw, the
    // last tile of that type in the pile is swapped to the top and the draw goes on from there
    // (placed, or discarded and drawn again: possibly another CHANCE node).
    void apply_chance(int type);

    // Action ids.
    int64_t position_index(int32_t x, int32_t y) const {
        return static_cast<int64_t>(x + data->radius) * data->width + (y + data->radius);
    }
    int64_t place_id(int32_t pos, int quarter) const {
        return position_index(unpack_x(pos), unpack_y(pos)) * 4 + quarter;
    }
    int64_t deploy_id(int32_t pos, int location, int figure) const;
    int64_t abbey_id(int32_t pos) const {
        return data->abbey_base + position_index(unpack_x(pos), unpack_y(pos));
    }
    Decoded decode(int64_t id) const;

    // Queries used by bindings and the heuristic.
    int completed_cities(int field_root);
    bool field_has_barn(int root);
    int supply_of(int seat, int figure) const {
        return supply[static_cast<size_t>(seat) * data->figure_names.size() + figure];
    }
    int16_t& supply_ref(int seat, int figure) {
        return supply[static_cast<size_t>(seat) * data->figure_names.size() + figure];
    }
    void holes(std::vector<int32_t>& out) const;
    bool has_hole() const;  // whether holes() has any (without listing them)
    void wagon_targets(std::vector<int>& parts);
    void feature_parts(int root, std::vector<int>& out);
    int barn_field_part(int32_t point) const;

    // Turn flow (state.py).
    void put_tile(int32_t pos, int type, int quarter);
    void put_figure(int seat, int figure, int part);
    void finish_turn();
    void resume_turn();
    void advance();
    void start_turn();
    void draw();
    void draw_on(bool discarded_now);  // the loop of draw(), from a draw already under way
    bool take_top();                   // pop the top tile: to place (true) or discarded (false)
    bool stop_for_chance(bool discarded_now);  // chance mode: a CHANCE node if > 1 type left
    void final_scoring();
    void score_feature(int root, bool complete);
    void score_field(int root, int points_per_city, Reason reason);
    void add_points(uint8_t winners, int points, FeatureName feature, bool complete,
                    Reason reason = R_NONE);
    uint8_t majority(const int* parts, size_t nparts, int root, bool use_strength);
    uint8_t majority(const std::vector<int>& parts, int root, bool use_strength) {
        return majority(parts.data(), parts.size(), root, use_strength);
    }
    bool open_next_final();
    void barn_after_scoring();
    void barn_final_scoring();
    int free_barn_point(int corner, int32_t& point);

   private:
    void deploy_actions(Vec<int64_t>& out);
    void linked_parts(int part, std::vector<int>& out);
};

}  // namespace carc
