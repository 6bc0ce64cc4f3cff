"""The commands and links of README.md and docs/*.md, kept true.

The pages follow one convention for their fenced code blocks (docs/development.md, "Commands in
the docs"):

- `console`: quick commands, run here. A line starting with `$ ` is a command; the lines after
  it, up to the next command, are what it prints, checked in substance (each line appears in the
  output, spaces collapsed, in order; `...` stands for anything). Each must exit 0.
- `sh`: long or interactive commands, not run; a `boardwright` command's arguments are still
  parsed by the command line itself, and a script given to `python` must exist.
- `python` blocks must parse, and one marked `<!-- run -->` on the line before runs; `toml`
  blocks must parse; any other block must not hold a `$ ` command.

Every relative link must name an existing file, and a link to a heading a heading of that page.

The commands run in temporary folders, with the checkout's `docs`, `tests`, `examples`,
`benchmarks`, `src` and `pyproject.toml` linked in, `boardwright` as `python -m boardwright.cli`
and `python` as this interpreter; the blocks run in parallel threads (each command its own
process), so the whole takes well under a minute.
"""

from __future__ import annotations

import ast
import importlib
import os
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import typer

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINKED = ("docs", "tests", "examples", "benchmarks", "src", "pyproject.toml")
RUN_MARK = "<!-- run -->"
COMMAND_TIMEOUT = 120.0  # seconds: a hung command fails the test instead of hanging it
BOARDWRIGHT = ("boardwright", ".venv/bin/boardwright")
PYTHON = ("python", "python3", ".venv/bin/python")
PYTEST = ("pytest", ".venv/bin/pytest")
# What a long (`sh`) command may start with: the programs the pages tell people to run.
LONG_PROGRAMS = (*BOARDWRIGHT, *PYTHON, *PYTEST, "make", "pip", ".venv/bin/pip", "time")
ENV_ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=")
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE = re.compile(r"(`+)(?:.|\n)*?\1")


@dataclass(frozen=True)
class Block:
    """A fenced code block: its page, the line of its opening fence, its info string's first
    word, its lines (the fence's indentation removed) and whether it is marked to run."""

    page: Path
    line: int
    info: str
    lines: tuple[str, ...]
    marked_run: bool

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


@dataclass
class Step:
    """A command of a console block and the output lines the page shows for it."""

    command: str
    line: int
    expected: list[str] = field(default_factory=list)


def read_blocks(page: Path) -> tuple[list[Block], str]:
    """The fenced blocks of a page, and its text outside them."""
    blocks: list[Block] = []
    prose: list[str] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if match is None:
            prose.append(lines[index])
            index += 1
            continue
        indent, fence = len(match["indent"]), match["fence"]
        before = next((line.strip() for line in reversed(lines[:index]) if line.strip()), "")
        body: list[str] = []
        start = index + 1
        index += 1
        while index < len(lines):
            closing = lines[index].strip()
            if closing.startswith(fence[0] * len(fence)) and not closing.strip(fence[0]):
                break
            text = lines[index]
            body.append(text[min(indent, len(text) - len(text.lstrip(" "))):])
            index += 1
        else:
            raise AssertionError(f"{page.relative_to(ROOT)}:{start}: a code block is not closed")
        index += 1
        info = match["info"].strip().split()[0] if match["info"].strip() else ""
        blocks.append(Block(page, start, info, tuple(body), before == RUN_MARK))
        prose.append("")
    return blocks, "\n".join(prose)


def all_blocks() -> list[Block]:
    return [block for page in PAGES for block in read_blocks(page)[0]]


def console_steps(block: Block) -> list[Step]:
    """The commands of a console block, each with the output lines shown after it."""
    steps: list[Step] = []
    for offset, text in enumerate(block.lines, start=1):
        if text.startswith("$ "):
            steps.append(Step(text[2:].strip(), block.line + offset))
        elif not steps:
            if text.strip():
                raise AssertionError(f"{block.where}: output before the first `$ ` command")
        elif text.strip():
            steps[-1].expected.append(text)
    return steps


