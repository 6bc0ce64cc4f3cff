"""`check_game`: the conformance test of a game, in the spirit of OpenSpiel's random
simulation test.

A game of one's own (or a built-in one) is played at random to the end a few times, and what
every front end, bot and adapter relies on is checked along the way: legal actions while the
game runs and none at its end, well-formed scores and returns, action ids and JSON forms that
round-trip, a record that replays to an equal state and survives a trip through JSON bytes,
clones that share nothing, views that tell no seat another seat's secret, determinizations that
look the same to their seat, explicit chance nodes whose probabilities add up, and, when the
libraries are installed, OpenSpiel's `random_sim_test` with serialization and PettingZoo's
`api_test` through boardwright's adapters.

    from boardwright.testing import check_game
    check_game("goofspiel", players=3, options={"cards": 5})     # raises GameCheckError

A failure is a `GameCheckError` naming the check, the game's seed and the moves that lead to
the position, with the record to replay it (`error.record`).
"""

from boardwright.testing.checks import CHECKS, CheckReport, GameCheckError, check_game

__all__ = ["CHECKS", "CheckReport", "GameCheckError", "check_game"]
