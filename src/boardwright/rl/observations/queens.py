"""Queens observation: hexagonal board planes on an axial grid plus flat features.

Queens has no hidden information; the vector is built from `state.view(seat)`. R = map radius
(5 for the default map), W = 2R + 1, cell [.., q + R, r + R] for the hex at axial (q, r);
n = players. Seat blocks are relative (0 = the observer).

Flat float32 vector, in this order:

* `board` (2 + 4n, W, W): plane 0 on the map (|q|, |r|, |q + r| <= R), plane 1 mountain,
  then per relative seat four planes: queen, prince, city, field.
* `supplies` (n, 2): city supply / 5 and field supply / 10 per relative seat.
* `eliminated` (n): 1 for an eliminated seat.
* `scores` (n): score / 100 per relative seat.
* `round` (2): round / 100, final round flag.
* `to_move` (n): relative seat one-hot.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardwright.rl.observations import Encoder, one_hot

PIECES = ("queen", "princes", "cities", "fields")


class QueensEncoder(Encoder):
    game_name = "queens"

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        static = game.new_game(0).view(None)["map"]
        R = self.radius = int(static["radius"])
        self.width = W = 2 * R + 1
        self.planes = 2 + 4 * self.n
        self._block("board", self.planes, W, W)
        self._block("supplies", self.n, 2)
        self._block("eliminated", self.n)
        self._block("scores", self.n)
        self._block("round", 2)
        self._block("to_move", self.n)
        self._at = self.slices()
        base = np.zeros((2, W, W), dtype=np.float32)
        for q in range(-R, R + 1):
            for r in range(-R, R + 1):
                if abs(q + r) <= R:
                    base[0, q + R, r + R] = 1.0
        for q, r in static["mountains"]:
            base[1, q + R, r + R] = 1.0
        self._static = base.ravel()

    def _cell(self, board: np.ndarray, plane: int, pos: Any) -> None:
        if pos is None:
            return
        q, r = pos[0] + self.radius, pos[1] + self.radius
        if 0 <= q < self.width and 0 <= r < self.width:
            board[plane, q, r] = 1.0

    def encode(self, view: dict[str, Any], viewer: int) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        W = self.width
        out[: self._static.size] = self._static
        board = out[: self.planes * W * W].reshape(self.planes, W, W)
        at = self._at
        for seat, data in enumerate(view["position"]["seats"]):
            rel = self.rel(seat, viewer)
            plane = 2 + 4 * rel
            self._cell(board, plane, data.get("queen"))
            for k, key in enumerate(PIECES[1:], start=1):
                for pos in data.get(key) or ():
                    self._cell(board, plane + k, pos)
            out[at["supplies"][0] + 2 * rel] = data.get("city_supply", 0) / 5.0
            out[at["supplies"][0] + 2 * rel + 1] = data.get("field_supply", 0) / 10.0
            out[at["eliminated"][0] + rel] = 1.0 if data.get("eliminated") else 0.0
        for seat, score in enumerate(view["scores"]):
            out[at["scores"][0] + self.rel(seat, viewer)] = score / 100.0
        out[at["round"][0]] = view["round"] / 100.0
        out[at["round"][0] + 1] = 1.0 if view["final_round"] else 0.0
        if view["current_player"] is not None and view["current_player"] >= 0:
            one_hot(out, at["to_move"][0], self.rel(view["current_player"], viewer))
        return self._finish(out)
