"""Which embedder a store is used with: a new store gets the float one, an existing store
keeps the one it records when none is configured, and a configured one it does not hold is
refused in one line naming the store."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.read_world import build_world
from typer.testing import CliRunner

from memhop.cli.app import app
from memhop.core.store import open_store
from memhop.core.store.meta import EmbedderRecord

DIARY = """# Notes

# 2024-03-02

Went climbing with Ottilie Brandt at the quarry wall; she led the hardest route.
"""


@pytest.fixture(scope="module")
def float_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_world(tmp_path_factory.mktemp("float-world"))  # written by float MiniLM, as stores were


def _ingest(runner: CliRunner, tmp_path: Path, db: Path) -> None:
    diary = tmp_path / "diary.md"
    diary.write_text(DIARY, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(diary), "--self", "Maya Patel", "-q", "--db", str(db)])
    assert result.exit_code == 0, result.output


def test_a_new_store_is_written_by_the_float_embedder(home: Path, runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "new.duckdb"
    _ingest(runner, tmp_path, db)
    with open_store(db, read_only=True) as store:
        assert store.embedder() == EmbedderRecord.of("minilm")
    found = runner.invoke(app, ["search", "climbing", "--limit", "1", "--db", str(db)])
    assert found.exit_code == 0, found.output
    assert "quarry wall" in found.stdout


def test_an_int8_store_keeps_working_with_no_embedder_configured(
    home: Path, runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "int8.duckdb"
    monkeypatch.setenv("MEMHOP_EMBEDDER", "minilm-int8")
    _ingest(runner, tmp_path, db)
    explicit = runner.invoke(app, ["search", "climbing", "--limit", "3", "--json", "--db", str(db)])
    monkeypatch.delenv("MEMHOP_EMBEDDER")
    unset = runner.invoke(app, ["search", "climbing", "--limit", "3", "--json", "--db", str(db)])
    assert unset.exit_code == 0 == explicit.exit_code, unset.output
    assert "quarry wall" in unset.stdout and unset.stdout == explicit.stdout  # read with the int8 embedder
    with open_store(db, read_only=True) as store:
        assert store.embedder() == EmbedderRecord.of("minilm-int8")


def test_a_configured_embedder_the_store_does_not_hold_is_refused_in_one_line(
    home: Path, runner: CliRunner, float_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMHOP_EMBEDDER", "minilm-int8")
    result = runner.invoke(app, ["search", "greyhound", "--db", str(float_store)])
    assert result.exit_code != 0 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert f"{float_store} was written by embedder all-MiniLM-L6-v2 (dim 384); this memhop uses minilm-int8" in result.stderr
