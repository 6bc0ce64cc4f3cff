"""Rise of the Shogun in the terminal: a map of the hero's surroundings, the occupied
provinces, the players' standing, the deciding player's cards, mission and treasures with their
full text, the running duel, and numbered menus, all in words. Actions, log events and
waiting steps are worded by the game (`games/shogun/texts.py`, through `ShogunGame.describe`,
`event_text` and `pending_text`), which also decides what each seat may read; so are the
cards, treasures and missions of the panels and the compass (`games/shogun/card_texts.py`).

The surroundings are the provinces around the deciding player's hero, one line each, with the
compass point and distance from the hero and what stands there:

    Around your hero in Higo:
      here    Higo        Green hero · Green peasant
      1 SE    Satsuma     castle, roof Green (controls it)
      1 NE    Bungo       (empty)

The occupied provinces follow, island by island. Pieces read without colour: a castle shows its
roof lord or its courting player, a shrine is `shrine`, heroes and peasants are named by their
colour. Everything shown comes from `view(seat)` of the seat that decides: other players' hands,
missions and treasures are never printed.
"""

from __future__ import annotations

import weakref
from typing import Any, Sequence

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from boardwright.core.actions import Action
from boardwright.core.game import Game, State, Viewer
from boardwright.games.shogun.card_texts import Words
from boardwright.games.shogun.game import ShogunGame
from boardwright.games.shogun.texts import event_text, pending_text
from boardwright.render.screen import Reply, Size, height_of, help_lines, shared_keys

# A colour's terminal style, by the colour's name as the game's state holds it ("green"): from
# `ShogunGame.info`, the one table of the seats' colours.
STYLES = {seat.name.lower(): seat.terminal_style for seat in ShogunGame.info.seats}
ISLANDS = ("honshu", "awaji", "shikoku", "kyushu")
REASONS = {"threshold": "reached the victory threshold",
           "max_rounds": "the round limit (most VP, then castles, then prisoners)"}
# The log events the terminal prints after a move line: what the move caused, not what the
# move line has just said ("Green moves the hero to Higo" is not repeated).
NEWS = frozenset({"duel", "capture", "kill", "steal", "converted", "cut_off",
                  "mission_completed", "decree", "search", "treasure_taken",
                  "decree_impossible"})


def colour_of(state: State, seat: int) -> str:
    colours = state.game.colours  # type: ignore[attr-defined]
    return colours[seat] if 0 <= seat < len(colours) else "?"


def seat_label(state: State, seat: int, suffix: str = "") -> Text:
    colour = colour_of(state, seat)
    return Text(colour.capitalize() + suffix, style=STYLES.get(colour, "bold"))


def initial(state: State, seat: int) -> str:
    return colour_of(state, seat)[0].upper()


_WORDS: weakref.WeakKeyDictionary[Any, Words] = weakref.WeakKeyDictionary()


def words_of(game: Game) -> Words:
    """The game's names, built once per game (they only read its static content)."""
    try:
        words = _WORDS.get(game)
        if words is None:
            words = _WORDS[game] = Words(game)
        return words
    except TypeError:  # a game that cannot be weakly referenced
        return Words(game)


def space_parts(state: State, i: int) -> list[Text]:
    """What stands on province `i`: castle (with its roof lord or courting player), shrine,
    peasant, hero; each named by colour."""
    s: Any = state
    parts: list[Text] = []
    c = s.castle_at[i]
    if c >= 0:
        part = Text("▣ castle", style="bold")
        if s.roof[c] >= 0:
            part.append(", roof ")
            part.append(colour_of(state, s.roof[c]).capitalize(),
                        style=STYLES.get(colour_of(state, s.roof[c]), "bold"))
        elif s.court[c] >= 0:
            part.append(", courted by ")
            part.append(colour_of(state, s.court[c]).capitalize(),
                        style=STYLES.get(colour_of(state, s.court[c]), "bold"))
        else:
            part.append(", free")
        parts.append(part)
    if s.shrine[i]:
        parts.append(Text("⛩ shrine", style="bold magenta"))
    if s.peasant[i] >= 0:
        owner = s.peasant[i]
        parts.append(Text(f"{colour_of(state, owner).capitalize()} peasant",
                          style=STYLES.get(colour_of(state, owner), "bold")))
    if s.hero_at[i] >= 0:
        owner = s.hero_at[i]
        hero = s.heroes[owner]
        parts.append(Text(f"{colour_of(state, owner).capitalize()} hero"
                          + (f" ({hero.capitalize()})" if hero else ""),
                          style=STYLES.get(colour_of(state, owner), "bold")))
    return parts


