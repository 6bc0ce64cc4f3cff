// The observation writer and the learning ids (obs.h).
#include "obs.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace carc {

namespace {

// Zeros over a board that has left the cache and is not read back at once (a vector env's game
// that starts again): streaming stores write its lines without reading them in first, and
// without pushing the games stepped next out of the cache. Measured in the vector env: 2.5 to
// 6% more steps a second, also when the caller reads every board between steps.
void clear_cold(uint8_t* board, size_t size) {
#if defined(__SSE2__)
    uint8_t* const end = board + size;
    // Up to the first 16-byte boundary, then whole 16-byte stores, then the rest.
    const size_t head = std::min(size, (16 - (reinterpret_cast<uintptr_t>(board) & 15)) & 15);
    std::memset(board, 0, head);
    uint8_t* p = board + head;
    const __m128i zero = _mm_setzero_si128();
    // A whole line per round (a loop of single stores spent a twentieth of a step's instructions
    // on its own counting, measured under callgrind), then the last few 16-byte stores.
    for (; end - p >= 64; p += 64) {
        _mm_stream_si128(reinterpret_cast<__m128i*>(p), zero);
        _mm_stream_si128(reinterpret_cast<__m128i*>(p + 16), zero);
        _mm_stream_si128(reinterpret_cast<__m128i*>(p + 32), zero);
        _mm_stream_si128(reinterpret_cast<__m128i*>(p + 48), zero);
    }
    for (; end - p >= 16; p += 16) _mm_stream_si128(reinterpret_cast<__m128i*>(p), zero);
    _mm_sfence();
    std::memset(p, 0, static_cast<size_t>(end - p));
#else
    std::memset(board, 0, size);
#endif
}

// The four cells around a placed tile and the four corners: a monastery there may be completed.
constexpr int32_t AROUND[8] = {-STRIDE - 1, -1, STRIDE - 1, -STRIDE,
                               STRIDE,      -STRIDE + 1, 1, STRIDE + 1};

// The seat relative to the viewer (both in 0..n-1).
inline int rel(int seat, int viewer, int n) { return seat >= viewer ? seat - viewer : seat - viewer + n; }

}  // namespace

// -- the layout's constants ---------------------------------------------------------------

void ObsSpec::build_segments() {
    segments = segment_masks(*data);
    pennant.assign(data->tiles.size(), 0);
    for (size_t t = 0; t < data->tiles.size(); ++t)
        for (const FeatureDef& def : data->tiles[t].variants[0].features)
            if (def.kind == CITY && def.pennants) pennant[t] = 1;
}

// -- learning ids (learning_space.from_stable) --------------------------------------------

// The learning id of a move's stable id `s` (a place, deploy, wagon move or abbey; not a draw
// or a pass), the moves being of the kind told by the smallest of them (`first`); -1 when it
// lies outside the window (an overflow slot).
static inline int64_t move_learning_id(int64_t s, int64_t first, bool wagon_move,
                                       const GameData& d, const ActionMap& map) {
    if (first < d.deploy_base) {  // places: cell * 4 + quarter
        const int cell = map.window_cell(s >> 2);
        return cell >= 0 ? map.place + static_cast<int64_t>(cell) * 4 + (s & 3) : -1;
    }
    if (first < d.abbey_base) {
        const int64_t rest = s - d.deploy_base;
        const int64_t cell_location = map.by_fig.quotient(rest), figure = rest - cell_location * map.nfig;
        const int64_t stable_cell = map.by_loc.quotient(cell_location),
                      location = cell_location - stable_cell * map.nloc;
        if (!wagon_move) return map.deploy + figure * 19 + map.location_anchor[location];
        const int channel = map.location_wagon[location];
        const int cell = map.window_cell(stable_cell);
        return cell >= 0 && channel >= 0 ? map.wagon + static_cast<int64_t>(cell) * 5 + channel : -1;
    }
    const int cell = map.window_cell(s - d.abbey_base);
    return cell >= 0 ? map.abbey + cell : -1;
}

