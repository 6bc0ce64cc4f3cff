// Python bindings of the native Carcassonne engine (nanobind): the module `_engine`.
//
// `Spec` holds a configured game's static data (built once per game from the Python game's
// tile data and action space) and the table that interns action objects: legal_actions hands
// out the same Python object for the same action id, so `apply` recognises an action of the
// list by its address. Anything else goes to the Python side's `_apply_slow`, which answers
// exactly as the Python engine does.
#include <nanobind/nanobind.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <nanobind/stl/array.h>
#include <nanobind/ndarray.h>
#include <tsl/robin_map.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "heuristic.h"
#include "obs.h"
#include "playout.h"
#include "state.h"
#include "vecenv.h"

namespace nb = nanobind;
using namespace carc;

namespace {

struct Spec {
    GameData data;
    nb::object factory;  // id -> action object (the Python game's action_from_id)
    tsl::robin_map<int64_t, PyObject*> objects;
    tsl::robin_map<PyObject*, int64_t> ids;
    std::vector<uint8_t> bag;  // the draw pile before shuffling, in data order
    bool fixed_order = false;  // a draw order is given: no shuffle
    HeuristicData heuristic;

    Spec() = default;
    Spec(const Spec&) = delete;  // it owns references to the action objects
    Spec& operator=(const Spec&) = delete;
    ~Spec() {
        if (!Py_IsInitialized()) return;
        nb::gil_scoped_acquire gil;
        for (auto& item : objects) Py_DECREF(item.second);
        for (auto& page : place_pages)
            if (page)
                for (int i = 0; i < PAGE; ++i) Py_XDECREF(page[i]);
    }

    // Place ids (the most frequent) index a table directly, in pages made when first used:
    // a game touches a few dozen pages around the start tile, not its whole action space.
    static constexpr int PAGE_BITS = 8, PAGE = 1 << PAGE_BITS;
    std::vector<std::unique_ptr<PyObject*[]>> place_pages;

    PyObject** place_slot(int64_t id) {
        if (place_pages.empty())
            place_pages.resize(static_cast<size_t>(data.deploy_base >> PAGE_BITS) + 1);
        std::unique_ptr<PyObject*[]>& page = place_pages[static_cast<size_t>(id >> PAGE_BITS)];
        if (!page) page.reset(new PyObject*[PAGE]());
        return &page[id & (PAGE - 1)];
    }

