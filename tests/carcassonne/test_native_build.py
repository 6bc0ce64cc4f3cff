"""The ordinary install builds the native Carcassonne engine when it can, and only then.

Each test installs a copy of the project into a fresh virtual environment, offline: no build
isolation, no package index, the build tools (setuptools, nanobind) and the dependencies taken
from the environment running the tests. Without a C++ compiler, or with BOARDWRIGHT_NATIVE=0,
the install must still succeed, say why in exactly one warning line, and leave a package that
plays Carcassonne on the Python engine.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import site
import subprocess
import sys
import sysconfig
from importlib.metadata import version
from pathlib import Path
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parents[2]
WARNING = re.compile(r"^\s*boardwright: native Carcassonne engine not built \((?P<reason>.+)\); "
                     r"the Python engine will be used$", re.MULTILINE)
# What the installed copy reports: which engines it offers and a short game on the default one.
PROBE = """
import json, random
import boardwright as bw
from boardwright.games.carcassonne import native
game = bw.load("carcassonne")
state = game.new_game(seed=3)
rng = random.Random(3)
for _ in range(30):
    state.apply(rng.choice(state.legal_actions()))
print(json.dumps({"available": native.AVAILABLE, "file": bw.__file__,
                  "engine": game.engine, "engines": bw.available_engines("carcassonne"),
                  "replays": bw.replay(state.record).record.to_json() == state.record.to_json()}))
"""


def _setuptools_major() -> int:
    return int(version("setuptools").split(".")[0])


pytestmark = pytest.mark.skipif(
    _setuptools_major() < 77,
    reason="installing without build isolation needs setuptools>=77 (the dev extra)")


def _copy_project(dest: Path) -> Path:
    """The project's installable files, without build products of the working tree."""
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    shutil.copytree(ROOT / "src", dest / "src", ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.pyd", "*.egg-info"))
    return dest


def _venv(path: Path) -> Path:
    """A virtual environment that sees this environment's packages (after its own)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    python = path / "bin" / "python"
    own = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                         check=True, capture_output=True, text=True).stdout.strip()
    parents = [p for p in [*site.getsitepackages(), sysconfig.get_path("purelib")] if os.path.isdir(p)]
    Path(own, "zz_parent_site_packages.pth").write_text("\n".join(dict.fromkeys(parents)) + "\n")
    return python


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"PYTHONPATH", "BOARDWRIGHT_NATIVE", "CC", "CXX", "PIP_REQUIRE_VIRTUALENV"}}
    env.update(extra)
    return env


def _install(tmp_path: Path, before: Callable[[], object] = lambda: None,
             **env: str) -> tuple[Path, Path, str]:
    (tmp_path / "project").mkdir()
    project = _copy_project(tmp_path / "project")
    before()
    python = _venv(tmp_path / "venv")
    run = subprocess.run(
        [str(python), "-m", "pip", "install", "-v", "--no-deps", "--no-build-isolation",
         "--no-index", "--disable-pip-version-check", "-e", str(project)],
        capture_output=True, text=True, env=_clean_env(**env), cwd=tmp_path, timeout=600)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-4000:]
    return python, project, output


def _probe(python: Path, tmp_path: Path) -> dict:
    run = subprocess.run([str(python), "-c", PROBE], capture_output=True, text=True,
                         env=_clean_env(), cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr[-4000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("env, reason", [
    ({"CC": "/nonexistent/cc", "CXX": "/nonexistent/c++"}, "no C++ compiler"),
    ({"CC": "/bin/false", "CXX": "/bin/false"}, "C++ compilation failed: false exited with status 1"),
    ({"BOARDWRIGHT_NATIVE": "0"}, "BOARDWRIGHT_NATIVE=0"),
], ids=["no-compiler", "failing-compiler", "switched-off"])
def test_install_without_native_engine_falls_back_to_python(tmp_path, env, reason):
    # An extension left by an earlier build must not survive: it would be older than the sources.
    stale = (tmp_path / "project/src/boardwright/games/carcassonne/native"
             / f"_engine{sysconfig.get_config_var('EXT_SUFFIX')}")
    python, project, output = _install(tmp_path, before=lambda: stale.write_bytes(b"stale"),
                                       **env)
    warnings = WARNING.findall(output)
    assert len(warnings) == 1, output[-4000:]
    if "BOARDWRIGHT_NATIVE" not in env and importlib.util.find_spec("nanobind") is None:
        reason = "nanobind is not installed"  # found out before the compiler is looked for
    assert reason in warnings[0]
    assert not list((project / "src").rglob("_engine*.so"))
    report = _probe(python, tmp_path)
    assert report["file"].startswith(str(project))  # the copy is the package imported
    assert report == {**report, "available": False, "engine": "python", "engines": ["python"],
                      "replays": True}


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("nanobind") is None
                    or shutil.which((sysconfig.get_config_var("CXX") or "c++").split()[0]) is None,
                    reason="building the native engine needs nanobind and a C++ compiler")
def test_install_with_a_compiler_builds_the_extension_in_place(tmp_path):
    # (unoptimised: the build is what is checked here, not the engine's speed)
    python, project, output = _install(tmp_path, BOARDWRIGHT_NATIVE_OPT="0")
    assert not WARNING.search(output), output[-4000:]
    built = list((project / "src/boardwright/games/carcassonne/native").glob("_engine*.so"))
    assert len(built) == 1
    assert _probe(python, tmp_path)["available"] is True
