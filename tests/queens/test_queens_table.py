"""The numbers the game gives the table (games/queens/table.py, `Game.table_data`): each
piece's strength and movement, what the seat to move brings against each enemy space, and the
stacks that must split this turn, checked against the rules' own examples."""

from __future__ import annotations

from queens_helpers import BLUE, RED, custom, joint, move, new_game, seat


def rows(state: object) -> dict[str, dict]:
    data = state.game.table_data(state)  # type: ignore[attr-defined]
    return {row["label"]: row for row in data["pieces"]}


def test_start_pieces_have_their_strength_and_movement() -> None:
    table = rows(new_game())
    queen = table["j15"]  # Red's Queen on her City at (0,4)
    assert (queen["kind"], queen["seat"], queen["strength"], queen["movement"]) == \
        ("queen", RED, 3 + 4, 2)
    assert queen["why"] == "City 3 (plain) + Queen 4 (plain value, in her City)"
    prince = table["i16"]  # (1,3): one space from the Queen
    assert (prince["kind"], prince["strength"], prince["movement"], prince["distance"]) == \
        ("prince", 4, 4, 1)
    assert prince["why"] == "Prince 5 − 1 from its Queen = 4"
    assert sum(1 for row in table.values() if row["seat"] == BLUE) == 5


def test_prince_on_a_mountain_counts_double_and_moves_by_its_distance() -> None:
    # QUE-VAL-04: a Prince on a mountain 1 space from its Queen defends with 8.
    state = custom(seat((0, 1), princes=[(0, 0), (4, -4)]), seat((0, -4)))
    table = rows(state)
    mountain = table["f11"]
    assert (mountain["strength"], mountain["movement"]) == (8, 4)
    assert mountain["why"] == "Prince 5 − 1 from its Queen = 4, doubled on the mountain"
    far = table["b15"]  # (4,-4): 5 from its Queen, worth 0, still moves 1
    assert (far["strength"], far["movement"]) == (0, 1)


def test_attacks_show_yours_against_theirs_for_the_seat_to_move() -> None:
    state = custom(seat((-1, 4), princes=[(-1, 3), (0, 2)], cities=[(-1, 4)]),
                   seat((2, 0), princes=[(-1, 2), (3, -4)]))
    attacks = {row["label"]: row for row in state.game.table_data(state)["attacks"]}
    target = attacks["h11"]  # Blue's Prince on the mountain (-1,2), 3 from its Queen
    assert (target["yours"], target["joint"], target["theirs"]) == (3, 6, 4)
    assert all(row["seat"] == BLUE for row in attacks.values())
    assert set(attacks) == {"h11", "b13", "f15"}  # two Princes and the Queen


def test_a_stack_is_flagged_at_the_start_of_its_owners_next_turn() -> None:
    state = custom(seat((-1, 4), princes=[(-1, 3), (0, 2)], cities=[(-1, 4)]),
                   seat((2, 0), princes=[(-1, 2), (3, -4)]))
    state.apply(joint((-1, 3), (0, 2), (-1, 2)))
    # Blue to move: Red's stack is not Blue's to split
    assert state.game.table_data(state)["must_split"] == []
    assert rows(state)["h11"]["kind"] == "stack"
    # two Princes 2 from their Queen, doubled on the mountain
    assert rows(state)["h11"]["strength"] == 2 * (5 - 2) * 2
    state.apply(move((3, -4), (3, -3)))
    assert state.game.table_data(state)["must_split"] == ["h11"]
