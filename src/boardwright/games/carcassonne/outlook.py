"""What a table shows beside the view: the features a figure spot would join with the points
they are worth now, the scores if the game ended now, and, at the end, every scoring by feature
with the figures as they stood before the final scoring.

The view says where tiles and figures are; it does not say which tile segments form one city,
nor what the end-of-game scoring would give. Both follow from the rules, which this module
applies by running the engine's own scoring (`CarcassonneState.score_feature`, `score_field`,
`final_scoring` and the capabilities' hooks) on a copy of the position, recording each scoring
with the feature it scored. So the figures shown can never disagree with the engine's: a
projection is the final scoring itself, applied early.

Works on either engine: a native position is converted to its Python twin first (the native
engine keeps no per-feature log).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from boardwright.games.carcassonne.actions import Deploy, pack, unpack
from boardwright.games.carcassonne.capabilities.barn import (
    CORNER_POINT, barn_field_part, barn_payees,
)
from boardwright.games.carcassonne.scoring import feature_value
from boardwright.games.carcassonne.state import DEPLOY, CarcassonneState
from boardwright.games.carcassonne.texts import SeatName, scoring_sentence, seat_names
from boardwright.games.carcassonne.tiles import FIELD, KIND_NAMES, MONASTERY

if TYPE_CHECKING:
    from boardwright.games.carcassonne.features import FeatureGraph

_KEY = "_outlook"  # the recording, kept in the private copy's meta while it is scored


@dataclass
class Scoring:
    """One scoring of one feature: who got how many points, and the tile segments scored."""

    feature: str  # "city", "road", "monastery", "field", "barn"
    points: int
    players: list[int]
    complete: bool
    end: bool  # made by the end-of-game scoring (not during play)
    turn: int
    segments: list[dict[str, Any]]  # [{"x", "y", "location"}] of the feature's parts
    figures: list[dict[str, Any]] = field(default_factory=list)  # [{"player", "figure", ...}]
    reason: str = ""


def python_state(state: Any) -> CarcassonneState:
    """A private Python-engine copy of a position of either engine."""
    if type(state) is CarcassonneState:
        return state.clone()
    return state.to_python()


def part_location(graph: FeatureGraph, part: int) -> dict[str, Any]:
    variant, _ = graph.board[graph.part_pos[part]]
    x, y = unpack(graph.part_pos[part])
    return {"x": x, "y": y, "location": variant.features[graph.part_local[part]].location}


def feature_parts(graph: FeatureGraph, root: int) -> list[int]:
    """Every part of the feature rooted at `root`, by position then part. Roads and cities
    are found through the tiles they cover; fields (which keep no tile set) by a scan."""
    find = graph.find
    tiles = graph.tiles[root]
    if tiles is not None:
        return [part for pos in sorted(tiles) for part in graph.parts_on(pos) if find(part) == root]
    if graph.kind[root] == MONASTERY:
        return [root]
    # fields keep no tile set: every part is grouped by its root once per layout (the graph's
    # memo holds values of the layout alone and is reset when a tile is laid)
    groups = graph.memo.get("outlook_parts")
    if groups is None:
        groups = {}
        for part in range(len(graph.parent)):
            groups.setdefault(find(part), []).append(part)
        for parts in groups.values():
            parts.sort(key=lambda part: (graph.part_pos[part], part))
        graph.memo["outlook_parts"] = groups
    return list(groups.get(root, ()))


def segments(graph: FeatureGraph, root: int) -> list[dict[str, Any]]:
    return [part_location(graph, part) for part in feature_parts(graph, root)]


def value_now(state: CarcassonneState, root: int) -> int:
    """What the feature would give its majority if scored now: a completed road, city or
    monastery its completion value, an open one its end-of-game value, a field 3 per completed
    city it borders."""
    graph = state.graph
    if graph.kind[root] == FIELD:
        return 3 * len(graph.completed_cities(root))
    return feature_value(graph, root, graph.is_complete(root), state.game.small_city_scoring)


class _Recorder(CarcassonneState):
    """A Python state that notes each scoring with its feature (its class is swapped in on a
    private copy; no slots of its own, so the swap is allowed)."""

    __slots__ = ()

    def _note(self, root: int | None, before: int, figures: list[dict[str, Any]]) -> None:
        record = self.meta[_KEY]
        graph = self.graph
        for entry in self.log[before:]:
            record["scorings"].append(Scoring(
                feature=entry["feature"], points=entry["points"], players=list(entry["players"]),
                complete=entry["complete"], end=record["ending"], turn=entry["turn"],
                segments=[] if root is None else segments(graph, root),
                figures=figures, reason=entry.get("reason", "")))

    def _figures_of(self, root: int) -> list[dict[str, Any]]:
        return [{"player": self.occupant[part][0], "figure": self.occupant[part][1],
                 **part_location(self.graph, part)} for part in self.graph.figures[root]]

    def score_feature(self, root: int, complete: bool) -> None:
        before = len(self.log)
        figures = self._figures_of(root)
        super().score_feature(root, complete)
        self._note(root, before, figures)

    def score_field(self, root: int, points_per_city: int, reason: str = "") -> None:
        before = len(self.log)
        figures = self._figures_of(root)
        super().score_field(root, points_per_city, reason)
        self._note(root, before, figures)

    def final_scoring(self) -> None:
        record = self.meta[_KEY]
        record["ending"] = True
        record["board"] = self.followers_on_board()
        graph = self.graph
        barns = {}
        for point, seat in self.barn_owner.items():
            x, y = unpack(point)
            barns[point] = {"player": seat, "corner": {"x": x, "y": y}}
        record["barns"] = [barns[p] for p in sorted(barns)]
        # the barns' own end scoring adds points without naming the field: the payees come in
        # the order the barn capability pays them
        payees = [root for _, root in barn_payees(graph, self.barn_owner)]
        super().final_scoring()
        for scoring in record["scorings"]:
            if scoring.feature == "barn" and scoring.end and not scoring.segments and payees:
                root = payees.pop(0)
                scoring.segments = segments(graph, root)
                scoring.figures = [b for p, b in sorted(barns.items())
                                   if graph.find(barn_field_part(graph, p)) == root  # type: ignore[arg-type]
                                   and b["player"] in scoring.players]

    def add_points(self, winners: list[int], points: int, feature: str, complete: bool,
                   reason: str = "") -> None:
        before = len(self.log)
        super().add_points(winners, points, feature, complete, reason)
        if feature == "barn" and not reason:  # the barns' end scoring (see final_scoring)
            self._note(None, before, [])


def _recording(state: CarcassonneState) -> dict[str, Any]:
    record: dict[str, Any] = {"scorings": [], "ending": False}
    state.meta[_KEY] = record
    state.__class__ = _Recorder
    return record


@dataclass
class Projection:
    """The end-of-game scoring applied to a position: the scores it would give, and each of
    its scorings (a wagon-move or final-round position counts as if nothing more happened)."""

    scores: list[int]
    scorings: list[Scoring]


def project(state: Any) -> Projection:
    """The scores if the game ended now: the features completed by the tile just placed are
    scored as the end of the turn scores them, then the end-of-game scoring runs."""
    if state.is_terminal:
        return Projection(list(state.scores), [])
    copy = python_state(state)
    return _project_on(copy)


def _project_on(copy: CarcassonneState) -> Projection:
    """`project` on a private Python copy, which it scores (and so changes)."""
    record = _recording(copy)
    if copy.phase == DEPLOY:
        for root in copy.pending:
            copy.score_feature(root, complete=True)
        copy.pending = []
    copy.final_scoring()
    return Projection(copy.scores, record["scorings"])


def projected_scores(state: Any) -> list[int]:
    """Each seat's score if the game ended in this position (`project`)."""
    return project(state).scores


