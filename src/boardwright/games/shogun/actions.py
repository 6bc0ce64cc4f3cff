"""The decisions of Rise of the Shogun, their JSON form and their fixed integer ids.

Every decision is one small frozen dataclass; spaces are named by id (`"kai"`), cards by card
id, treasures by treasure id, colours by name. Duel steps are the duel package's own actions
(types starting with "duel_"), embedded unchanged, so people and bots play duels through the
same `legal_actions()`.

    {"type": "choose_hero", "hero": "ninja"}          set-up, clockwise from p1
    {"type": "place_castle", "space": "satsuma"}      set-up
    {"type": "place_shrine", "space": "owari"}        set-up
    {"type": "choose_home", "space": "satsuma"}       set-up, reversed order
    {"type": "place_hero", "space": "higo"}           set-up, next to the home castle
    {"type": "discard_card", "card": "sam_katana_cut"}  Discard phase
    {"type": "clear_pile", "attribute": "body"}       Cleanup phase, Sacred Sake
    {"type": "done"}                                  end an optional step (see below)
    {"type": "move", "space": "izu"}                  hero move (Movement, Court, sandals, free)
    {"type": "search"} {"type": "claim", "space": "kaga"} {"type": "abandon"}
    {"type": "attack", "space": "higo", "opening": "sam_katana_cut" | "t_oni"}
    {"type": "convert", "source": "izumo", "target": "iwami", "card": "sam_katana_cut"}
    {"type": "convert_pick", "space": "bingo"}        which peasant a short reserve converts
    {"type": "recruit", "space": "etchu"}
    {"type": "reorganise", "source": "higo"}          pick a peasant to reorganise, then
    {"type": "place_peasant", "space": "noto"}        put it down   {"type": "cancel_reorganise"}
    {"type": "decree", "kind": "recruit"}             the emperor, at another's Court phase
    {"type": "defy", "treasure": "t_oni"}             discard a treasure to ignore a decree
    {"type": "use_item", "treasure": "t_great_bow"}
    {"type": "discard_treasure", "treasure": "t_oni"}
    {"type": "keep_treasure", "treasure": "t_oni"}    after a search
    {"type": "return_treasure", "treasure": "t_oni"}  over the limit of 3, or a mission's gift
    {"type": "relocate_shrine", "space": "mutsu"}
    {"type": "take_treasure"}                         the winner of a hero fight takes one of
                                                      the loser's treasures at random
    {"type": "relocate_hero", "space": "osumi"}       the winner moves the beaten hero
    {"type": "exchange", "opponent": 1, "colour": "blue"}  give one prisoner of that colour
    {"type": "play_special", "card": "nin_spy_network", "opponent": 1}
    {"type": "take_peasant", "space": "higo"}         a court marker from the board
    {"type": "kill", "space": "bingo"}                Jorogumo's second victim

`done` ends whatever optional step is waiting: the Discard or Cleanup phase, the Movement
phase (staying put), the Hero phase, the Court phase (a pass), a recruit or reorganisation
before its maximum, an exchange, a free move or relocation declined, a decree accepted, a
treasure left to the beaten hero, the step before a decree (`before_decree`: the Imperial
Letter not used).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable, Union

from boardwright.core.errors import MalformedActionError
from boardwright.core.inputs import check_action_id, short_repr
from boardwright.duel import DUEL_ACTION_TYPES, DuelAction, parse_duel_action
from boardwright.duel.actions import (
    ClearCard, DiscardCard, Done as DuelDone, Pass, PickCard, PlayCard, RecallCard, UseItem,
)

COURT_KINDS = ("recruit", "move", "convert", "reorganise")
MAX_PLAY_TARGET = 63  # duel plays an ignore/purge may name, for the fixed id space


@dataclass(frozen=True, slots=True)
class ChooseHero:
    hero: str


@dataclass(frozen=True, slots=True)
class PlaceCastle:
    space: str


@dataclass(frozen=True, slots=True)
class PlaceShrine:
    space: str


@dataclass(frozen=True, slots=True)
class ChooseHome:
    space: str


@dataclass(frozen=True, slots=True)
class PlaceHero:
    space: str


@dataclass(frozen=True, slots=True)
class DiscardHand:
    card: str


@dataclass(frozen=True, slots=True)
class ClearPile:
    attribute: str


@dataclass(frozen=True, slots=True)
class Done:
    pass


@dataclass(frozen=True, slots=True)
class Move:
    space: str


@dataclass(frozen=True, slots=True)
class Search:
    pass


@dataclass(frozen=True, slots=True)
class Claim:
    space: str


@dataclass(frozen=True, slots=True)
class Abandon:
    pass


@dataclass(frozen=True, slots=True)
class Attack:
    space: str
    opening: str


@dataclass(frozen=True, slots=True)
class Convert:
    source: str
    target: str
    card: str


@dataclass(frozen=True, slots=True)
class ConvertPick:
    space: str


@dataclass(frozen=True, slots=True)
class Recruit:
    space: str


@dataclass(frozen=True, slots=True)
class Reorganise:
    source: str


@dataclass(frozen=True, slots=True)
class PlacePeasant:
    space: str


@dataclass(frozen=True, slots=True)
class CancelReorganise:
    pass


@dataclass(frozen=True, slots=True)
class Decree:
    kind: str


@dataclass(frozen=True, slots=True)
class Defy:
    treasure: str


@dataclass(frozen=True, slots=True)
class UseTreasure:
    treasure: str


@dataclass(frozen=True, slots=True)
class DiscardTreasure:
    treasure: str


@dataclass(frozen=True, slots=True)
class KeepTreasure:
    treasure: str


@dataclass(frozen=True, slots=True)
class ReturnTreasure:
    treasure: str


@dataclass(frozen=True, slots=True)
class RelocateShrine:
    space: str


@dataclass(frozen=True, slots=True)
class RelocateHero:
    space: str


@dataclass(frozen=True, slots=True)
class Exchange:
    opponent: int
    colour: str


@dataclass(frozen=True, slots=True)
class PlaySpecial:
    card: str
    opponent: int | None = None


@dataclass(frozen=True, slots=True)
class TakePeasant:
    space: str


@dataclass(frozen=True, slots=True)
class Kill:
    space: str


@dataclass(frozen=True, slots=True)
class TakeTreasure:
    """The winner of a hero fight takes a random treasure of the loser's (SHO-ATK-07); the
    card is drawn at random when the action is applied, so the action names none."""


GAME_ACTIONS: dict[str, type] = {
    "choose_hero": ChooseHero, "place_castle": PlaceCastle, "place_shrine": PlaceShrine,
    "choose_home": ChooseHome, "place_hero": PlaceHero, "discard_card": DiscardHand,
    "clear_pile": ClearPile, "done": Done, "move": Move, "search": Search, "claim": Claim,
    "abandon": Abandon, "attack": Attack, "convert": Convert, "convert_pick": ConvertPick,
    "recruit": Recruit, "reorganise": Reorganise, "place_peasant": PlacePeasant,
    "cancel_reorganise": CancelReorganise,
    "decree": Decree, "defy": Defy, "use_item": UseTreasure,
    "discard_treasure": DiscardTreasure, "keep_treasure": KeepTreasure,
    "return_treasure": ReturnTreasure, "relocate_shrine": RelocateShrine,
    "relocate_hero": RelocateHero, "exchange": Exchange, "play_special": PlaySpecial,
    "take_peasant": TakePeasant, "kill": Kill, "take_treasure": TakeTreasure,
}
TYPE_OF: dict[type, str] = {cls: name for name, cls in GAME_ACTIONS.items()}
ShogunAction = Union[ChooseHero, PlaceCastle, PlaceShrine, ChooseHome, PlaceHero, DiscardHand,
                     ClearPile, Done, Move, Search, Claim, Abandon, Attack, Convert, ConvertPick,
                     Recruit, Reorganise, PlacePeasant, CancelReorganise, Decree, Defy, UseTreasure,
                     DiscardTreasure, KeepTreasure, ReturnTreasure, RelocateShrine,
                     RelocateHero, Exchange, PlaySpecial, TakePeasant, Kill, TakeTreasure,
                     DuelAction]
ACTION_CLASSES: frozenset[type] = frozenset(
    (*GAME_ACTIONS.values(), PlayCard, UseItem, Pass, DiscardCard, PickCard, ClearCard,
     RecallCard, DuelDone))
DONE = Done()
SEARCH = Search()
ABANDON = Abandon()
CANCEL_REORGANISE = CancelReorganise()
TAKE_TREASURE = TakeTreasure()
INT_FIELDS = {"opponent"}


def _to_json(self: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": TYPE_OF[type(self)]}
    for f in fields(self):
        value = getattr(self, f.name)
        if value is not None:
            out[f.name] = value
    return out


for _cls in GAME_ACTIONS.values():
    _cls.to_json = _to_json  # type: ignore[attr-defined]


def parse_action(data: Any) -> ShogunAction:
    """An action from its JSON form (shape only: legality is the state's business)."""
    if not isinstance(data, dict):
        raise MalformedActionError(f"an action must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if isinstance(kind, str) and kind in DUEL_ACTION_TYPES:
        return parse_duel_action(data)
    cls = GAME_ACTIONS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedActionError(f"unknown action type {kind!r}; expected one of "
                                   f"{', '.join(list(GAME_ACTIONS) + list(DUEL_ACTION_TYPES))}")
    names = [f.name for f in fields(cls)]
    extra = sorted(set(data) - set(names) - {"type"})
    if extra:
        raise MalformedActionError(f"unknown {kind} field(s) {extra}")
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if cls is PlaySpecial and f.name == "opponent":
                values[f.name] = None
                continue
            raise MalformedActionError(f"{kind} needs the field {f.name!r}")
        value = data[f.name]
        if f.name in INT_FIELDS:
            if value is None and cls is PlaySpecial:
                values[f.name] = None
                continue
            if type(value) is not int or value < 0:
                raise MalformedActionError(f"{kind} field {f.name!r} must be a seat number, "
                                           f"not {value!r}")
        elif not isinstance(value, str) or not value:
            raise MalformedActionError(f"{kind} field {f.name!r} must be a non-empty string, "
                                       f"not {value!r}")
        values[f.name] = value
    return cls(**values)


# -- the fixed id space ----------------------------------------------------------------------------

Encoder = Callable[[Any], int]
Decoder = Callable[[int], Any]


class ActionSpace:
    """Stable ids: one block per action type, laid out in a fixed order.

    A block's size depends only on the configuration (map, card catalogue, treasures, colours),
    never on the position, so `num_distinct_actions` is a fixed space for action masks.
    """

    def __init__(self, spaces: tuple[str, ...], edges: tuple[tuple[str, str], ...],
                 cards: tuple[str, ...], treasures: tuple[str, ...], heroes: tuple[str, ...],
                 colours: tuple[str, ...], attributes: tuple[str, ...], seats: int) -> None:
        self.blocks: list[tuple[str, int, Encoder, Decoder]] = []
        self.base: dict[str, int] = {}
        sp = {s: i for i, s in enumerate(spaces)}
        cd = {c: i for i, c in enumerate(cards)}
        tr = {t: i for i, t in enumerate(treasures)}
        hr = {h: i for i, h in enumerate(heroes)}
        co = {c: i for i, c in enumerate(colours)}
        at = {a: i for i, a in enumerate(attributes)}
        ed = {e: i for i, e in enumerate(edges)}
        kinds = {k: i for i, k in enumerate(COURT_KINDS)}
        openings = cards + treasures
        op = {c: i for i, c in enumerate(openings)}
        n_sp, n_cd, n_tr, n_op = len(spaces), len(cards), len(treasures), len(openings)

        def look(table: dict, key: Any, what: str) -> int:
            if type(key) not in (str, tuple) or key not in table:
                raise MalformedActionError(f"no action id for unknown {what} {short_repr(key)}")
            return table[key]

        def space_block(name: str, cls: type) -> None:
            self._add(name, n_sp, lambda a: look(sp, a.space, "space"),
                      lambda i: cls(spaces[i]))

        def treasure_block(name: str, cls: type) -> None:
            self._add(name, n_tr, lambda a: look(tr, a.treasure, "treasure"),
                      lambda i: cls(treasures[i]))

        def single(name: str, obj: Any) -> None:
            self._add(name, 1, lambda a: 0, lambda i: obj)

        def card_block(name: str, cls: type) -> None:
            self._add(name, n_cd, lambda a: look(cd, a.card, "card"), lambda i: cls(cards[i]))

        self._add("choose_hero", len(heroes), lambda a: look(hr, a.hero, "hero"),
                  lambda i: ChooseHero(heroes[i]))
        for name, cls in (("place_castle", PlaceCastle), ("place_shrine", PlaceShrine),
                          ("choose_home", ChooseHome), ("place_hero", PlaceHero),
                          ("move", Move), ("claim", Claim), ("convert_pick", ConvertPick),
                          ("recruit", Recruit), ("relocate_shrine", RelocateShrine),
                          ("relocate_hero", RelocateHero), ("take_peasant", TakePeasant),
                          ("kill", Kill), ("place_peasant", PlacePeasant)):
            space_block(name, cls)
        self._add("reorganise", n_sp, lambda a: look(sp, a.source, "space"),
                  lambda i: Reorganise(spaces[i]))
        card_block("discard_card", DiscardHand)
        self._add("clear_pile", len(attributes), lambda a: look(at, a.attribute, "attribute"),
                  lambda i: ClearPile(attributes[i]))
        single("done", DONE)
        single("search", SEARCH)
        single("abandon", ABANDON)
        single("cancel_reorganise", CANCEL_REORGANISE)
        self._add("attack", n_sp * n_op,
                  lambda a: look(sp, a.space, "space") * n_op + look(op, a.opening, "opening"),
                  lambda i: Attack(spaces[i // n_op], openings[i % n_op]))
        self._add("convert", len(edges) * n_cd,
                  lambda a: look(ed, (a.source, a.target), "adjacent pair") * n_cd
                  + look(cd, a.card, "card"),
                  lambda i: Convert(*edges[i // n_cd], cards[i % n_cd]))
        self._add("decree", len(COURT_KINDS), lambda a: look(kinds, a.kind, "court action"),
                  lambda i: Decree(COURT_KINDS[i]))
        for name, cls in (("defy", Defy), ("use_item", UseTreasure),
                          ("discard_treasure", DiscardTreasure), ("keep_treasure", KeepTreasure),
                          ("return_treasure", ReturnTreasure)):
            treasure_block(name, cls)
        n_co = len(colours)
        self._add("exchange", seats * n_co,
                  lambda a: self._seat(a.opponent, seats) * n_co + look(co, a.colour, "colour"),
                  lambda i: Exchange(i // n_co, colours[i % n_co]))
        self._add("play_special", n_cd * (seats + 1),
                  lambda a: look(cd, a.card, "card") * (seats + 1)
                  + (0 if a.opponent is None else self._seat(a.opponent, seats) + 1),
                  lambda i: PlaySpecial(cards[i // (seats + 1)],
                                        None if i % (seats + 1) == 0 else i % (seats + 1) - 1))
        targets = MAX_PLAY_TARGET + 2
        self._add("duel_play", n_cd * targets,
                  lambda a: look(cd, a.card, "card") * targets
                  + (0 if a.target is None else self._target(a.target) + 1),
                  lambda i: PlayCard(cards[i // targets],
                                     None if i % targets == 0 else i % targets - 1))
        self._add("duel_item", n_tr, lambda a: look(tr, a.item, "treasure"),
                  lambda i: UseItem(treasures[i]))
        single("duel_pass", Pass())
        single("duel_done", DuelDone())
        for name, cls in (("duel_discard", DiscardCard), ("duel_pick", PickCard),
                          ("duel_clear", ClearCard), ("duel_recall", RecallCard)):
            card_block(name, cls)
        single("take_treasure", TAKE_TREASURE)  # last: the ids before it keep their values
        self.size = sum(b[1] for b in self.blocks)

    @staticmethod
    def _seat(seat: int, seats: int) -> int:
        if type(seat) is not int or not 0 <= seat < seats:
            raise MalformedActionError(f"no action id for seat {short_repr(seat)}")
        return seat

    @staticmethod
    def _target(target: int) -> int:
        if type(target) is not int or not 0 <= target <= MAX_PLAY_TARGET:
            raise MalformedActionError(f"no action id for play index {short_repr(target)} "
                                       f"(ids cover 0..{MAX_PLAY_TARGET})")
        return target

    def _add(self, name: str, size: int, encode: Encoder, decode: Decoder) -> None:
        self.base[name] = sum(b[1] for b in self.blocks)
        self.blocks.append((name, size, encode, decode))

    def encode(self, action: Any) -> int:
        if type(action) not in ACTION_CLASSES:  # a foreign object's to_json is never called
            raise MalformedActionError(f"not a Shogun action: {short_repr(action)}")
        name = action.to_json()["type"]
        for block, _size, encode, _decode in self.blocks:
            if block == name:
                return self.base[name] + encode(action)
        raise MalformedActionError(f"not a Shogun action: {short_repr(action)}")

    def decode(self, action_id: int) -> Any:
        check_action_id(action_id, self.size)
        for name, size, _encode, decode in self.blocks:
            base = self.base[name]
            if action_id < base + size:
                return decode(action_id - base)
        raise MalformedActionError(f"action id {action_id} is outside the space")