void learning_ids(State& st, const ActionMap& map, IdList& lids,
                  IdList& sids) {
    lids.clear();
    sids.clear();
    if (st.is_terminal()) return;
    const GameData& d = *st.data;
    const Vec<int64_t>& legal = st.legal_ids();
    sids.assign(legal.begin(), legal.end());
    std::sort(sids.begin(), sids.end());
    const size_t n = sids.size();
    size_t moves = n;
    while (moves && sids[moves - 1] >= d.draw_id) --moves;
    lids.resize(n);
    for (size_t k = moves; k < n; ++k) lids[k] = sids[k] == d.pass_id ? map.pass : map.draw;
    if (!moves) return;
    bool in_order = true;
    static thread_local std::vector<size_t> outside, order;
    static thread_local IdList l2, s2;
    outside.clear();
    const int64_t first = sids[0];
    const bool wagon_move = st.phase == WAGON_MOVE;
    if (first >= d.deploy_base && first < d.abbey_base) in_order = false;  // figures, wagons
    for (size_t k = 0; k < moves; ++k) {
        const int64_t id = move_learning_id(sids[k], first, wagon_move, d, map);
        if (id < 0) outside.push_back(k);
        lids[k] = id;
    }
    if (!outside.empty()) {
        in_order = false;
        if (static_cast<int>(outside.size()) > map.overflow_slots)
            throw std::runtime_error("more moves outside the window than overflow slots");
        for (size_t r = 0; r < outside.size(); ++r) lids[outside[r]] = map.overflow + static_cast<int64_t>(r);
    }
    if (!in_order || !std::is_sorted(lids.begin(), lids.end())) {
        order.resize(n);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&lids](size_t a, size_t b) { return lids[a] < lids[b]; });
        l2.resize(n);
        s2.resize(n);
        for (size_t k = 0; k < n; ++k) {
            l2[k] = lids[order[k]];
            s2[k] = sids[order[k]];
        }
        lids.swap(l2);
        sids.swap(s2);
    }
}

bool learning_ids_unsorted(State& st, const ActionMap& map, IdList& lids,
                           IdList& sids) {
    lids.clear();
    sids.clear();
    if (st.is_terminal()) return true;
    const GameData& d = *st.data;
    if (st.phase == PLACE) {  // straight from the frontier, as legal_ids lists them
        // The fitting slots gathered without a branch on the board (gather_fitting), then
        // each writes four pairs (its turns, then whatever) where the list ends, which grows
        // by its turns.
        const TileDef& t = d.tiles[st.tile];
        const Frontier& f = st.graph.frontier;
        const size_t nslots = f.pos.size();
        constexpr size_t CHUNK = Frontier::GATHER_CHUNK;
        uint16_t slot[CHUNK];
        size_t out = 0;
        for (size_t start = 0; start < nslots; start += CHUNK) {
            const size_t end = std::min(nslots, start + CHUNK);
            uint32_t turns = 0;
            const size_t nfit = f.gather_fitting(t.fits, start, end, slot, turns);
            lids.resize(out + turns + 4);
            sids.resize(out + turns + 4);
            for (size_t k = 0; k < nfit; ++k) {
                const size_t i = start + slot[k];
                const unsigned fits = f.fitting(t.fits, i);
                const int32_t x = unpack_x(f.pos[i]), y = unpack_y(f.pos[i]);
                const int64_t base = st.position_index(x, y) * 4;
                const int cell = map.window_cell_at(x, y);
                if (cell < 0) return false;  // an overflow slot: numbered in sorted order
                const int64_t lbase = map.place + static_cast<int64_t>(cell) * 4;
                const uint32_t list = turn_list(fits);
                for (int q = 0; q < 4; ++q) {
                    const int turn = static_cast<int>((list >> (8 * q)) & 0xffu);
                    sids[out + q] = base + turn;
                    lids[out + q] = lbase + turn;
                }
                out += turns_in(fits);
            }
            lids.resize(out);
            sids.resize(out);
        }
        return true;
    }
    const Vec<int64_t>& legal = st.legal_ids();
    const size_t n = legal.size();
    sids.assign(legal.begin(), legal.end());
    lids.resize(n);
    // The moves are of one kind, told (as learning_ids does) by the smallest of them.
    int64_t first = d.draw_id;
    for (size_t k = 0; k < n; ++k) first = std::min(first, sids[k]);
    const bool wagon_move = st.phase == WAGON_MOVE;
    for (size_t k = 0; k < n; ++k) {
        const int64_t s = sids[k];
        const int64_t id = s >= d.draw_id ? (s == d.pass_id ? map.pass : map.draw)
                                          : move_learning_id(s, first, wagon_move, d, map);
        if (id < 0) return false;  // an overflow slot: numbered in sorted order
        lids[k] = id;
    }
    return true;
}

