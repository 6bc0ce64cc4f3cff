// The lossless observation of a position (docs/research/carcassonne-observation.md) and the
// learning action ids of its legal actions (learning_space.py), written in compiled code.
//
// The layout (which plane and which scalar holds what) is not decided here: the Python encoder
// owns it and hands its block offsets over once per game (ObsSpec), so the two writers cannot
// drift apart silently; a differential test compares their bytes.
//
// A position's observation can be written whole (write_full) or kept up to date as actions are
// applied (ObsTracker): only the cells of the features an action touched are written again, so
// the cost of a step follows what changed, not the size of the board.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "segments.h"
#include "state.h"

namespace carc {

// An allocator whose vectors leave the elements a resize adds unwritten: a list of ids sized
// for what it may hold is then filled without writing zeros first.
template <typename T>
struct NoInitAllocator : std::allocator<T> {
    template <typename U>
    struct rebind {
        using other = NoInitAllocator<U>;
    };
    NoInitAllocator() = default;
    template <typename U>
    NoInitAllocator(const NoInitAllocator<U>&) noexcept {}
    template <typename U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible<U>::value) {
        ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};
// The legal actions of a position, as learning ids or stable ids.
using IdList = std::vector<int64_t, NoInitAllocator<int64_t>>;

constexpr int NSEGMENTS = 15;  // N E S W, NL..WR, IN1 IN2, MONASTERY

// The learning action space's numbering (learning_space.py), read once per game.
struct ActionMap {
    int size = 0;                      // number of learning ids
    int radius = 15, width = 31;       // the window (the observation's)
    int place = 0, abbey = -1, wagon = -1, deploy = 0, draw = -1, pass = 0, overflow = 0;
    int overflow_slots = 0;
    int stable_width = 1, shift = 0;   // stable cell layout: x index - window x index
    int nfig = 1, nloc = 1;
    FastDiv by_fig, by_loc;            // set with nfig and nloc
    std::vector<int> location_anchor;  // stable location -> anchor index (0..18)
    std::vector<int> location_wagon;   // stable location -> wagon anchor (0..4) or -1

    // Division by stable_width as a product, ceil(2**42 / width): exact for cells below 2**20
    // (every stable cell: positions lie within 512 of the start) and widths up to 2**12,
    // since cell * (factor * width - 2**42) < 2**42. set_stable_width sets both.
    static constexpr int ROW_SHIFT = 42;
    uint64_t row_factor = 1ull << ROW_SHIFT;  // 0: divide
    void set_stable_width(int w) {
        stable_width = w;
        row_factor = w >= 1 && w <= (1 << 12)
            ? ((1ull << ROW_SHIFT) + static_cast<uint64_t>(w) - 1) / static_cast<uint64_t>(w) : 0;
    }
    int64_t stable_row(int64_t stable_cell) const {
        if (row_factor && stable_cell >= 0 && stable_cell < (1 << 20))
            return static_cast<int64_t>((static_cast<uint64_t>(stable_cell) * row_factor) >> ROW_SHIFT);
        return stable_cell / stable_width;
    }
    // The window cell ((x + R) * W + y + R) of a position's coordinates, or -1 outside it.
    int window_cell_at(int32_t x, int32_t y) const {
        const int32_t wx = x + radius, wy = y + radius;
        if ((static_cast<uint32_t>(wx) >= static_cast<uint32_t>(width)) |
            (static_cast<uint32_t>(wy) >= static_cast<uint32_t>(width)))
            return -1;
        return wx * width + wy;
    }
    // The window cell ((x + R) * W + y + R) of a stable cell index, or -1 outside the window.
    int window_cell(int64_t stable_cell) const {
        const int64_t row = stable_row(stable_cell);
        const int64_t x = row - shift, y = stable_cell - row * stable_width - shift;
        if (x < 0 || x >= width || y < 0 || y >= width) return -1;
        return static_cast<int>(x * width + y);
    }
};

// Where each block of the observation lies (first plane / first scalar; -1 when the options
// leave the block out) and the constants of one configured game.
struct ObsSpec {
    const GameData* data = nullptr;
    ActionMap actions;
    int planes = 0, radius = 15, width = 31, scalars = 0, players = 2;
    int p_tile = -1, p_rotation = -1, p_edge = -1, p_monastery = -1, p_abbey = -1,
        p_pennant = -1, p_figure = -1, p_figure_kind = -1, p_barn = -1, p_complete = -1,
        p_holders = -1, p_wagon_left = -1, p_last = -1, p_place = -1, p_hole = -1;
    int s_scores = -1, s_supply = -1, s_tile = -1, s_remaining = -1, s_pile = -1,
        s_phase = -1, s_turn_player = -1, s_to_move = -1, s_final_round = -1, s_outside = -1,
        s_options = -1;
    std::vector<int> supply_figure;    // per supply entry: native figure index, -1 = abbeys
    std::vector<int> figure_kind;      // native figure index -> figure_kind plane group (-1: none)
    int kinds = 1;                     // figure kinds that stand on features
    std::vector<int16_t> options;      // the options scalars, as given
    // [tile type][quarter][local feature] -> bit g set: the part covers segment g
    SegmentMasks segments;
    std::vector<uint8_t> pennant;      // per tile type: it holds a pennant

