// The board and its features, tracked incrementally with a union-find over feature parts: the
// same structure as features.py (part ids, union by size, roots, the order of completions), so
// the two engines name every part and root alike and their positions can be compared exactly.
#pragma once

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <vector>

#include "tiles.h"
#include "vec.h"

namespace carc {

struct PlacedTile {
    int32_t pos;
    uint8_t type;
    uint8_t quarter;
    int16_t base;   // id of the tile's first part
};

// The number of a tile's fitting turns in a frontier slot: the bits of a 4-bit mask, read from
// a nibble table (a builtin popcount without a CPU flag for it is a library call).
inline unsigned turns_in(unsigned fits) { return (0x4332322132212110ull >> (fits * 4)) & 0xFu; }
// The same mask's turns, lowest first, a byte each (the bytes past turns_in(fits) hold zeros):
// writing all four and moving on by turns_in(fits) lists them without a branch per turn.
inline uint32_t turn_list(unsigned fits) {
    static constexpr uint32_t LIST[16] = {
        0x00000000, 0x00000000, 0x00000001, 0x00000100, 0x00000002, 0x00000200, 0x00000201,
        0x00020100, 0x00000003, 0x00000300, 0x00000301, 0x00030100, 0x00000302, 0x00030200,
        0x00030201, 0x03020100};
    return LIST[fits & 15u];
}

// Free positions next to a tile with their side-type patterns, in the order Python's dict
// keeps them (insertion order; a position leaves when a tile is laid on it). A position that
// leaves is marked dead in place (so the others keep their slots) and the dead are swept out
// once they outnumber the living; loops skip them with `alive`.
struct Frontier {
    static constexpr int32_t DEAD = INT32_MIN;
    Vec<int32_t> pos;
    Vec<uint8_t> pattern;
    int dead = 0;

    bool alive(size_t i) const { return pos[i] != DEAD; }
    // All ones for a living slot, zero for a dead one: a mask for loops that would otherwise
    // branch on `alive` (a branch taken at random costs more than the masking).
    unsigned alive_mask(size_t i) const { return 0u - static_cast<unsigned>(pos[i] != DEAD); }
    // The turns of a tile (its `fits` table) that fit slot i, none for a dead slot.
    unsigned fitting(const std::array<uint8_t, 256>& fits, size_t i) const {
        return fits[pattern[i]] & alive_mask(i);
    }
    size_t live() const { return pos.size() - static_cast<size_t>(dead); }
    // How many slots one gather_fitting call takes at most (its caller's buffer, on the stack).
    static constexpr size_t GATHER_CHUNK = 256;
    // The slots in [start, end) that a tile (its `fits` table) fits, as indexes less start in
    // slot order, into `out` (room for end - start); adds their fitting turns to `turns` and
    // returns how many. Without a branch on the board: every slot writes its index and the
    // count moves on when the tile fits (which is as good as random to the branch predictor).
    size_t gather_fitting(const std::array<uint8_t, 256>& fits, size_t start, size_t end,
                          uint16_t* out, uint32_t& turns) const {
        size_t n = 0;
        for (size_t i = start; i < end; ++i) {
            const unsigned f = fitting(fits, i);
            out[n] = static_cast<uint16_t>(i - start);
            n += f != 0;
            turns += turns_in(f);
        }
        return n;
    }
};

// Position -> index of the placed tile, or slot of a frontier position: open addressing over
// 32-bit slots (the position's 20-bit key above a 12-bit value). The table is a torus laid over
// the board (slot (x mod 32) * 32 + y mod 32 in the 1,024 slots it starts with), so two
// positions share a slot only when they lie 32 cells apart in both directions: the first
// probe decides a look-up almost always, and the look-up costs no branch on what the board
// holds there (a hash that spread neighbours over the table had clusters whose probes the
// branch predictor could not guess). Positions are never removed: a frontier position
// becomes a tile's.
struct BoardMap {
    Vec<uint32_t> slots;    // 0: empty
    uint32_t mask = 0;
    int count = 0;

