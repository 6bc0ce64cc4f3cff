"""The learned value's network (value_net.py): the shipped file reads, the "learned" evaluation
adds exactly its correction to the current linear values (the current and kept versions do
not, a network shipped or not), it is offered only where a network is shipped, the compiled
engine computes the same numbers as the reference (its playouts too), and a malformed network
is refused by name."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

import boardwright as bw
from boardwright.games.carcassonne import evaluation
from boardwright.games.carcassonne.position_features import seat_features
from boardwright.core.game import PlayoutStop
from boardwright.games.carcassonne.value_net import (
    ValueNet,
    correction,
    held_segments,
    net_file,
    parse_net,
    shipped_net,
)
from boardwright.rl.observations import encoder_for


from native_support import needs_native  # noqa: E402

pytestmark = pytest.mark.engines(reason="names its engines itself")
AM = {"expansions": ["abbey_mayor"]}
DATA = resources.files("boardwright.games.carcassonne").joinpath("data")


def made_net(players: int, seed: int = 0, holders: bool = True) -> dict:
    """A network of the shipped form with seeded random weights (what the tests judge by, so
    that they hold whichever networks are shipped)."""
    rng = random.Random(seed)
    sizes = [(18 + 15 * holders) * players + 2, 8, 4, players]
    layers = [{"weights": [[rng.gauss(0, 0.5) for _ in range(b)] for _ in range(a)],
               "bias": [rng.gauss(0, 0.1) for _ in range(b)]} for a, b in zip(sizes, sizes[1:])]
    return {"format": 1, "players": players, "inputs": "hand+holders" if holders else "hand",
            "features": 18,
            "mean": [rng.uniform(0, 2) for _ in range(sizes[0])],
            "spread": [rng.uniform(0.5, 3) for _ in range(sizes[0])],
            "scale": 7.5, "layers": layers}


def ship(monkeypatch: pytest.MonkeyPatch, made: object) -> None:
    """Both engines read `made` as the shipped networks (the compiled one through the game's
    data, whose versions come from the evaluation module)."""
    monkeypatch.setattr("boardwright.games.carcassonne.evaluation.shipped_net", made)


@pytest.fixture(autouse=True)
def _judged_by_made_networks(monkeypatch: pytest.MonkeyPatch) -> None:
    ship(monkeypatch, lambda players: parse_net(made_net(players), players))


def positions(engine: str, players: int = 2, games: int = 2):
    """Positions of random games, the start and the end included."""
    game = bw.load("carcassonne", players=players, options=AM, engine=engine)
    rng = random.Random(players)
    for index in range(games):
        state = game.new_game(index)
        while True:
            yield state
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))


def on_python(state: bw.State) -> bw.State:
    return state.to_python() if hasattr(state, "to_python") else state


@pytest.mark.parametrize("players", range(1, 7))
def test_every_shipped_network_reads(players: int) -> None:
    net = shipped_net(players)
    if not DATA.joinpath(net_file(players)).is_file():
        assert net is None
        return
    assert isinstance(net, ValueNet) and net.players == players
    assert net.inputs == (18 + 15 * net.holders) * players + 2
    assert len(net.layers[-1][1]) == players


def test_the_shipped_2_player_network_reads_the_holders() -> None:
    raw = json.loads(DATA.joinpath(net_file(2)).read_text())
    assert (raw["format"], raw["players"], raw["inputs"]) == (1, 2, "hand+holders")
    net = shipped_net(2)  # (the file itself: the made networks replace it elsewhere only)
    assert net is not None and net.holders and net.inputs == (18 + 15) * 2 + 2


def test_the_learned_evaluation_adds_the_networks_correction() -> None:
    net = parse_net(made_net(2), 2)
    checked = 0
    for state in positions("python", games=1):
        linear = evaluation.evaluate(state, evaluation.default_weights(2))
        learned = state.game.evaluation_of("learned", state)
        if state.is_terminal:
            assert learned == linear
            continue
        extra = correction(net, seat_features(state), state.turn_player,
                           evaluation.pile_share(state), held_segments(state, state.turn_player))
        assert learned == pytest.approx([a + b for a, b in zip(linear, extra)], abs=1e-9)
        checked += any(abs(x) > 1e-6 for x in extra)
    assert checked > 20  # the network does say something


@pytest.mark.parametrize("engine", ["python", pytest.param("native", marks=needs_native)])
def test_the_current_evaluation_ignores_a_shipped_network(engine: str) -> None:
    differ = 0
    for index, state in enumerate(positions(engine, games=1)):
        if index % 3:
            continue
        linear = evaluation.evaluate(on_python(state), evaluation.default_weights(2))
        assert "learned" in state.game.evaluation_versions  # (a network is shipped)
        assert state.game.evaluation(state) == pytest.approx(linear, rel=1e-12, abs=1e-9)
        assert state.game.evaluation_of("current", state) == pytest.approx(
            linear, rel=1e-12, abs=1e-9)
        differ += state.game.evaluation_of("learned", state) != pytest.approx(linear)
    assert differ > 10


@pytest.mark.parametrize("engine", ["python", pytest.param("native", marks=needs_native)])
def test_learned_is_offered_only_where_a_network_is_shipped(
        engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ship(monkeypatch, lambda players: parse_net(made_net(2), 2) if players == 2 else None)
    two = bw.load("carcassonne", 2, AM, engine=engine)
    three = bw.load("carcassonne", 3, AM, engine=engine)
    assert two.evaluation_versions == ("current", "v1", "v2", "learned")
    assert three.evaluation_versions == ("current", "v1", "v2")
    state = three.new_game(1)
    with pytest.raises(bw.InvalidOptionError,
                       match="no evaluation named 'learned' with 3 players: no value network "
                             "is shipped for 3 players"):
        three.evaluation_of("learned", state)
    if engine == "native":
        with pytest.raises(bw.InvalidOptionError, match="'learned' with 3 players; known: "
                                                        "current, v1, v2$"):
            three.playout(state.clone(), "greedy", random.Random(1), PlayoutStop(0),
                          evaluation="learned")


def test_the_networks_shipped_are_those_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    """As shipped (no made networks): "learned" exactly for the counts with a file."""
    from boardwright.games.carcassonne import value_net

    ship(monkeypatch, value_net.shipped_net)
    for players in range(1, 7):
        game = bw.load("carcassonne", players, AM, engine="python")
        assert ("learned" in game.evaluation_versions) is DATA.joinpath(
            net_file(players)).is_file()
    assert "learned" in bw.load("carcassonne", 2, engine="python").evaluation_versions


def test_kept_versions_are_judged_without_the_network() -> None:
    state = next(s for i, s in enumerate(positions("python")) if i == 40)
    weights = evaluation.shipped_weights("v2", 2)
    assert state.game.evaluation_of("v2", state) == evaluation.evaluate(state, weights)


@needs_native
@pytest.mark.parametrize("players", [2, 3])
def test_the_compiled_value_is_the_references(players: int) -> None:
    net = parse_net(made_net(players), players)
    weights = evaluation.default_weights(players)
    compared = 0
    for state in positions("native", players, games=1):
        assert state.game.evaluation_of("learned", state) == pytest.approx(
            evaluation.evaluate(state.to_python(), weights, net), rel=1e-12, abs=1e-9)
        compared += 1
    assert compared > 100


@needs_native
def test_compiled_playouts_judge_their_leaves_by_the_learned_value() -> None:
    state = next(s for i, s in enumerate(positions("native")) if i == 30)
    stop = PlayoutStop(state.current_player, 0, True, 600, 2)
    net = parse_net(made_net(2), 2)
    values = {}
    for version in ("learned", "current"):
        leaf = state.clone()
        values[version], terminal = state.game.playout(leaf, "greedy", random.Random(7), stop,
                                                       evaluation=version)
        assert not terminal
    # (greedy playouts follow the heuristic: the same leaf, judged two ways)
    assert values["learned"] == pytest.approx(evaluation.evaluate(
        leaf.to_python(), evaluation.default_weights(2), net), rel=1e-12, abs=1e-9)
    assert values["current"] == pytest.approx(evaluation.evaluate(leaf.to_python()),
                                              rel=1e-12, abs=1e-9)
    assert values["learned"] != pytest.approx(values["current"])


@pytest.mark.parametrize("engine", ["python", pytest.param("native", marks=needs_native)])
def test_held_segments_are_the_observations_holders_planes_summed(engine: str) -> None:
    encoder = encoder_for(bw.load("carcassonne", players=3, options=AM))
    first, count = encoder.board_blocks["holders"]
    compared = 0
    for index, state in enumerate(positions(engine, players=3, games=1)):
        if index % 7:
            continue
        python = state if engine == "python" else state.to_python()
        for seat in range(3):
            board = encoder.encode_state(state, seat)["board"]
            pooled = board[first:first + count].reshape(count, -1).sum(axis=1)
            assert held_segments(python, seat) == [float(v) for v in pooled]
        compared += any(held_segments(python, 0))
    assert compared > 5


@pytest.mark.parametrize("holders", [False, True])
def test_either_kind_of_network_is_computed_alike_by_both_engines(
        holders: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if bw.load("carcassonne").engine != "native":
        pytest.skip("the compiled engine is not built here")
    net = parse_net(made_net(2, 3, holders), 2)
    ship(monkeypatch, lambda players: net)
    weights = evaluation.default_weights(2)
    for index, state in enumerate(positions("native", 2, games=1)):
        if index % 5 == 0:
            assert state.evaluation("learned") == pytest.approx(
                evaluation.evaluate(state.to_python(), weights, net), rel=1e-12, abs=1e-9)


def test_the_network_reads_its_inputs_from_the_mover() -> None:
    """Relative seats: the mover's features first, its output to the mover."""
    net = parse_net(made_net(2, holders=False), 2)
    features = [[float(i) for i in range(18)], [float(2 * i) for i in range(18)]]
    as_seat_0 = correction(net, features, 0, 0.5)
    as_seat_1 = correction(net, features[::-1], 1, 0.5)
    assert as_seat_1 == pytest.approx(as_seat_0[::-1])
    assert as_seat_0[0] != pytest.approx(as_seat_0[1])


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(players=3), "trained for 3 players, not 2"),
    (lambda d: d.update(format=7), "format 7"),
    (lambda d: d.update(inputs="hand+obs"), "inputs 'hand\\+obs'"),
    (lambda d: d.update(inputs="hand"), "inputs or outputs of the wrong size"),
    (lambda d: d["layers"][0]["bias"].pop(), "layer sizes do not chain"),
    (lambda d: d["spread"].pop(), "inputs or outputs of the wrong size"),
    (lambda d: d.pop("scale"), "'scale'"),
])
def test_a_malformed_network_is_refused_by_name(change, message: str) -> None:
    raw = made_net(2)
    change(raw)
    with pytest.raises(bw.InvalidOptionError, match=f"value network: .*{message}"):
        parse_net(raw, 2)


def test_a_network_file_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(bw.InvalidOptionError, match="value network: "):
        parse_net([1, 2, 3], 2)  # type: ignore[arg-type]
