"""`boardwright options GAME`: a game's options listed from its specs (type, range, default,
what the option needs), and the refusals of an unknown game or a bad player count."""

from __future__ import annotations

from cli_helpers import assert_clean_exit, run_cli

import boardwright as bw


def test_options_lists_every_option_from_the_specs() -> None:
    result = run_cli("options", "carcassonne", "--players", "4", columns=200)
    assert_clean_exit(result, 0)
    for spec in bw.option_specs("carcassonne", 4):
        assert spec.name in result.output
    line = next(l for l in result.output.splitlines() if l.strip().startswith("starting_seat"))
    assert "int from 0 to 3" in line and "(default 0)" in line
    line = next(l for l in result.output.splitlines() if l.strip().startswith("abbeys"))
    assert "int from 0 to 20" in line and "(default 1; needs expansions = abbey_mayor)" in line


def test_options_follows_the_player_count() -> None:
    line = next(l for l in run_cli("options", "shogun", "-p", "3", columns=200).output.splitlines()
                if l.strip().startswith("vp_threshold "))
    assert "(default 22)" in line


def test_options_refuses_an_unknown_game_and_a_bad_player_count() -> None:
    result = run_cli("options", "nosuch")
    assert_clean_exit(result, 2)
    assert "unknown game 'nosuch'" in result.output
    assert_clean_exit(run_cli("options", "carcassonne", "-p", "0"), 2)