def long_commands(block: Block) -> list[tuple[int, str]]:
    """The commands of an sh block: one per line, a trailing backslash continuing it."""
    commands: list[tuple[int, str]] = []
    pending, first = "", 0
    for offset, text in enumerate(block.lines, start=1):
        if not pending:
            first = block.line + offset
        stripped = text.strip()
        if stripped.endswith("\\"):
            pending += stripped[:-1].rstrip() + " "
            continue
        command = (pending + stripped).strip()
        pending = ""
        if command and not command.startswith("#"):
            commands.append((first, command))
    return commands


def split(command: str) -> tuple[dict[str, str], list[str]]:
    """Environment assignments in front, then the words of a command (comments dropped)."""
    words = shlex.split(command, comments=True)
    env: dict[str, str] = {}
    while words and ENV_ASSIGNMENT.match(words[0]):
        name, value = words.pop(0).split("=", 1)
        env[name] = value
    return env, words


def argv_for(words: list[str]) -> list[str]:
    """The process to start for a console command: this interpreter for `python` and
    `boardwright`, so the checkout's sources run."""
    program, rest = words[0], words[1:]
    if program in BOARDWRIGHT:
        return [sys.executable, "-m", "boardwright.cli", *rest]
    if program in PYTHON:
        return [sys.executable, *rest]
    if program in PYTEST:
        return [sys.executable, "-m", "pytest", *rest]
    raise AssertionError(f"a console command runs boardwright, python or pytest, not {program!r}")


def squeeze(text: str) -> str:
    return " ".join(text.split())


def missing_output(expected: list[str], output: str) -> str | None:
    """The first shown line that the output does not hold (in order), or None."""
    flat, position = squeeze(output), 0
    for line in expected:
        if line.strip() == "...":
            continue
        found = flat.find(squeeze(line), position)
        if found < 0:
            return line
        position = found + len(squeeze(line))
    return None


def workspace(base: Path) -> Path:
    base.mkdir(parents=True)
    for name in LINKED:
        (base / name).symlink_to(ROOT / name)
    return base


def environment(extra: dict[str, str]) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "src"), *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))])
    env["COLUMNS"] = "200"  # wide enough that no table cell the pages quote is wrapped
    env.pop("LINES", None)
    env.update(extra)
    return env


