"""Generate the static data files the web front end draws from (`carcassonne_tiles.json`,
`shogun_content.json`), or check that they are up to date.

    python src/boardwright/web/static/data/generate.py          # rewrite the JSON files
    python src/boardwright/web/static/data/generate.py --check  # exit 1 if they are stale

The generator itself is the package `boardwright.web.staticdata`; this script stays beside the
files it writes so it is found where they are.
"""

from __future__ import annotations

import sys

from boardwright.web.staticdata.build import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