    PyObject* object(int64_t id) {
        PyObject** slot = nullptr;
        if (id < data.deploy_base) {
            slot = place_slot(id);
            if (*slot) return *slot;
        } else {
            auto it = objects.find(id);
            if (it != objects.end()) return it->second;
        }
        nb::object obj = factory(id);
        PyObject* p = obj.release().ptr();
        if (slot) *slot = p;
        else objects[id] = p;
        ids[p] = id;
        return p;
    }
};

template <typename T>
std::vector<T> list_of(nb::handle h) { return nb::cast<std::vector<T>>(h); }

std::shared_ptr<Spec> make_spec(nb::dict d, nb::object factory) {
    auto spec = std::make_shared<Spec>();
    spec->factory = factory;
    GameData& g = spec->data;
    g.players = nb::cast<int>(d["players"]);
    g.starting_seat = nb::cast<int>(d["starting_seat"]);
    g.small_city_first_edition = nb::cast<bool>(d["small_city_first_edition"]);
    g.start_tile = nb::cast<int>(d["start_tile"]);
    g.abbey_tile = nb::cast<int>(d["abbey_tile"]);
    g.figure_names = list_of<std::string>(d["figures"]);
    g.supply = list_of<int>(d["supply"]);
    for (nb::handle r : nb::cast<nb::list>(d["figure_rules"])) {
        nb::tuple t = nb::cast<nb::tuple>(r);
        g.figure_rules.push_back(FigureRule{nb::cast<int>(t[0]), nb::cast<uint8_t>(t[1]),
                                            nb::cast<bool>(t[2])});
    }
    g.fig_follower = nb::cast<int>(d["fig_follower"]);
    g.fig_mayor = nb::cast<int>(d["fig_mayor"]);
    g.fig_wagon = nb::cast<int>(d["fig_wagon"]);
    g.fig_barn = nb::cast<int>(d["fig_barn"]);
    g.abbeys = nb::cast<int>(d["abbeys"]);
    g.abbey_end = static_cast<AbbeyEnd>(nb::cast<int>(d["abbey_end"]));
    g.wagon_connected = nb::cast<bool>(d["wagon_connected"]);
    g.wagon_traverse = nb::cast<bool>(d["wagon_traverse"]);
    g.radius = nb::cast<int>(d["radius"]);
    g.width = nb::cast<int>(d["width"]);
    g.deploy_base = nb::cast<int64_t>(d["deploy_base"]);
    g.abbey_base = nb::cast<int64_t>(d["abbey_base"]);
    g.draw_id = nb::cast<int64_t>(d["draw_id"]);
    g.pass_id = nb::cast<int64_t>(d["pass_id"]);
    g.locations = list_of<std::string>(d["locations"]);
    g.nlocations = static_cast<int>(g.locations.size());
    g.by_width.set(g.width);
    g.by_locations.set(g.nlocations);
    g.by_figures.set(static_cast<int64_t>(g.figure_names.size()));
    auto corners = list_of<int32_t>(d["corner_locations"]);
    for (int i = 0; i < 4; ++i) g.corner_location[i] = corners[i];
    spec->bag = list_of<uint8_t>(d["bag"]);
    if (nb::cast<bool>(d["fixed_order"])) {  // a draw order: drawn as given, from the end
        std::reverse(spec->bag.begin(), spec->bag.end());
        spec->fixed_order = true;
    }
    nb::dict hd = nb::cast<nb::dict>(d["heuristic"]);
    HeuristicData& h = spec->heuristic;
    h.follower_in_hand = nb::cast<double>(hd["follower_in_hand"]);
    h.hand_horizon = nb::cast<double>(hd["hand_horizon"]);
    h.draw_share = nb::cast<double>(hd["draw_share"]);
    h.open_city_farm = nb::cast<double>(hd["open_city_farm"]);
    h.pile_size = nb::cast<int>(hd["pile_size"]);
    // A linear evaluation's weights ({weights, to_move}): the current ones and each kept version.
    auto read_linear = [](nb::handle table, std::array<std::array<double, 3>, NUM_FEATURES>& w,
                          std::array<double, 3>& to_move) {
        auto rows = nb::cast<std::vector<std::vector<double>>>(table["weights"]);
        for (int k = 0; k < NUM_FEATURES; ++k)
            for (int j = 0; j < 3; ++j) w[k][j] = rows.at(k).at(j);
        auto bonus = nb::cast<std::vector<double>>(table["to_move"]);
        for (int j = 0; j < 3; ++j) to_move[j] = bonus.at(j);
    };
    read_linear(hd, h.weights, h.to_move);
    // A version's network ({holders, mean, spread, scale, layers: [{in, out, weights, bias}]}).
    auto read_net = [&g](nb::handle nd) {
        auto net = std::make_shared<ValueNet>();
        net->holders = nb::cast<bool>(nd["holders"]);
        net->mean = nb::cast<std::vector<double>>(nd["mean"]);
        net->spread = nb::cast<std::vector<double>>(nd["spread"]);
        net->scale = nb::cast<double>(nd["scale"]);
        int width = net->inputs();
        for (nb::handle lh : nb::cast<nb::list>(nd["layers"])) {
            nb::dict ld = nb::cast<nb::dict>(lh);
            ValueNet::Layer& layer = net->layers.emplace_back();
            layer.in = nb::cast<int>(ld["in"]);
            layer.out = nb::cast<int>(ld["out"]);
            layer.w = nb::cast<std::vector<double>>(ld["weights"]);
            layer.b = nb::cast<std::vector<double>>(ld["bias"]);
            if (layer.in != width || layer.w.size() != static_cast<size_t>(layer.in) * layer.out ||
                layer.b.size() != static_cast<size_t>(layer.out))
                throw std::invalid_argument("value network: layer sizes do not chain");
            width = layer.out;
        }
        if (net->spread.size() != net->mean.size() || width != g.players ||
            net->inputs() != g.players * (NUM_FEATURES + (net->holders ? SEGMENTS : 0)) + 2)
            throw std::invalid_argument("value network: inputs or outputs of the wrong size");
        return std::shared_ptr<const ValueNet>(std::move(net));
    };
    bool reads_holders = false;
    // {name: {weights, to_move[, net]}}: the kept versions, and "learned" with its network.
    for (auto [name, wd] : nb::cast<nb::dict>(hd["versions"])) {
        LinearWeights& v = h.versions.emplace_back();
        v.name = nb::cast<std::string>(name);
        read_linear(wd, v.weights, v.to_move);
        nb::dict vd = nb::cast<nb::dict>(wd);
        if (vd.contains("net") && !vd["net"].is_none()) {
            v.net = read_net(vd["net"]);
            reads_holders = reads_holders || v.net->holders;
        }
    }
    for (nb::handle th : nb::cast<nb::list>(d["tiles"])) {
        nb::dict td = nb::cast<nb::dict>(th);
        TileDef t;
        t.name = nb::cast<std::string>(td["name"]);
        t.abbey = nb::cast<bool>(td["abbey"]);
        t.multi = nb::cast<bool>(td["multi"]);
        auto canonical = list_of<int>(td["canonical"]);
        for (int q = 0; q < 4; ++q) t.canonical[q] = static_cast<uint8_t>(canonical[q]);
        auto fits = list_of<int>(td["fits"]);
        for (int p = 0; p < 256; ++p) t.fits[p] = static_cast<uint8_t>(fits[p]);
        nb::list variants = nb::cast<nb::list>(td["variants"]);
        for (int q = 0; q < 4; ++q) {
            nb::dict vd = nb::cast<nb::dict>(variants[q]);
            VariantDef& v = t.variants[q];
            auto st = list_of<int>(vd["side_types"]);
            auto sf = list_of<int>(vd["side_feature"]);
            auto hf = list_of<int>(vd["half_feature"]);
            for (int i = 0; i < 4; ++i) {
                v.side_types[i] = static_cast<uint8_t>(st[i]);
                v.side_feature[i] = static_cast<int8_t>(sf[i]);
            }
            for (int i = 0; i < 8; ++i) v.half_feature[i] = static_cast<int8_t>(hf[i]);
            v.monastery = static_cast<int8_t>(nb::cast<int>(vd["monastery"]));
            v.field_corners = nb::cast<uint8_t>(vd["field_corners"]);
            v.abbey = nb::cast<bool>(vd["abbey"]);
            for (nb::handle lh : nb::cast<nb::list>(vd["links"])) {
                nb::tuple lt = nb::cast<nb::tuple>(lh);
                v.links.emplace_back(nb::cast<uint8_t>(lt[0]), nb::cast<uint8_t>(lt[1]));
            }
            for (nb::handle fh : nb::cast<nb::list>(vd["features"])) {
                nb::dict fd = nb::cast<nb::dict>(fh);
                FeatureDef f;
                f.kind = nb::cast<uint8_t>(fd["kind"]);
                f.pennants = nb::cast<uint8_t>(fd["pennants"]);
                f.sides = list_of<uint8_t>(fd["sides"]);
                f.nsides = static_cast<uint8_t>(f.sides.size());
                f.borders = list_of<uint8_t>(fd["borders"]);
                f.location = nb::cast<int32_t>(fd["location"]);
                v.features.push_back(std::move(f));
            }
        }
        g.tiles.push_back(std::move(t));
    }
    build_closers(g, h);
    if (reads_holders) h.segments = segment_masks(g);  // (now that the tiles are read)
    return spec;
}

// The observation layout of a game (the Python encoder's block offsets and the learning action
// space's numbering), kept with the game data it reads.
struct ObsSpecHolder {
    std::shared_ptr<Spec> spec;
    ObsSpec obs;
};

// A position's observation kept current as actions are applied to it (what an environment
// observes after every step): the tracker and its own arrays. A copy of the position starts
// without one.
struct TrackedObs {
    std::shared_ptr<ObsSpecHolder> layout;
    ObsTracker tracker;
    std::vector<uint8_t> board;
    std::vector<int16_t> scalars;
};
struct TrackedSlot {
    std::unique_ptr<TrackedObs> obs;
    TrackedSlot() = default;
    TrackedSlot(const TrackedSlot&) {}
    TrackedSlot& operator=(const TrackedSlot&) {
        obs.reset();
        return *this;
    }
};

struct Core {
    std::shared_ptr<Spec> spec;
    State st;
    nb::object game, seed, meta;
    TrackedSlot tracked;

