"""Data: the hand-placed drawing and figure spots of the tiles whose features the generic
shapes of `tile_shapes` cannot show (crossing cities, enclosed meadows, the roundabout, ...),
and spots moved on a few others. Per tile letter, per feature id: "d" (city areas), "walls",
"road", "meadow" (SVG paths), "spot" and "pennant" (points), "ring" and "house" (marks)."""

from __future__ import annotations

from boardwright.web.staticdata.svg import ellipse, path

# Tiles whose features the generic shapes cannot show: drawing and spots per feature id.
# (Rotation 0; coordinates in the 100 x 100 square.)
OVERRIDES: dict[str, dict[str, dict]] = {
    # two cities crossing: the W-E city fills the tile, the N-S city runs over it
    "AM02": {
        "c2": {"d": [path([("M", (0, 0)), ("L", (100, 0)), ("L", (100, 100)), ("L", (0, 100)), ("Z",)])],
               "spot": (13, 52), "walls": []},
        "c1": {"d": [path([("M", (30, 0)), ("L", (70, 0)), ("L", (70, 100)), ("L", (30, 100)), ("Z",)])],
               "walls": [path([("M", (30, 0)), ("L", (30, 100)), ("M", (70, 0)), ("L", (70, 100))])],
               "spot": (50, 50), "pennant": (50, 80)},
        "f1": {"meadow": ellipse(15, 20, 10, 10), "spot": (15, 20)},
        "f2": {"meadow": ellipse(85, 80, 10, 10), "spot": (85, 80)},
    },
    # a pennant cap from N, a W-E city below it, a meadow enclosed between them
    "AM03": {
        "c1": {"d": [path([("M", (0, 0)), ("L", (100, 0)), ("Q", (50, 30), (0, 0)), ("Z",)])],
               "walls": [path([("M", (100, 0)), ("Q", (50, 30), (0, 0))])],
               "spot": (50, 7), "pennant": (76, 6)},
        "c2": {"d": [path([("M", (0, 0)), ("Q", (50, 84), (100, 0)), ("L", (100, 100)),
                           ("Q", (50, 70), (0, 100)), ("Z",)])],
               "walls": [path([("M", (0, 0)), ("Q", (50, 84), (100, 0)), ("M", (100, 100)),
                               ("Q", (50, 70), (0, 100))])],
               "spot": (50, 62)},
        "f1": {"meadow": ellipse(50, 27, 17, 8), "spot": (50, 27)},
        "f2": {"spot": (50, 91)},
    },
    # two caps, N and W, each entered by its own road (from E and from S)
    "AM04": {
        "r1": {"road": path([("M", (100, 50)), ("Q", (62, 50), (60, 20))]), "spot": (80, 48)},
        "r2": {"road": path([("M", (50, 100)), ("Q", (50, 62), (20, 60))]), "spot": (48, 80)},
        "c1": {"spot": (62, 10)},
        "c2": {"spot": (10, 62)},
        "f1": {"spot": (89, 24)},
        "f2": {"spot": (24, 89)},
        "f3": {"spot": (72, 72)},
    },
    # a road from W to the gate of the N cap
    "AM06": {
        "r1": {"road": path([("M", (0, 50)), ("Q", (45, 52), (50, 22))]), "spot": (28, 50)},
        "f1": {"spot": (14, 30)},
        "f2": {"spot": (70, 72)},
    },
    # a road from E (W) up to the city wall, then down to S: it splits the ground in three
    "AM07": {"r1": {"road": path([("M", (100, 50)), ("Q", (52, 52), (50, 27)), ("L", (50, 100))]),
                    "spot": (50, 76)}},
    "AM08": {"r1": {"road": path([("M", (0, 50)), ("Q", (48, 52), (50, 27)), ("L", (50, 100))]),
                    "spot": (50, 76)}},
    # a pennant city from W whose walls reach the NE and SE corners: three fields N, E, S
    "AM09": {
        "c1": {"d": [path([("M", (0, 0)), ("L", (56, 50)), ("L", (0, 100)), ("Z",)])],
               "walls": [path([("M", (0, 0)), ("L", (56, 50)), ("L", (0, 100)), ("M", (56, 50)),
                               ("L", (100, 0)), ("M", (56, 50)), ("L", (100, 100))])],
               "spot": (20, 50), "pennant": (36, 50)},
        "f1": {"spot": (50, 14)},
        "f2": {"spot": (86, 50)},
        "f3": {"spot": (50, 86)},
    },
    # a dead end at a house
    "AM10": {"r1": {"road": path([("M", (50, 100)), ("L", (50, 56))]), "spot": (50, 80),
                    "house": True},
             "f1": {"spot": (20, 22)}},
    # a roundabout: one road going N, W and E
    "AM11": {"r1": {"road": path([("M", (50, 0)), ("L", (50, 40)), ("M", (0, 50)), ("L", (40, 50)),
                                  ("M", (100, 50)), ("L", (60, 50))]),
                    "ring": True, "spot": (50, 50)},
             "f1": {"spot": (20, 20)}, "f2": {"spot": (80, 20)}, "f3": {"spot": (50, 85)}},
    # a road N-S under a pennant city W-E
    "AM12": {"r1": {"spot": (50, 90)}, "c1": {"spot": (30, 50), "pennant": (70, 50)},
             "f1": {"spot": (24, 8)}, "f2": {"spot": (76, 8)}, "f3": {"spot": (30, 82)}},
    # a road S into the gate of a three-sided city
    "S": {"f1": {"spot": (80, 88)}, "f2": {"spot": (20, 88)}, "c1": {"pennant": (76, 30)}},
    "T": {"f1": {"spot": (80, 88)}, "f2": {"spot": (20, 88)}},
    "C": {"c1": {"pennant": (74, 26)}},
    "AM01": {"c1": {"pennant": (74, 20)}},
    "L": {"f1": {"spot": (82, 34)}},
    "W": {"f1": {"spot": (50, 22)}},
    "D": {"f1": {"spot": (82, 36)}},
    "J": {"f1": {"spot": (22, 62)}},
    "K": {"f1": {"spot": (78, 62)}},
}