    static constexpr int VALUE_BITS = 12;
    static constexpr uint32_t VALUE_MASK = (1u << VALUE_BITS) - 1;
    static constexpr size_t MIN_CAPACITY = 1024;  // the 32 x 32 torus
    // Positions are packed x * 1024 + y with |x|, |y| < 512: (x + 512, y + 512) in 20 bits,
    // never 0 (x = -512 is out of every game's reach).
    static uint32_t key(int32_t p) { return static_cast<uint32_t>(p + 512 * 1024 + 512); }
    // A value v is stored as v + 1 in 12 bits, so that an empty slot (0) reads as -1 without
    // a branch.
    static uint32_t pack_value(int v) { return static_cast<uint32_t>(v + 1) & VALUE_MASK; }
    static int unpack_value(uint32_t slot) {  // sign-extend the 12 bits, less one
        return static_cast<int>(static_cast<int32_t>(slot << 20) >> 20) - 1;
    }

    void init(size_t capacity) {
        size_t cap = MIN_CAPACITY;
        while (cap < capacity) cap <<= 1;
        slots.assign(cap, 0);
        mask = static_cast<uint32_t>(cap - 1);
        count = 0;
    }
    // The key's x (its bits from 10) times 32 plus its y modulo 32, within the table: a grid
    // 32 wide and as long as the table allows, wrapped round.
    uint32_t hash(uint32_t k) const { return (((k >> 10) << 5) | (k & 31u)) & mask; }
    // A frontier slot s as a raw value, and back (-1 for a raw value that is not one).
    static int frontier_raw(int slot) { return -slot - 2; }
    static int slot_of_raw(int raw) { return raw <= -2 ? -raw - 2 : -1; }
    // The raw value: a tile index (>= 0), a frontier slot (frontier_raw), or -1.
    int raw(int32_t p) const {
        const uint32_t k = key(p);
        uint32_t i = hash(k);
        uint32_t slot = slots[i];
        // Another position's slot (neither empty nor k's), in one comparison: the compiler
        // would make a branch of each operand of `at != k && at != 0`, the second a random one.
        const uint32_t at = slot >> VALUE_BITS;
        if (__builtin_expect(static_cast<uint64_t>(at ^ k) * at != 0, 0)) {
            do {  // another position 32 cells away holds the slot: the next ones
                i = (i + 1) & mask;
                slot = slots[i];
            } while (slot != 0 && (slot >> VALUE_BITS) != k);
        }
        return unpack_value(slot);
    }
    int get(int32_t p) const {  // the index of the tile at p, or -1
        int v = raw(p);
        return v >= 0 ? v : -1;
    }
    void put(int32_t p, int v) {
        const uint32_t k = key(p);
        uint32_t i = hash(k);
        while (slots[i] != 0 && (slots[i] >> VALUE_BITS) != k) i = (i + 1) & mask;
        if (slots[i] == 0) {
            ++count;
            if (4 * count > 3 * static_cast<int>(slots.size())) {  // past 3/4 full: twice the room
                grow();
                put(p, v);
                return;
            }
        }
        slots[i] = (k << VALUE_BITS) | pack_value(v);
    }
    void grow() {
        Vec<uint32_t> old;
        old.swap(slots);
        init(2 * old.size());
        for (uint32_t slot : old) {
            if (slot == 0) continue;
            uint32_t i = hash(slot >> VALUE_BITS);
            while (slots[i] != 0) i = (i + 1) & mask;
            slots[i] = slot;
            ++count;
        }
    }
};

// One feature part of a placed tile, in 12 bytes; a root's entries describe its whole feature.
// Which tiles a feature covers is not stored: only tiles holding two parts of one kind can be
// shared by two features, and a join finds those among the smaller feature's parts. The widths
// hold every game the options allow (spec.py's _check_size refuses a larger one).
constexpr int TILE_BITS = 10;
struct Part {
    int16_t parent;      // the feature's root (itself at a root)
    uint16_t size : 15, figured : 1;  // figured (at a root): the feature holds figures
    int16_t open;
    int16_t mem_next;    // every part of a feature: a ring through its parts
    uint32_t tile : TILE_BITS, kind : 2, tile_count : TILE_BITS, pennants : TILE_BITS;  // tile: Graph::tiles
};
static_assert(sizeof(Part) == 12, "a part is 12 bytes");

// Figures, by feature in the order they came: the few features holding figures keep the head
// of their list here, and each part holding a figure links to the next.
struct FigureLink {
    int16_t part, next;
};
struct FigureHead {
    int16_t root, head;
};

struct Graph {
    const GameData* data = nullptr;
    Vec<PlacedTile> tiles;   // in placement order
    BoardMap board;
    Frontier frontier;
    Vec<Part> parts;         // per part (a root's entries describe its whole feature)
    Vec<FigureLink> figure_links;  // one per part holding a figure
    Vec<FigureHead> figure_heads;  // one per feature holding figures
    // What the last add_tile touched around its tile, for an observer that rewrites only what
    // changed (ObsTracker::noted): the neighbours' parts facing it (a side's feature and the
    // two field halves along it) and the monasteries around it, in no particular order: at
    // most 3 a side and 8 monasteries.
    std::array<int16_t, 4 * 3 + 8> touched_around{};
    int ntouched_around = 0;
    // Per placed tile, at its index + 1: its monastery's part, or -1; entry 0 (-1) answers
    // for a cell without a tile, so the cells around a tile are asked without a branch on
    // whether they hold one.
    Vec<int16_t> monastery_part;

