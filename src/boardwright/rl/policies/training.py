"""What the training examples share (examples/learn_queens.py, examples/learn_carcassonne.py):
separate seed streams for training, the learning curve and the final evaluation, and Adam.

Kept in the library so both examples train the same way and a fix reaches both."""

from __future__ import annotations

import numpy as np

# Seed streams: games of different streams never share a seed (fresh evaluation games).
TRAIN, CURVE, FINAL = 0, 1, 2
STREAM_SPAN = 10**8


def game_seed(run_seed: int, stream: int, index: int) -> int:
    """The seed of game `index` of a stream (training, curve or final evaluation)."""
    return (run_seed * 3 + stream) * STREAM_SPAN + index


class Adam:
    """Adam on one parameter vector (ascent: `step` adds the update)."""

    def __init__(self, size: int, lr: float, beta1: float = 0.9, beta2: float = 0.999) -> None:
        self.lr, self.beta1, self.beta2 = lr, beta1, beta2
        self.m, self.v, self.t = np.zeros(size), np.zeros(size), 0

    def step(self, params: np.ndarray, grad: np.ndarray) -> None:
        self.t += 1
        self.m = self.beta1 * self.m + (1 - self.beta1) * grad
        self.v = self.beta2 * self.v + (1 - self.beta2) * grad * grad
        m_hat = self.m / (1 - self.beta1 ** self.t)
        v_hat = self.v / (1 - self.beta2 ** self.t)
        params += self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)