// -- the tracker ----------------------------------------------------------------------------

void ObsTracker::write_full(State& st, const ObsSpec& spec, int viewer, uint8_t* board,
                            int16_t* scalars, const IdList& lids, Clear clear) {
    if (clear == COLD) clear_cold(board, spec.board_size());
    else if (clear == WHOLE) std::memset(board, 0, spec.board_size());
    viewer_ = viewer;
    tiles_seen_ = 0;
    outside_ = 0;
    marks_.clear();
    dirty_parts_.clear();
    forced_parts_.clear();
    written_.assign(st.graph.nparts(), NEVER);
    for (int p = 0; p < st.graph.nparts(); ++p) dirty_parts_.push_back(p);
    for (size_t i = 0; i < st.graph.tiles.size(); ++i) write_tile(st, spec, static_cast<int>(i), board);
    tiles_seen_ = tiles_pending_ = st.graph.tiles.size();
    write_roots(st, spec, board);
    write_marks(st, spec, board, lids);
    write_scalars(st, spec, scalars);
}

void ObsTracker::clear_marks(uint8_t* board) {
    for (int64_t at : marks_) board[at] = 0;
    marks_.clear();
}

void ObsTracker::erase(const State& st, const ObsSpec& spec, uint8_t* board) {
    clear_marks(board);
    const size_t planes = static_cast<size_t>(spec.planes);
    for (size_t i = 0; i < tiles_seen_; ++i) {
        const int64_t cell = spec.cell_of(st.graph.tiles[i].pos);
        if (cell >= 0) std::memset(board + cell, 0, planes);
    }
}

void ObsTracker::before(const State& st) {
    occupants_.assign(st.occupant.begin(), st.occupant.end());
}

void ObsTracker::noted(const State& st) {
    // Figures that came or went: their parts' features are written again. The lists before
    // and after share a start and an end (a figure put down is added at the end, figures
    // taken back leave from anywhere); what lies between, in either list, is written again,
    // which may include a figure that only moved in the list (written again as it stands).
    // Two scans, instead of looking each figure up in the other list.
    auto word = [](const Occupant& o) {
        uint32_t w;
        std::memcpy(&w, &o, sizeof w);
        return w;
    };
    static_assert(sizeof(Occupant) == sizeof(uint32_t), "an occupant compares as one word");
    const size_t nbefore = occupants_.size(), nafter = st.occupant.size();
    const bool unchanged = nbefore == nafter &&  // (most actions move no figure)
        (nbefore == 0 || std::memcmp(occupants_.data(), st.occupant.data(), sizeof(Occupant) * nbefore) == 0);
    if (!unchanged) {
        const size_t both = std::min(nbefore, nafter);
        size_t head = 0, tail = 0;
        while (head < both && word(occupants_[head]) == word(st.occupant[head])) ++head;
        while (tail < both - head &&
               word(occupants_[nbefore - 1 - tail]) == word(st.occupant[nafter - 1 - tail]))
            ++tail;
        for (size_t k = head; k < nbefore - tail; ++k) {
            dirty_parts_.push_back(occupants_[k].part);
            forced_parts_.push_back(occupants_[k].part);
        }
        for (size_t k = head; k < nafter - tail; ++k) {
            dirty_parts_.push_back(st.occupant[k].part);
            forced_parts_.push_back(st.occupant[k].part);
        }
    }
    // New tiles: their parts, and the monasteries around them (one of them may be complete).
    const Graph& g = st.graph;
    // One new tile (every apply lays at most one) is the last add_tile laid, which noted what
    // it touched around it; several are walked around.
    const bool one_new = g.tiles.size() == tiles_pending_ + 1;
    for (size_t i = tiles_pending_; i < g.tiles.size(); ++i) {
        const PlacedTile& t = g.tiles[i];
        const int nparts = static_cast<int>(g.variant_of(t).features.size());
        for (int p = 0; p < nparts; ++p) dirty_parts_.push_back(t.base + p);
        if (one_new) {
            for (int k = 0; k < g.ntouched_around; ++k) dirty_parts_.push_back(g.touched_around[k]);
            continue;
        }
        // What faces it (an abbey closes what faces it without joining it) and the monasteries
        // around it.
        for (int side = 0; side < 4; ++side) {
            const int idx = g.board.get(t.pos + SIDE_OFFSET[side]);
            if (idx < 0) continue;
            const PlacedTile& nt = g.tiles[idx];
            const VariantDef& nv = g.variant_of(nt);
            const int opposite = (side + 2) & 3;
            const int facing = nv.side_feature[opposite];
            if (facing >= 0) dirty_parts_.push_back(nt.base + facing);
            // The fields across the side: with the facing part, each feature the tile may have
            // joined has a part here, which tells what that feature showed (write_roots).
            for (int h = 2 * opposite; h < 2 * opposite + 2; ++h)
                if (nv.half_feature[h] >= 0) dirty_parts_.push_back(nt.base + nv.half_feature[h]);
        }
        for (int32_t delta : AROUND) {
            const int idx = g.board.get(t.pos + delta);
            if (idx < 0) continue;
            const PlacedTile& nt = g.tiles[idx];
            const int m = g.variant_of(nt).monastery;
            if (m >= 0) dirty_parts_.push_back(nt.base + m);
        }
    }
    tiles_pending_ = g.tiles.size();
}

