"""Oversized and malformed inputs through the real CLI: nothing crashes, nothing is lost,
and the store is never left in a state that breaks the next command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from support.paths import SAMPLES
from typer.testing import CliRunner

from memhop.cli.app import app
from memhop.core.limits import MAX_TURN_CHARS

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




MALFORMED: dict[str, bytes] = {
    "garbage.json": bytes(range(256)) * 40,
    "nested.json": b"[" * 200_000,
    "nan-stamp.json": b'[{"speaker": "Maya", "text": "Lunch with Bob.", "timestamp": NaN}]',
    "inf-stamp.jsonl": b'{"speaker": "Maya", "text": "Lunch.", "timestamp": 1e400}\n{"speaker": "Bob", "text": "Hi."}\n',
    "huge-epoch.json": b'{"messages": [{"from": "Maya", "message": "Hi.", "time": 1' + b"0" * 30 + b"}]}",
    "telegram-epoch.json": json.dumps({"name": "Bob", "type": "personal_chat", "id": 1, "messages": [
        {"id": 1, "type": "message", "date_unixtime": "9" * 25, "from": "Bob", "text": "Hi"}]}).encode(),
    "cut.json": b'[{"speaker": "Maya", "text": "Lunch with',
    "empty.md": b"",
}


def test_malformed_files_fail_one_line_each_and_the_good_file_imports(
    home: Path, runner: CliRunner, tmp_path: Path, stats: Any
) -> None:
    paths = []
    for name, data in MALFORMED.items():
        (tmp_path / name).write_bytes(data)
        paths.append(str(tmp_path / name))
    result = run(runner, "ingest", *paths, str(SAMPLES / "maya-diary.md"), "--self", "Maya Patel", "-q")
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == len(MALFORMED), result.stderr
    for line, name in zip(errors, MALFORMED):
        assert name in line and len(line) < 250, line
    assert "maya-diary.md: imported" in result.stdout
    assert stats()["sources"] == 1 and stats()["facts"] > 0