def run_console(block: Block, folder: Path) -> list[str]:
    """Run a console block's commands in order in `folder`; the problems found."""
    problems = []
    cwd = workspace(folder)
    for step in console_steps(block):
        extra, words = split(step.command)
        where = f"{block.page.relative_to(ROOT)}:{step.line}: `{step.command}`"
        try:
            done = subprocess.run(argv_for(words), cwd=cwd, env=environment(extra),
                                  capture_output=True, text=True, timeout=COMMAND_TIMEOUT,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            problems.append(f"{where} did not finish in {COMMAND_TIMEOUT:g} s")
            break
        if done.returncode != 0:
            problems.append(f"{where} exited {done.returncode}:\n{done.stdout[-2000:]}"
                            f"{done.stderr[-2000:]}")
            break
        absent = missing_output(step.expected, done.stdout)
        if absent is not None:
            problems.append(f"{where} printed no line {absent.strip()!r}:\n{done.stdout[-3000:]}")
    return problems


def run_python(block: Block, folder: Path) -> list[str]:
    cwd = workspace(folder)
    try:
        done = subprocess.run([sys.executable, "-c", "\n".join(block.lines)], cwd=cwd,
                              env=environment({}), capture_output=True, text=True,
                              timeout=COMMAND_TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return [f"{block.where}: the Python block did not finish in {COMMAND_TIMEOUT:g} s"]
    if done.returncode != 0:
        return [f"{block.where}: the Python block exited {done.returncode}:\n"
                f"{done.stderr[-3000:]}"]
    return []


def test_every_console_block_runs_and_prints_what_the_page_shows(tmp_path: Path) -> None:
    jobs = [(run_console, block) for block in all_blocks() if block.info == "console"]
    jobs += [(run_python, block) for block in all_blocks()
             if block.info == "python" and block.marked_run]
    assert len(jobs) >= 8, "the pages show quick commands; the parser found too few"
    workers = max(2, min(4, os.cpu_count() or 2))
    with ThreadPoolExecutor(workers) as pool:
        futures = [pool.submit(run, block, tmp_path / f"block{number}")
                   for number, (run, block) in enumerate(jobs)]
        results = [future.result() for future in futures]
    problems = [problem for found in results for problem in found]
    assert not problems, "\n\n".join(problems)


class NoSuchCommand(Exception):
    """A long command names a subcommand `boardwright` does not have."""

    def format_message(self) -> str:
        return str(self)


def cli_root() -> Any:
    """The `boardwright` command as click sees it (the Typer app of boardwright.cli; Typer may
    bring its own copy of click, so the command is read by duck typing)."""
    module = importlib.import_module("boardwright.cli")
    apps = [value for value in vars(module).values() if isinstance(value, typer.Typer)]
    app = getattr(module, "app", None) or (apps[0] if apps else None)
    assert app is not None, "boardwright.cli has no Typer app"
    return typer.main.get_command(app)


def check_arguments(root: Any, arguments: list[str]) -> None:
    """Parse a command line as `boardwright` would, without running it: an unknown command,
    option or choice, or a value of the wrong type raises click's usage error."""
    command, name, rest = root, "boardwright", list(arguments)
    while isinstance(getattr(command, "commands", None), dict):  # a group of commands
        if not rest or rest[0] not in command.commands:
            raise NoSuchCommand(f"no command {rest[:1]} in {name}: "
                                f"{', '.join(sorted(command.commands))}")
        name = rest.pop(0)
        command = command.commands[name]
    with command.make_context(name, rest):
        pass


def test_every_long_command_is_a_real_command() -> None:
    root = cli_root()
    checked, problems = 0, []
    for block in all_blocks():
        if block.info != "sh":
            continue
        for line, command in long_commands(block):
            where = f"{block.page.relative_to(ROOT)}:{line}: `{command}`"
            _, words = split(command)
            if words and words[0] == "time":
                words = words[1:]
            if not words or words[0] not in LONG_PROGRAMS:
                problems.append(f"{where}: a long command runs one of {', '.join(LONG_PROGRAMS)}")
                continue
            checked += 1
            if words[0] in BOARDWRIGHT:
                try:
                    check_arguments(root, words[1:])
                except Exception as exc:  # click's usage errors, from whichever copy of click
                    if not hasattr(exc, "format_message"):
                        raise
                    problems.append(f"{where}: {exc.format_message()}")
            elif words[0] in PYTHON and len(words) > 1 and words[1].endswith(".py"):
                if not (ROOT / words[1]).is_file():
                    problems.append(f"{where}: no script {words[1]}")
            if words[0] in PYTEST or words[1:3] == ["-m", "pytest"]:
                problems += [f"{where}: no test file or folder {word}" for word in words[1:]
                             if word.startswith("tests/")
                             and not (ROOT / word.split("::")[0]).exists()]
    assert checked >= 20, "the pages show long commands; the parser found too few"
    assert not problems, "\n".join(problems)


def test_commands_are_only_in_console_or_sh_blocks() -> None:
    problems = []
    for block in all_blocks():
        if block.info == "console":
            if not console_steps(block):
                problems.append(f"{block.where}: a console block without a `$ ` command")
        elif block.info in ("bash", "shell", "zsh", "shell-session"):
            problems.append(f"{block.where}: commands go in `console` (run by the tests) or "
                            f"`sh` (long) blocks, not {block.info!r}")
        elif block.info != "sh" and any(line.startswith("$ ") for line in block.lines):
            problems.append(f"{block.where}: a `$ ` command outside a console block (mark it "
                            "`console` to run it, or show it in an `sh` block as long)")
    assert not problems, "\n".join(problems)


def test_python_and_toml_blocks_parse() -> None:
    problems = []
    for block in all_blocks():
        text = "\n".join(block.lines)
        try:
            if block.info == "python":
                ast.parse(text)
            elif block.info == "toml":
                tomllib.loads(text)
        except (SyntaxError, tomllib.TOMLDecodeError) as exc:
            problems.append(f"{block.where}: {exc}")
    assert not problems, "\n".join(problems)


def anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to
    hyphens, a repeated one numbered."""
    seen: dict[str, int] = {}
    found = set()
    for line in read_blocks(page)[1].splitlines():
        match = HEADING.match(line)
        if match is None:
            continue
        slug = re.sub(r"[^\w\- ]", "", match[1].strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def links(page: Path) -> Iterator[str]:
    prose = INLINE_CODE.sub("", read_blocks(page)[1])
    for match in LINK.finditer(prose):
        yield match[1]


def test_every_relative_link_points_to_a_file_and_heading() -> None:
    problems, checked = [], 0
    for page in PAGES:
        for target in links(page):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
                continue  # another site, or an address of the web table
            checked += 1
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(ROOT)}: ({target})"
            if not file.exists():
                problems.append(f"{where}: no file {path}")
            elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                problems.append(f"{where}: no heading #{anchor} in {file.relative_to(ROOT)}")
    assert checked >= 50, "the pages link to each other; the parser found too few links"
    assert not problems, "\n".join(problems)


def test_the_readme_stays_short_and_keeps_its_two_set_up_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    set_up = [command for block in read_blocks(ROOT / "README.md")[0] if block.info == "sh"
              for _, command in long_commands(block) if command.startswith("make")]
    assert [split(command)[1] for command in set_up] == [["make", "serve"], ["make", "test"]]


@pytest.mark.parametrize("expected, output, missing", [
    (["a  b", "...", "c"], "x a b y\nc", None),
    (["c", "a b"], "a b c", "a b"),  # in order
    (["zz"], "a b", "zz"),
])
def test_shown_output_is_matched_in_order_with_spaces_collapsed(expected, output,
                                                                missing) -> None:
    assert missing_output(expected, output) == missing


@pytest.mark.parametrize("arguments, fine", [
    (["simulate", "carcassonne", "--agents", "random,greedy", "-n", "10"], True),
    (["rules", "coverage", "carcassonne"], True),
    (["simulate", "carcassonne", "--agentz", "random"], False),  # no such option
    (["serve", "--port", "eighty"], False),  # not a number
    (["simulat", "carcassonne"], False),  # no such command
    (["rules", "coverag"], False),
])
def test_long_commands_are_parsed_by_the_command_line(arguments, fine) -> None:
    try:
        check_arguments(cli_root(), arguments)
    except Exception as exc:
        assert hasattr(exc, "format_message") and not fine, exc
    else:
        assert fine


def test_the_parser_reads_fences_runs_and_continuations(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# A b & c\n\n<!-- run -->\n```python\nprint(1)\n```\n\n"
                    "  ```sh\n  make a \\\n    b  # long\n  # only a comment\n  ```\n\n"
                    "```console\n$ boardwright games\ncarcassonne\n$ python -V\n```\n",
                    encoding="utf-8")
    blocks, prose = read_blocks(page)
    assert [(b.info, b.marked_run) for b in blocks] == [("python", True), ("sh", False),
                                                         ("console", False)]
    assert long_commands(blocks[1]) == [(9, "make a b  # long")]
    steps = console_steps(blocks[2])
    assert [(s.command, s.expected) for s in steps] == [("boardwright games", ["carcassonne"]),
                                                        ("python -V", [])]
    assert "print(1)" not in prose and anchors(page) == {"a-b--c"}
