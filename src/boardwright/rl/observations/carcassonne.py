"""Carcassonne observation: a window of board planes around the start tile plus flat features.

Built only from `state.view(seat)` (Carcassonne hides nothing but the order of the draw pile; the
view gives the tile to place and the remaining tile counts). T = number of tile types of the
configured game (24 in the base game, more with Abbey & Mayor), F = figure kinds (1: follower in
the base game), n = players, W = 2 * WINDOW + 1 = 31 (board cells with |x|, |y| <= 15; tiles
outside the window are not drawn on the planes — a base game rarely reaches them).

Flat float32 vector, in this order (seat blocks are relative: 0 = the observer):

* `board` (C, W, W) with C = T + 4 + 1 + n * F + 1, cell [.., x + 15, y + 15]:
  planes 0..T-1 tile type one-hot; T..T+3 rotation 0/90/180/270; T+4 occupied;
  then per relative seat and figure kind the number of that seat's figures on the tile;
  last plane: the tile placed last.
* `tile` (T + 1): the tile to place, one-hot (last entry: none).
* `phase` (len(PHASES) + 1): phase one-hot (last entry: another phase).
* `scores` (n): points / 100 per relative seat.
* `supply` (n, F): figures left in supply per relative seat and kind / 10.
* `pile` (1): draw pile size / 100.
* `remaining` (T): tiles of each type still to come / 10.
* `turn_player` (n), `to_move` (n): relative seat one-hot.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardwright.rl.observations import Encoder, one_hot

WINDOW = 15
PHASES = ("place_tile", "deploy", "wagon_move", "final_abbey_round", "game_over")


class CarcassonneEncoder(Encoder):
    game_name = "carcassonne"

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.tiles = sorted(game.tile_types)
        self.tile_index = {t: i for i, t in enumerate(self.tiles)}
        self.figures = list(game.figures)
        self.figure_index = {f: i for i, f in enumerate(self.figures)}
        self.width = 2 * WINDOW + 1
        T, F, n = len(self.tiles), len(self.figures), self.n
        self.planes = T + 4 + 1 + n * F + 1
        self._block("board", self.planes, self.width, self.width)
        self._block("tile", T + 1)
        self._block("phase", len(PHASES) + 1)
        self._block("scores", n)
        self._block("supply", n, F)
        self._block("pile", 1)
        self._block("remaining", T)
        self._block("turn_player", n)
        self._block("to_move", n)
        self._at = self.slices()

    def encode(self, view: dict[str, Any], viewer: int) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        T, F, W = len(self.tiles), len(self.figures), self.width
        board = out[: self.planes * W * W].reshape(self.planes, W, W)
        for tile in view["board"]:
            x, y = tile["x"] + WINDOW, tile["y"] + WINDOW
            if 0 <= x < W and 0 <= y < W:
                board[self.tile_index[tile["tile"]], x, y] = 1.0
                board[T + tile["rotation"] // 90, x, y] = 1.0
                board[T + 4, x, y] = 1.0
        for fig in view["followers"]:
            x, y = fig["x"] + WINDOW, fig["y"] + WINDOW
            if 0 <= x < W and 0 <= y < W:
                kind = self.figure_index.get(fig["figure"], 0)
                plane = T + 5 + self.rel(fig["player"], viewer) * F + kind
                board[plane, x, y] += 1.0
        last = view.get("last_placed")
        if last is not None:
            x, y = last["x"] + WINDOW, last["y"] + WINDOW
            if 0 <= x < W and 0 <= y < W:
                board[self.planes - 1, x, y] = 1.0
        at = self._at
        one_hot(out, at["tile"][0], self.tile_index.get(view["tile"], T) if view["tile"] else T)
        phase = view["phase"]
        one_hot(out, at["phase"][0], PHASES.index(phase) if phase in PHASES else len(PHASES))
        for seat, score in enumerate(view["scores"]):
            out[at["scores"][0] + self.rel(seat, viewer)] = score / 100.0
        for seat, supply in enumerate(view["supply"]):
            base = at["supply"][0] + self.rel(seat, viewer) * F
            for figure, count in supply.items():
                if figure in self.figure_index:
                    out[base + self.figure_index[figure]] = count / 10.0
        out[at["pile"][0]] = view["draw_pile_size"] / 100.0
        for tile, count in view["remaining_tiles"].items():
            out[at["remaining"][0] + self.tile_index[tile]] = count / 10.0
        if view["turn_player"] is not None and view["turn_player"] >= 0:
            one_hot(out, at["turn_player"][0], self.rel(view["turn_player"], viewer))
        if view["current_player"] is not None and view["current_player"] >= 0:
            one_hot(out, at["to_move"][0], self.rel(view["current_player"], viewer))
        return self._finish(out)