void ObsTracker::after(State& st, const ObsSpec& spec, int viewer, uint8_t* board,
                       int16_t* scalars, const IdList& lids) {
    clear_marks(board);
    if (viewer != viewer_) {
        rotate_seats(st, spec, viewer_, viewer, board);
        viewer_ = viewer;
    }
    for (size_t i = tiles_seen_; i < st.graph.tiles.size(); ++i) write_tile(st, spec, static_cast<int>(i), board);
    tiles_seen_ = st.graph.tiles.size();
    tiles_pending_ = tiles_seen_;
    write_roots(st, spec, board);
    write_marks(st, spec, board, lids);
    write_scalars(st, spec, scalars);
}

void ObsTracker::prefetch(const uint8_t* board) const {
    prefetch_bytes(this, sizeof(*this), true);
    for (int64_t at : marks_) __builtin_prefetch(board + at, 1, 3);
    prefetch_bytes(written_.data(), written_.size() * sizeof(uint64_t), false);
    prefetch_bytes(occupants_.data(), occupants_.size() * sizeof(Occupant), false);
    prefetch_bytes(pile_counts_.data(), pile_counts_.size() * sizeof(int16_t), true);
    if (!pile_.empty()) __builtin_prefetch(pile_.data() + pile_.size() - 1, 0, 3);
}

void ObsTracker::write_tile(const State& st, const ObsSpec& spec, int index, uint8_t* board) {
    const PlacedTile& t = st.graph.tiles[index];
    const int64_t cell = spec.cell_of(t.pos);
    if (cell < 0) {
        ++outside_;
        return;
    }
    const size_t ps = spec.plane_stride;
    const VariantDef& v = st.graph.variant_of(t);
    board[(spec.p_tile + t.type) * ps + cell] = 1;
    board[(spec.p_rotation + t.quarter) * ps + cell] = 1;
    for (int s = 0; s < 4; ++s) {
        const uint8_t type = v.side_types[s];
        if (type == NO_SIDE) continue;
        board[(spec.p_edge + 3 * s + (type - 1)) * ps + cell] = 1;
    }
    if (v.abbey) board[spec.p_abbey * ps + cell] = 1;
    else if (v.monastery >= 0) board[spec.p_monastery * ps + cell] = 1;
    if (spec.pennant[t.type]) board[spec.p_pennant * ps + cell] = 1;
}