    void build_segments();             // from data (after data and the offsets are set)
    size_t plane_size() const { return static_cast<size_t>(width) * width; }
    size_t board_size() const { return plane_size() * planes; }
    // The board's order in memory: plane after plane (channels first, C x W x W), or each
    // cell's planes side by side (channels last, W x W x C: what a step writes at a cell lies
    // in two cache lines instead of one line per plane, which the vector env's boards, too
    // large for the cache, pay for). Set by set_order once `planes` and `width` are.
    size_t plane_stride = 31 * 31;     // between a cell's planes (C order at the default width)
    int64_t cell_stride = 1;           // between cells (cell index = x * width + y)
    void set_order(bool channels_last) {
        plane_stride = channels_last ? 1 : plane_size();
        cell_stride = channels_last ? planes : 1;
    }
    bool channels_last() const { return plane_stride == 1 && plane_size() > 1; }
    int64_t cell_offset(int64_t cell) const { return cell * cell_stride; }
    // The board offset of a position's cell, or -1 outside the window.
    int64_t cell_of(int32_t pos) const {
        const int32_t x = unpack_x(pos) + radius, y = unpack_y(pos) + radius;
        if (x < 0 || x >= width || y < 0 || y >= width) return -1;
        return cell_offset(static_cast<int64_t>(x) * width + y);
    }
};

// The legal actions of a position as learning ids, with the stable id of each (same order,
// sorted by learning id as learning_space.from_stable sorts them).
void learning_ids(State& st, const ActionMap& map, IdList& lids,
                  IdList& sids);

// The same pairs in the order of st.legal_ids() (not sorted: for callers that need only the
// set, such as a mask). False when a move lies outside the window: the overflow slots are
// numbered in sorted order, so learning_ids must be asked.
bool learning_ids_unsorted(State& st, const ActionMap& map, IdList& lids,
                           IdList& sids);

// Keeps one position's observation (for one viewer) current in a caller's buffers.
class ObsTracker {
   public:
    // How write_full finds the board: to be cleared (WHOLE), to be cleared by streaming stores
    // (COLD: out of the cache, and the caller does not read it back at once), or all zeros
    // already (CLEAN: after `erase`).
    enum Clear : uint8_t { WHOLE, COLD, CLEAN };
    // Everything written again from the position.
    void write_full(State& st, const ObsSpec& spec, int viewer, uint8_t* board, int16_t* scalars,
                    const IdList& lids, Clear clear = WHOLE);
    // Zeroes what the board shows of `st`, which this tracker wrote last: the planes of every
    // tile's cell and the marks (channels last: a cell's planes are one run of bytes).
    void erase(const State& st, const ObsSpec& spec, uint8_t* board);
    // Around every action applied to the tracked position: `before`, apply, `noted`; then
    // `after` once the actions of a step are applied, to write what they changed.
    void before(const State& st);
    void noted(const State& st);
    void after(State& st, const ObsSpec& spec, int viewer, uint8_t* board, int16_t* scalars,
               const IdList& lids);
    int viewer() const { return viewer_; }
    // Asks the cache for what the next `after` reads and writes first (the marks it clears and
    // what each part shows), while the caller works on another game.
    void prefetch(const uint8_t* board) const;

   private:
    void clear_marks(uint8_t* board);  // the per-step marks set last, zeroed
    void write_tile(const State& st, const ObsSpec& spec, int index, uint8_t* board);
    void write_roots(State& st, const ObsSpec& spec, uint8_t* board);
    void write_marks(State& st, const ObsSpec& spec, uint8_t* board,
                     const IdList& lids);
    void write_scalars(const State& st, const ObsSpec& spec, int16_t* scalars);
    void count_pile(const State& st, int ntypes);
    void rotate_seats(const State& st, const ObsSpec& spec, int from, int to,
                      uint8_t* board) const;

    int viewer_ = 0;
    size_t tiles_seen_ = 0;                  // tiles written on the board
    size_t tiles_pending_ = 0;               // tiles whose features are noted dirty
    int outside_ = 0;
    std::vector<Occupant> occupants_;        // before the action
    std::vector<int> dirty_parts_;           // parts whose feature must be written again
    std::vector<int> forced_parts_;          // parts whose own figure changed (or new parts)
    // Per part: what its cells show of its feature (complete, figures per absolute seat),
    // packed, or NEVER (its cells hold zeros): a part whose feature still shows the same is
    // not written again.
    std::vector<uint64_t> written_;
    static constexpr uint64_t NEVER = ~0ull;
    // write_roots' buffers, kept from call to call.
    std::vector<uint64_t> dirty_roots_;      // root << 32 | dirty part
    std::vector<int> figs_;
    std::vector<int64_t> marks_;             // board offsets of the per-step marks set last
    // The pile written last and its tiles per type: a step draws from its end, so the counts
    // are kept by taking off what left rather than counted again (count_pile).
    std::vector<uint8_t> pile_;
    std::vector<int16_t> pile_counts_;
};

}  // namespace carc