def spot_features(state: Any) -> dict[str, list[dict[str, Any]]]:
    """The feature each figure spot of the decision at hand would join, with its segments and
    the points it is worth now (`value_now`): every Deploy of the current legal actions (a
    figure on the tile just placed, a barn corner, a wagon move), as {"spots": [{"x", "y",
    "location", "figure", "feature": index}], "features": [{"kind", "points", "complete",
    "tiles", "segments"}]}; both empty for other decisions."""
    deploys = [] if state.is_terminal else [a for a in state.legal_actions() if type(a) is Deploy]
    if not deploys:
        return {"spots": [], "features": []}
    return _spots_on(python_state(state), deploys)


def _spots_on(copy: CarcassonneState, deploys: list[Deploy]) -> dict[str, list[dict[str, Any]]]:
    """`spot_features` read from a Python copy of the position (left unchanged)."""
    graph = copy.graph
    out: list[dict[str, Any]] = []
    described: dict[tuple[int, int], int] = {}
    features: list[dict[str, Any]] = []
    for action in deploys:
        x, y = action.x, action.y
        pos = pack(x, y)
        variant, base = graph.board[pos]
        if action.figure == "barn":
            part = barn_field_part(graph, pos + CORNER_POINT[action.location])
            assert part is not None
            root = graph.find(part)
            points = 4 * len(graph.completed_cities(root))
            key = (root, 1)
        else:
            root = graph.find(base + variant.location_index[action.location])
            points = value_now(copy, root)
            key = (root, 0)
        if key not in described:
            described[key] = len(features)
            features.append({"kind": "barn" if key[1] else KIND_NAMES[graph.kind[root]],
                             "points": points, "complete": graph.is_complete(root),
                             "tiles": graph.tile_count(root), "segments": segments(graph, root)})
        out.append({"x": x, "y": y, "location": action.location, "figure": action.figure,
                    "feature": described[key]})
    return {"spots": out, "features": features}


