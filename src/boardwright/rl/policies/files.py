"""The policy file: weights and what they are for, in one numpy archive (npz).

Entries: the architecture's weight arrays (its module says which) and `meta`, a JSON string:

    {"format": "boardwright-policy", "version": 1, "game": "carcassonne", "players": 2,
     "options": {...}, "architecture": "carcassonne-linear", "signature": {...},
     "training": {...}}

`options` are the game options the policy was trained with (`Game.option_summary`), for people;
`signature` is what the architecture needs of a game to play it (e.g. the blocks of its action
space): a policy plays its game with its player count and any options that give the same
signature. `training` is free (the examples put their settings and budget there).

The file of examples/learn_queens.py before this format (`theta`, `value`, `action_features`,
`state_features` and a `meta` without "format") still loads: it is the Queens linear policy.

Any bytes may be handed to `load_policy`: whatever is wrong (no such file, not an archive, a
missing or malformed entry, weights of the wrong shape or not finite, an unknown architecture)
is a `PolicyFileError` naming the file and the problem. Archives are read with
`allow_pickle=False`: a file cannot run code.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

from boardwright.core.errors import InvalidOptionError

FORMAT = "boardwright-policy"
VERSION = 1
#: architecture name -> the module that defines it
ARCHITECTURES: dict[str, str] = {
    "queens-linear": "boardwright.rl.policies.queens_linear",
    "carcassonne-linear": "boardwright.rl.policies.carcassonne_linear",
}
MAX_META = 1_000_000  # characters of the meta entry


class PolicyFileError(InvalidOptionError):
    """A policy file that cannot be used: missing, unreadable, malformed, of an unknown
    architecture, or for another game or player count than the one it is asked to play."""


def numpy() -> ModuleType:
    """numpy, or a clear error when the `rl` extra is not installed."""
    try:
        import numpy as np
    except ImportError:
        raise InvalidOptionError("policies need numpy: pip install 'boardwright[rl]'") from None
    return np


def architecture(name: str) -> ModuleType:
    """The module of an architecture (PolicyFileError for an unknown name)."""
    module = ARCHITECTURES.get(name)
    if module is None:
        raise PolicyFileError(f"architecture {name!r} is not known (known: "
                              f"{', '.join(sorted(ARCHITECTURES))})")
    return import_module(module)


@dataclass(frozen=True)
class Policy:
    """A loaded policy file: what it plays and its model (the architecture's object)."""

    path: str
    game: str
    players: int
    architecture: str
    model: Any
    options: dict[str, Any] = field(default_factory=dict)
    signature: dict[str, Any] = field(default_factory=dict)
    training: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """One line for people: game, players, architecture and the training budget."""
        games = self.training.get("training_games")
        budget = f", {games:,} training games" if isinstance(games, int) else ""
        return f"{self.game}, {self.players} players, {self.architecture}{budget}"


def save_policy(path: str | Path, game: Any, model: Any, **training: Any) -> None:
    """Write `model` (an architecture's model) for `game` (the configured game it was trained
    on) to `path`, atomically: a reader never sees half a file, so a run may rewrite its policy
    while a server or a benchmark reads it."""
    np = numpy()
    module = import_module(type(model).__module__)
    meta = {"format": FORMAT, "version": VERSION, "game": game.name,
            "players": game.num_players, "options": game.option_summary(),
            "architecture": module.ARCHITECTURE, "signature": module.signature(game),
            "training": training}
    target = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=".policy-", suffix=".npz",
                                         dir=target.parent if str(target.parent) else ".")
    try:
        with os.fdopen(handle, "wb") as out:
            np.savez(out, meta=np.array(json.dumps(meta)), **model.weights())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# path -> (size, mtime_ns, Policy): an agent is made anew for each decision by the web table's
# bot workers, so a file is read once per process (again when it changes).
_LOADED: dict[str, tuple[int, int, Policy]] = {}