    // Every action goes through here, so a tracked observation learns what it changed.
    void apply(int64_t id) {
        if (tracked.obs) tracked.obs->tracker.before(st);
        st.apply_id(id);
        if (tracked.obs) tracked.obs->tracker.noted(st);
    }
    // And every chance outcome (chance mode): a draw may discard tiles and end the game.
    void apply_chance(int type) {
        if (tracked.obs) tracked.obs->tracker.before(st);
        st.apply_chance(type);
        if (tracked.obs) tracked.obs->tracker.noted(st);
    }
};

nb::list to_list(const Vec<int64_t>& ids, Spec& spec) {
    PyObject* list = PyList_New(static_cast<Py_ssize_t>(ids.size()));
    if (!list) throw nb::python_error();
    for (size_t i = 0; i < ids.size(); ++i) {
        PyObject* o = spec.object(ids[i]);
        Py_INCREF(o);
        PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), o);
    }
    return nb::steal<nb::list>(list);
}

nb::object clone_of(nb::handle self) {
    Core* src = nb::inst_ptr<Core>(self);
    nb::object out = nb::inst_alloc(self.type());
    Core* dst = nb::inst_ptr<Core>(out);
    new (dst) Core(*src);
    dst->meta = nb::steal(PyDict_Copy(src->meta.ptr()));
    if (!dst->meta.is_valid()) throw nb::python_error();
    nb::inst_mark_ready(out);
    return out;
}

// Set a whole position from plain data (the Python side's snapshot of any position, including
// positions built directly for tests and puzzles): tiles are laid again in their order, so
// parts and roots come out as they were, then everything else is set as given.
void load_state(State& st, nb::dict d) {
    const GameData* data = st.data;
    State fresh;
    fresh.data = data;
    auto pile = list_of<uint8_t>(d["pile"]);
    fresh.graph.init(data, pile.size() + nb::len(nb::cast<nb::list>(d["tiles"])) + 1);
    Vec<int> completed;
    for (nb::handle h : nb::cast<nb::list>(d["tiles"])) {
        nb::tuple t = nb::cast<nb::tuple>(h);
        fresh.graph.add_tile(nb::cast<int32_t>(t[0]), nb::cast<int>(t[1]), nb::cast<int>(t[2]),
                             completed);
    }
    for (nb::handle h : nb::cast<nb::list>(d["occupants"])) {
        nb::tuple t = nb::cast<nb::tuple>(h);
        int part = nb::cast<int>(t[0]);
        fresh.occupant.push_back(Occupant{static_cast<int16_t>(part), nb::cast<int8_t>(t[1]),
                                          nb::cast<int8_t>(t[2])});
        fresh.graph.place_figure(part);
    }
    for (nb::handle h : nb::cast<nb::list>(d["barns"])) {
        nb::tuple t = nb::cast<nb::tuple>(h);
        fresh.barns.push_back(Barn{nb::cast<int32_t>(t[0]), nb::cast<int8_t>(t[1]),
                                   nb::cast<int16_t>(t[2])});
    }
    for (nb::handle h : nb::cast<nb::list>(d["log"])) {
        nb::tuple t = nb::cast<nb::tuple>(h);
        fresh.log.push_back(LogEntry{nb::cast<int16_t>(t[0]), nb::cast<uint8_t>(t[1]),
                                     nb::cast<bool>(t[2]), nb::cast<int32_t>(t[3]),
                                     nb::cast<uint8_t>(t[4]), nb::cast<uint8_t>(t[5])});
    }
    for (nb::handle h : nb::cast<nb::list>(d["wagon_queue"])) {
        nb::tuple t = nb::cast<nb::tuple>(h);
        fresh.wagon_queue.push_back(WagonEntry{nb::cast<int8_t>(t[0]), nb::cast<int32_t>(t[1]),
                                               nb::cast<int16_t>(t[2])});
    }
    fresh.pile = std::move(pile);
    fresh.discarded = list_of<uint8_t>(d["discarded"]);
    fresh.tile = nb::cast<int>(d["tile"]);
    fresh.phase = static_cast<Phase>(nb::cast<int>(d["phase"]));
    fresh.turn_player = nb::cast<int>(d["turn_player"]);
    fresh.actor = nb::cast<int>(d["actor"]);
    fresh.has_last_pos = !d["last_pos"].is_none();
    if (fresh.has_last_pos) fresh.last_pos = nb::cast<int32_t>(d["last_pos"]);
    fresh.pending = list_of<int>(d["pending"]);
    fresh.scores = list_of<int32_t>(d["scores"]);
    fresh.supply = list_of<int16_t>(d["supply"]);
    fresh.abbeys_left = list_of<int16_t>(d["abbeys_left"]);
    fresh.history = list_of<int32_t>(d["history"]);
    fresh.turn = nb::cast<int>(d["turn"]);
    fresh.final_round_on = !d["final_round"].is_none();
    if (fresh.final_round_on) fresh.final_round = list_of<int8_t>(d["final_round"]);
    fresh.has_new_barn = !d["new_barn"].is_none();
    if (fresh.has_new_barn) fresh.new_barn = nb::cast<int32_t>(d["new_barn"]);
    // Chance mode is kept by the state being loaded unless the data says otherwise.
    fresh.explicit_chance = d.contains("explicit_chance") ? nb::cast<bool>(d["explicit_chance"])
                                                          : st.explicit_chance;
    if (d.contains("chance_discarded")) fresh.chance_discarded = nb::cast<bool>(d["chance_discarded"]);
    st = std::move(fresh);
}

