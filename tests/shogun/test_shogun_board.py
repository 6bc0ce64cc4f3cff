"""The map: SHO-BOARD-01..06, the rows and figures of content §1, and the validation of
corrupted copies of the map data."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from shogun_helpers import BOARD, raw

import boardwright as bw
from boardwright.games.shogun.board import PieceKind, may_share, min_separation, parse_map

P = PieceKind


@pytest.mark.rule("SHO-BOARD-01")
def test_map_graph_adjacency() -> None:
    assert len(BOARD) == 64
    assert BOARD.adjacent("nagato", "buzen")  # strait link
    assert BOARD.is_strait("nagato", "buzen")
    assert BOARD.adjacent("suruga", "kai")
    assert not BOARD.adjacent("heian", "kii")
    for i, near in enumerate(BOARD.neighbours):
        for j in near:
            assert i in BOARD.neighbours[j]
    kinds = Counter(kind for _, _, kind in BOARD.edges())
    assert kinds == {"land": 125, "strait": 7}
    assert {frozenset((s.a, s.b)) for s in BOARD.straits} == {
        frozenset(p) for p in [("nagato", "buzen"), ("nagato", "chikuzen"), ("awaji", "harima"),
                               ("awaji", "awa_shikoku"), ("awaji", "kii"), ("sanuki", "bizen"),
                               ("iyo", "bungo")]}


@pytest.mark.rule("SHO-BOARD-02")
def test_heian_is_the_yamashiro_space() -> None:
    heian = BOARD.space("heian")
    assert heian.name == "Heian (Yamashiro)" and heian.island == "honshu"
    assert BOARD.neighbours_of("heian") == ("yamato", "kawachi", "settsu", "iga", "omi", "tanba")
    # A space like any other, except that no castle may stand on it (it is in the zone).
    assert BOARD.in_no_castle_zone("heian")
    assert may_share([], P.PEASANT)


@pytest.mark.rule("SHO-BOARD-03")
def test_the_lake_is_not_a_space() -> None:
    assert "lake_biwa" not in BOARD and "lake" not in BOARD
    assert all(s.id != "lake_biwa" for s in BOARD.spaces)
    assert [f.id for f in BOARD.features] == ["lake_biwa"]
    assert BOARD.features[0].inside == "omi" and (BOARD.features[0].x, BOARD.features[0].y) == (
        560, 491)
    for name in ("lake_biwa", "lake"):
        with pytest.raises(bw.MalformedActionError, match="not a space"):
            BOARD.space(name)
        with pytest.raises(bw.MalformedActionError, match="unknown space"):
            BOARD.distance("omi", name)
    with pytest.raises(bw.MalformedActionError, match="unknown space 'atlantis'"):
        BOARD.space("atlantis")
    # It creates no adjacency and blocks none: Omi's shores all belong to Omi.
    assert set(BOARD.neighbours_of("omi")) == {"heian", "iga", "ise", "mino", "wakasa",
                                               "echizen", "tanba"}


@pytest.mark.rule("SHO-BOARD-03")
def test_a_map_naming_the_lake_as_a_space_or_neighbour_is_rejected() -> None:
    data = raw("map.toml")
    data["spaces"][20]["neighbours"].append("lake_biwa")
    data["spaces"][20]["degree"] += 1
    with pytest.raises(bw.InvalidOptionError, match="'omi'.*lake_biwa.*not a space"):
        parse_map(data)
    data = raw("map.toml")
    data["spaces"][0]["id"] = "lake_biwa"
    with pytest.raises(bw.InvalidOptionError, match="map feature"):
        parse_map(data)


@pytest.mark.rule("SHO-BOARD-04")
def test_one_piece_per_space() -> None:
    for occupant in (P.HERO, P.SHRINE, P.CASTLE, P.PEASANT):
        assert not may_share([occupant], P.PEASANT)
        assert not may_share([occupant], P.CASTLE)
    assert may_share([P.CASTLE], P.LORD)  # a roof lord or court marker on its castle
    assert not may_share([P.CASTLE, P.LORD], P.LORD)
    assert not may_share([], P.LORD)
    assert not may_share([P.SHRINE], P.HERO)
    assert may_share([P.SHRINE], P.HERO, hero_searching=True)  # SHO-MOVE-06
    assert not may_share([P.SHRINE, P.HERO], P.PEASANT, hero_searching=True)


@pytest.mark.rule("SHO-BOARD-05")
def test_distance() -> None:
    assert BOARD.distance("satsuma", "chikugo") == 2
    assert BOARD.distance("satsuma", "chikuzen") == 3
    assert BOARD.distance("satsuma", "satsuma") == 0
    assert BOARD.distance("izu", "suruga") == 1
    assert BOARD.diameter == 13
    for a, b in combinations(["satsuma", "kai", "awaji", "mutsu", "heian"], 2):
        assert BOARD.distance(a, b) == BOARD.distance(b, a)


@pytest.mark.rule("SHO-BOARD-06")
def test_no_castle_zone() -> None:
    zone = {BOARD.ids[i] for i in BOARD.no_castle_zone}
    assert zone == {"heian", "yamato", "kawachi", "izumi", "settsu", "iga", "ise", "omi", "mino",
                    "wakasa", "echizen", "tanba", "tango", "tajima", "harima", "kii"}
    assert BOARD.in_no_castle_zone("mino") and BOARD.distance("heian", "mino") == 2
    assert not BOARD.in_no_castle_zone("owari") and BOARD.distance("heian", "owari") == 3
    assert len(BOARD) - len(zone) == 48


# -- the rows and figures of content §1 ------------------------------------------------------------


def test_space_rows_exactly() -> None:
    shinano = BOARD.space("shinano")
    assert (shinano.name, shinano.island, shinano.region, shinano.x, shinano.y) == (
        "Shinano", "honshu", "Tosando", 770, 406)
    assert BOARD.neighbours_of("shinano") == ("mikawa", "totomi", "suruga", "kai", "musashi",
                                              "mino", "hida", "kozuke", "etchu", "echigo")
    awaji = BOARD.space("awaji")
    assert (awaji.island, awaji.region, awaji.x, awaji.y) == ("awaji", "Nankaido", 416, 604)
    assert BOARD.neighbours_of("awaji") == ("harima", "kii", "awa_shikoku")
    assert BOARD.space("osumi").index == 63 and BOARD.space("heian").index == 0
    assert BOARD.space("awa_boso").name == "Awa (Boso)"


def test_figures_of_the_verification_section() -> None:
    assert Counter(s.island for s in BOARD.spaces) == {"honshu": 50, "shikoku": 4, "kyushu": 9,
                                                       "awaji": 1}
    degrees = [len(n) for n in BOARD.neighbours]
    assert (min(degrees), max(degrees), sum(degrees) / len(degrees)) == (1, 10, 4.125)
    assert {BOARD.ids[i] for i, n in enumerate(BOARD.neighbours) if len(n) == 1} == {
        "shima", "awa_boso"}
    assert min_separation(BOARD) >= 31


def test_the_example_castles_and_shrines_fit() -> None:
    castles = ["satsuma", "buzen", "tosa", "inaba", "aki", "kaga", "suruga", "mutsu"]
    table = {"satsuma": [3, 4, 7, 6, 10, 10, 11, 8], "kaga": [10, 9, 7, 5, 8, 3, 3, 3]}
    for name, row in table.items():
        assert [BOARD.distance(name, c) for c in castles if c != name] + [
            BOARD.distance(name, "heian")] == row
    for a, b in combinations(castles, 2):
        assert BOARD.distance(a, b) >= 3
    assert all(BOARD.distance(c, "heian") >= 3 for c in castles)
    shrines = ["owari", "shimosa", "bizen", "hizen"]
    for s in shrines:
        assert all(BOARD.distance(s, x) >= 2 for x in castles + ["heian"])
    for a, b in combinations(shrines, 2):
        assert BOARD.distance(a, b) >= 2


def test_six_castles_can_block_placement() -> None:
    blocking = ["shinano", "bungo", "bingo", "kazusa", "shima", "awaji"]
    for a, b in combinations(blocking, 2):
        assert BOARD.distance(a, b) >= 3
    free = [s for s in BOARD.ids if BOARD.distance(s, "heian") >= 3
            and all(BOARD.distance(s, c) >= 3 for c in blocking)]
    assert free == []


def test_json_form_for_renderers() -> None:
    data = BOARD.to_json()
    assert len(data["spaces"]) == 64 and len(data["edges"]) == 132
    assert data["features"][0]["id"] == "lake_biwa"
    assert ["nagato", "buzen", "strait"] in data["edges"]


# -- corrupted copies ----------------------------------------------------------------------------


def _index(data: dict, space: str) -> int:
    return next(i for i, s in enumerate(data["spaces"]) if s["id"] == space)


def test_the_shipped_map_parses() -> None:
    assert parse_map(raw("map.toml")).edges() == BOARD.edges()


def test_asymmetric_adjacency_is_rejected() -> None:
    data = raw("map.toml")
    i = _index(data, "kai")
    data["spaces"][i]["neighbours"].remove("sagami")
    data["spaces"][i]["degree"] -= 1
    with pytest.raises(bw.InvalidOptionError, match="not symmetric: sagami lists kai"):
        parse_map(data)


def test_unknown_neighbour_and_wrong_degree_are_rejected() -> None:
    data = raw("map.toml")
    i = _index(data, "izu")
    data["spaces"][i]["neighbours"].append("edo")
    data["spaces"][i]["degree"] += 1
    with pytest.raises(bw.InvalidOptionError, match="'izu'.*unknown neighbour 'edo'"):
        parse_map(data)
    data = raw("map.toml")
    data["spaces"][_index(data, "izu")]["degree"] = 3
    with pytest.raises(bw.InvalidOptionError, match="'degree' is 3 but 2"):
        parse_map(data)


def test_strait_marks_must_match_the_strait_table() -> None:
    data = raw("map.toml")
    i = _index(data, "bungo")
    data["spaces"][i]["neighbours"][0] = "iyo"  # mark removed on one side only
    with pytest.raises(bw.InvalidOptionError, match="strait mark of"):
        parse_map(data)
    data = raw("map.toml")
    data["straits"].pop()
    with pytest.raises(bw.InvalidOptionError, match="without an entry in \\[\\[straits\\]\\]"):
        parse_map(data)


def test_a_disconnected_map_is_rejected() -> None:
    data = {"name": "split", "heian": "h", "spaces": [
        {"id": "h", "name": "H", "island": "i", "region": "r", "x": 0, "y": 0, "degree": 1,
         "neighbours": ["a"]},
        {"id": "a", "name": "A", "island": "i", "region": "r", "x": 50, "y": 0, "degree": 1,
         "neighbours": ["h"]},
        {"id": "b", "name": "B", "island": "i", "region": "r", "x": 100, "y": 0, "degree": 1,
         "neighbours": ["c"]},
        {"id": "c", "name": "C", "island": "i", "region": "r", "x": 150, "y": 0, "degree": 1,
         "neighbours": ["b"]}]}
    with pytest.raises(bw.InvalidOptionError, match="not connected: b, c"):
        parse_map(data)
    data["spaces"][1]["neighbours"].append("b")
    data["spaces"][1]["degree"] = 2
    data["spaces"][2]["neighbours"].append("a")
    data["spaces"][2]["degree"] = 2
    assert parse_map(data).distance("h", "c") == 3


def test_checks_and_zone_must_match() -> None:
    data = raw("map.toml")
    data["checks"]["diameter"] = 12
    with pytest.raises(bw.InvalidOptionError, match="diameter = 13, its \\[checks\\] say 12"):
        parse_map(data)
    data = raw("map.toml")
    data["no_castle_zone"].remove("mino")
    with pytest.raises(bw.InvalidOptionError, match="no_castle_zone"):
        parse_map(data)
    data = raw("map.toml")
    data["spaces"][3]["x"] = 1200
    with pytest.raises(bw.InvalidOptionError, match="'x' must be a whole number from 0 to 1000"):
        parse_map(data)
    data = raw("map.toml")
    data["spaces"][5]["id"] = data["spaces"][4]["id"]
    with pytest.raises(bw.InvalidOptionError, match="listed twice"):
        parse_map(data)
