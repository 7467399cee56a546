"""Inputs a user should not send but sometimes does: absurd timestamps (an enormous message:
tests/reliability/test_limits_inputs.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from memhop.cli.app import app

from support.paths import SAMPLES

def run(runner: CliRunner, *args: str) -> Any:
    return runner.invoke(app, list(args))


BAD_STAMPS = {"nan.json": "NaN", "inf.json": "1e400", "huge.json": "99999999999999999999", "big-int.json": "1" + "0" * 400}


def test_absurd_epoch_timestamps_fail_their_file_alone(home: Path, runner: CliRunner, tmp_path: Path, stats: Any) -> None:
    paths = []
    for name, stamp in BAD_STAMPS.items():
        path = tmp_path / name
        path.write_text('[{"speaker": "Maya", "text": "Lunch with Bob.", "timestamp": ' + stamp + "}]")
        paths.append(str(path))
    result = run(runner, "ingest", *paths, str(SAMPLES / "maya-diary.md"), "--self", "Maya Patel", "-q")
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == len(BAD_STAMPS) and "Traceback" not in result.output
    for line, name in zip(errors, BAD_STAMPS):
        assert name in line and "record 1: timestamp" in line and "is not a date" in line and len(line) < 200
    assert "maya-diary.md: imported" in result.stdout
    assert stats()["sources"] == 1 and stats()["facts"] > 0