def load_policy(path: str | Path) -> Policy:
    """The policy in `path` (PolicyFileError naming the file and the problem)."""
    text = str(path)
    try:
        stat = os.stat(text)
    except FileNotFoundError:
        raise PolicyFileError(f"policy file {text}: no such file") from None
    except OSError as exc:
        raise PolicyFileError(f"policy file {text}: {exc.strerror or exc}") from None
    if not os.path.isfile(text):
        raise PolicyFileError(f"policy file {text}: not a file")
    key = os.path.realpath(text)
    cached = _LOADED.get(key)
    if cached is not None and cached[:2] == (stat.st_size, stat.st_mtime_ns):
        return cached[2]
    policy = _read(text)
    _LOADED[key] = (stat.st_size, stat.st_mtime_ns, policy)
    return policy


def _read(path: str) -> Policy:
    np = numpy()
    try:
        with np.load(path, allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except Exception as exc:  # noqa: BLE001 - any bytes: not a zip, a truncated or odd entry
        raise PolicyFileError(f"policy file {path} is not a numpy archive of weights "
                              f"({type(exc).__name__}: {exc})") from None
    for key, array in arrays.items():
        if not isinstance(array, np.ndarray):  # numpy hands back an entry that is no .npy raw
            raise PolicyFileError(f"policy file {path}: entry {key!r} is not a numpy array")
    meta = _meta(path, arrays.pop("meta", None))
    if meta.get("format") != FORMAT:
        if "action_features" in arrays and "theta" in arrays:  # learn_queens.py's first files
            meta = {"game": "queens", "players": 2, "architecture": "queens-linear",
                    "options": {}, "signature": {}, "training": meta}
        else:
            raise PolicyFileError(f"policy file {path}: its meta entry does not say "
                                  f"\"format\": \"{FORMAT}\"")
    elif meta.get("version") != VERSION:
        raise PolicyFileError(f"policy file {path}: format version {meta.get('version')!r}, "
                              f"this boardwright reads version {VERSION}")
    game, players, name = meta.get("game"), meta.get("players"), meta.get("architecture")
    if not isinstance(game, str) or type(players) is not int or not isinstance(name, str):
        raise PolicyFileError(f"policy file {path}: its meta entry needs a game (text), "
                              "players (a whole number) and an architecture (text)")
    try:
        module = architecture(name)
    except PolicyFileError as exc:
        raise PolicyFileError(f"policy file {path}: {exc}") from None
    if module.GAME != game:
        raise PolicyFileError(f"policy file {path}: architecture {name!r} plays {module.GAME}, "
                              f"but the file says {game}")
    for entry in ("options", "signature", "training"):
        if not isinstance(meta.get(entry, {}), dict):
            raise PolicyFileError(f"policy file {path}: meta entry {entry!r} is not an object")
    for key, array in arrays.items():
        if array.dtype.kind not in "biufU":
            raise PolicyFileError(f"policy file {path}: entry {key!r} is neither numbers nor "
                                  "text")
        if array.dtype.kind == "f" and not np.all(np.isfinite(array)):
            raise PolicyFileError(f"policy file {path}: entry {key!r} holds NaN or infinity")
    try:
        model = module.Model.from_weights(arrays)
    except (KeyError, ValueError, TypeError) as exc:
        detail = f"no entry {exc}" if isinstance(exc, KeyError) else str(exc)
        raise PolicyFileError(f"policy file {path}: not {name} weights ({detail})") from None
    return Policy(path, game, players, name, model, dict(meta.get("options", {})),
                  dict(meta.get("signature", {})), dict(meta.get("training", {})))


def _meta(path: str, entry: Any) -> dict[str, Any]:
    if entry is None:
        raise PolicyFileError(f"policy file {path} has no meta entry (which game and "
                              "architecture the weights are for)")
    if entry.shape != () or entry.dtype.kind != "U" or len(str(entry)) > MAX_META:
        raise PolicyFileError(f"policy file {path}: its meta entry is not a JSON text")
    try:
        meta = json.loads(str(entry))
    except ValueError as exc:
        raise PolicyFileError(f"policy file {path}: its meta entry is not JSON ({exc})") from None
    if not isinstance(meta, dict):
        raise PolicyFileError(f"policy file {path}: its meta entry is not a JSON object")
    return meta