// Compiled play runs through draws without stopping; a chance-mode state stops at each one.
void refuse_chance_mode(const State& st, const char* what) {
    if (st.explicit_chance)
        throw std::invalid_argument(std::string("a chance-mode state runs no compiled ") + what +
                                    ": its draws wait for apply_chance");
}

// The weights (and network) of an evaluation by name (Game.evaluation_of), or nullptr for
// "current": the game's own evaluation. An unknown name is refused, naming the known ones.
const LinearWeights* kept_weights(const Spec& spec, const std::string& name) {
    if (name == "current") return nullptr;
    if (const LinearWeights* kept = spec.heuristic.version(name)) return kept;
    std::string known = "current";
    for (const LinearWeights& v : spec.heuristic.versions) known += ", " + v.name;
    throw std::invalid_argument("no evaluation named '" + name + "'; known: " + known);
}

template <typename V>
nb::list ints(const V& v) {
    nb::list out;
    for (const auto& x : v) out.append(static_cast<int64_t>(x));
    return out;
}

int block_at(nb::dict blocks, const char* name) {
    if (!blocks.contains(name)) return -1;
    return nb::cast<int>(nb::cast<nb::tuple>(blocks[name])[0]);
}

std::shared_ptr<ObsSpecHolder> make_obs_spec(std::shared_ptr<Spec> spec, nb::dict d) {
    auto h = std::make_shared<ObsSpecHolder>();
    h->spec = spec;
    ObsSpec& o = h->obs;
    o.data = &spec->data;
    o.planes = nb::cast<int>(d["planes"]);
    o.radius = nb::cast<int>(d["radius"]);
    o.width = 2 * o.radius + 1;
    o.scalars = nb::cast<int>(d["scalars"]);
    o.players = spec->data.players;
    o.set_order(d.contains("channels_last") && nb::cast<bool>(d["channels_last"]));
    nb::dict b = nb::cast<nb::dict>(d["board_blocks"]);
    o.p_tile = block_at(b, "tile");
    o.p_rotation = block_at(b, "rotation");
    o.p_edge = block_at(b, "edge");
    o.p_monastery = block_at(b, "monastery");
    o.p_abbey = block_at(b, "abbey");
    o.p_pennant = block_at(b, "pennant");
    o.p_figure = block_at(b, "figure");
    o.p_figure_kind = block_at(b, "figure_kind");
    o.p_barn = block_at(b, "barn");
    o.p_complete = block_at(b, "complete");
    o.p_holders = block_at(b, "holders");
    o.p_wagon_left = block_at(b, "wagon_left");
    o.p_last = block_at(b, "last");
    o.p_place = block_at(b, "place");
    o.p_hole = block_at(b, "hole");
    nb::dict sb = nb::cast<nb::dict>(d["scalar_blocks"]);
    o.s_scores = block_at(sb, "scores");
    o.s_supply = block_at(sb, "supply");
    o.s_tile = block_at(sb, "tile");
    o.s_remaining = block_at(sb, "remaining");
    o.s_pile = block_at(sb, "pile");
    o.s_phase = block_at(sb, "phase");
    o.s_turn_player = block_at(sb, "turn_player");
    o.s_to_move = block_at(sb, "to_move");
    o.s_final_round = block_at(sb, "final_round");
    o.s_outside = block_at(sb, "outside");
    o.s_options = block_at(sb, "options");
    o.supply_figure = list_of<int>(d["supply_figure"]);
    o.figure_kind = list_of<int>(d["figure_kind"]);
    o.kinds = nb::cast<int>(d["kinds"]);
    o.options = list_of<int16_t>(d["options"]);
    for (int p : {o.p_tile, o.p_rotation, o.p_edge, o.p_monastery, o.p_abbey, o.p_pennant,
                  o.p_figure, o.p_complete, o.p_holders, o.p_last, o.p_place})
        if (p < 0) throw std::invalid_argument("the observation layout lacks a board block");
    ActionMap& a = o.actions;
    nb::dict ad = nb::cast<nb::dict>(d["actions"]);
    a.size = nb::cast<int>(ad["size"]);
    a.radius = nb::cast<int>(ad["radius"]);
    a.width = 2 * a.radius + 1;
    if (a.radius != o.radius) throw std::invalid_argument("the action window is not the observation's");
    nb::dict starts = nb::cast<nb::dict>(ad["starts"]);
    auto start = [&starts](const char* name) {
        return starts.contains(name) ? nb::cast<int>(starts[name]) : -1;
    };
    a.place = start("place");
    a.abbey = start("abbey");
    a.wagon = start("wagon");
    a.deploy = start("deploy");
    a.draw = start("draw");
    a.pass = start("pass");
    a.overflow = start("overflow");
    a.overflow_slots = nb::cast<int>(ad["overflow_slots"]);
    a.set_stable_width(nb::cast<int>(ad["stable_width"]));
    a.shift = nb::cast<int>(ad["shift"]);
    a.nfig = nb::cast<int>(ad["figures"]);
    a.nloc = nb::cast<int>(ad["locations"]);
    a.by_fig.set(a.nfig);
    a.by_loc.set(a.nloc);
    a.location_anchor = list_of<int>(ad["location_anchor"]);
    a.location_wagon = list_of<int>(ad["location_wagon"]);
    o.build_segments();
    return h;
}

