"""Every built-in game has its "How to play here" page among the static files, and so does the
general table that plugin games get."""

from __future__ import annotations

from importlib import resources

import pytest

HELP = resources.files("boardwright.web").joinpath("static", "help")


@pytest.mark.parametrize("page", ["carcassonne", "queens", "shogun", "generic", "common"])
def test_each_help_page_exists_and_is_a_fragment(page: str) -> None:
    text = HELP.joinpath(f"{page}.html").read_text()
    assert "<html" not in text and "<script" not in text  # loaded into the table's dialog
    assert text.lstrip().startswith("<h2>" if page != "common" else "<h3>")
