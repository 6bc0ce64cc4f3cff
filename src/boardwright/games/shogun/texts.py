"""Rise of the Shogun in words: actions, log events and waiting steps as sentences that name
provinces, cards, treasures, missions and players as the game prints them ("Tajima", "Katana
Cut", "Oni", "Green"), never by id ("tajima", "sam_katana_cut", "t_oni", seat 0).

Every front end reads these: the web table's move log and menus (`ShogunGame.describe`),
the event log and the waiting step of each view (`ShogunState.view` adds `text`), and
`ShogunGame.action_text`. What a seat may not see is decided before any wording: an action
whose `public_action` hides something from the viewer is worded from its public form
(`visibility.SECRET_ACTIONS`), and log events carry no secret to begin with.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Callable, Mapping

from boardwright.core.seatwords import sentence
from boardwright.games.shogun.hero_words import hero_line

if TYPE_CHECKING:
    from boardwright.games.shogun.game import ShogunGame

ATTRIBUTE_NAMES = {"body": "Body", "mind": "Mind", "ki": "Ki"}
DECREE_NAMES = {"recruit": "recruit", "move": "move", "convert": "convert",
                "reorganise": "reorganise"}
TARGET_NAMES = {"hero": "the hero", "peasant": "the peasant",
                "courted_castle": "the courted castle",
                "controlled_castle": "the castle", "conversion": "the peasant"}
END_REASONS = {"threshold": "a player reached the victory threshold",
               "max_rounds": "the round limit was reached; most VP, then castles, then prisoners "
                             "decide",
               "max_decisions": "the decision limit was reached; most VP, then castles, then "
                                "prisoners decide"}
# The phase box's words: the set-up's home step follows the step being played (a home castle,
# then the hero beside it).
PHASE_NAMES = {"heroes": "Set-up: choose a hero", "castles": "Set-up: place castles",
               "shrines": "Set-up: place shrines", "homes": "Set-up: choose a home castle",
               "homes_hero": "Set-up: place your hero beside your home castle",
               "discard": "Discard phase", "cleanup": "Cleanup phase",
               "movement": "Movement phase", "hero": "Hero phase", "court": "Court phase"}


def phase_text(phase: str, home_step: str = "castle", over: bool = False) -> str:
    """The phase as the phase box names it; "Game over" once the game has ended."""
    if over:
        return "Game over"
    if phase == "homes" and home_step == "hero":
        return PHASE_NAMES["homes_hero"]
    return PHASE_NAMES.get(phase, phase.replace("_", " ").capitalize())


PHASE_DONE = {"discard": "End the Discard phase (keep the hand)",
              "cleanup": "End the Cleanup phase",
              "movement": "Stay put (no hero move)",
              "hero": "End the Hero phase",
              "court": "End the turn (no Court action)"}

# What the player named by a waiting step must do: "<player> must <text>". Choices first, then
# the automatic steps, which the engine runs at once (a view never shows them waiting, but a
# front end that catches one mid-way still has a sentence for it).
PENDING_TEXTS: dict[str, str] = {
    "keep": "keep one of the treasures found in the shrine (the other goes under the deck)",
    "overflow": "give back a treasure: no one may hold more than 3",
    "gift": "give back a treasure, as the completed mission asks",
    "relocate_shrine": "put the searched shrine in another empty province",
    "free_move": "decide whether the hero follows into the province just emptied (a free move)",
    "theft": "decide whether to take a random treasure from the beaten hero",
    "relocate_hero": "send the beaten hero next to one of its owner's castles, or leave it",
    "take_peasant": "take one of their peasants off the board as the new court marker",
    "kill": "choose the second peasant the monster kills",
    "convert_pick": "choose which neighbouring peasant the conversion takes (the reserve is "
                    "short)",
    "recruit": "recruit peasants next to their castles and peasants, or stop",
    "reorganise": "pick up a peasant to move it, or finish the reorganisation",
    "reorganise_to": "put the picked-up peasant down in a province still connected to their "
                     "castles",
    "exchange": "exchange prisoners with another player, or end the exchange",
    "clear": "clear pile tops to free their cost, or stop",
    "sandals": "move the hero up to 3 provinces (Sandals), or stop",
    "before_decree": "use the Imperial Letter before the decree, or let the emperor decree",
    "decree": "decree which Court action the active player must take",
    "defy": "defy the decree by discarding a treasure, or accept it",
    "searched": "finish the shrine search",
    "court_decree": "wait for the emperor's decree",
    "defy_check": "wait while the game checks whether the decree can be defied",
    "decree_check": "wait while the game checks whether the decree can be obeyed",
    "next_turn": "wait for the next turn",
    "cutoffs": "wait while peasants cut off from their castles are removed",
}


# What a card's printed fields mean (SHO-DUEL-02..04, -23, -29; SHO-ITEM-01): the table's card
# and treasure tooltips read them from the static data, which the generator copies from here.
GLOSSARY: dict[str, dict[str, str]] = {
    "categories": {
        "basic_attack": "Basic attack: opens an attack (or a conversion); its value starts the "
                        "attack total.",
        "attack_modifier": "Attack modifier: adds its value to the attack total; it needs a "
                           "basic attack in play.",
        "basic_block": "Basic block: the defender's one block; its value starts the block "
                       "total.",
        "block_modifier": "Block modifier: adds its value to the block total; it needs a basic "
                          "block in play.",
        "modifier_own_side": "Own-side modifier: adds its value to its owner's side, attacking "
                             "or defending.",
        "special": "Special: no value; its text is its effect.",
    },
    "speeds": {
        "fast": "Fast: may be played whenever its text allows, also in other players' turns "
                "(a defender plays only fast cards).",
        "restricted": "Restricted: only in its owner's own action phase (in a duel, only when "
                      "attacking).",
        "exclusive": "Exclusive: only in its owner's own action phase, and it uses their one "
                     "exclusive play of the turn.",
    },
    "attributes": {
        "body": "Body: the card's cost goes on the Body pile, whose total may not exceed the "
                "hero's Body score.",
        "mind": "Mind: the card's cost goes on the Mind pile, whose total may not exceed the "
                "hero's Mind score.",
        "ki": "Ki: the card's cost goes on the Ki pile, whose total may not exceed the hero's "
              "Ki score.",
    },
    "treasures": {
        "monster": "Monster: attacks in place of a basic attack card, with its printed value "
                   "and range; it costs nothing and goes back under the treasure deck.",
        "scoring": "Scoring item: counts victory points while held (hidden until the end).",
        "restricted": "Restricted item: used in its holder's own turn, then goes back under "
                      "the treasure deck.",
        "fast": "Fast item: may be used in a duel, also when defending, then goes back under "
                "the treasure deck.",
    },
}


class Namer:
    """Names of one game's things as printed: provinces, cards, treasures, missions, heroes
    and seats (by colour)."""

    def __init__(self, game: ShogunGame) -> None:
        self.game = game
        self.spaces = {s.id: s.name for s in game.board.spaces}
        self.heroes = {h: deck.name for h, deck in game.content.decks.items()}

    def space(self, space_id: Any) -> str:
        return self.spaces.get(space_id, str(space_id))

    def spaces_list(self, ids: Any) -> str:
        names = [self.space(s) for s in ids]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def card(self, card_id: Any) -> str:
        if card_id in self.game.catalogue:
            return self.game.catalogue[card_id].name
        if card_id in self.game.treasure:
            return self.game.treasure[card_id].name
        return str(card_id)

    def treasure(self, treasure_id: Any) -> str:
        t = self.game.treasure.get(treasure_id)
        return t.name if t is not None else str(treasure_id)

    def mission(self, mission_id: Any) -> str:
        m = self.game.mission.get(mission_id)
        return m.name if m is not None else str(mission_id)

    def hero(self, hero_id: Any) -> str:
        return self.heroes.get(hero_id, str(hero_id).capitalize())

    def seat(self, seat: Any) -> str:
        return self.seat_colour(seat)

    def seat_colour(self, seat: Any) -> str:
        """A seat by its colour ("Green"), whoever names the seats."""
        colours = self.game.colours
        if type(seat) is int and 0 <= seat < len(colours):
            return colours[seat].capitalize()
        return "Nobody"

    def colour(self, colour: Any) -> str:
        """A colour given as a seat number or a colour name, as an adjective ("green"): a
        piece's colour, never a player's name."""
        if type(colour) is int:
            return self.seat_colour(colour).lower()
        return str(colour).lower()

    def naming_seats(self, name: Callable[[int], str]) -> Namer:
        """This namer with the seats (not the colours) named by `name`."""
        other = copy.copy(self)
        other.seat = lambda seat: (name(seat) if type(seat) is int  # type: ignore[method-assign]
                                   and 0 <= seat < len(self.game.colours) else self.seat(seat))
        return other

    def seats(self, seats: Any) -> str:
        names = [self.seat(s) for s in seats]
        if not names:
            return "nobody"
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def namer(game: ShogunGame) -> Namer:
    cached = getattr(game, "_namer", None)
    if cached is None:
        cached = Namer(game)
        game._namer = cached  # type: ignore[attr-defined]
    return cached


# -- actions -------------------------------------------------------------------------------------

def action_words(game: ShogunGame, data: Mapping[str, Any], state: Any = None) -> str:
    """The whole text of an action (its JSON form), secret fields included: a phrase in the
    imperative ("put the peasant down in Tajima"), lower-case like the public texts of secret
    actions ("keep a treasure"), that reads as a menu entry and, after a player's name, as a
    log line. `state` (the position the action is taken in) words "done", attacks and duel
    targets more exactly; without it they still read."""
    text = _action_words(game, data, state)
    return text[0].lower() + text[1:]


def _action_words(game: ShogunGame, data: Mapping[str, Any], state: Any) -> str:
    n = namer(game)
    kind = data.get("type", "")
    S, C, T = n.space, n.card, n.treasure
    if kind == "choose_hero":
        deck = game.content.decks.get(data["hero"]) if state is not None else None
        # chosen from a position (a menu, the log): the hero's scores and what it is good at
        return f"Choose the {hero_line(deck) if deck else n.hero(data['hero'])}"
    if kind == "place_castle":
        return f"Place a castle in {S(data['space'])}"
    if kind == "place_shrine":
        return f"Place a shrine in {S(data['space'])}"
    if kind == "choose_home":
        return f"Take the castle in {S(data['space'])} as home castle"
    if kind == "place_hero":
        return f"Put the hero in {S(data['space'])}"
    if kind == "discard_card":
        return f"Discard {C(data['card'])} from the hand"
    if kind == "clear_pile":
        pile = ATTRIBUTE_NAMES.get(data["attribute"], data["attribute"])
        return f"Clear the top card of the {pile} pile"
    if kind == "done":
        return done_words(state)
    if kind == "move":
        return f"Move the hero to {S(data['space'])}"
    if kind == "search":
        return "Search the shrine"
    if kind == "claim":
        return f"Claim the castle in {S(data['space'])}"
    if kind == "abandon":
        return "Abandon the claimed castle"
    if kind == "attack":
        target = ""
        if state is not None:
            target = attack_target(state, data["space"])
        return f"Attack {target}{S(data['space'])} with {C(data['opening'])}"
    if kind == "convert":
        return (f"Convert {S(data['target'])} from {S(data['source'])} "
                f"with {C(data['card'])}")
    if kind == "convert_pick":
        return f"Convert the peasant in {S(data['space'])}"
    if kind == "recruit":
        return f"Recruit a peasant in {S(data['space'])}"
    if kind == "reorganise":
        return f"Pick up the peasant in {S(data['source'])} to move it"
    if kind == "place_peasant":
        return f"Put the peasant down in {S(data['space'])}"
    if kind == "cancel_reorganise":
        return "Cancel the reorganisation (peasants go back)"
    if kind == "decree":
        court = DECREE_NAMES.get(data["kind"], data["kind"])
        return f"Decree that the Court action must be: {court}"
    if kind == "defy":
        if "treasure" in data:
            return f"Defy the decree, discarding {T(data['treasure'])}"
        return "Defy the decree, discarding a treasure"
    if kind == "use_item":
        return f"Use {T(data['treasure'])}"
    if kind in ("discard_treasure", "keep_treasure", "return_treasure"):
        verb = {"discard_treasure": "Discard", "keep_treasure": "Keep",
                "return_treasure": "Give back"}[kind]
        return f"{verb} {T(data['treasure'])}" if "treasure" in data else f"{verb} a treasure"
    if kind == "relocate_shrine":
        return f"Move the searched shrine to {S(data['space'])}"
    if kind == "relocate_hero":
        return f"Send the beaten hero to {S(data['space'])}"
    if kind == "exchange":
        return (f"Give a {n.colour(data['colour'])} prisoner to {n.seat(data['opponent'])} "
                f"in exchange")
    if kind == "play_special":
        against = f" against {n.seat(data['opponent'])}" if data.get("opponent") is not None else ""
        return f"Play {C(data['card'])}{against}"
    if kind == "take_peasant":
        return f"Take the peasant in {S(data['space'])} as court marker"
    if kind == "kill":
        return f"Kill the peasant in {S(data['space'])}"
    if kind == "take_treasure":
        return "Take a random treasure from the beaten hero"
    if kind == "duel_play":
        on = ""
        if data.get("target") is not None:
            on = f" on {played_card(state, data['target'])}"
        return f"Play {C(data['card'])}{on}"
    if kind == "duel_item":
        return f"Use {T(data['item'])} in the duel"
    if kind == "duel_pass":
        return "Pass (play nothing more)"
    if kind == "duel_discard":
        return f"Discard {C(data['card'])}"
    if kind == "duel_pick":
        return f"Make them discard {C(data['card'])}"
    if kind == "duel_clear":
        return f"Clear {C(data['card'])} from its pile"
    if kind == "duel_recall":
        return f"Take {C(data['card'])} back to the hand"
    if kind == "duel_done":
        return "Stop here"
    return kind.replace("_", " ").capitalize()


def describe(game: ShogunGame, state: Any, action: Any, viewer: Any = None) -> str:
    """The text of `action`, taken in `state` by the seat to move, as `viewer` may read it:
    its public form's text when something is hidden from the viewer, else the whole action
    worded with what the position tells ("End the Hero phase" for a `done`, "the Red hero in
    Tajima" for an attack)."""
    actor = state.current_player
    if game.hides_from(action, actor, viewer):
        return game.describe_action(action, viewer, actor)
    return action_words(game, action.to_json(), state)


def done_words(state: Any) -> str:
    """What "done" ends in `state`: the waiting step, else the phase."""
    if state is None:
        return "Done (end this step)"
    pending = getattr(state, "pending", None)
    if pending:
        return {"free_move": "Stay (no free move)", "theft": "Take no treasure",
                "relocate_hero": "Leave the beaten hero where it is",
                "recruit": "Stop recruiting", "reorganise": "Finish the reorganisation",
                "exchange": "End the exchange", "clear": "Stop clearing",
                "sandals": "Stop moving (Sandals)", "before_decree": "Let the emperor decree",
                "defy": "Accept the decree"}.get(pending[0][0], "Done")
    return PHASE_DONE.get(getattr(state, "phase", ""), "Done")


def attack_target(state: Any, space_id: str) -> str:
    """"the Red hero in " / "the Red peasant in " / "the castle in " for an attack on
    `space_id`."""
    game = state.game
    n = namer(game)
    s = game.board.index.get(space_id)
    if s is None:
        return ""
    if state.hero_at[s] >= 0:
        return f"the {n.seat(state.hero_at[s])} hero in "
    if state.peasant[s] >= 0:
        return f"the {n.seat(state.peasant[s])} peasant in "
    if state.castle_at[s] >= 0:
        return "the castle in "
    return ""


def played_card(state: Any, index: Any) -> str:
    """The card of play number `index` of the running duel (a target of ignore or purge)."""
    duel = getattr(state, "duel", None) if state is not None else None
    if duel is not None and type(index) is int and 0 <= index < len(duel.plays):
        return f"{namer(state.game).card(duel.plays[index].card)} (play {index + 1})"
    return f"play {index + 1}" if type(index) is int else "a play"


# -- duels as they count ------------------------------------------------------------------

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth", "tenth")
CATEGORY_WORDS = {"basic_attack": "basic attack", "attack_modifier": "attack modifier",
                  "basic_block": "basic block", "block_modifier": "block modifier",
                  "modifier_own_side": "own-side modifier", "special": "special"}


def ordinal(index: int) -> str:
    """Play index 1 -> "second"."""
    return ORDINALS[index] if 0 <= index < len(ORDINALS) else f"number {index + 1}"


def value_words(category: str, base: int, combo: int) -> str:
    """"basic attack 3 + combo 2 = 5", "basic block 3", "special"."""
    name = CATEGORY_WORDS.get(category, category.replace("_", " "))
    if category == "special":
        return name
    if combo:
        return f"{name} {base} + combo {combo} = {base + combo}"
    return f"{name} {base}"


def card_event_text(game: ShogunGame, entry: Mapping[str, Any], who: str) -> str:
    """The log's sentence of a `duel_card` event."""
    n = namer(game)
    worth = value_words(entry["category"], entry["value"], entry.get("combo", 0))
    text = f"{who} plays {n.card(entry['card'])} in the duel: {worth}"
    if entry.get("effect") in ("ignore", "purge") and type(entry.get("target")) is int:
        verb = "ignores" if entry["effect"] == "ignore" else "purges"
        text += (f", and {verb} the card played {ordinal(entry['target'])} "
                 f"({n.seat(entry['target_seat'])}'s {n.card(entry['target_card'])})")
    return text + "."


# -- log events ----------------------------------------------------------------------------------

# Events worded by a template of the seat (`who`) and, for the second, the province
# (`space`); the others are built in `event_text`.
WHO_EVENTS = {
    "treasure_discarded": "{who} discards a treasure.",
    "treasure_returned": "{who} gives back a treasure.",
    "defy": "{who} defies the decree, discarding a treasure.",
    "reorganise_cancelled": "{who} cancels the reorganisation.",
}
SPACE_EVENTS = {
    "castle_placed": "{who} places a castle in {space}.",
    "shrine_placed": "{who} places a shrine in {space}.",
    "home_chosen": "{who} takes the castle in {space} as home castle.",
    "hero_placed": "{who} puts their hero in {space}.",
    "hero_moved": "{who}'s hero moves to {space}.",
    "search": "{who} searches the shrine in {space}.",
    "claim": "{who} claims the castle in {space}.",
    "abandon": "{who} abandons the claim on the castle in {space}.",
    "shrine_relocated": "{who} moves the searched shrine to {space}.",
    "recruit": "{who} recruits a peasant in {space}.",
}
# A hero's move that is not its Movement-phase move says why (the log's `how`).
HOW_MOVED = {
    "free_move": "{who}'s hero follows up its victory into {space}.",
    "sandals": "{who}'s hero walks to {space} in the {sandals}.",
}


def event_text(game: ShogunGame, entry: Mapping[str, Any],
               name: Callable[[int], str] | None = None) -> str:
    """One log entry of `ShogunState.log` as a sentence, seats by their colour unless `name`
    names them. Entries carry nothing secret (a kept or discarded treasure is logged without
    its name), so the sentence is the same for all."""
    n = namer(game) if name is None else namer(game).naming_seats(name)
    kind = entry.get("event", "")
    who = n.seat(entry.get("seat"))
    S = n.space
    if kind in WHO_EVENTS:
        return WHO_EVENTS[kind].format(who=who)
    if kind == "hero_moved" and entry.get("how") in HOW_MOVED:
        return HOW_MOVED[entry["how"]].format(who=who, space=S(entry["space"]),
                                              sandals=n.treasure("t_straw_sandals"))
    if kind in SPACE_EVENTS:
        return SPACE_EVENTS[kind].format(who=who, space=S(entry["space"]))
    if kind == "hero_sent":
        return (f"{who}'s victory sends {n.seat(entry['hero'])}'s hero to "
                f"{S(entry['space'])}, next to one of their castles.")
    if kind == "turn":
        return f"{who} begins a turn (round {entry.get('round', '?')})."
    if kind == "hero_chosen":
        return f"{who} chooses the {n.hero(entry['hero'])}."
    if kind == "duel_card":
        return card_event_text(game, entry, who)
    if kind == "special":
        return f"{who} plays {n.card(entry['card'])}."
    if kind == "item":
        return f"{who} uses {n.treasure(entry['treasure'])}."
    if kind == "exchange":
        return (f"{who} gives a {n.colour(entry['colour'])} prisoner to "
                f"{n.seat(entry['opponent'])}.")
    if kind == "game_over":
        reason = END_REASONS.get(entry.get("reason", ""), str(entry.get("reason", "")))
        winners = list(entry.get("winners", []))
        verb = "wins" if len(winners) == 1 else "win"
        return f"Game over: {n.seats(winners)} {verb} ({reason})."
    if kind == "treasure_left":
        return f"{who} leaves {n.seat(entry['source'])} their treasures."
    if kind == "decree":
        return (f"{who}, the emperor, decrees that the Court action must be: "
                f"{DECREE_NAMES.get(entry['kind'], entry['kind'])}.")
    if kind == "reorganise":
        return f"{who} moves a peasant from {S(entry['source'])} to {S(entry['space'])}."
    if kind == "decree_impossible":
        return (f"{who} cannot obey the decree "
                f"({DECREE_NAMES.get(entry['kind'], entry['kind'])}) and takes no Court action.")
    if kind == "mission_completed":
        return (f"{who} completes the mission {n.mission(entry['mission'])} and takes the "
                f"castle in {S(entry['space'])}.")
    if kind == "attack":
        target = TARGET_NAMES.get(entry.get("target", ""), "the target")
        if entry.get("target") in ("hero", "peasant"):
            target = f"the {n.seat(entry['defender'])} {entry['target']}"
        return (f"{who} attacks {target} in {S(entry['space'])} with "
                f"{n.card(entry['opening'])}.")
    if kind == "convert":
        return (f"{who} tries to convert {n.seat(entry['defender'])}'s piece in "
                f"{S(entry['space'])} from {S(entry['source'])}.")
    if kind == "duel":
        result = "wins" if entry.get("success") else "loses"
        return (f"{who} {result} the duel against {n.seat(entry['defender'])} in "
                f"{S(entry['space'])}: attack {entry.get('attack')}, block {entry.get('block')}.")
    if kind == "cut_off":
        spaces = list(entry.get("spaces", []))
        captor = entry.get("captured_by", -1)
        one = len(spaces) == 1
        if type(captor) is int and captor >= 0:
            fate = f"{'is' if one else 'are'} taken prisoner by {n.seat(captor)}"
        else:
            fate = f"{'goes' if one else 'go'} back to the reserve"
        noun = "peasant" if one else "peasants"
        return f"{who}'s {noun} in {n.spaces_list(spaces)}, cut off from their castles, {fate}."
    if kind == "capture":
        return (f"{who} captures the {n.colour(entry['colour'])} peasant in "
                f"{S(entry['space'])}.")
    if kind == "kill":
        return (f"{who}'s monster kills the {n.colour(entry['colour'])} peasant in "
                f"{S(entry['space'])}.")
    if kind == "treasure_taken":
        return f"{who} takes a random treasure from {n.seat(entry['source'])}."
    if kind == "steal":
        return (f"{who} steals the claim on the castle in {S(entry['space'])} from "
                f"{n.seat(entry['defender'])}, with its mission.")
    if kind == "converted":
        return (f"{who} converts the {n.colour(entry['colour'])} piece in "
                f"{S(entry['space'])}.")
    return f"{who}: {kind.replace('_', ' ')}."


# -- waiting steps ---------------------------------------------------------------------------------

def event_sentence(game: ShogunGame, entry: Mapping[str, Any]) -> dict[str, Any]:
    """A log entry's sentence as a view sends it: `text`, and `words` with the seats left for
    a front end to name (core.seatwords)."""
    n = namer(game)
    return sentence(lambda name: event_text(game, entry, name), n.seat, len(game.colours))


def pending_text(kind: str) -> str:
    """What the player of a waiting step of `kind` must do (completes "<player> must ...")."""
    text = PENDING_TEXTS.get(kind)
    if text is None:
        return kind.replace("_", " ")
    return text


__all__ = ["GLOSSARY", "PENDING_TEXTS", "Namer", "action_words", "describe", "event_sentence",
           "event_text", "pending_text", "setup_words"]


# -- listings ----------------------------------------------------------------------------------

def setup_words(options: Mapping[str, Any], default_vp: int | None) -> list[str]:
    """What a game's options mean to someone choosing it (the web lobby's rows): the heroes
    (dealt in seat order, else chosen at the table), the last round when the game has one, and
    the victory points to win when they differ from the rulebook's (`default_vp`)."""
    heroes = options.get("heroes")
    if isinstance(heroes, list) and heroes and all(isinstance(h, str) for h in heroes):
        words = ["heroes " + ", ".join(h.capitalize() for h in heroes)]
    else:
        words = ["heroes chosen at the table"]
    rounds = options.get("max_rounds")
    if type(rounds) is int:
        words.append(f"ends after round {rounds}")
    vp = options.get("vp_threshold")
    if type(vp) is int and vp != default_vp:
        words.append(f"{vp} VP to win")
    return words
