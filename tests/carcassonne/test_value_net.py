"""The learned value's network (value_net.py): the shipped file reads, the current evaluation
adds exactly its correction to the linear values (the kept versions do not), the compiled
engine computes the same numbers as the reference, and a malformed network is refused by name."""

from __future__ import annotations

import random
from importlib import resources

import pytest

import boardwright as bw
from boardwright.games.carcassonne import evaluation
from boardwright.games.carcassonne.position_features import seat_features
from boardwright.games.carcassonne.value_net import (
    ValueNet,
    correction,
    held_segments,
    net_file,
    parse_net,
    shipped_net,
)
from boardwright.rl.observations import encoder_for

pytest.register_assert_rewrite("native_support")

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


@pytest.fixture(autouse=True)
def _judged_by_made_networks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both engines read the made networks (the compiled one through the game's data)."""
    def made(players: int) -> ValueNet:
        return parse_net(made_net(players), players)

    monkeypatch.setattr("boardwright.games.carcassonne.evaluation.shipped_net", made)
    monkeypatch.setattr("boardwright.games.carcassonne.native.spec.shipped_net", made)


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


@pytest.mark.parametrize("players", range(1, 7))
def test_every_shipped_network_reads(players: int) -> None:
    net = shipped_net(players)
    if not DATA.joinpath(net_file(players)).is_file():
        assert net is None
        return
    assert isinstance(net, ValueNet) and net.players == players
    assert net.inputs == (18 + 15 * net.holders) * players + 2
    assert len(net.layers[-1][1]) == players


def test_the_current_evaluation_adds_the_networks_correction() -> None:
    net = parse_net(made_net(2), 2)
    checked = 0
    for state in positions("python", games=1):
        linear = evaluation.evaluate(state, evaluation.default_weights(2))
        current = evaluation.evaluate(state)
        if state.is_terminal:
            assert current == linear
            continue
        extra = correction(net, seat_features(state), state.turn_player,
                           evaluation.pile_share(state), held_segments(state, state.turn_player))
        assert current == pytest.approx([a + b for a, b in zip(linear, extra)], abs=1e-9)
        checked += any(abs(x) > 1e-6 for x in extra)
    assert checked > 20  # the network does say something


def test_kept_versions_are_judged_without_the_network() -> None:
    state = next(s for i, s in enumerate(positions("python")) if i == 40)
    weights = evaluation.shipped_weights("v2", 2)
    assert state.game.evaluation_of("v2", state) == evaluation.evaluate(state, weights)


@needs_native
@pytest.mark.parametrize("players", [2, 3])
def test_the_compiled_value_is_the_references(players: int) -> None:
    compared = 0
    for state in positions("native", players, games=1):
        assert state.evaluation() == pytest.approx(
            evaluation.evaluate(state.to_python()), rel=1e-12, abs=1e-9)
        compared += 1
    assert compared > 100


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

    def made(players: int) -> ValueNet:
        return parse_net(made_net(players, 3, holders), players)

    monkeypatch.setattr("boardwright.games.carcassonne.evaluation.shipped_net", made)
    monkeypatch.setattr("boardwright.games.carcassonne.native.spec.shipped_net", made)
    for index, state in enumerate(positions("native", 2, games=1)):
        if index % 5 == 0:
            assert state.evaluation() == pytest.approx(
                evaluation.evaluate(state.to_python()), rel=1e-12, abs=1e-9)


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