def joined(parts: Sequence[Text]) -> Text:
    line = Text()
    for k, part in enumerate(parts):
        if k:
            line.append(" · ")
        line.append_text(part)
    return line


def province_lines(state: State) -> list[Text]:
    """One line per occupied province, island by island, provinces by name."""
    board = state.game.board  # type: ignore[attr-defined]
    lines: list[Text] = []
    width = max(len(space.name) for space in board.spaces) + 2
    for island in ISLANDS:
        first = True
        for space in board.spaces:
            if space.island != island:
                continue
            parts = space_parts(state, space.index)
            if not parts:
                continue
            line = Text(f"{island.capitalize() if first else '':<9}", style="dim")
            first = False
            line.append(f"{space.name:<{width}}")
            line.append_text(joined(parts))
            lines.append(line)
    return lines


AROUND = 2  # the surroundings reach this many steps from the hero


def surroundings_lines(state: State, seat: int) -> list[Text]:
    """The map around `seat`'s hero: its province, then every province at distance 1 and
    the occupied ones at distance 2, each with its compass point seen from the hero and what
    stands there. Empty when the hero is not on the board yet."""
    s: Any = state
    board = state.game.board  # type: ignore[attr-defined]
    if not 0 <= seat < len(s.hero_pos) or s.hero_pos[seat] < 0:
        return []
    words = words_of(state.game)
    here = s.hero_pos[seat]
    home = board.ids[here]
    head = Text(f"Around your hero in {board.spaces[here].name}", style="bold")
    head.append(f" (up to {AROUND} steps; compass points from the hero):", style="dim")
    lines = [head]
    by_distance = sorted(((board.dist[here][i], words.direction(home, board.ids[i]), i)
                          for i in range(len(board.spaces))
                          if board.dist[here][i] <= AROUND),
                         key=lambda t: (t[0], DIRECTION_ORDER.index(t[1]), t[2]))
    width = max(len(board.spaces[i].name) for _, _, i in by_distance) + 2
    quiet = 0
    for distance, compass, i in by_distance:
        parts = space_parts(state, i)
        if distance == AROUND and not parts:
            quiet += 1
            continue
        where = "here" if distance == 0 else f"{distance} {compass}"
        line = Text(f"  {where:<6}", style="dim")
        name = board.spaces[i].name + (" (strait)" if distance == 1 and board.is_strait(
            home, board.ids[i]) else "")
        line.append(f"{name:<{width + 9 if '(strait)' in name else width}}")
        if parts:
            line.append_text(joined(parts))
        else:
            line.append("(empty)", style="dim")
        lines.append(line)
    if quiet:
        lines.append(Text(f"  and {quiet} empty province{'s' if quiet > 1 else ''} "
                          f"{AROUND} steps away", style="dim"))
    return lines


DIRECTION_ORDER = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def players_table(state: State, labels: Sequence[str] | None, viewer: int | None,
                  title: str | None = None) -> Table:
    """Each seat's standing as `viewer` may see it; hidden things are counted, not named."""
    view = state.view(None if state.is_terminal else viewer)
    words = words_of(state.game)
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False, box=None,
                  header_style="bold")
    for header in ("Player", "Hero", "VP", "Castles", "Chain VP", "Reserve", "Prisoners",
                   "Cards in hand", "Treasures", "Mission"):
        table.add_column(header)
    cards = view["cards"] or []
    for entry in view["seats"]:
        seat = entry["seat"]
        name = seat_label(state, seat)
        if labels and seat < len(labels):
            name.append(f" ({labels[seat]})", style="")
        prisoners = ", ".join(f"{k} {c.capitalize()}" for c, k in entry["prisoners"].items()) \
            or "-"
        hand = str(cards[seat]["hand_size"]) if seat < len(cards) else "-"
        if entry["treasures"] is not None:
            treasures = ", ".join(words.names.treasure(t) for t in entry["treasures"]) or "-"
        else:
            treasures = f"{entry['treasure_count']} (hidden)" if entry["treasure_count"] else "-"
        if entry["mission"]:
            mission = words.names.mission(entry["mission"])
        else:
            mission = "one (hidden)" if entry["has_mission"] else "-"
        table.add_row(name, words.hero(entry["hero"]), str(entry["vp"]), str(entry["castles"]),
                      str(entry["chain_vp"]), str(entry["reserve"]), prisoners, hand,
                      treasures, mission)
    return table


