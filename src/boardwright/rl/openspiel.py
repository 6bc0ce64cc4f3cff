"""OpenSpiel adapter: each boardwright game registered as a Python game with `pyspiel`.

Importing this module registers `python_boardwright_carcassonne`, `python_boardwright_queens`,
`python_boardwright_shogun` and `python_boardwright_<name>` for every installed game plugin:

    import pyspiel, boardwright.rl.openspiel
    game = pyspiel.load_game("python_boardwright_carcassonne", {"players": 2})

Parameters: `players` (int, default 2; outside the game's range, or below 2, is an
`InvalidOptionError` naming the range), `options` (the game options as a JSON object;
Shogun's default is `{"max_rounds": 30}`) and `engine` (one of the game's engines,
Carcassonne's "native" or "python"; default "": the game's default engine, the compiled one
where it is built; an engine changes the speed, never the ids, chance outcomes or results).
Bad JSON, a bad option or an unknown engine raises `InvalidOptionError` (a `BoardwrightError`)
with the problem named. The game string keeps the options readable
when they hold no `,`, `(`, `)` or `=` (`options={"max_rounds":2}`); otherwise it carries them
as `b64:` + URL-safe base64 of the JSON, which `load_game` reads back (either form is
accepted as input).

Chance is **EXPLICIT_STOCHASTIC** (Carcassonne, Shogun): every random event is a chance node
with its probabilities, built by the games themselves (`Game.new_chance_game`,
`core/chance.py`). Nothing is shuffled in advance, so no state holds a future draw: a tile is
drawn uniformly from the tiles left, a card from the cards its deck may hold. OpenSpiel's
MCTS samples the draws in its simulations instead of seeing them, `new_initial_state()` is
the same state every time, and `history()` replays on a fresh initial state.
Queens has no chance (DETERMINISTIC).

Chance outcome ids: Carcassonne, the drawn tile's index in the game's tile list (base tiles,
then the expansion's); Shogun, hero-deck cards by catalogue index, then treasures, missions
and (for the first player) seats (`games/shogun/chance.py`); `action_to_string` names them.
Carcassonne runs on the compiled engine wherever its game does (the default where the
extension is built): `CarcassonneGame.new_chance_game(native=True)`, a native state that stops
at each draw itself, with the outcome ids, probabilities, legal action ids and positions of
the Python engine's chance game (`tests/rl/test_rl_openspiel_native.py` compares them step by
step), a native `clone` and a compiled `apply`. Elsewhere it runs on the Python engine's
`new_chance_game()`; the ids are the same on both engines.

Information: Carcassonne and Queens are PERFECT_INFORMATION once the draw order does not exist
(tiles left are public); Shogun is IMPERFECT_INFORMATION (hands, missions, treasures, decks)
and implements `resample_from_infostate` with the game's `determinize`, so OpenSpiel's ISMCTS
runs on it. ZERO_SUM: `returns()` are rank based (each beaten opponent +1, each tie 1/2, scaled
to [-1, 1]) and add up to 0. `max_game_length()` is a bound derived from the options
(`Game.max_decisions`; Shogun's is the decision cap `max_decisions`, SHO-SCORE-09, set from the
round limit unless given: the rules set no limit on a turn's decisions), `max_chance_nodes_in_history()`
likewise (`Game.max_chance_events`; Shogun has none and raises `InvalidOptionError`).

Observations: the tensor is the seat's observation (`boardwright.rl.observations`) in the
encoder's tensor form (`encoder.tensor(encoder.encode_state(state, seat))`): for Carcassonne the
lossless observation, float32 `(C + 1, 31, 31)` (board planes, then a plane of scalars), for the
other games their flat vector; `observation_tensor_shape()` is that shape. On the native engine
the compiled writer of the same layout writes it straight into the float array
(`observation_tensor_into`), and the legal ids come from the compiled numbering of the learning
space. `state.observation_tensor(seat)` returns a new float32 numpy array of that shape (not a
list: no float objects by the hundred thousand); C++ callers and
`observation.make_observation` read the same values through the observer. A chance node
observes zeros: no seat decides there. (A plugin's own encoder with `encode` alone gives its
flat vector of the seat's view.)

Strings: in the perfect-information games (Carcassonne, Queens, plugins that say so) every
seat sees everything, so both strings are the same for every seat: the observation string is
the JSON of the public view (`state.view(None)`) without its log, the information-state
string the public history (every OpenSpiel action id so far, chance outcomes included, comma
separated), which names the state. In Shogun the observation string is the JSON of the seat's
view, and the information-state string that plus the history as the seat may know it (its own
actions whole, other seats' actions in their public form, chance outcomes only when they are
public: the first player). It recalls every step; what a seat was once shown and its view no
longer holds (another seat's hand looked at by a Shogun card) is not in it. The
information-state tensor is the observation tensor: the present view, not a recall of the
past.

Serialization: `serialize_game_and_state`, `pickle` and `clone` work for every game and
state; a state pickles as its history, replayed on load.

Action ids are those of the game's learning action space (`boardwright.rl.action_spaces.
action_space_for`: Carcassonne's `games/carcassonne/learning_space.py`, the stable ids of
Queens and Shogun), so `num_distinct_actions` is its `size`; an id's meaning may depend on the
position it is played in (Carcassonne's overflow slots). They are converted in
`legal_action_ids` and `action_for_id` only.

Installed game plugins are registered too, as their `Game.info` says (most players,
information, chance; a plugin declaring none: up to 8 players, imperfect information unless
its Game says `perfect_information = True`), their length bound from `Game.max_decisions()`
(required). A plugin with an explicit-chance mode (`Game.new_chance_game`, or draws through
`State.draw` with a `chance_outcome_count`) gets chance nodes as the built-in games do. One
without is DETERMINISTIC for its `seed` parameter (default 0): `new_initial_state()` is
`new_game(seed)`, its draws fixed by the seed before the first move, so a search on the state
sees them; it serializes as every game does (as SAMPLED_STOCHASTIC it could not: OpenSpiel
would ask a Python game for a C++ RNG state).
"""

from __future__ import annotations

from typing import Any

from boardwright.rl.openspiel_game import CLASSES, Observer, make_game_class, register
from boardwright.rl.openspiel_params import (
    B64, MIN_PLAYERS, UNSAFE, Spec, encode_options, game_type, has_chance_mode, parse_options,
    parse_players, short_name, spec_of,
)
from boardwright.rl.openspiel_positions import (
    NativePosition, PythonPosition, action_for_id, legal_action_ids, public_steps,
    replay_position,
)
from boardwright.rl.openspiel_shared import Shared, shared_for

_game_type = game_type  # its name when it was defined in this module

__all__ = [
    "B64", "MIN_PLAYERS", "UNSAFE", "NativePosition", "Observer", "PythonPosition", "Shared",
    "Spec", "action_for_id", "encode_options", "game_type", "has_chance_mode",
    "legal_action_ids", "make_game_class", "parse_options", "parse_players", "public_steps",
    "register", "replay_position", "shared_for", "short_name", "spec_of",
]


def __getattr__(name: str) -> Any:
    """The Game and State classes `register` made (`BoardwrightQueensGame`, ...): their module
    is this one, so that pickle finds them here."""
    try:
        return CLASSES[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


register()