void ObsTracker::write_roots(State& st, const ObsSpec& spec, uint8_t* board) {
    // Invariant (between steps): every part of a feature shows the same value (written_), the
    // feature's. A dirty feature is walked whole only when one of its dirty parts that was
    // written before shows another value than the feature's now: every feature joined into it
    // this step has such a part (a part facing a new tile), so otherwise only its new parts and
    // the parts whose own figure changed are written. A part is written plane by plane, only
    // where its cells change.
    if (dirty_parts_.empty()) return;
    Graph& g = st.graph;
    const int n = spec.players;
    const size_t ps = spec.plane_stride;
    while (written_.size() < static_cast<size_t>(g.nparts())) written_.push_back(NEVER);
    // The figure on a part: an index into the occupants (the last on it), or -1. Few figures
    // stand at once, and their list is read in one or two cache lines.
    const Occupant* occupants = st.occupant.data();
    const int noccupants = static_cast<int>(st.occupant.size());
    auto occupant_of = [occupants, noccupants](int part) {
        for (int i = noccupants - 1; i >= 0; --i)
            if (occupants[i].part == part) return i;
        return -1;
    };
    // Parts whose own figure changed: few, and usually none.
    auto is_forced = [this](int part) {
        return std::find(forced_parts_.begin(), forced_parts_.end(), part) != forced_parts_.end();
    };
    std::vector<uint64_t>& dirty = dirty_roots_;  // root << 32 | part, sorted
    std::vector<int>& figs = figs_;
    dirty.clear();
    for (int p : dirty_parts_)
        dirty.push_back(static_cast<uint64_t>(g.find(p)) << 32 | static_cast<uint32_t>(p));
    std::sort(dirty.begin(), dirty.end());
    dirty.erase(std::unique(dirty.begin(), dirty.end()), dirty.end());
    int counts[8];  // by absolute seat
    // Whether the feature being written holds figures: without, none of its parts has one and
    // the occupants need not be searched (most features hold none).
    bool root_figured = false;
    auto write_part = [&](int p, uint64_t value) {
        const uint64_t old = written_[p];
        const bool forced = !forced_parts_.empty() && is_forced(p);
        if (old == value && !forced) return;
        written_[p] = value;
        const PlacedTile& t = g.tiles[g.parts[p].tile];
        const int64_t cell = spec.cell_of(t.pos);
        if (cell < 0) return;
        // The planes that change (first plane of each 15-segment group or the plane itself)
        // and what they hold; cells never written hold zeros, so a fresh part writes only
        // what is set.
        int plane[64];
        uint8_t byte[64];
        int np = 0;
        const bool fresh = old == NEVER;
        const uint64_t changed = fresh ? value : old ^ value;
        if (changed & 1) {
            plane[np] = spec.p_complete;
            byte[np++] = static_cast<uint8_t>(value & 1);
        }
        for (int k = 0, seat = viewer_; k < n; ++k, seat = seat + 1 == n ? 0 : seat + 1) {
            if ((changed >> (1 + 8 * seat)) & 0xff) {
                plane[np] = spec.p_holders + NSEGMENTS * k;
                byte[np++] = static_cast<uint8_t>((value >> (1 + 8 * seat)) & 0xff);
            }
        }
        if (fresh || forced) {
            const int o = root_figured ? occupant_of(p) : -1;
            const int fig_seat = o >= 0 ? rel(st.occupant[o].seat, viewer_, n) : -1;
            const int fig_kind = o >= 0 ? spec.figure_kind[st.occupant[o].figure] : -1;
            if (fresh) {
                if (fig_seat >= 0) {
                    plane[np] = spec.p_figure + NSEGMENTS * fig_seat;
                    byte[np++] = 1;
                }
                if (spec.p_figure_kind >= 0 && fig_kind >= 0) {
                    plane[np] = spec.p_figure_kind + NSEGMENTS * fig_kind;
                    byte[np++] = 1;
                }
            } else {
                for (int k = 0; k < n; ++k) {
                    plane[np] = spec.p_figure + NSEGMENTS * k;
                    byte[np++] = fig_seat == k;
                }
                if (spec.p_figure_kind >= 0)
                    for (int f = 0; f < spec.kinds; ++f) {
                        plane[np] = spec.p_figure_kind + NSEGMENTS * f;
                        byte[np++] = fig_kind == f;
                    }
            }
        }
        if (!np) return;
        uint8_t* at = board + cell;
        for (unsigned mask = spec.segments[t.type][t.quarter][p - t.base]; mask; mask &= mask - 1) {
            const int seg = __builtin_ctz(mask);
            for (int i = 0; i < np; ++i) at[static_cast<size_t>(plane[i] + seg) * ps] = byte[i];
        }
    };
    for (size_t first = 0; first < dirty.size();) {
        const int root = static_cast<int>(dirty[first] >> 32);
        size_t last = first;
        while (last < dirty.size() && static_cast<int>(dirty[last] >> 32) == root) ++last;
        std::fill(counts, counts + 8, 0);
        root_figured = g.has_figures(root);
        g.figures(root, figs);
        for (int part : figs) {
            const int o = occupant_of(part);
            if (o >= 0) counts[occupants[o].seat] += 1;
        }
        uint64_t value = g.is_complete(root) ? 1 : 0;
        for (int s = 0; s < n; ++s) value |= static_cast<uint64_t>(std::min(counts[s], 255)) << (1 + 8 * s);
        bool whole = false;
        for (size_t k = first; k < last && !whole; ++k) {
            const uint64_t shown = written_[static_cast<uint32_t>(dirty[k])];
            whole = shown != NEVER && shown != value;
        }
        if (whole) {
            for (int p = root; p >= 0; p = g.next_member(p, root)) write_part(p, value);
        } else {
            for (size_t k = first; k < last; ++k) write_part(static_cast<int>(static_cast<uint32_t>(dirty[k])), value);
        }
        first = last;
    }
    forced_parts_.clear();
    dirty_parts_.clear();
}

