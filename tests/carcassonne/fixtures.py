"""The board fixtures of the rule catalogue (section 2.8), as tile lists for `scenario.build`.

Each is given in a placement order in which every placement is legal; none carries followers.
"""

FX_START = "D@(0,0)/0"
FX_RING = ("D@(0,0)/0 U@(-1,0)/0 U@(1,0)/0 E@(-1,1)/270 E@(1,1)/90 E@(-1,2)/270 "
           "E@(0,2)/180 E@(1,2)/90")
FX_HOLE_CITY = "D@(0,0)/0 D@(-1,0)/180 I@(-1,1)/90 U@(1,0)/0 B@(1,1)/0 B@(1,2)/0 B@(0,2)/0"
FX_ROAD_HOLE = ("D@(0,0)/0 A@(-1,0)/270 U@(1,0)/0 B@(1,-1)/0 B@(2,-1)/0 E@(3,-1)/0 A@(3,0)/90 "
                "B@(1,1)/0 B@(2,1)/0")
FX_MON_HOLE = ("D@(0,0)/0 U@(-1,0)/0 U@(1,0)/0 B@(0,1)/0 E@(-1,1)/270 E@(-1,2)/270 "
               "E@(0,2)/180 E@(1,2)/90 A@(2,0)/90 B@(2,1)/0")
FX_EAST = "D@(0,0)/0 U@(1,0)/0 U@(2,0)/0 U@(3,0)/0 E@(1,-1)/90 E@(3,-1)/270"
FX_MAYOR2 = "D@(0,0)/0 M@(0,-1)/180 K@(1,0)/0"
FX_CITY3 = "D@(0,0)/0 G@(0,-1)/90"
FX_TWO_WAGONS = "D@(0,0)/0 A@(-1,0)/270 E@(0,-1)/180 U@(1,0)/0 B@(1,-1)/0 E@(2,-1)/180"
FX_WAGON_LINKS = "D@(0,0)/0 L@(1,0)/0 A@(2,0)/90 U@(-1,0)/0"
FX_FIELD = "D@(0,0)/0 U@(1,0)/0 E@(0,-1)/180"
FX_BARN = "D@(0,0)/0 U@(1,0)/0 U@(2,0)/0 B@(0,1)/0 E@(0,2)/180 E@(0,3)/0 E@(2,1)/270"

ALL = {
    "FX-START": FX_START, "FX-RING": FX_RING, "FX-HOLE-CITY": FX_HOLE_CITY,
    "FX-ROAD-HOLE": FX_ROAD_HOLE, "FX-MON-HOLE": FX_MON_HOLE, "FX-EAST": FX_EAST,
    "FX-MAYOR2": FX_MAYOR2, "FX-CITY3": FX_CITY3, "FX-TWO-WAGONS": FX_TWO_WAGONS,
    "FX-WAGON-LINKS": FX_WAGON_LINKS, "FX-FIELD": FX_FIELD, "FX-BARN": FX_BARN,
}
