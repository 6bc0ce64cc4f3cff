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
#include <tsl/robin_map.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "heuristic.h"
#include "playout.h"
#include "state.h"

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
    auto weights = nb::cast<std::vector<std::vector<double>>>(hd["weights"]);
    for (int k = 0; k < NUM_FEATURES; ++k)
        for (int j = 0; j < 3; ++j) h.weights[k][j] = weights.at(k).at(j);
    auto to_move = nb::cast<std::vector<double>>(hd["to_move"]);
    for (int j = 0; j < 3; ++j) h.to_move[j] = to_move.at(j);
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
    return spec;
}

struct Core {
    std::shared_ptr<Spec> spec;
    State st;
    nb::object game, seed, meta;
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

template <typename V>
nb::list ints(const V& v) {
    nb::list out;
    for (const auto& x : v) out.append(static_cast<int64_t>(x));
    return out;
}

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
                     c.st.apply_id(it->second);
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
                 c.st.apply_id(id);
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
                         c.st.apply_chance(static_cast<int>(t));
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
        .def("_load", [](Core& c, nb::dict d) { load_state(c.st, d); })
        .def("_memory_bytes", [](Core& c) { return c.st.memory_bytes(); })
        .def("_memory_breakdown", [](Core& c) {
            nb::dict out;
            for (const auto& item : c.st.memory_items()) out[item.first] = item.second;
            return out;
        })
        .def("playout",
             [](Core& c, int policy, uint64_t seed, int me, int min_plies, bool turn_leaves,
                int max_plies, int turns) {
                 if (policy < 0 || policy > 2) throw std::invalid_argument("unknown policy");
                 refuse_chance_mode(c.st, "playouts");
                 Rng rng(seed);
                 PlayoutStop stop{me, min_plies, turn_leaves, max_plies, turns};
                 bool terminal = false;
                 std::vector<double> values;
                 {
                     nb::gil_scoped_release release;
                     values = playout(c.st, static_cast<Policy>(policy), rng, stop,
                                      c.spec->heuristic, terminal);
                 }
                 return nb::make_tuple(values, terminal);
             })
        .def("greedy_action_id", [](Core& c, uint64_t seed) {
            refuse_chance_mode(c.st, "greedy lookahead");
            Rng rng(seed);
            return greedy_choice(c.st, rng, c.spec->heuristic);
        })
        .def("heuristic", [](Core& c) { return potential_scores(c.st, c.spec->heuristic); })
        .def("evaluation", [](Core& c) { return evaluate(c.st, c.spec->heuristic); })
        .def("seat_features", [](Core& c) {
            nb::list out;
            for (const auto& v : seat_features(c.st, c.spec->heuristic)) {
                nb::list row;
                for (double x : v) row.append(x);
                out.append(row);
            }
            return out;
        });
}
