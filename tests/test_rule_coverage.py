"""Traceability: every documented rule ID has a test, and the documents match the catalogue."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardwright.rules_coverage import (
    coverage, documented_games, documented_ids, out_of_scope_ids,
)

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT.parent / "shared" / "spec" / "rules"
# Rule families implemented so far, per game document.
IMPLEMENTED_PREFIXES = {
    "carcassonne": ("CAR-BASE-", "CAR-AM-"),
    "queens": ("QUE-",),
    "shogun": ("SHO-",),
}


@pytest.mark.parametrize("game", sorted(IMPLEMENTED_PREFIXES))
def test_every_documented_rule_has_a_test(game: str) -> None:
    report = coverage(game, ROOT)
    assert report.documented, f"docs/rules/{game}.md defines no rule ID"
    assert report.missing == []
    assert report.unknown == [], "tests name rule IDs that the document does not define"


@pytest.mark.parametrize("game", sorted(IMPLEMENTED_PREFIXES))
def test_document_lists_every_catalogue_id(game: str) -> None:
    catalogue = CATALOGUE / f"{game}.md"
    if not catalogue.is_file():
        pytest.skip("the rule catalogue is not beside this checkout")
    text = catalogue.read_text(encoding="utf-8")
    prefixes = IMPLEMENTED_PREFIXES[game]
    entries = set(re.findall(r"^### ([A-Z]+-[A-Z0-9-]+?) —", text, re.MULTILINE))
    one_liners = set(re.findall(r"^- \*\*([A-Z]+-[A-Z0-9-]+?)\*\*", text, re.MULTILINE))
    wanted = {rid for rid in entries if rid.startswith(prefixes)}
    doc = ROOT / "docs" / "rules" / f"{game}.md"
    assert wanted, "no catalogue ID found"
    # Full entries are rules with tests; one-line entries are documented as out of scope.
    assert sorted(wanted - set(documented_ids(doc))) == []
    wanted_out = {rid for rid in one_liners if rid.startswith(prefixes)}
    assert sorted(wanted_out - set(out_of_scope_ids(doc))) == []


def test_rule_documents_are_found() -> None:
    assert "carcassonne" in documented_games(ROOT)
