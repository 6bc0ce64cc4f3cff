"""The generic shapes of Carcassonne tiles in rotation 0: city areas and walls by the sides a
city touches (caps, corners, bands, three-sided and whole cities), road ends and midpoints,
the points a field's figure may stand on, pennants and monasteries. Tiles these cannot show
have hand-placed shapes in `tile_overrides`."""

from __future__ import annotations

from boardwright.games.carcassonne.tiles import SIDES
from boardwright.web.staticdata.svg import fmt, path, rot

MID = {"N": (50, 0), "E": (100, 50), "S": (50, 100), "W": (0, 50)}
DIR = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
HALF_POINT = {"NL": (25, 9), "NR": (75, 9), "EL": (91, 25), "ER": (91, 75),
              "SL": (75, 91), "SR": (25, 91), "WL": (9, 75), "WR": (9, 25)}
CORNER_POINT = {"NW": (14, 14), "NE": (86, 14), "SE": (86, 86), "SW": (14, 86)}
CORNER_HALVES = {"NW": ("WR", "NL"), "NE": ("NR", "EL"), "SE": ("ER", "SL"), "SW": ("SR", "WL")}


def quarter_for(sides: set[str], canonical: set[str]) -> int | None:
    """The quarter turn that takes the canonical side set onto `sides`."""
    for q in range(4):
        if {SIDES[(SIDES.index(s) + q) % 4] for s in canonical} == sides:
            return q
    return None


# Canonical city shapes (area, inner wall, figure spot, gate where a road may enter).
CITY_SHAPES = [
    ({"N"}, [("M", (0, 0)), ("L", (100, 0)), ("Q", (50, 44), (0, 0)), ("Z",)],
     [("M", (100, 0)), ("Q", (50, 44), (0, 0))], (50, 11), (50, 22)),
    ({"N", "W"}, [("M", (0, 0)), ("L", (100, 0)), ("Q", (42, 42), (0, 100)), ("Z",)],
     [("M", (100, 0)), ("Q", (42, 42), (0, 100))], (26, 26), (46, 46)),
    ({"W", "E"}, [("M", (0, 0)), ("Q", (50, 34), (100, 0)), ("L", (100, 100)),
                  ("Q", (50, 66), (0, 100)), ("Z",)],
     [("M", (0, 0)), ("Q", (50, 34), (100, 0)), ("M", (100, 100)), ("Q", (50, 66), (0, 100))],
     (50, 50), (50, 67)),
    ({"N", "E", "W"}, [("M", (0, 0)), ("L", (100, 0)), ("L", (100, 100)), ("Q", (50, 44), (0, 100)),
                       ("Z",)],
     [("M", (100, 100)), ("Q", (50, 44), (0, 100))], (50, 34), (50, 72)),
    ({"N", "E", "S", "W"}, [("M", (0, 0)), ("L", (100, 0)), ("L", (100, 100)), ("L", (0, 100)), ("Z",)],
     [], (50, 50), (50, 50)),
]

# Pennant (a small shield) centred on (0, 0).
def pennant(cx: float, cy: float) -> str:
    return (f"M{fmt(cx - 6)},{fmt(cy - 6)} L{fmt(cx + 6)},{fmt(cy - 6)} L{fmt(cx + 6)},{fmt(cy + 1)} "
            f"Q{fmt(cx + 6)},{fmt(cy + 6)} {fmt(cx)},{fmt(cy + 8)} Q{fmt(cx - 6)},{fmt(cy + 6)} "
            f"{fmt(cx - 6)},{fmt(cy + 1)} Z")


def monastery_shapes(abbey: bool) -> list[dict]:
    cls = "abbey" if abbey else "monastery"
    return [
        {"cls": cls, "d": "M36,44 L50,30 L64,44 L64,66 L36,66 Z"},
        {"cls": cls + "-roof", "d": "M32,46 L50,27 L68,46 L64,46 L50,32 L36,46 Z"},
        {"cls": cls + "-door", "d": "M46,66 L46,56 Q50,51 54,56 L54,66 Z"},
        {"cls": cls + "-cross", "d": "M49,17 H51 V21 H54 V23 H51 V29 H49 V23 H46 V21 H49 Z"},
    ]




def city_shape(sides: set[str]):
    for canonical, area, wall, spot, gate in CITY_SHAPES:
        q = quarter_for(sides, canonical)
        if q is not None:
            return path(area, q), (path(wall, q) if wall else None), rot(spot, q), rot(gate, q)
    raise ValueError(f"no city shape for sides {sorted(sides)}")