template <typename T>
using Array = nb::ndarray<T, nb::c_contig, nb::device::cpu>;

template <typename T>
T* checked(Array<T>& a, size_t size, const char* name) {
    if (a.size() != size) throw std::invalid_argument(std::string(name) + " has the wrong size");
    return a.data();
}

// A vector handed to numpy as an int64 array that owns it.
template <typename V>
nb::ndarray<nb::numpy, int64_t, nb::ndim<1>> owned_array(V&& values) {
    auto* held = new V(std::move(values));
    nb::capsule owner(held, [](void* p) noexcept { delete static_cast<V*>(p); });
    return nb::ndarray<nb::numpy, int64_t, nb::ndim<1>>(held->data(), {held->size()}, owner);
}

// What every observation call checks first: the layout is this game's and the seat exists.
const ObsSpec& layout_for(const Core& c, const ObsSpecHolder& o, int viewer) {
    if (c.spec != o.spec) throw std::invalid_argument("the layout of another game");
    if (viewer < 0 || viewer >= o.obs.players) throw std::invalid_argument("no such seat");
    return o.obs;
}

nb::tuple learning_ids_of(State& st, const ObsSpec& obs) {
    IdList lids, sids;
    learning_ids(st, obs.actions, lids, sids);
    return nb::make_tuple(owned_array(std::move(lids)), owned_array(std::move(sids)));
}

struct PyVecEnv {
    std::shared_ptr<Spec> spec;
    std::shared_ptr<ObsSpecHolder> obs;
    Array<uint8_t> board;
    Array<int16_t> scalars;
    Array<int8_t> mask;
    Array<float> reward;
    Array<bool> terminated, truncated;
    Array<int32_t> to_move;
    Array<float> returns;
    std::unique_ptr<VecEnv> env;
};

}  // namespace