def players_lines(state: State, labels: Sequence[str] | None, viewer: int | None
                  ) -> list[Text]:
    """The players' standing as one sentence each (for narrow terminals, where the table's
    columns would be cut)."""
    view = state.view(None if state.is_terminal else viewer)
    words = words_of(state.game)
    cards = view["cards"] or []
    lines = []
    for entry in view["seats"]:
        seat = entry["seat"]
        line = seat_label(state, seat)
        if labels and seat < len(labels):
            line.append(f" ({labels[seat]})", style="")
        prisoners = ", ".join(f"{k} {c.capitalize()}" for c, k in entry["prisoners"].items())
        parts = [words.hero(entry["hero"]), f"{entry['vp']} VP",
                 f"{entry['castles']} castle{'s' if entry['castles'] != 1 else ''}",
                 f"chain VP {entry['chain_vp']}", f"reserve {entry['reserve']}",
                 f"prisoners {prisoners or 'none'}"]
        if seat < len(cards):
            parts.append(f"{cards[seat]['hand_size']} cards in hand")
        if entry["treasures"] is not None:
            parts.append("treasures: " + (", ".join(words.names.treasure(t)
                                                    for t in entry["treasures"]) or "none"))
        else:
            parts.append(f"{entry['treasure_count']} hidden treasure"
                         f"{'s' if entry['treasure_count'] != 1 else ''}")
        if entry["mission"]:
            parts.append("mission: " + words.names.mission(entry["mission"]))
        else:
            parts.append("a hidden mission" if entry["has_mission"] else "no mission")
        line.append(": " + " · ".join(parts), style="")
        lines.append(line)
    return lines


WIDE = 110  # from this width on the players are a table, below it one sentence each


def entry_line(name: str, facts: str, text: str, indent: str = "  ") -> Text:
    line = Text(indent)
    line.append(name, style="bold")
    line.append(f" ({facts})" if facts else "")
    if text:
        line.append(f": {text}", style="")
    return line


def cards_lines(state: State, seat: int) -> list[Text]:
    """The deciding player's hand with every card's data and text, their mission and
    treasures with their texts (all from `view(seat)`), and everyone's piles (public)."""
    s: Any = state
    if s.table is None or not 0 <= seat < state.game.num_players:
        return []
    words = words_of(state.game)
    view = state.view(seat)
    mine = view["cards"][seat]
    lines = []
    hand = mine["hand"] or []
    lines.append(Text(f"Your hand ({len(hand)} card{'s' if len(hand) != 1 else ''})"
                      + ("" if hand else ": empty"), style="bold"))
    for card_id in hand:
        lines.append(entry_line(*words.card_line(card_id)))
    own = view["seats"][seat]
    if own["mission"]:
        name, when, text = words.mission_line(own["mission"])
        lines.append(Text("Your mission", style="bold"))
        lines.append(entry_line(name, when, text))
    if own["treasures"]:
        lines.append(Text("Your treasures", style="bold"))
        for treasure_id in own["treasures"]:
            lines.append(entry_line(*words.treasure_line(treasure_id)))
    for player in view["cards"]:
        line = seat_label(state, player["seat"], " piles: ")
        cells = []
        for attribute, pile in player["piles"].items():
            used = player["pile_totals"][attribute]
            names = "/".join(words.names.card(c) for c in pile) or "-"
            cells.append(f"{attribute.capitalize()} {used}/{player['scores'][attribute]} "
                         f"[{names}]")
        line.append("  ".join(cells), style="")
        lines.append(line)
    return lines