    void init(const GameData* d, size_t max_tiles) {
        data = d;
        board.init(BoardMap::MIN_CAPACITY);
        tiles.clear();
        frontier.pos.clear();
        frontier.pattern.clear();
        frontier.dead = 0;
        parts.clear();
        figure_links.clear();
        figure_heads.clear();
        monastery_part.clear();
        monastery_part.push_back(-1);
        // Room for every part of the game up front: laying a tile then never reallocates
        // (a clone holds only what it uses).
        const size_t nparts = 6 * (max_tiles + 1);
        parts.reserve(nparts);
        tiles.reserve(max_tiles + 1);
        monastery_part.reserve(max_tiles + 2);
        frontier.pos.reserve(2 * max_tiles + 8);
        frontier.pattern.reserve(2 * max_tiles + 8);
    }

    // Every part links straight to its feature's root (a join relinks the smaller feature's
    // parts), so finding a root is one read, without a loop whose length the branch predictor
    // would have to guess.
    int find(int part) const { return parts[part].parent; }

    int frontier_slot(int32_t p) const { return BoardMap::slot_of_raw(board.raw(p)); }
    // Record that the free position p must show `side_type` on its side `side`.
    void constrain(int32_t p, int side, uint8_t side_type) { constrain_raw(p, board.raw(p), side, side_type); }
    // The same, given p's raw board value (BoardMap::raw) read since the last change to the map.
    void constrain_raw(int32_t p, int raw, int side, uint8_t side_type) {
        const int slot = BoardMap::slot_of_raw(raw);
        if (slot < 0) {
            board.put(p, BoardMap::frontier_raw(static_cast<int>(frontier.pos.size())));
            frontier.pos.push_back(p);
            frontier.pattern.push_back(static_cast<uint8_t>(side_type << (2 * side)));
        } else {
            frontier.pattern[slot] |= static_cast<uint8_t>(side_type << (2 * side));
        }
    }
    void leave_frontier(int32_t p) {
        int slot = frontier_slot(p);
        if (slot < 0) return;
        frontier.pos[slot] = Frontier::DEAD;
        frontier.dead += 1;
        if (frontier.dead > 8 && 2 * static_cast<size_t>(frontier.dead) > frontier.live()) sweep();
    }
    void sweep() {
        size_t out = 0;
        for (size_t i = 0; i < frontier.pos.size(); ++i) {
            if (!frontier.alive(i)) continue;
            frontier.pos[out] = frontier.pos[i];
            frontier.pattern[out] = frontier.pattern[i];
            board.put(frontier.pos[out], BoardMap::frontier_raw(static_cast<int>(out)));
            ++out;
        }
        frontier.pos.resize(out);
        frontier.pattern.resize(out);
        frontier.dead = 0;
    }

