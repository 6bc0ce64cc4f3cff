"""The example plugin packages of examples/, made visible to the tests through their entry points.

`make test` installs examples/goofspiel into the virtual environment (an editable install), so
boardwright finds Goofspiel and its agent there as any user's installation would. A checkout
whose environment lacks it (the tests run straight from the source tree) gets the same through
`expose()`: the package directory goes on sys.path, and a generated `*.dist-info` directory
holding the entry points of the package's own pyproject.toml goes beside it, which is all
`importlib.metadata` reads. Either way the tests reach the game only through its entry point.
Worker processes inherit the parent's sys.path (multiprocessing passes it to spawned workers);
a Ray worker does not, and sees the example only when it is installed.
"""

from __future__ import annotations

import atexit
import shutil
import sys
import tempfile
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOOFSPIEL = ROOT / "examples" / "goofspiel"
DISTRIBUTION = "boardwright-goofspiel"


def installed(distribution: str = DISTRIBUTION) -> bool:
    try:
        metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        return False
    return True


def write_dist_info(package_dir: Path, target: Path) -> Path:
    """A `<name>-<version>.dist-info` in `target` with the METADATA and entry_points.txt of the
    package whose pyproject.toml is in `package_dir`."""
    project = tomllib.loads((package_dir / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name, version = project["name"], project["version"]
    info = target / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
                                   encoding="utf-8")
    lines = []
    for group, points in project.get("entry-points", {}).items():
        lines.append(f"[{group}]")
        lines.extend(f"{key} = {value}" for key, value in points.items())
        lines.append("")
    (info / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")
    return info


def expose() -> str:
    """Make the Goofspiel example discoverable; says how ("installed" or the dist-info path)."""
    if installed():
        return "installed"
    target = Path(tempfile.mkdtemp(prefix="boardwright-examples-"))
    atexit.register(shutil.rmtree, target, True)
    info = write_dist_info(GOOFSPIEL, target)
    sys.path[:0] = [str(GOOFSPIEL), str(target)]
    return str(info)
