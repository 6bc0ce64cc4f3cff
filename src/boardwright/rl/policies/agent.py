"""The `policy` agent: a trained policy file playing through the learning interfaces.

    policy:path=runs/carcassonne/policy.npz             the most probable legal action
    policy:path=runs/carcassonne/policy.npz,sample=on   sampled from the policy
    policy:path=...,sample=on,temperature=0.5           sampled from softmax(logits / 0.5)

It sees what the policy was trained on: the game's observation encoder (`encoder_for`) from the
seat to move, and the legal ids of the game's learning action space (`action_space_for`), so
the agent plays exactly what the training measured. The file is read when the agent is made
(a bad file fails then, naming the problem); a policy for another game or player count fails at
its first move, when the game is known.
"""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from typing import Any

from boardwright.core.errors import IllegalActionError, InvalidOptionError
from boardwright.rl.policies.files import Policy, PolicyFileError, architecture, load_policy, numpy

BOUND = 16  # (policy, game configuration) pairs whose tables a process keeps


class PolicyAgent:
    """Plays the legal action its policy file scores highest (ties broken by its seeded
    generator), or samples one (`sample=on`)."""

    name = "policy"
    #: agent-string parameters (agents/registry.py)
    parameters = {"path": str, "sample": bool, "temperature": float}

    def __init__(self, seed: int | None = None, path: str | None = None, sample: bool = False,
                 temperature: float = 1.0) -> None:
        np = numpy()
        if not path:
            raise InvalidOptionError("agent 'policy' needs the policy file: policy:path=FILE")
        if not (isinstance(temperature, (int, float)) and math.isfinite(temperature)
                and temperature > 0):
            raise InvalidOptionError(f"agent 'policy': temperature must be a positive number, "
                                     f"not {temperature!r}")
        self.policy: Policy = load_policy(path)
        self.sample = bool(sample)
        self.temperature = float(temperature)
        self.rng = np.random.default_rng(seed)

    @property
    def info(self) -> dict[str, Any]:
        """What the policy plays, for front ends that list policies (the web lobby)."""
        p = self.policy
        return {"game": p.game, "players": p.players, "architecture": p.architecture,
                "description": p.describe()}

    def act(self, state: Any) -> Any:
        from boardwright.rl.action_spaces import action_space_for

        np = numpy()
        player = bound(self.policy, state.game)
        seat = state.current_player
        legal = action_space_for(state.game).legal(state)
        if len(legal) == 0:
            raise IllegalActionError("the policy agent was asked to move where nobody can")
        logits = np.asarray(player.logits(state, seat, legal.ids), dtype=np.float64)
        if self.sample:
            z = logits / self.temperature
            p = np.exp(z - z.max())
            k = int(self.rng.choice(len(p), p=p / p.sum()))
        else:  # the best, ties broken at random: zero weights play like `random`
            top = np.flatnonzero(logits >= logits.max() - 1e-9)
            k = int(top[0] if top.size == 1 else self.rng.choice(top))
        return legal.action(int(legal.ids[k]))


# (id of the policy, game configuration) -> (policy, player); the policy is kept so that its id
# stays its own while the entry lives.
_BOUND: OrderedDict[tuple[int, str], tuple[Policy, Any]] = OrderedDict()


def configuration(game: Any) -> str:
    """A key for games that share their encoders' and action spaces' layout."""
    return json.dumps([game.name, game.num_players, getattr(game, "engine", None),
                       game.option_summary()], sort_keys=True, default=str)


def bound(policy: Policy, game: Any) -> Any:
    """The architecture's player of `policy` for `game` (built once per configuration):
    PolicyFileError when the policy was trained for another game, player count or signature."""
    key = (id(policy), configuration(game))
    entry = _BOUND.get(key)
    if entry is not None:
        _BOUND.move_to_end(key)
        return entry[1]
    check(policy, game)
    player = policy.model.player(game)
    _BOUND[key] = (policy, player)
    while len(_BOUND) > BOUND:
        _BOUND.popitem(last=False)
    return player


def check(policy: Policy, game: Any) -> None:
    """PolicyFileError unless `policy` can play `game`."""
    where = f"policy file {policy.path}"
    if game.name != policy.game:
        raise PolicyFileError(f"{where} plays {policy.game}, not {game.name}")
    if game.num_players != policy.players:
        raise PolicyFileError(f"{where} was trained for {policy.players} players; this game has "
                              f"{game.num_players}")
    wanted = architecture(policy.architecture).signature(game)
    differ = sorted(k for k in set(wanted) | set(policy.signature)
                    if wanted.get(k) != policy.signature.get(k))
    if differ:
        raise PolicyFileError(f"{where} was trained with options {policy.options}, which differ "
                              f"from this game's in what the policy reads ({', '.join(differ)})")
