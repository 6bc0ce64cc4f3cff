// The vector environment's core (vecenv.h).
#include "vecenv.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace carc {

void rank_returns(const Vec<int32_t>& scores, float* out) {
    const int n = static_cast<int>(scores.size());
    if (n == 1) {
        out[0] = 1.0f;
        return;
    }
    for (int i = 0; i < n; ++i) {
        double won = 0.0;
        for (int j = 0; j < n; ++j) {
            if (j == i) continue;
            won += scores[i] > scores[j] ? 1.0 : scores[i] == scores[j] ? 0.5 : 0.0;
        }
        out[i] = static_cast<float>(2.0 * won / (n - 1) - 1.0);
    }
}

VecEnv::VecEnv(const GameData* data, const std::vector<uint8_t>* bag, bool shuffle,
               const HeuristicData* heuristic, const ObsSpec* spec, int num_envs, Opponent mode,
               int seat, VecBuffers buffers)
    : data_(data), bag_(bag), shuffle_(shuffle), heuristic_(heuristic), spec_(spec),
      mode_(mode), seat_(seat), buf_(buffers), envs_(static_cast<size_t>(num_envs)) {}

void VecEnv::reset(const int64_t* seeds) {
    for (size_t i = 0; i < envs_.size(); ++i) {
        Env& e = envs_[i];
        e.rng = Rng(static_cast<uint64_t>(seeds[i]));
        deal_next(static_cast<int>(i));
    }
}

void VecEnv::deal_next(int i) {
    Env& e = envs_[static_cast<size_t>(i)];
    const bool erased = erase(i);
    deal(e.st, data_, *bag_, e.rng, shuffle_);
    begin(i, erased);
}

void VecEnv::start(int i, const std::vector<uint8_t>& pile) {
    Env& e = envs_[i];
    const bool erased = erase(i);
    e.st.setup(data_, Vec<uint8_t>(pile));
    begin(i, erased);
}

bool VecEnv::erase(int i) {
    Env& e = envs_[static_cast<size_t>(i)];
    if (!e.shown || !spec_->channels_last()) return false;
    e.tracker.erase(e.st, *spec_, board_row(i));
    return true;
}

void VecEnv::begin(int i, bool erased) {
    Env& e = envs_[i];
    e.done = false;
    if (mode_ != O_SELF) play_others(e);
    buf_.reward[i] = 0.0f;
    buf_.terminated[i] = buf_.truncated[i] = false;
    std::memset(buf_.returns + static_cast<size_t>(i) * data_->players, 0, sizeof(float) * data_->players);
    int viewer = mode_ == O_SELF ? e.st.actor : seat_;
    if (e.st.is_terminal()) viewer = mode_ == O_SELF ? data_->starting_seat : seat_;
    publish(i, viewer, true, erased);
    if (e.st.is_terminal()) {  // (a game the others end before the caller's first decision)
        rank_returns(e.st.scores, buf_.returns + static_cast<size_t>(i) * data_->players);
        buf_.terminated[i] = true;
        e.done = true;
    }
}

void VecEnv::apply(Env& e, int64_t stable_id) {
    e.tracker.before(e.st);
    e.st.apply_id(stable_id);
    e.tracker.noted(e.st);
}

namespace {

// legal_ids()[rng.below(size)] of a position placing a tile, without listing the ids: the
// fitting frontier slots gathered and their placements counted in one pass without a branch on
// the board (whether a tile fits a slot is as good as random to the branch predictor), then the
// chosen one found among the gathered slots, in legal_ids' order (frontier slot, turn).
int64_t random_place(const State& st, Rng& rng) {
    const TileDef& t = st.data->tiles[st.tile];
    const Frontier& f = st.graph.frontier;
    const size_t nslots = f.pos.size();
    constexpr size_t CHUNK = Frontier::GATHER_CHUNK;
    uint16_t slot[CHUNK];
    uint32_t count = 0;
    const bool gathered = nslots <= CHUNK;  // (a larger frontier is walked twice instead)
    size_t nfit = 0;
    if (gathered) {
        nfit = f.gather_fitting(t.fits, 0, nslots, slot, count);
    } else {
        for (size_t i = 0; i < nslots; ++i) count += turns_in(f.fitting(t.fits, i));
    }
    uint32_t r = rng.below(count);
    const size_t walk = gathered ? nfit : nslots;
    for (size_t k = 0; k < walk; ++k) {
        const size_t i = gathered ? slot[k] : k;
        unsigned fits = f.fitting(t.fits, i);
        const uint32_t here = turns_in(fits);
        if (r >= here) {
            r -= here;
            continue;
        }
        for (; r; --r) fits &= fits - 1;  // drop the turns before the chosen one
        return st.place_id(f.pos[i], __builtin_ctz(fits));
    }
    throw std::logic_error("no placement to choose from");
}

}  // namespace

void VecEnv::play_others(Env& e) {
    State& st = e.st;
    while (!st.is_terminal() && st.actor != seat_) {
        int64_t id;
        if (mode_ == O_GREEDY) {
            id = greedy_choice(st, e.rng, *heuristic_);
        } else if (st.phase == PLACE) {
            id = random_place(st, e.rng);
        } else {
            const Vec<int64_t>& ids = st.legal_ids();
            id = ids[e.rng.below(static_cast<uint32_t>(ids.size()))];
        }
        apply(e, id);
    }
}

