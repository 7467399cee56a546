"""Ingest one text through the CLI, as a user would, and read back what it stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from memhop.cli.app import app


def ingested_entities(runner: CliRunner, path: Path, text: str, self_name: str = "Ingrid Sol") -> dict[str, dict[str, Any]]:
    """`memhop ingest PATH --self NAME`, then `memhop entities --json`, by name."""
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path), "--self", self_name])
    assert result.exit_code == 0, result.output
    listed = runner.invoke(app, ["entities", "--json"])
    assert listed.exit_code == 0, listed.output
    return {e["name"]: e for e in json.loads(listed.stdout)}
