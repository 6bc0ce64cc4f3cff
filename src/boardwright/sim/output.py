"""Simulation results on disk: JSON (summary + one row per game) or CSV (one row per game and
seat), chosen by the file extension; and game records, one JSON file per game.

JSON has no NaN or infinity here: such values are written as null, so any JSON reader parses
the file.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any, Sequence

from boardwright.core.errors import InvalidOptionError
from boardwright.sim.runner import GameResult
from boardwright.sim.stats import AgentStats

FORMATS = {".json": "json", ".csv": "csv"}
CSV_COLUMNS = [
    "game", "seed", "seat", "agent", "score", "return", "win_share", "winner", "tied",
    "turns", "decisions", "think_seconds", "iterations_per_decision", "game_seconds",
    "peak_rss_bytes",
]


class OutputFormatError(InvalidOptionError):
    """An output file whose extension names no known format."""


def output_format(path: str | Path) -> str:
    """"json" or "csv" from the file extension; OutputFormatError otherwise."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise OutputFormatError(
            f"--out {str(path)!r}: the file name must end in .json or .csv")
    return FORMATS[suffix]


def clean(value: Any) -> Any:
    """JSON-safe copy: NaN and infinities become None."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value


def write_json(path: str | Path, summary: dict[str, Any], stats: Sequence[AgentStats],
               results: Sequence[GameResult]) -> None:
    data = {
        "summary": {**summary, "agents": [row.to_json() for row in stats]},
        "games": [r.to_json() for r in sorted(results, key=lambda r: r.index)],
    }
    Path(path).write_text(json.dumps(clean(data), indent=1, allow_nan=False) + "\n",
                          encoding="utf-8")


def csv_rows(results: Sequence[GameResult]) -> list[dict[str, Any]]:
    rows = []
    for r in sorted(results, key=lambda r: r.index):
        tied = len(r.winners) > 1
        for seat, agent in enumerate(r.seats):
            winner = seat in r.winners
            stats = r.agent_stats[seat] if seat < len(r.agent_stats) else {}
            rows.append({
                "game": r.index, "seed": r.seed, "seat": seat, "agent": agent,
                "score": r.scores[seat], "return": r.returns[seat],
                "win_share": (1.0 / len(r.winners)) if winner else 0.0,
                "winner": int(winner), "tied": int(winner and tied),
                "turns": "" if r.turns is None else r.turns,
                "decisions": r.seat_decisions[seat] if seat < len(r.seat_decisions) else "",
                "think_seconds": r.seat_seconds[seat] if seat < len(r.seat_seconds) else "",
                "iterations_per_decision": stats.get("iterations_per_decision", ""),
                "game_seconds": r.seconds, "peak_rss_bytes": r.peak_rss_bytes,
            })
    return rows


def write_csv(path: str | Path, results: Sequence[GameResult]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        writer.writerows(csv_rows(results))


def write_results(path: str | Path, summary: dict[str, Any], stats: Sequence[AgentStats],
                  results: Sequence[GameResult]) -> str:
    """Write JSON or CSV by the extension of `path`; returns the format written."""
    kind = output_format(path)
    if kind == "json":
        write_json(path, summary, stats, results)
    else:
        write_csv(path, results)
    return kind


def record_path(directory: str | Path, index: int) -> Path:
    return Path(directory) / f"game-{index:05d}.json"


def save_record(directory: str | Path, result: GameResult) -> Path | None:
    """Write the result's record (if it carries one) as DIR/game-00012.json."""
    if result.record is None:
        return None
    path = record_path(directory, result.index)
    path.write_text(json.dumps(result.record, indent=1) + "\n", encoding="utf-8")
    return path