    // The part after p in the ring of root's feature, or -1 once the ring is round:
    // `for (int p = root; p >= 0; p = next_member(p, root))` visits every part once.
    int next_member(int p, int root) const {
        const int next = parts[p].mem_next;
        return next == root ? -1 : next;
    }
    int nparts() const { return static_cast<int>(parts.size()); }
    int32_t part_pos(int part) const { return tiles[parts[part].tile].pos; }
    int part_local(int part) const { return part - tiles[parts[part].tile].base; }
    const VariantDef& variant_of(const PlacedTile& t) const {
        return data->tiles[t.type].variants[t.quarter];
    }
    const FeatureDef& feature_of(int part) const {
        const PlacedTile& t = tiles[parts[part].tile];
        return variant_of(t).features[part - t.base];
    }
    int figure_head(int root) const {
        if (!parts[root].figured) return -1;
        for (const FigureHead& h : figure_heads)
            if (h.root == root) return h.head;
        return -1;
    }
    bool has_figures(int root) const { return parts[root].figured; }
    bool is_complete(int root) const { return (parts[root].open == 0) & (parts[root].kind != FIELD); }

    int union_roots(int a, int b) {
        if (parts[a].size < parts[b].size) std::swap(a, b);
        Part& ra = parts[a];
        Part& rb = parts[b];
        if (ra.kind == ROAD || ra.kind == CITY)
            ra.tile_count = ra.tile_count + rb.tile_count - shared_tiles(a, b);
        for (int p = b;;) {  // b's ring: b's parts now belong to a
            parts[p].parent = static_cast<int16_t>(a);
            p = parts[p].mem_next;
            if (p == b) break;
        }
        ra.size = ra.size + rb.size;
        ra.open = static_cast<int16_t>(ra.open + rb.open);
        ra.pennants = ra.pennants + rb.pennants;
        std::swap(ra.mem_next, rb.mem_next);  // one ring of both features' parts
        if (rb.figured) join_figures(a, b);
        return a;
    }
    void join_figures(int a, int b) {
        int ia = -1, ib = -1;
        for (int i = 0; i < static_cast<int>(figure_heads.size()); ++i) {
            if (figure_heads[i].root == a) ia = i;
            else if (figure_heads[i].root == b) ib = i;
        }
        parts[a].figured = 1;
        if (ia < 0) {
            figure_heads[ib].root = static_cast<int16_t>(a);
            return;
        }
        link_of(last_figure(figure_heads[ia].head)).next = figure_heads[ib].head;
        figure_heads.erase(figure_heads.begin() + ib);
    }
    // Tiles covered by both features (roots a and b, of one kind): tiles with two or more
    // parts of that kind, one in each.
    int shared_tiles(int a, int b);

    // Lay a validated tile; returns the roots it completed (roads, then cities, then
    // monasteries), exactly as FeatureGraph.add_tile.
    void add_tile(int32_t pos, int type, int quarter, Vec<int>& completed);

    FigureLink& link_of(int part) {
        for (FigureLink& link : figure_links)
            if (link.part == part) return link;
        return figure_links.front();  // (unreachable: every part in a list has its link)
    }
    int next_figure(int part) const {
        for (const FigureLink& link : figure_links)
            if (link.part == part) return link.next;
        return -1;
    }
    int last_figure(int head) const {
        int part = head;
        for (int next = next_figure(part); next >= 0; next = next_figure(part)) part = next;
        return part;
    }
    void place_figure(int part) {
        const int root = find(part);
        figure_links.push_back(FigureLink{static_cast<int16_t>(part), -1});
        const int head = figure_head(root);
        parts[root].figured = 1;
        if (head < 0) figure_heads.push_back(FigureHead{static_cast<int16_t>(root), static_cast<int16_t>(part)});
        else link_of(last_figure(head)).next = static_cast<int16_t>(part);
    }
    void figures(int root, std::vector<int>& out) const {
        out.clear();
        for (int p = figure_head(root); p >= 0; p = next_figure(p)) out.push_back(p);
    }
    void clear_figures(int root, std::vector<int>& out) {
        out.clear();
        if (!parts[root].figured) return;
        figures(root, out);
        parts[root].figured = 0;
        figure_heads.erase(std::remove_if(figure_heads.begin(), figure_heads.end(),
                                          [root](const FigureHead& h) { return h.root == root; }),
                           figure_heads.end());
        figure_links.erase(
            std::remove_if(figure_links.begin(), figure_links.end(),
                           [&out](const FigureLink& link) {
                               return std::find(out.begin(), out.end(), link.part) != out.end();
                           }),
            figure_links.end());
    }
};

}  // namespace carc