void VecEnv::publish(int i, int viewer, bool full, bool erased) {
    Env& e = envs_[i];
    const ObsSpec& spec = *spec_;
    int8_t* mask = buf_.mask + static_cast<size_t>(i) * spec.actions.size;
    for (int64_t id : e.lids) mask[id] = 0;  // (all the row held, if it was shown)
    if (full && !e.shown) std::memset(mask, 0, static_cast<size_t>(spec.actions.size));
    if (!learning_ids_unsorted(e.st, spec.actions, e.lids, e.sids))
        learning_ids(e.st, spec.actions, e.lids, e.sids);
    for (int64_t id : e.lids) mask[id] = 1;
    uint8_t* board = board_row(i);
    int16_t* scalars = buf_.scalars + static_cast<size_t>(i) * spec.scalars;
    if (full) {
        e.tracker.write_full(e.st, spec, viewer, board, scalars, e.lids,
                             erased ? ObsTracker::CLEAN : ObsTracker::COLD);
    } else {
        e.tracker.after(e.st, spec, viewer, board, scalars, e.lids);
    }
    e.shown = true;
    buf_.to_move[i] = e.st.is_terminal() ? -1 : e.st.actor;
}

void VecEnv::prefetch(int i) const {
    // What a step of game i reads and writes first, asked for while the game before it is
    // stepped: its state's arrays (the board's hash table, the frontier, the parts, the tiles,
    // the figures, the ends of the logs that grow), its mask entries cleared next, and the
    // tracker's own (the marks it clears, what each part shows). Left out: the cells the
    // step will write (known only once its actions are played); asking for every frontier
    // cell's marks measured slower.
    const Env& e = envs_[static_cast<size_t>(i)];
    const State& st = e.st;
    const Graph& g = st.graph;
    prefetch_bytes(&e, sizeof(Env), true);
    prefetch_bytes(g.board.slots.data(), g.board.slots.size() * sizeof(uint32_t), false);
    prefetch_bytes(g.frontier.pos.data(), g.frontier.pos.size() * sizeof(int32_t), false);
    prefetch_bytes(g.frontier.pattern.data(), g.frontier.pattern.size(), false);
    prefetch_bytes(g.parts.data(), g.parts.size() * sizeof(Part), true);
    prefetch_bytes(g.tiles.data(), g.tiles.size() * sizeof(PlacedTile), false);
    prefetch_bytes(g.figure_links.data(), g.figure_links.size() * sizeof(FigureLink), false);
    prefetch_bytes(g.figure_heads.data(), g.figure_heads.size() * sizeof(FigureHead), false);
    prefetch_bytes(st.occupant.data(), st.occupant.size() * sizeof(Occupant), false);
    prefetch_bytes(st.scores.data(), st.scores.size() * sizeof(int32_t), true);
    prefetch_bytes(st.supply.data(), st.supply.size() * sizeof(int16_t), true);
    prefetch_bytes(st.legal.ids.data(), st.legal.ids.size() * sizeof(int64_t), false);
    if (!st.pile.empty()) __builtin_prefetch(st.pile.data() + st.pile.size() - 1, 0, 3);
    if (!st.history.empty()) __builtin_prefetch(st.history.data() + st.history.size() - 1, 1, 3);
    if (!st.log.empty()) __builtin_prefetch(st.log.data() + st.log.size() - 1, 1, 3);
    prefetch_bytes(e.lids.data(), e.lids.size() * sizeof(int64_t), false);
    prefetch_bytes(e.sids.data(), e.sids.size() * sizeof(int64_t), false);
    const int8_t* mask = buf_.mask + static_cast<size_t>(i) * spec_->actions.size;
    for (int64_t id : e.lids) __builtin_prefetch(mask + id, 1, 3);
    prefetch_bytes(buf_.scalars + static_cast<size_t>(i) * spec_->scalars,
                   static_cast<size_t>(spec_->scalars) * sizeof(int16_t), true);
    e.tracker.prefetch(board_row(i));
}

int VecEnv::check(const int64_t* actions, int& kind) const {
    const int size = spec_->actions.size;
    for (size_t k = 0; k < envs_.size(); ++k)
        if (!envs_[k].done && (actions[k] < 0 || actions[k] >= size)) {
            kind = 1;
            return static_cast<int>(k);
        }
    for (size_t k = 0; k < envs_.size(); ++k)
        if (!envs_[k].done && !buf_.mask[k * size + actions[k]]) {
            kind = 2;
            return static_cast<int>(k);
        }
    kind = 0;
    return -1;
}

int VecEnv::step(const int64_t* actions) {
    const int n = data_->players;
    int ended = 0;
    for (size_t k = 0; k < envs_.size(); ++k) {
        const int i = static_cast<int>(k);
        Env& e = envs_[k];
        if (k + 1 < envs_.size()) prefetch(i + 1);  // (two ahead measured no faster)
        if (e.done) {
            deal_next(i);
            continue;
        }
        const auto at = std::find(e.lids.begin(), e.lids.end(), actions[k]);
        if (at == e.lids.end())
            throw std::invalid_argument("an action id is not legal in its game");
        const int mover = e.st.actor;
        apply(e, e.sids[static_cast<size_t>(at - e.lids.begin())]);
        if (mode_ != O_SELF) play_others(e);
        float* returns = buf_.returns + k * n;
        if (e.st.is_terminal()) {
            rank_returns(e.st.scores, returns);
            buf_.reward[k] = returns[mode_ == O_SELF ? mover : seat_];
            buf_.terminated[k] = true;
            e.done = true;
            ++ended;
        } else {
            std::memset(returns, 0, sizeof(float) * n);
            buf_.reward[k] = 0.0f;
            buf_.terminated[k] = false;
        }
        buf_.truncated[k] = false;
        int viewer = seat_;
        if (mode_ == O_SELF) viewer = e.st.is_terminal() ? mover : e.st.actor;
        publish(i, viewer, false);
    }
    return ended;
}

}  // namespace carc