NB_MODULE(_engine, m) {
    m.doc() = "The native Carcassonne engine (C++17): the rules of the Python reference engine.";
    m.attr("ABI") = 2;
    // Games and states kept by module-level caches (simulation workers, the web table) are
    // still alive when the interpreter exits; nanobind would list them as leaks at every exit.
    nb::set_leak_warnings(false);

    nb::class_<Spec>(m, "Spec")
        .def(nb::new_(&make_spec), nb::arg("data"), nb::arg("factory"))
        .def("action_object", [](Spec& s, int64_t id) {
            return nb::borrow(s.object(id));
        })
        .def("random_games",
             [](Spec& s, int64_t games, uint64_t seed) {
                 // Whole random games in compiled code: (actions played, final scores per game).
                 std::vector<int32_t> scores;
                 int64_t actions = 0;
                 {
                     nb::gil_scoped_release release;
                     State st;
                     for (int64_t i = 0; i < games; ++i) {
                         Rng rng(seed + static_cast<uint64_t>(i) * 0x632be59bd9b4e019ull);
                         deal(st, &s.data, s.bag, rng, !s.fixed_order);
                         actions += random_playout(st, rng);
                         scores.insert(scores.end(), st.scores.begin(), st.scores.end());
                     }
                 }
                 return nb::make_tuple(actions, scores);
             },
             nb::arg("games"), nb::arg("seed"));

    nb::class_<Core>(m, "Core")
        .def("__init__",
             [](Core* self, std::shared_ptr<Spec> spec, nb::object game, nb::object seed,
                std::vector<uint8_t> pile, bool explicit_chance) {
                 new (self) Core();
                 self->spec = spec;
                 self->game = game;
                 self->seed = seed;
                 self->meta = nb::dict();
                 // A draw order leaves no chance (CarcassonneState._chance_draw): no chance mode.
                 self->st.setup(&spec->data, std::move(pile),
                                explicit_chance && !spec->fixed_order);
             },
             nb::arg("spec"), nb::arg("game"), nb::arg("seed"), nb::arg("pile"),
             nb::arg("explicit_chance") = false)
        .def_prop_ro("game", [](Core& c) { return c.game; })
        .def_prop_ro("seed", [](Core& c) { return c.seed; })
        .def_prop_rw("meta", [](Core& c) { return c.meta; },
                     [](Core& c, nb::object v) { c.meta = v; })
        .def_prop_ro("current_player", [](Core& c) { return c.st.current_player(); })
        .def_prop_ro("is_terminal", [](Core& c) { return c.st.is_terminal(); })
        .def_prop_ro("at_turn_start", [](Core& c) { return c.st.at_turn_start(); })
        .def_prop_ro("scores", [](Core& c) { return ints(c.st.scores); })
        .def("legal_actions", [](Core& c) { return to_list(c.st.legal_ids(), *c.spec); })
        .def("legal_action_ids", [](Core& c) { return ints(c.st.legal_ids()); })
        .def("apply",
             [](nb::pointer_and_handle<Core> self, nb::handle action) {
                 Core& c = *self.p;
                 auto it = c.spec->ids.find(action.ptr());
                 if (it != c.spec->ids.end() && c.st.phase != OVER && c.st.is_legal_id(it->second)) {
                     c.apply(it->second);
                     return;
                 }
                 self.h.attr("_apply_slow")(action);
             },
             nb::arg("action").none())
        .def("_is_legal_id", [](Core& c, int64_t id) { return c.st.phase != OVER && c.st.is_legal_id(id); })
        .def("_apply_id",
             [](Core& c, int64_t id) {
                 if (c.st.phase == OVER || !c.st.is_legal_id(id))
                     throw std::invalid_argument("action id is not legal here");
                 c.apply(id);
             })
        .def("clone", [](nb::handle self) { return clone_of(self); })
        // -- chance mode (explicit chance nodes at the draws) --
        .def_prop_ro("explicit_chance", [](Core& c) { return c.st.explicit_chance; })
        .def_prop_ro("is_chance_node", [](Core& c) { return c.st.phase == CHANCE; })
        .def("chance_outcomes",
             [](Core& c) {
                 // (tile index, probability) ascending, as ExplicitChanceState lists them:
                 // count / total in double precision, exactly Python's int / int.
                 static thread_local std::vector<std::pair<int, int>> counts;
                 c.st.chance_outcomes(counts);
                 const double total = static_cast<double>(c.st.pile.size());
                 PyObject* list = PyList_New(static_cast<Py_ssize_t>(counts.size()));
                 if (!list) throw nb::python_error();
                 nb::list out = nb::steal<nb::list>(list);
                 for (size_t i = 0; i < counts.size(); ++i) {
                     nb::tuple item = nb::make_tuple(counts[i].first,
                                                     static_cast<double>(counts[i].second) / total);
                     PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), item.release().ptr());
                 }
                 return out;
             })
        .def("apply_chance",
             [](nb::pointer_and_handle<Core> self, nb::handle outcome) {
                 // An exact int naming a tile type of the pile at a chance node; anything else
                 // goes to the Python side's `_refuse_chance`, which names the problem.
                 Core& c = *self.p;
                 if (PyLong_CheckExact(outcome.ptr())) {
                     int overflow = 0;
                     const long t = PyLong_AsLongAndOverflow(outcome.ptr(), &overflow);
                     if (!overflow && t >= 0 && t <= 255 && c.st.chance_possible(static_cast<int>(t))) {
                         c.apply_chance(static_cast<int>(t));
                         return;
                     }
                 }
                 self.h.attr("_refuse_chance")(outcome);
             },
             nb::arg("outcome").none())
        .def_prop_ro("_chance_discarded", [](Core& c) { return c.st.chance_discarded; })
        // -- raw data for the Python side (views, records, signatures) --
        .def_prop_ro("_phase", [](Core& c) { return static_cast<int>(c.st.phase); })
        .def_prop_ro("_tile", [](Core& c) { return c.st.tile; })
        .def_prop_ro("turn", [](Core& c) { return c.st.turn; })
        .def_prop_ro("turn_player", [](Core& c) { return c.st.turn_player; })
        .def_prop_ro("actor", [](Core& c) { return c.st.actor; })
        .def_prop_ro("_last_pos", [](Core& c) -> nb::object {
            if (!c.st.has_last_pos) return nb::none();
            return nb::int_(c.st.last_pos);
        })
        .def_prop_ro("_pending", [](Core& c) { return ints(c.st.pending); })
        .def_prop_ro("_supply", [](Core& c) { return ints(c.st.supply); })
        .def_prop_ro("_abbeys_left", [](Core& c) { return ints(c.st.abbeys_left); })
        .def_prop_ro("_history", [](Core& c) { return ints(c.st.history); })
        .def_prop_rw("_pile", [](Core& c) { return ints(c.st.pile); },
                     [](Core& c, std::vector<uint8_t> pile) {
                         if (pile.size() != c.st.pile.size())
                             throw std::invalid_argument("a pile keeps its size");
                         c.st.pile = std::move(pile);
                     })
        .def_prop_ro("_discarded", [](Core& c) { return ints(c.st.discarded); })
        .def_prop_ro("_occupant", [](Core& c) {
            nb::list out;
            for (const Occupant& o : c.st.occupant) out.append(nb::make_tuple(o.part, o.seat, o.figure));
            return out;
        })
        .def_prop_ro("_log", [](Core& c) {
            nb::list out;
            for (const LogEntry& e : c.st.log)
                out.append(nb::make_tuple(e.turn, e.feature, e.complete, e.points, e.players, e.reason));
            return out;
        })
        .def_prop_ro("_log_size", [](Core& c) { return c.st.log.size(); })
        .def_prop_ro("_wagon_queue", [](Core& c) {
            nb::list out;
            for (const WagonEntry& w : c.st.wagon_queue) out.append(nb::make_tuple(w.seat, w.pos, w.root));
            return out;
        })
        .def_prop_ro("_final_round", [](Core& c) -> nb::object {
            if (!c.st.final_round_on) return nb::none();
            return ints(c.st.final_round);
        })
        .def_prop_ro("_barns", [](Core& c) {
            nb::list out;
            for (const Barn& b : c.st.barns) out.append(nb::make_tuple(b.point, b.seat, b.part));
            return out;
        })
        .def_prop_ro("_new_barn", [](Core& c) -> nb::object {
            if (!c.st.has_new_barn) return nb::none();
            return nb::int_(c.st.new_barn);
        })
        .def_prop_ro("_tiles", [](Core& c) {
            nb::list out;
            for (const PlacedTile& t : c.st.graph.tiles) out.append(nb::make_tuple(t.pos, t.type, t.quarter, t.base));
            return out;
        })
        .def_prop_ro("_frontier", [](Core& c) {
            nb::list out;
            const Frontier& f = c.st.graph.frontier;
            for (size_t i = 0; i < f.pos.size(); ++i)
                if (f.alive(i)) out.append(nb::make_tuple(f.pos[i], f.pattern[i]));
            return out;
        })
        .def("_features", [](Core& c) {
            // Per root: (root, open, tile count, pennants, figure parts, barn points).
            Graph& g = c.st.graph;
            nb::dict out;
            std::vector<int> figs;
            for (int p = 0; p < g.nparts(); ++p) {
                int r = g.find(p);
                if (r != p) continue;
                g.figures(r, figs);
                nb::list barns;
                for (const Barn& b : c.st.barns)
                    if (g.find(b.part) == r) barns.append(b.point);
                out[nb::int_(r)] = nb::make_tuple(static_cast<int>(g.parts[r].open), static_cast<int>(g.parts[r].tile_count),
                                                  static_cast<int>(g.parts[r].pennants), ints(figs), barns);
            }
            return out;
        })
        .def("_roots", [](Core& c) {
            Graph& g = c.st.graph;
            std::vector<int> roots(g.nparts());
            for (int p = 0; p < g.nparts(); ++p) roots[p] = g.find(p);
            return ints(roots);
        })
        .def("_completed_cities", [](Core& c, int root) { return c.st.completed_cities(root); })
        .def("_load", [](Core& c, nb::dict d) {
            c.tracked.obs.reset();
            load_state(c.st, d);
        })
        .def("_memory_bytes", [](Core& c) { return c.st.memory_bytes(); })
        .def("_memory_breakdown", [](Core& c) {
            nb::dict out;
            for (const auto& item : c.st.memory_items()) out[item.first] = item.second;
            return out;
        })
        .def("playout",
             [](Core& c, int policy, uint64_t seed, int me, int min_plies, bool turn_leaves,
                int max_plies, int turns, const std::string& evaluation) {
                 if (policy < 0 || policy > 2) throw std::invalid_argument("unknown policy");
                 const LinearWeights* leaf = kept_weights(*c.spec, evaluation);
                 refuse_chance_mode(c.st, "playouts");
                 c.tracked.obs.reset();  // (the playout changes the position in place)
                 Rng rng(seed);
                 PlayoutStop stop{me, min_plies, turn_leaves, max_plies, turns};
                 bool terminal = false;
                 std::vector<double> values;
                 {
                     nb::gil_scoped_release release;
                     values = playout(c.st, static_cast<Policy>(policy), rng, stop,
                                      c.spec->heuristic, terminal, leaf);
                 }
                 return nb::make_tuple(values, terminal);
             },
             nb::arg("policy"), nb::arg("seed"), nb::arg("me"), nb::arg("min_plies"),
             nb::arg("turn_leaves"), nb::arg("max_plies"), nb::arg("turns"),
             nb::arg("evaluation") = "current")
        .def("_learning_ids", [](Core& c, const ObsSpecHolder& o) {
            if (c.spec != o.spec) throw std::invalid_argument("the layout of another game");
            return learning_ids_of(c.st, o.obs);
        })
        .def("_observe",
             [](Core& c, const ObsSpecHolder& o, int viewer, Array<uint8_t> board,
                Array<int16_t> scalars) {
                 // The whole observation of `viewer` written into the arrays; returns the
                 // legal actions as (learning ids, stable ids).
                 const ObsSpec& spec = layout_for(c, o, viewer);
                 uint8_t* b = checked(board, spec.board_size(), "board");
                 int16_t* s = checked(scalars, static_cast<size_t>(spec.scalars), "scalars");
                 IdList lids, sids;
                 learning_ids(c.st, spec.actions, lids, sids);
                 ObsTracker tracker;
                 tracker.write_full(c.st, spec, viewer, b, s, lids);
                 return nb::make_tuple(owned_array(std::move(lids)), owned_array(std::move(sids)));
             })
        .def("_observe_tracked",
             [](Core& c, std::shared_ptr<ObsSpecHolder> o, int viewer, Array<uint8_t> board,
                Array<int16_t> scalars) {
                 // As _observe, from an observation kept with the position and brought up to
                 // date with what the actions applied since the last call changed.
                 const ObsSpec& spec = layout_for(c, *o, viewer);
                 uint8_t* b = checked(board, spec.board_size(), "board");
                 int16_t* s = checked(scalars, static_cast<size_t>(spec.scalars), "scalars");
                 IdList lids, sids;
                 learning_ids(c.st, spec.actions, lids, sids);
                 std::unique_ptr<TrackedObs>& t = c.tracked.obs;
                 if (!t || t->layout != o) {
                     t = std::make_unique<TrackedObs>();
                     t->layout = o;
                     t->board.resize(spec.board_size());
                     t->scalars.resize(spec.scalars);
                     t->tracker.write_full(c.st, spec, viewer, t->board.data(), t->scalars.data(), lids);
                 } else {
                     t->tracker.after(c.st, spec, viewer, t->board.data(), t->scalars.data(), lids);
                 }
                 std::memcpy(b, t->board.data(), spec.board_size());
                 std::memcpy(s, t->scalars.data(), sizeof(int16_t) * spec.scalars);
                 return nb::make_tuple(owned_array(std::move(lids)), owned_array(std::move(sids)));
             })
        .def("observation_tensor_into",
             [](Core& c, const ObsSpecHolder& o, int viewer, Array<float> out,
                Array<float> scales) {
                 // The float view OpenSpiel reads, (C + 1) x W x W: the board planes as floats,
                 // then one plane whose first cells hold the scalars times `scales` (the
                 // encoder's `tensor`), the rest zero. Written through the same compiled writer.
                 const ObsSpec& spec = layout_for(c, o, viewer);
                 if (spec.channels_last())
                     throw std::invalid_argument("the float view is of a channels-first layout");
                 const size_t cells = spec.board_size(), plane = spec.plane_size();
                 const size_t nscalars = static_cast<size_t>(spec.scalars);
                 float* f = checked(out, cells + plane, "out");
                 const float* k = checked(scales, nscalars, "scales");
                 static thread_local std::vector<uint8_t> board;
                 static thread_local std::vector<int16_t> scalars;
                 static thread_local IdList lids, sids;
                 board.resize(cells);
                 scalars.resize(nscalars);
                 learning_ids(c.st, spec.actions, lids, sids);
                 ObsTracker tracker;
                 tracker.write_full(c.st, spec, viewer, board.data(), scalars.data(), lids);
                 const uint8_t* b = board.data();
                 for (size_t i = 0; i < cells; ++i) f[i] = static_cast<float>(b[i]);
                 float* last = f + cells;
                 for (size_t i = 0; i < nscalars; ++i) last[i] = static_cast<float>(scalars[i]) * k[i];
                 std::fill(last + nscalars, last + plane, 0.0f);
             },
             nb::arg("spec"), nb::arg("viewer"), nb::arg("out"), nb::arg("scales"))
        .def("greedy_action_id", [](Core& c, uint64_t seed) {
            refuse_chance_mode(c.st, "greedy lookahead");
            Rng rng(seed);
            return greedy_choice(c.st, rng, c.spec->heuristic);
        })
        .def("heuristic", [](Core& c) { return potential_scores(c.st, c.spec->heuristic); })
        .def("evaluation", [](Core& c, const std::string& version) {
            const LinearWeights* kept = kept_weights(*c.spec, version);
            return kept ? evaluate(c.st, c.spec->heuristic, *kept) : evaluate(c.st, c.spec->heuristic);
        }, nb::arg("version") = "current")
        .def("seat_features", [](Core& c) {
            nb::list out;
            for (const auto& v : seat_features(c.st, c.spec->heuristic)) {
                nb::list row;
                for (double x : v) row.append(x);
                out.append(row);
            }
            return out;
        });

    nb::class_<ObsSpecHolder>(m, "ObsSpec")
        .def(nb::new_(&make_obs_spec), nb::arg("spec"), nb::arg("layout"))
        .def_prop_ro("board_size", [](const ObsSpecHolder& o) { return o.obs.board_size(); });

    nb::class_<PyVecEnv>(m, "VecEnv")
        .def("__init__",
             [](PyVecEnv* self, std::shared_ptr<Spec> spec, std::shared_ptr<ObsSpecHolder> obs,
                int num_envs, int mode, int seat, Array<uint8_t> board, Array<int16_t> scalars,
                Array<int8_t> mask, Array<float> reward, Array<bool> terminated,
                Array<bool> truncated, Array<int32_t> to_move, Array<float> returns) {
                 new (self) PyVecEnv();
                 if (num_envs < 1) throw std::invalid_argument("num_envs must be at least 1");
                 if (mode < 0 || mode > 2) throw std::invalid_argument("unknown opponent mode");
                 const ObsSpec& o = obs->obs;
                 const size_t n = static_cast<size_t>(num_envs), players = spec->data.players;
                 VecBuffers buf;
                 buf.board = checked(board, n * o.board_size(), "board");
                 buf.scalars = checked(scalars, n * o.scalars, "scalars");
                 buf.mask = checked(mask, n * o.actions.size, "mask");
                 buf.reward = checked(reward, n, "reward");
                 buf.terminated = checked(terminated, n, "terminated");
                 buf.truncated = checked(truncated, n, "truncated");
                 buf.to_move = checked(to_move, n, "to_move");
                 buf.returns = checked(returns, n * players, "returns");
                 self->spec = spec;
                 self->obs = obs;
                 self->board = board;
                 self->scalars = scalars;
                 self->mask = mask;
                 self->reward = reward;
                 self->terminated = terminated;
                 self->truncated = truncated;
                 self->to_move = to_move;
                 self->returns = returns;
                 self->env = std::make_unique<VecEnv>(&spec->data, &spec->bag, !spec->fixed_order,
                                                      &spec->heuristic, &obs->obs, num_envs,
                                                      static_cast<Opponent>(mode), seat, buf);
             })
        .def("reset",
             [](PyVecEnv& v, Array<int64_t> seeds) {
                 const int64_t* s = checked(seeds, static_cast<size_t>(v.env->num_envs()), "seeds");
                 nb::gil_scoped_release release;
                 v.env->reset(s);
             })
        .def("step",
             [](PyVecEnv& v, Array<int64_t> actions) -> nb::object {
                 // The number of games that ended at this step; (kind, game) for the first
                 // bad action (kind 1: out of range, 2: not legal), and then nothing has
                 // changed.
                 const int64_t* a = checked(actions, static_cast<size_t>(v.env->num_envs()), "actions");
                 int kind = 0;
                 const int bad = v.env->check(a, kind);
                 if (bad >= 0) return nb::make_tuple(kind, bad);
                 int ended;
                 {
                     nb::gil_scoped_release release;
                     ended = v.env->step(a);
                 }
                 return nb::int_(ended);
             })
        .def("start",
             [](PyVecEnv& v, int i, std::vector<uint8_t> pile) {
                 if (i < 0 || i >= v.env->num_envs()) throw std::invalid_argument("no such game");
                 for (uint8_t t : pile)
                     if (t >= v.spec->data.tiles.size()) throw std::invalid_argument("no such tile");
                 v.env->start(i, pile);
             })
        .def("copy_into",
             [](PyVecEnv& v, int i, Core& into) {
                 // Game i's position copied into a state of the same game.
                 if (i < 0 || i >= v.env->num_envs()) throw std::invalid_argument("no such game");
                 if (into.spec != v.spec) throw std::invalid_argument("a state of another game");
                 into.st = v.env->state(i);
             });
}
