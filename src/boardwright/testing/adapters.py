"""The adapters' own checkers, run by `check_game` when their libraries are installed:
OpenSpiel's `random_sim_test` with serialization, PettingZoo's `api_test`. Both reach the game
by its registered name, as the adapters do."""

from __future__ import annotations

import contextlib
import importlib.util
import io
from typing import Any

import boardwright as bw
from boardwright.core.errors import BoardwrightError

PETTINGZOO_CYCLES = 60  # agent steps per game of `api_test` (it plays past the end by resetting)


def _registered_as_itself(run: Any) -> str:
    """Why the adapters cannot reach the game under test by its name ("" when they can)."""
    game = run.game
    if game.name not in bw.available_games():
        return f"{game.name!r} is not registered: the adapters load games by name"
    try:
        loaded = bw.load(game.name, game.num_players, game.option_summary(),
                         engine=game.engine if len(game.engines) > 1 else None)
    except BoardwrightError as exc:
        return f"{game.name!r} does not load by name: {exc}"
    if type(loaded) is not type(game):
        return (f"the name {game.name!r} loads {type(loaded).__name__}, not the "
                f"{type(game).__name__} under test")
    return ""


def check_openspiel(run: Any, games: int, seed: int) -> str:
    """`pyspiel.random_sim_test(..., serialize=True)` through `boardwright.rl.openspiel`;
    the reason it was skipped, or ""."""
    if importlib.util.find_spec("pyspiel") is None:
        return "open_spiel is not installed"
    reason = _registered_as_itself(run)
    if reason:
        return reason
    import pyspiel

    from boardwright.rl import openspiel as adapter

    adapter.register()  # games registered after the adapter was imported
    game = run.game
    params: dict[str, Any] = {"players": game.num_players,
                              "options": adapter.encode_options(game.option_summary())}
    if len(game.engines) > 1:
        params["engine"] = game.engine
    call = (f"pyspiel.random_sim_test(pyspiel.load_game('python_boardwright_{game.name}', "
            f"{params!r}), num_sims={games}, serialize=True)")
    run.seed, run.state = None, None
    try:
        loaded = pyspiel.load_game(f"python_boardwright_{game.name}", params)
        pyspiel.random_sim_test(loaded, num_sims=games, serialize=True, verbose=False)
    except Exception as exc:  # SpielError, or the game's own error through the adapter
        raise run.fail("openspiel", f"{call} raised {type(exc).__name__}: {exc}") from exc
    return ""


def check_pettingzoo(run: Any, games: int, seed: int) -> str:
    """`pettingzoo.test.api_test` on `boardwright.rl.pettingzoo.env`; the reason it was
    skipped, or ""."""
    if importlib.util.find_spec("pettingzoo") is None:
        return "pettingzoo is not installed"
    reason = _registered_as_itself(run)
    if reason:
        return reason
    import warnings

    from pettingzoo.test import api_test

    from boardwright.rl.pettingzoo import env

    game = run.game
    options = game.option_summary()
    run.seed, run.state = None, None
    try:
        # its advice on observation spaces is not a failure, nor its "Passed API test" output
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore", UserWarning)
            api_test(env(game.name, players=game.num_players, **options),
                     num_cycles=PETTINGZOO_CYCLES * games)
    except Exception as exc:
        raise run.fail("pettingzoo", f"pettingzoo.test.api_test(env({game.name!r}, players="
                                     f"{game.num_players}, **{options!r})) raised "
                                     f"{type(exc).__name__}: {exc}") from exc
    return ""
