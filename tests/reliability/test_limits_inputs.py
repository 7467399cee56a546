"""Oversized and malformed inputs through the real CLI: nothing crashes, nothing is lost,
and the store is never left in a state that breaks the next command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from memhop.cli.app import app
from memhop.core.limits import MAX_TURN_CHARS

from support.paths import SAMPLES

pytestmark = pytest.mark.slow


def run(runner: CliRunner, *args: str) -> Any:
    return runner.invoke(app, list(args))


HUGE = 1_200_000  # characters: a pasted log; spaCy refuses more than 1,000,000 (E088)


def huge_message(path: Path) -> str:
    words = "the build log printed another line and Bob Kowalski watched it scroll past.".split()
    text = " ".join(words[i % len(words)] for i in range(HUGE // 5))[:HUGE].strip()
    records = [
        {"speaker": "Maya Patel", "text": "Bob Kowalski plays the piano.", "timestamp": "2024-03-01T09:00:00"},
        {"speaker": "Maya Patel", "text": text, "timestamp": "2024-03-01T09:05:00"},
    ]
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return text


def test_one_huge_message_is_cut_for_memories_and_kept_whole(
    home: Path, runner: CliRunner, tmp_path: Path, stats: Any
) -> None:
    text = huge_message(tmp_path / "log.jsonl")
    first = run(runner, "ingest", str(tmp_path / "log.jsonl"), "--self", "Maya Patel", "-q")
    assert first.exit_code == 0, first.output
    warnings = [line for line in first.stderr.splitlines() if line.startswith("Warning:")]
    assert len(warnings) == 1 and f"{len(text):,} characters" in warnings[0] and f"{MAX_TURN_CHARS:,}" in warnings[0]
    assert "Traceback" not in first.output
    counts = stats()
    assert counts["facts"] > 0 and counts["entities"] > 0
    con = duckdb.connect(str(home / "memhop.duckdb"), read_only=True)
    try:
        assert con.execute("SELECT max(length(text)) FROM turns").fetchone() == (len(text),)  # verbatim
        assert con.execute("SELECT count(*) FROM sessions WHERE written_at IS NULL").fetchone() == (0,)
    finally:
        con.close()
    later = run(runner, "ingest", str(SAMPLES / "maya-diary.md"), "--self", "Maya Patel", "-q")
    assert later.exit_code == 0, later.output  # the store is not stuck on the big message
    assert stats()["facts"] > counts["facts"]
    rebuilt = run(runner, "rebuild", "-q")
    assert rebuilt.exit_code == 0, rebuilt.output
    assert rebuilt.stderr.count("Warning:") == 1


