"""memhop ingest / stats as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memhop.cli.app import app

from support.paths import SAMPLES


def ingest(runner: CliRunner, *args: str, input: str | None = None):  # noqa: ANN201
    return runner.invoke(app, ["ingest", *args], input=input)


@pytest.mark.slow
def test_locomo_counts_and_reingest_adds_nothing(home: Path, runner: CliRunner, locomo26: Path, stats) -> None:
    first = ingest(runner, str(locomo26), "--json")
    assert first.exit_code == 0, first.output
    report = json.loads(first.stdout)
    assert report["files"][0]["status"] == "imported"
    assert report["files"][0]["format"] == "locomo"
    counts = stats()
    assert (counts["sessions"], counts["turns"], counts["sources"]) == (19, 419, 1)
    assert set(counts) == {"sources", "sessions", "turns", "entities", "profiles", "facts", "embedder", "quarantined", "engine_calls", "db"}
    assert counts["db"] == str(home / "memhop.duckdb")

    again = ingest(runner, str(locomo26))
    assert again.exit_code == 0, again.output
    assert "unchanged" in again.stdout
    assert stats() == counts


def test_truncated_file_fails_alone_and_changes_nothing(
    home: Path, runner: CliRunner, locomo26: Path, tmp_path: Path, stats
) -> None:
    good = SAMPLES / "whatsapp-alice.txt"
    assert ingest(runner, str(good)).exit_code == 0
    before = stats()
    data = locomo26.read_bytes()
    broken = tmp_path / "26-truncated.json"
    broken.write_bytes(data[: len(data) // 2])

    result = ingest(runner, str(broken))
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "26-truncated.json" in errors[0]
    assert stats() == before


def test_one_bad_file_does_not_stop_the_others(home: Path, runner: CliRunner, tmp_path: Path, stats) -> None:
    garbage = tmp_path / "photo.bin"
    garbage.write_bytes(bytes(range(256)) * 4)
    result = ingest(runner, str(garbage), str(SAMPLES / "notes.jsonl"), "--json")
    assert result.exit_code == 1
    files = {Path(f["path"]).name: f for f in json.loads(result.stdout)["files"]}
    assert files["photo.bin"]["status"] == "failed" and "photo.bin" in files["photo.bin"]["error"]
    assert files["notes.jsonl"]["status"] == "imported"
    assert stats()["turns"] == files["notes.jsonl"]["turns"] > 0


@pytest.mark.slow
def test_every_sample_is_recognised_without_format(home: Path, runner: CliRunner) -> None:
    result = ingest(runner, str(SAMPLES), "--self", "Maya Patel", "--json")
    assert result.exit_code == 0, result.output
    formats = {Path(f["path"]).name: f["format"] for f in json.loads(result.stdout)["files"]}
    assert formats == {
        "chatgpt-conversations.json": "chatgpt",
        "maya-diary.md": "markdown",
        "notes.jsonl": "generic",
        "telegram-result.json": "telegram",
        "whatsapp-alice.txt": "whatsapp",
    }


def test_stdin_is_read_with_dash(home: Path, runner: CliRunner, stats) -> None:
    lines = [
        {"speaker": "Maya", "text": "Lunch with Dan at the canteen.", "timestamp": "2024-03-01T12:30:00"},
        {"speaker": "Dan", "text": "Priya says hi!", "timestamp": "2024-03-01T12:31:00"},
    ]
    result = ingest(runner, "-", input="\n".join(json.dumps(x) for x in lines) + "\n")
    assert result.exit_code == 0, result.output
    assert stats()["turns"] == 2


def test_an_extended_export_adds_only_the_new_messages(
    home: Path, runner: CliRunner, tmp_path: Path, stats
) -> None:
    base = (SAMPLES / "whatsapp-alice.txt").read_text(encoding="utf-8")
    older = tmp_path / "chat-old.txt"
    older.write_text(base, encoding="utf-8")
    assert ingest(runner, str(older)).exit_code == 0
    turns_before = stats()["turns"]
    newer = tmp_path / "chat-new.txt"
    last = base.rstrip("\n").splitlines()[-1]
    newer.write_text(base + last.split(" - ")[0] + " - Alice Nguyen: one more thing!\n", encoding="utf-8")
    result = ingest(runner, str(newer), "--json")
    assert result.exit_code == 0, result.output
    assert stats()["turns"] == turns_before + 1


def test_no_progress_or_noise_on_stderr_when_not_a_terminal(home: Path, runner: CliRunner) -> None:
    result = ingest(runner, str(SAMPLES / "notes.jsonl"))
    assert result.exit_code == 0
    assert result.stderr == ""
    assert "notes.jsonl: imported" in result.stdout


def test_missing_file_is_named(home: Path, runner: CliRunner) -> None:
    result = ingest(runner, "no-such-export.json")
    assert result.exit_code == 1
    assert "no-such-export.json: no such file" in result.stderr


def test_a_second_diarist_is_refused_and_nothing_is_imported(home: Path, runner: CliRunner, stats) -> None:
    first = ingest(runner, str(SAMPLES / "notes.jsonl"), "--self", "Maya Patel")
    assert first.exit_code == 0, first.output
    before = stats()
    refused = ingest(runner, str(SAMPLES / "maya-diary.md"), "--self", "Ada Heath")
    assert refused.exit_code == 2
    assert "diarist is 'Maya Patel'" in refused.stderr and "nothing was imported" in refused.stderr
    assert stats() == before
    again = ingest(runner, str(SAMPLES / "maya-diary.md"), "--self", "maya")  # an alias or first name is the same person
    assert again.exit_code == 0, again.output
