"""Writing the static data files, or checking that they are up to date (`main`).

    python src/boardwright/web/static/data/generate.py          # rewrite the JSON files
    python src/boardwright/web/static/data/generate.py --check  # exit 1 if they are stale
"""

from __future__ import annotations

import json
from pathlib import Path

from boardwright.web.staticdata.carcassonne import carcassonne_data
from boardwright.web.staticdata.shogun import shogun_data

DATA_DIR = Path(__file__).resolve().parents[1] / "static" / "data"
CARCASSONNE_FILE = DATA_DIR / "carcassonne_tiles.json"
SHOGUN_FILE = DATA_DIR / "shogun_content.json"


def render(data: dict) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


OUTPUTS = ((CARCASSONNE_FILE, carcassonne_data), (SHOGUN_FILE, shogun_data))


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for target, build in OUTPUTS:
        text = render(build())
        if check:
            if not target.exists() or target.read_text("utf-8") != text:
                stale.append(target.name)
        else:
            target.write_text(text, "utf-8")
            print(f"wrote {target}")
    if stale:
        print("stale: " + ", ".join(stale) + " (run generate.py)")
        return 1
    return 0
