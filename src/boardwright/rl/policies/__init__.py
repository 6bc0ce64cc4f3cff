"""Trained policies as agents: a policy file (npz) names its game and architecture, and plays.

    boardwright simulate carcassonne --agents policy:path=runs/carcassonne/policy.npz,random
    agent = make_agent("policy:path=runs/queens/policy.npz,sample=on", seed=1)

* `files` — the file format (`save_policy`, `load_policy`, `PolicyFileError`): the weights and
  a JSON `meta` entry saying which game, player count, options and architecture they are for.
* `agent` — `PolicyAgent`, the `policy` agent of agent strings: it encodes the position with the
  game's observation encoder, scores the legal ids of the learning action space and plays the
  best one (or samples, `sample=on`, at `temperature`).
* one module per architecture: `queens_linear` (the linear policy of examples/learn_queens.py),
  `carcassonne_linear` (examples/learn_carcassonne.py). An architecture turns a position into
  one logit per legal id; the training examples use the same code, so what was measured during
  training is what the agent plays.

Everything here needs numpy (the `rl` extra); it is imported when a policy is used, so that
naming the `policy` agent never imports numpy, and its absence is a clear error.
"""

from __future__ import annotations

from boardwright.rl.policies.files import ARCHITECTURES, PolicyFileError, load_policy, save_policy

__all__ = ["ARCHITECTURES", "PolicyFileError", "load_policy", "save_policy"]
