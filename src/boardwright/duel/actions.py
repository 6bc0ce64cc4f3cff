"""The decisions of a duel and their JSON form.

    PlayCard(card, target)  {"type": "duel_play", "card": "nin_smoke_bomb", "target": 4}
    UseItem(item)           {"type": "duel_item", "item": "t_great_armor"}
    Pass()                  {"type": "duel_pass"}       decline the block, or pass a turn
    DiscardCard(card)       {"type": "duel_discard", "card": "sam_sword_parry"}
    PickCard(card)          {"type": "duel_pick", "card": "sam_katana_cut"}
    ClearCard(card)         {"type": "duel_clear", "card": "nin_vanish"}
    RecallCard(card)        {"type": "duel_recall", "card": "mik_foxfire"}
    Done()                  {"type": "duel_done"}       stop an "up to" choice early

Cards are named by card id, never by copy, because copies are indistinguishable: an action
stays legal when a determinized hand holds other copies. `target` is the index of a play of
the current duel (public: `Duel.view()["plays"]`), used by cards that ignore or purge. The
"duel_" prefix keeps these types apart from a game's own action types, so a game can embed
them in its action set unchanged. Parsing checks only the shape; legality is the duel's job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from boardwright.core.errors import MalformedActionError


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play a card from hand: a basic block in the block step, a modifier or a special in the
    exchange. Cards that ignore or purge name the targeted play."""

    card: str
    target: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "duel_play", "card": self.card}
        if self.target is not None:
            out["target"] = self.target
        return out


@dataclass(frozen=True, slots=True)
class UseItem:
    """Use an item the game made available in this duel (e.g. a fast armour as defender)."""

    item: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "duel_item", "item": self.item}


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to block (block step) or play nothing this turn (exchange)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "duel_pass"}


@dataclass(frozen=True, slots=True)
class DiscardCard:
    """A forced discard of the player's choice: one card of their hand."""

    card: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "duel_discard", "card": self.card}


@dataclass(frozen=True, slots=True)
class PickCard:
    """After looking at an opponent's hand, pick the card they must discard."""

    card: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "duel_pick", "card": self.card}


@dataclass(frozen=True, slots=True)
class ClearCard:
    """Clear one pile top (a Clear effect), named by the card on top."""

    card: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "duel_clear", "card": self.card}


@dataclass(frozen=True, slots=True)
class RecallCard:
    """Take one card of the own discard pile back to hand (a recall effect)."""

    card: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "duel_recall", "card": self.card}


@dataclass(frozen=True, slots=True)
class Done:
    """Stop clearing or recalling before the effect's maximum."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "duel_done"}


DuelAction = Union[PlayCard, UseItem, Pass, DiscardCard, PickCard, ClearCard, RecallCard, Done]
PASS = Pass()
DONE = Done()
DUEL_ACTION_TYPES = ("duel_play", "duel_item", "duel_pass", "duel_discard", "duel_pick",
                     "duel_clear", "duel_recall", "duel_done")
_CARD_ACTIONS = {"duel_discard": DiscardCard, "duel_pick": PickCard, "duel_clear": ClearCard,
                 "duel_recall": RecallCard}


def _keys(data: dict, kind: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    extra = sorted(set(data) - set(required) - set(optional) - {"type"})
    if extra:
        raise MalformedActionError(f"unknown {kind} field(s) {extra}")
    missing = [k for k in required if k not in data]
    if missing:
        raise MalformedActionError(f"{kind} needs the field(s) {missing}")


def _name(data: dict, key: str) -> str:
    value = data[key]
    if not isinstance(value, str) or not value:
        raise MalformedActionError(f"action field {key!r} must be a card id, not {value!r}")
    return value


def parse_duel_action(data: Any) -> DuelAction:
    """Parse the JSON form of a duel action (shape only); MalformedActionError if it is bad."""
    if not isinstance(data, dict):
        raise MalformedActionError(f"an action must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if kind == "duel_play":
        _keys(data, kind, ("card",), ("target",))
        target = data.get("target")
        if target is not None and (type(target) is not int or target < 0):
            raise MalformedActionError(f"duel_play field 'target' must be a play index "
                                       f"(a whole number >= 0), not {target!r}")
        return PlayCard(_name(data, "card"), target)
    if kind == "duel_item":
        _keys(data, kind, ("item",))
        return UseItem(_name(data, "item"))
    if kind in _CARD_ACTIONS:
        _keys(data, kind, ("card",))
        return _CARD_ACTIONS[kind](_name(data, "card"))
    if kind == "duel_pass":
        _keys(data, kind, ())
        return PASS
    if kind == "duel_done":
        _keys(data, kind, ())
        return DONE
    raise MalformedActionError(f"unknown duel action type {kind!r}; expected "
                               f"{', '.join(DUEL_ACTION_TYPES)}")
