"""Game analysis: each decision judged from its mover's information, the move played compared on
the same samples as the bot's best, for every game."""

from __future__ import annotations

import json
import random

import pytest

import boardwright as bw
from boardwright.agents.analysis import (
    FLAGS, Analysis, Settings, analyse, default_iterations, flag_for, judge, record_hash,
)
from boardwright.agents.mcts import MCTSAgent

GAMES = [("carcassonne", {"expansions": ["abbey_mayor"]}), ("queens", {}), ("shogun", {})]
TINY = Settings(iterations=24, candidates=4, seed=5)


def record(name: str, options: dict, plies: int, players: int = 2, seed: int = 3
           ) -> bw.GameRecord:
    """A record of `plies` random moves (or the whole game if it ends first)."""
    state = bw.load(name, players, options).new_game(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state.record


@pytest.mark.usefixtures("carcassonne_engine")
@pytest.mark.parametrize("name, options", GAMES, ids=[g for g, _ in GAMES])
def test_every_decision_compares_the_move_played_with_the_best(name: str, options: dict) -> None:
    rec = record(name, options, 14)
    analysis = analyse(rec, TINY, workers=1)
    assert [d.step for d in analysis.decisions] == list(range(len(rec.actions)))
    state = bw.replay(rec, steps=0)
    judged = 0
    for decision, data in zip(analysis.decisions, rec.actions):
        assert decision.seat == state.current_player
        assert decision.played_action == data
        if len(state.legal_actions()) == 1:
            assert decision.forced and decision.margin is None and decision.lost == 0
        else:
            judged += 1
            assert not decision.forced and decision.samples > 0
            assert decision.lost >= 0
            assert decision.lost == round(decision.best_margin - decision.margin, 1)
            if decision.best_action == data:
                assert decision.lost == 0.0
            unit = state.game.analysis_unit  # the game's own unit and thresholds
            assert decision.flag == (None if unit.lost(decision.best_margin)
                                     else flag_for(decision.lost, unit.flags or FLAGS))
            assert decision.leads is not None and len(decision.leads) == rec.players
        state.apply(data)
    assert judged > 0
    seats = analysis.seats
    assert sum(s.decisions for s in seats) == judged
    assert all(s.average_lost >= 0 for s in seats)


def test_the_analysis_is_reproducible_and_round_trips_through_json() -> None:
    rec = record("carcassonne", {}, 10)
    first = analyse(rec, TINY, workers=1)
    again = analyse(rec, TINY, workers=1)
    assert first.decisions == again.decisions and first.seats == again.seats
    other = analyse(rec, Settings(iterations=24, candidates=4, seed=6), workers=1)
    assert [d.margin for d in other.decisions] != [d.margin for d in first.decisions]
    loaded = Analysis.loads(json.dumps(first.to_json()))
    assert loaded.decisions == first.decisions and loaded.settings == first.settings
    settings = TINY.resolved(rec)  # the engine named: the game's default
    assert settings.engine == bw.available_engines("carcassonne")[0]
    assert loaded.settings == settings and loaded.matches(record_hash(rec), settings)
    assert not loaded.matches(record_hash(rec), Settings(iterations=25, candidates=4, seed=5,
                                                         engine=settings.engine))
    spelled = bw.GameRecord.from_json({**rec.to_json(), "options": {}})  # defaults left out
    assert record_hash(spelled) == record_hash(rec)


def test_a_process_pool_gives_the_analysis_of_one_process() -> None:
    rec = record("carcassonne", {}, 8)
    seen: list[tuple[int, int]] = []
    pooled = analyse(rec, TINY, workers=2, progress=lambda done, total: seen.append((done, total)))
    assert pooled.decisions == analyse(rec, TINY, workers=1).decisions
    assert seen[0] == (0, 8) and seen[-1] == (8, 8)


@pytest.mark.usefixtures("carcassonne_engine")
def test_the_position_is_not_touched() -> None:
    state = bw.replay(record("carcassonne", {"expansions": ["abbey_mayor"]}, 9))
    before = state.signature()
    played = state.legal_actions()[-1]
    judge(state, played, 9, TINY)
    assert state.signature() == before


@pytest.mark.usefixtures("carcassonne_engine")
def test_a_decision_is_judged_from_the_movers_information_not_the_real_draws() -> None:
    """Two positions that differ only in the order of the hidden draw pile (what the mover
    cannot know) get the same judgement: the search never reads the real future."""
    state = bw.replay(record("carcassonne", {}, 20))
    seat = state.current_player
    twin = state.determinize(seat, random.Random(99))
    assert twin.pile != state.pile and sorted(twin.pile) == sorted(state.pile)
    assert twin.view(seat) == state.view(seat)
    played = state.legal_actions()[0]
    settings = Settings(iterations=64, candidates=4, seed=2)
    assert judge(twin, played, 20, settings) == judge(state, played, 20, settings)


def test_three_to_six_player_carcassonne_gives_every_seat_a_lead() -> None:
    rec = record("carcassonne", {"expansions": ["abbey_mayor"]}, 12, players=4)
    analysis = analyse(rec, TINY, workers=1)
    assert analysis.players == 4 and len(analysis.seats) == 4
    rows = analysis.margins()
    assert len(rows) == len(rec.actions) + 1 and all(len(r) == 4 for r in rows)
    for decision in analysis.decisions:
        if decision.leads is not None:
            # In every sample two seats' leads add up to at most 0 (only the leader's is
            # positive, and by no more than the runner-up's shortfall): so do the means.
            first, second = sorted(decision.leads, reverse=True)[:2]
            assert first + second <= 1e-9
            assert decision.leads[decision.seat] == pytest.approx(decision.margin)


def test_the_included_action_is_compared_without_changing_anything_else() -> None:
    state = bw.replay(record("carcassonne", {}, 6))
    actions = state.legal_actions()
    plain = MCTSAgent(seed=1, iterations=40, paired=2, reuse=False)
    plain.adopt(state.game)
    plain.search(state, actions)
    empty = MCTSAgent(seed=1, iterations=40, paired=2, reuse=False)
    empty.adopt(state.game)
    empty.search(state, actions, include=())
    assert empty.margins == plain.margins
    worst = [a for a in actions if a not in plain.margins][-1]
    extra = MCTSAgent(seed=1, iterations=60, paired=2, reuse=False)
    extra.adopt(state.game)
    extra.search(state, actions, include=[worst])
    assert set(extra.margins) == set(plain.margins) | {worst}
    counts = {count for _, count in extra.margins.values()}
    assert counts == {20}  # the same rounds (samples) for every candidate


def test_the_default_budget_shrinks_with_more_players() -> None:
    assert [default_iterations(n) for n in (1, 2, 3, 4, 6, 8)] == [480, 480, 320, 240,
                                                                  160, 120]
    rec = record("carcassonne", {}, 0, players=4)
    settings = Settings().resolved(rec)
    assert settings.iterations == 240 and settings.engine is not None
    assert Settings(iterations=50).resolved(rec).iterations == 50


def test_flags_follow_the_documented_thresholds() -> None:
    assert [name for name, _ in FLAGS] == ["blunder", "mistake", "inaccuracy"]
    assert flag_for(0.0) is None and flag_for(1.99) is None
    assert flag_for(2.0) == "inaccuracy" and flag_for(3.9) == "inaccuracy"
    assert flag_for(4.0) == "mistake" and flag_for(6.9) == "mistake"
    assert flag_for(7.0) == "blunder" and flag_for(30.0) == "blunder"


def test_bad_input_is_refused_clearly() -> None:
    rec = record("queens", {}, 3)
    with pytest.raises(bw.InvalidOptionError, match="iterations"):
        analyse(rec, Settings(iterations=0))
    with pytest.raises(bw.InvalidOptionError, match="workers"):
        analyse(rec, TINY, workers=0)
    with pytest.raises(bw.CorruptRecordError):
        analyse({"game": "queens"}, TINY)
    broken = rec.to_json()
    broken["actions"].append({"type": "nonsense"})
    with pytest.raises(bw.CorruptRecordError, match="does not replay"):
        analyse(broken, TINY, workers=1)
    with pytest.raises(bw.CorruptRecordError):
        Analysis.loads(b"{not json")