void ObsTracker::write_marks(State& st, const ObsSpec& spec, uint8_t* board,
                             const IdList& lids) {
    const size_t ps = spec.plane_stride;
    const int n = spec.players;
    auto mark = [&](int plane, int64_t cell) {
        const int64_t at = static_cast<int64_t>(plane) * ps + cell;
        board[at] = 1;
        marks_.push_back(at);
    };
    if (st.has_last_pos) {
        const int64_t cell = spec.cell_of(st.last_pos);
        if (cell >= 0) mark(spec.p_last, cell);
    }
    const ActionMap& m = spec.actions;
    const int64_t cells = static_cast<int64_t>(m.width) * m.width;
    for (int64_t id : lids) {
        if (id >= m.place && id < m.place + 4 * cells) {
            const int64_t r = id - m.place;
            mark(spec.p_place + static_cast<int>(r & 3), spec.cell_offset(r >> 2));
        } else if (spec.p_hole >= 0 && m.abbey >= 0 && id >= m.abbey && id < m.abbey + cells) {
            mark(spec.p_hole, spec.cell_offset(id - m.abbey));
        }
    }
    if (spec.p_barn >= 0) {
        for (const Barn& b : st.barns) {
            const int64_t cell = spec.cell_of(b.point + STRIDE + 1);  // the point is its NW corner
            if (cell >= 0) mark(spec.p_barn + rel(b.seat, viewer_, n), cell);
        }
    }
    if (spec.p_wagon_left >= 0) {
        Graph& g = st.graph;
        for (const WagonEntry& w : st.wagon_queue) {
            const int idx = g.board.get(w.pos);
            if (idx < 0) continue;
            const PlacedTile& t = g.tiles[idx];
            const int64_t cell = spec.cell_of(t.pos);
            if (cell < 0) continue;
            const int nparts = static_cast<int>(g.variant_of(t).features.size());
            for (int local = 0; local < nparts; ++local) {
                if (g.find(t.base + local) != w.root) continue;
                const uint16_t mask = spec.segments[t.type][t.quarter][local];
                for (int seg = 0; seg < NSEGMENTS; ++seg)
                    if (mask & (1u << seg))
                        mark(spec.p_wagon_left + NSEGMENTS * rel(w.seat, viewer_, n) + seg, cell);
            }
        }
    }
}

void ObsTracker::count_pile(const State& st, int ntypes) {
    const size_t now = st.pile.size();
    const bool drawn_from_end = pile_counts_.size() == static_cast<size_t>(ntypes) &&
        now <= pile_.size() && (now == 0 || std::memcmp(st.pile.data(), pile_.data(), now) == 0);
    if (drawn_from_end) {  // the tiles drawn since: off the end
        for (size_t i = now; i < pile_.size(); ++i) pile_counts_[pile_[i]] -= 1;
        pile_.resize(now);
        return;
    }
    // Another pile (a new game, a chance draw that reordered it): counted again.
    pile_.assign(st.pile.begin(), st.pile.end());
    pile_counts_.assign(static_cast<size_t>(ntypes), 0);
    for (uint8_t t : pile_) pile_counts_[t] += 1;
}

