"""Running the command line in tests: a Typer runner without colours at a given width, and the
check that a command ended by itself (its exit code, no traceback)."""

from __future__ import annotations

from typer.testing import CliRunner, Result

from boardwright.cli import app


def run_cli(*args: str, columns: int = 110) -> Result:
    """`boardwright ARGS...` in a terminal `columns` wide, without colours."""
    runner = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None, "COLUMNS": str(columns)})
    return runner.invoke(app, list(args))


def assert_clean_exit(result: Result, code: int) -> None:
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
