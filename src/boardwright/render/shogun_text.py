"""Rise of the Shogun in the terminal: the map as a list of provinces with their pieces, the
players' standing, the running duel, and numbered menus.

Only occupied provinces are listed, island by island, one line each:

    Kyushu   satsuma  ▣ castle: roof G
             higo     g peasant · hero R

Pieces read without colour: a castle shows its roof lord (`roof G`) or its court marker
(`court R`), a shrine is `⛩ shrine`, a hero `hero R`, a peasant `g peasant`; letters are the
colour initials (G green, R red, B blue, Y yellow). Everything shown comes from the state as the
viewer may see it: other players' hands, missions and treasures are never printed.
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from boardwright.core.actions import Action
from boardwright.core.game import Game, State, Viewer
from boardwright.render import secret_text

STYLES = {"green": "bold green", "red": "bold red", "blue": "bold blue",
          "yellow": "bold yellow"}
ISLANDS = ("honshu", "awaji", "shikoku", "kyushu")
REASONS = {"threshold": "reached the victory threshold",
           "max_rounds": "the round limit (most VP, then castles, then prisoners)"}


def colour_of(state: State, seat: int) -> str:
    colours = state.game.colours  # type: ignore[attr-defined]
    return colours[seat] if 0 <= seat < len(colours) else "?"


def seat_label(state: State, seat: int, suffix: str = "") -> Text:
    colour = colour_of(state, seat)
    return Text(colour.capitalize() + suffix, style=STYLES.get(colour, "bold"))


def initial(state: State, seat: int) -> str:
    return colour_of(state, seat)[0].upper()


def province_lines(state: State) -> list[Text]:
    """One line per occupied province, island by island."""
    board = state.game.board  # type: ignore[attr-defined]
    s: Any = state
    lines: list[Text] = []
    for island in ISLANDS:
        first = True
        for space in board.spaces:
            if space.island != island:
                continue
            i = space.index
            parts: list[Text] = []
            c = s.castle_at[i]
            if c >= 0:
                part = Text("▣ castle", style="bold")
                if s.roof[c] >= 0:
                    part.append(": roof ")
                    part.append(initial(state, s.roof[c]), style=STYLES[colour_of(state, s.roof[c])])
                elif s.court[c] >= 0:
                    part.append(": court ")
                    part.append(initial(state, s.court[c]),
                                style=STYLES[colour_of(state, s.court[c])])
                else:
                    part.append(": free")
                parts.append(part)
            if s.shrine[i]:
                parts.append(Text("⛩ shrine", style="bold magenta"))
            if s.peasant[i] >= 0:
                owner = s.peasant[i]
                parts.append(Text(f"{initial(state, owner).lower()} peasant",
                                  style=STYLES[colour_of(state, owner)]))
            if s.hero_at[i] >= 0:
                owner = s.hero_at[i]
                parts.append(Text(f"hero {initial(state, owner)}",
                                  style=STYLES[colour_of(state, owner)]))
            if not parts:
                continue
            line = Text(f"{island.capitalize() if first else '':<9}", style="dim")
            first = False
            name = space.id + (" (Heian)" if i == board.heian else "")
            line.append(f"{name:<18}")
            for k, part in enumerate(parts):
                if k:
                    line.append(" · ")
                line.append_text(part)
            lines.append(line)
    return lines


def players_table(state: State, labels: Sequence[str] | None, viewer: int | None,
                  title: str | None = None) -> Table:
    view = state.view(None if state.is_terminal else viewer)
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False, box=None,
                  header_style="bold")
    for header in ("Player", "Hero", "VP", "Castles", "Chains", "Reserve", "Prisoners",
                   "Hand", "Treasures", "Mission"):
        table.add_column(header)
    cards = view["cards"] or []
    for entry in view["seats"]:
        seat = entry["seat"]
        name = seat_label(state, seat)
        if labels and seat < len(labels):
            name.append(f" ({labels[seat]})", style="")
        prisoners = ", ".join(f"{k} {c}" for c, k in entry["prisoners"].items()) or "-"
        hand = str(cards[seat]["hand_size"]) if seat < len(cards) else "-"
        treasures = (", ".join(entry["treasures"]) if entry["treasures"] is not None
                     else f"{entry['treasure_count']} hidden")
        mission = entry["mission"] or ("hidden" if entry["has_mission"] else "-")
        table.add_row(name, entry["hero"] or "-", str(entry["vp"]), str(entry["castles"]),
                      str(entry["chain_vp"]), str(entry["reserve"]), prisoners, hand,
                      treasures or "-", mission)
    return table


def cards_lines(state: State, seat: int) -> list[Text]:
    """The deciding player's own hand and everyone's piles (public)."""
    s: Any = state
    if s.table is None:
        return []
    catalogue = s.table.catalogue
    lines = []
    holder = s.table[seat]
    hand = Text("Your hand: ", style="bold")
    hand.append(", ".join(f"{catalogue[c].name} ({c})" for c in sorted(holder.hand)) or "empty",
                style="")
    lines.append(hand)
    for player in s.table.players:
        line = seat_label(state, player.seat, " piles: ")
        cells = []
        for attribute, pile in player.piles.items():
            used = player.pile_total(attribute, catalogue)
            names = "/".join(catalogue[c].name for c in pile) or "-"
            cells.append(f"{attribute} {used}/{player.scores[attribute]} [{names}]")
        line.append("  ".join(cells), style="")
        lines.append(line)
    return lines


def duel_lines(state: State) -> list[Text]:
    s: Any = state
    duel = s.duel
    if duel is None:
        return []
    view = duel.view(state.current_player)
    head = Text("Duel: ", style="bold")
    head.append_text(seat_label(state, view["attacker"]))
    head.append(" attacks ")
    head.append_text(seat_label(state, view["defender"]))
    head.append(f" ({view['target']['kind']} on {view['target']['space']}) · "
                f"attack {view['attack_total']} vs block {view['block_total']} · "
                f"step {view['phase']}")
    lines = [head]
    for play in view["plays"]:
        mark = "" if play["active"] else (" (purged)" if play["purged"] else " (ignored)")
        line = Text(f"  #{play['index']} ")
        line.append_text(seat_label(state, play["seat"]))
        line.append(f" {play['card']} ({play['category']}, {play['value']}){mark}")
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
        return [Text("Map: occupied provinces only. ▣ castle (roof = controller, court = "
                     "courting player), ⛩ shrine, 'g peasant' an ordinary peasant, 'hero G' a "
                     "hero; letters are colour initials.", style="dim")]

    def heading(self, state: State) -> Text:
        s: Any = state
        text = self.seat_text(state.current_player, " to decide")
        phase = s.phase if s.pending == [] else s.pending[0][0].replace("_", " ")
        text.append(f" · round {s.round} · ", style="")
        text.append_text(self.seat_text(s.active, "'s turn"))
        text.append(f" · {phase}", style="")
        return text

    def position(self, state: State, marks: bool = False) -> list[RenderableType]:
        s: Any = state
        viewer = state.current_player
        status = Text(f"Round {s.round}"
                      + (f" of at most {s.game.config.max_rounds}"
                         if s.game.config.max_rounds else "")
                      + f" · {s.game.config.threshold} VP wins", style="bold")
        emperor = s.emperor() if s.phase not in ("heroes", "castles") else -1
        if emperor >= 0:
            status.append(" · emperor: ")
            status.append_text(self.seat_text(emperor))
        if s.decree:
            status.append(f" · decree: {s.decree}")
        out: list[RenderableType] = [status]
        out.extend(province_lines(state))
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

    def describe(self, state: State, action: Action, viewer: Viewer = None) -> str:
        secret = secret_text(self.game, state, action, viewer)
        if secret is not None:
            return secret
        data = action.to_json()
        kind = data["type"]
        s: Any = state
        catalogue = s.game.catalogue
        treasure = s.game.treasure

        def card(card_id: str) -> str:
            if card_id in catalogue:
                return catalogue[card_id].name
            if card_id in treasure:
                return treasure[card_id].name
            return card_id

        if kind == "attack":
            return f"attack {data['space']} with {card(data['opening'])}"
        if kind == "convert":
            return f"convert {data['target']} from {data['source']} with {card(data['card'])}"
        if kind == "duel_play":
            target = f" on play #{data['target']}" if "target" in data else ""
            return f"play {card(data['card'])}{target}"
        if kind in ("duel_discard", "duel_pick", "duel_clear", "duel_recall", "discard_card"):
            return f"{kind.replace('duel_', '').replace('_card', '')} {card(data['card'])}"
        if kind == "duel_pass":
            return "pass (duel)"
        if kind == "duel_item":
            return f"use {card(data['item'])}"
        if kind == "done":
            return self.done_text(state)
        if kind == "take_treasure":
            return "take a random treasure"
        if "treasure" in data:
            return f"{kind.replace('_', ' ')} {card(data['treasure'])}"
        if kind == "play_special":
            who = f" against {colour_of(state, data['opponent'])}" if "opponent" in data else ""
            return f"play {card(data['card'])}{who}"
        if kind == "exchange":
            return f"exchange a {data['colour']} prisoner with {colour_of(state, data['opponent'])}"
        return self.game.describe_action(action, viewer, state.current_player)

    def done_text(self, state: State) -> str:
        s: Any = state
        if s.pending:
            return {"free_move": "stay (no free move)", "theft": "take no treasure",
                    "relocate_hero": "leave the hero", "recruit": "stop recruiting",
                    "reorganise": "finish reorganising", "exchange": "end the exchange",
                    "clear": "stop clearing",
                    "sandals": "stop (sandals)", "before_decree": "await the decree",
                    "defy": "accept the decree"}.get(s.pending[0][0], "done")
        return {"discard": "end the Discard phase", "cleanup": "end the Cleanup phase",
                "movement": "stay put", "hero": "end the Hero phase",
                "court": "end the turn"}.get(s.phase, "done")

    def snapshot(self, state: State) -> dict[str, Any]:
        return {"log": len(state.log)}  # type: ignore[attr-defined]

    def news(self, before: dict[str, Any], state: State) -> list[Text]:
        lines = []
        for entry in state.log[before.get("log", 0):]:  # type: ignore[attr-defined]
            kind = entry["event"]
            if kind in ("duel", "capture", "kill", "steal", "mission_completed", "converted",
                        "cut_off", "decree", "search", "treasure_taken"):
                text = self.seat_text(entry["seat"]) if entry["seat"] >= 0 else Text("")
                details = ", ".join(f"{k}={v}" for k, v in entry.items()
                                    if k not in ("event", "seat", "turn"))
                text.append(f": {kind.replace('_', ' ')} {details}", style="")
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


__all__ = ["ShogunRenderer", "province_lines", "players_table"]