void ObsTracker::write_scalars(const State& st, const ObsSpec& spec, int16_t* out) {
    std::memset(out, 0, sizeof(int16_t) * spec.scalars);
    const int n = spec.players, v = viewer_;
    const GameData& d = *st.data;
    const int ntiles = static_cast<int>(d.tiles.size());
    for (int k = 0, seat = v; k < n; ++k, seat = seat + 1 == n ? 0 : seat + 1) {
        out[spec.s_scores + k] = static_cast<int16_t>(st.scores[seat]);
        const int per = static_cast<int>(spec.supply_figure.size());
        for (int e = 0; e < per; ++e) {
            const int f = spec.supply_figure[e];
            out[spec.s_supply + k * per + e] =
                static_cast<int16_t>(f >= 0 ? st.supply_of(seat, f) : st.abbeys_left[seat]);
        }
    }
    out[spec.s_tile + (st.tile >= 0 ? st.tile : ntiles)] = 1;
    count_pile(st, ntiles);
    std::memcpy(out + spec.s_remaining, pile_counts_.data(), sizeof(int16_t) * static_cast<size_t>(ntiles));
    out[spec.s_pile] = static_cast<int16_t>(st.pile.size());
    if (st.phase != CHANCE) out[spec.s_phase + static_cast<int>(st.phase)] = 1;  // none drawing
    out[spec.s_turn_player + rel(st.turn_player, v, n)] = 1;
    if (!st.is_terminal()) out[spec.s_to_move + rel(st.actor, v, n)] = 1;
    if (st.final_round_on) {
        out[spec.s_final_round] = 1;
        for (int8_t seat : st.final_round) out[spec.s_final_round + 1 + rel(seat, v, n)] = 1;
    }
    out[spec.s_outside] = static_cast<int16_t>(outside_);
    for (size_t i = 0; i < spec.options.size(); ++i) out[spec.s_options + i] = spec.options[i];
}

namespace {

// std::rotate(b, b + cut, b + len) through a buffer of `cut` bytes: two copies and a move,
// where std::rotate on bytes moves them one at a time (half a self-play step's instructions
// with Abbey & Mayor, measured under callgrind).
inline void rotate_bytes(uint8_t* b, size_t cut, size_t len, uint8_t* buffer) {
    std::memcpy(buffer, b, cut);
    std::memmove(b, b + cut, len - cut);
    std::memcpy(b + len - cut, buffer, cut);
}

}  // namespace

void ObsTracker::rotate_seats(const State& st, const ObsSpec& spec, int from, int to,
                              uint8_t* board) const {
    // Block k (seat from + k) becomes block k + from - to: a rotation of whole seat blocks.
    const int n = spec.players;
    const int d = ((from - to) % n + n) % n;
    if (d == 0) return;
    const size_t cut = static_cast<size_t>(n - d), len = static_cast<size_t>(n);
    if (!spec.channels_last()) {
        const size_t block = NSEGMENTS * spec.plane_size();
        std::vector<uint8_t> buffer(cut * block);
        for (int first : {spec.p_figure, spec.p_holders})
            rotate_bytes(board + static_cast<size_t>(first) * spec.plane_size(), cut * block,
                         len * block, buffer.data());
        return;
    }
    // Each cell's seat blocks lie together: rotated where a tile lies (the only cells whose
    // figures and holders are ever set). Two players (the common case) swap two blocks of
    // a size the compiler knows.
    uint8_t buffer[8 * NSEGMENTS];
    for (const PlacedTile& t : st.graph.tiles) {
        const int64_t cell = spec.cell_of(t.pos);
        if (cell < 0) continue;
        for (int first : {spec.p_figure, spec.p_holders}) {
            uint8_t* at = board + cell + first;
            if (n == 2) rotate_bytes(at, NSEGMENTS, 2 * NSEGMENTS, buffer);
            else rotate_bytes(at, cut * NSEGMENTS, len * NSEGMENTS, buffer);
        }
    }
}

}  // namespace carc