def final_account(state: Any) -> dict[str, Any]:
    """A finished game replayed on the Python engine with every scoring recorded: the figures
    and barns on the board before the end-of-game scoring, and each scoring of the game (during
    play and at the end) with its feature's segments."""
    game = state.game
    twin = game if game.engine == "python" else game._python_twin()
    replay = twin.new_game(state.seed)
    record = _recording(replay)
    record.update(board=[], barns=[])
    for action in state.history:
        replay.apply(action)
    if replay.scores != list(state.scores):  # the replay is the game: anything else is a bug
        raise AssertionError(f"replayed scores {replay.scores} differ from {state.scores}")
    return {"figures": record["board"], "barns": record["barns"],
            "scorings": [scoring_json(s, seat_names(game)) for s in record["scorings"]]}


def breakdown(scorings: list[dict[str, Any]], players: int) -> list[dict[str, dict[str, int]]]:
    """Points per seat by kind of feature, during play and at the end:
    [{"play": {"city": 8, ...}, "end": {"field": 6, ...}}] (each scoring pays every winner)."""
    out: list[dict[str, dict[str, int]]] = [{"play": {}, "end": {}} for _ in range(players)]
    for s in scorings:
        for seat in s["players"]:
            part = out[seat]["end" if s["end"] else "play"]
            part[s["feature"]] = part.get(s["feature"], 0) + s["points"]
    return out


def table_data(state: Any) -> dict[str, Any]:
    """Everything above for a table, as JSON: projected scores and their scorings, the
    features of the figure spots of the decision at hand, and at the end the final account
    with its per-seat breakdown."""
    if state.is_terminal:
        account = final_account(state)
        account["breakdown"] = breakdown(account["scorings"], state.game.num_players)
        return {"projected_scores": list(state.scores), "final": account}
    # One Python copy of the position serves both (a compiled engine's position is converted
    # once): the spots are read from it first, then the projection scores a clone of it.
    base = python_state(state)
    deploys = [a for a in base.legal_actions() if type(a) is Deploy]
    spots = _spots_on(base, deploys) if deploys else {"spots": [], "features": []}
    projection = _project_on(base)
    return {"projected_scores": projection.scores,
            "projected": [scoring_json(s, seat_names(state.game)) for s in projection.scorings],
            **spots}


def scoring_json(scoring: Scoring, name: SeatName) -> dict[str, Any]:
    """A scoring as JSON: its fields as they are (its lists are built for it and not shared
    with the game; `dataclasses.asdict`'s deep copy cost a third of a table's time), and its
    line in the game's words (`texts.scoring_line`, seats named by `name`) as `text`, and as
    `words` for front ends that name the seats (`texts.scoring_sentence`)."""
    out = dict(vars(scoring))
    out.update(scoring_sentence(out, name))
    return out