def duel_lines(state: State) -> list[Text]:
    """The running duel as the deciding seat sees it, cards by name with their values."""
    s: Any = state
    duel = s.duel
    if duel is None:
        return []
    words = words_of(state.game)
    view = duel.view(state.current_player)
    target = view["target"]
    head = Text("Duel: ", style="bold")
    head.append_text(seat_label(state, view["attacker"]))
    head.append(" attacks ")
    head.append_text(seat_label(state, view["defender"]))
    what = str(target.get("kind", "")).replace("_", " ")
    where = words.names.space(target["space"]) if "space" in target else ""
    head.append(f" ({what} in {where}) · attack {view['attack_total']} against block "
                f"{view['block_total']} · step: {str(view['phase']).replace('_', ' ')}")
    lines = [head]
    for play in view["plays"]:
        mark = "" if play["active"] else (" (purged)" if play["purged"] else " (ignored)")
        line = Text(f"  #{play['index']} ")
        line.append_text(seat_label(state, play["seat"]))
        category = str(play["category"]).replace("_", " ")
        line.append(f" {words.names.card(play['card'])} ({category}, {play['value']}){mark}")
        lines.append(line)
    return lines


class ShogunRenderer:
    """Draws Rise of the Shogun positions, menus and events for the command line."""

    def __init__(self, game: Game, labels: Sequence[str] | None = None) -> None:
        self.game = game
        self.labels = list(labels) if labels else None

    def seat_text(self, seat: int, suffix: str = "") -> Text:
        colours = self.game.colours  # type: ignore[attr-defined]
        colour = colours[seat] if 0 <= seat < len(colours) else "?"
        return Text(colour.capitalize() + suffix, style=STYLES.get(colour, "bold"))

    def legend(self) -> list[Text]:
        return [Text("Map: the provinces around your hero, then every occupied province. "
                     "▣ castle (its roof lord controls it; a courting player is on its way), "
                     "⛩ shrine; peasants and heroes by their colour. h: help.", style="dim")]

    def heading(self, state: State) -> Text:
        s: Any = state
        text = self.seat_text(state.current_player, " to decide")
        text.append(f" · round {s.round} · ", style="")
        text.append_text(self.seat_text(s.active, "'s turn"))
        if s.pending:
            text.append(" · a step to finish (below)", style="")
        else:
            text.append(f" · {str(s.phase).replace('_', ' ')} phase", style="")
        return text

    def waiting(self, state: State) -> Text | None:
        """The waiting step in the game's words ("Green must keep one of the treasures found
        in the shrine ..."), a line of its own under the status: too long for the heading."""
        s: Any = state
        if not s.pending:
            return None
        kind, seat = s.pending[0][0], s.pending[0][1]
        text = self.seat_text(seat)
        text.append(f" must {pending_text(kind)}.", style="")
        return text

    def status(self, state: State) -> Text:
        s: Any = state
        status = Text(f"Round {s.round}"
                      + (f" of at most {s.game.config.max_rounds}"
                         if s.game.config.max_rounds else "")
                      + f" · {s.game.config.threshold} VP wins", style="bold")
        emperor = s.emperor() if s.phase not in ("heroes", "castles") else -1
        if emperor >= 0:
            status.append(" · emperor: ")
            status.append_text(self.seat_text(emperor))
        if s.decree:
            status.append(f" · decree: {s.decree} only")
        return status

    def position(self, state: State, marks: bool = False, width: int | None = None
                 ) -> list[RenderableType]:
        """Status, the hero's surroundings, the occupied provinces, the players (a table, or
        one sentence each below `WIDE` columns), the viewer's cards and the duel."""
        return self._position(state, width, surroundings=True, provinces=True)

    def _position(self, state: State, width: int | None, surroundings: bool,
                  provinces: bool) -> list[RenderableType]:
        viewer = state.current_player
        out: list[RenderableType] = [self.status(state)]
        waiting = self.waiting(state)
        if waiting is not None:
            out.append(waiting)
        if surroundings:
            out.extend(surroundings_lines(state, viewer))
        if provinces:
            out.append(Text("Occupied provinces", style="bold"))
            out.extend(province_lines(state))
        if not (surroundings and provinces):
            out.append(Text(f"(m: {'every occupied province' if surroundings else 'the map'}"
                            " — left out to fit the terminal)", style="dim"))
        if width is not None and width < WIDE:
            out.extend(players_lines(state, self.labels, viewer))
        else:
            out.append(players_table(state, self.labels, viewer))
        out.extend(cards_lines(state, viewer))
        out.extend(duel_lines(state))
        return out

    def menu(self, state: State) -> tuple[list[Action], list[RenderableType]]:
        actions = state.legal_actions()
        lines: list[RenderableType] = []
        for number, action in enumerate(actions, 1):
            line = Text(f"{number:>3} ", style="bold cyan")
            line.append(self.describe(state, action, state.current_player), style="")
            lines.append(line)
        return actions, lines

    def screen(self, state: State, size: Size | None = None) -> list[RenderableType]:
        """The position and the menu (texts wrap at the terminal's width). In a short
        terminal the map parts give way first, so that the decision and what it is about
        (the hand, the duel) stay on screen: the list of occupied provinces, then the hero's
        surroundings; `m` prints them."""
        width = None if size is None else size.width
        menu = self.menu(state)[1]
        for surroundings, provinces in ((True, True), (True, False), (False, False)):
            out = [*self._position(state, width, surroundings, provinces), *menu]
            if size is None or height_of(out, size.width) <= size.height:
                break
        return out

    def command(self, state: State, text: str) -> Reply | None:
        """`m` (or `map`): the hero's surroundings and every occupied province, which a short
        terminal's screen leaves out. Every choice is in the numbered list."""
        if text.strip().lower() in ("m", "map"):
            return Reply(lines=[*surroundings_lines(state, state.current_player),
                                Text("Occupied provinces", style="bold"), *province_lines(state)])
        return None

    def prompt_keys(self) -> str:
        return ", m map"

    def help(self) -> list[Text]:
        notes = ("The screen: the provinces around your hero (compass point, steps),",
                 "(m prints them and every occupied province when the terminal is short),",
                 "every occupied province, the players (others' secrets counted only),",
                 "your hand (category, speed, attribute cost, value, text), your mission",
                 "and treasures with their text, then the duel if one runs.",
                 "Every decision, each step of a duel too, is a numbered line of the list.")
        return help_lines("Rise of the Shogun", shared_keys(), notes)

    def describe(self, state: State, action: Action, viewer: Viewer = None) -> str:
        """The game's text of `action` as `viewer` may read it (`Game.describe`): its public
        form when something is hidden from them, else the whole action."""
        return self.game.describe(state, action, viewer)

    def snapshot(self, state: State) -> dict[str, Any]:
        return {"log": len(state.log)}  # type: ignore[attr-defined]

    def news(self, before: dict[str, Any], state: State) -> list[Text]:
        """What the last action caused, in words (attacks and their duels, captures, kills,
        conversions, cut-offs, missions, decrees, searches, treasures taken)."""
        lines = []
        for entry in state.log[before.get("log", 0):]:  # type: ignore[attr-defined]
            if entry["event"] not in NEWS:
                continue
            sentence = event_text(self.game, entry)  # type: ignore[arg-type]
            text = Text(sentence)
            seat = entry.get("seat", -1)
            if type(seat) is int and seat >= 0:
                name = self.seat_text(seat).plain
                if sentence.startswith(name):
                    text.stylize(STYLES.get(name.lower(), "bold"), 0, len(name))
            lines.append(text)
        return lines

    def final(self, state: State) -> list[RenderableType]:
        s: Any = state
        out: list[RenderableType] = list(province_lines(state))
        out.append(players_table(state, self.labels, None, title="Final position"))
        winners = s.winners
        text = Text("Winner: " if len(winners) == 1 else "Winners (tied): ", style="bold")
        for i, seat in enumerate(winners):
            if i:
                text.append(", ")
            text.append_text(self.seat_text(seat))
        if s.end_reason in REASONS:
            text.append(f" — {REASONS[s.end_reason]}", style="")
        out.append(text)
        return out


__all__ = ["ShogunRenderer", "cards_lines", "players_table", "province_lines",
           "surroundings_lines"]
