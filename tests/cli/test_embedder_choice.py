"""Which embedder a store is used with: a new store gets the int8 one, an existing store
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


def test_a_new_store_is_written_by_the_int8_embedder(home: Path, runner: CliRunner, tmp_path: Path) -> None:
    diary, db = tmp_path / "diary.md", tmp_path / "new.duckdb"
    diary.write_text(DIARY, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(diary), "--self", "Maya Patel", "-q", "--db", str(db)])
    assert result.exit_code == 0, result.output
    with open_store(db, read_only=True) as store:
        assert store.embedder() == EmbedderRecord.of("minilm-int8")
    found = runner.invoke(app, ["search", "climbing", "--limit", "1", "--db", str(db)])
    assert found.exit_code == 0, found.output
    assert "quarry wall" in found.stdout


def test_a_float_store_keeps_working_with_no_embedder_configured(
    home: Path, runner: CliRunner, float_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    unset = runner.invoke(app, ["search", "greyhound", "--limit", "3", "--json", "--db", str(float_store)])
    monkeypatch.setenv("MEMHOP_EMBEDDER", "minilm")
    explicit = runner.invoke(app, ["search", "greyhound", "--limit", "3", "--json", "--db", str(float_store)])
    assert unset.exit_code == 0 == explicit.exit_code, unset.output
    assert "greyhound" in unset.stdout and unset.stdout == explicit.stdout  # the float embedder's answer
    with open_store(float_store, read_only=True) as store:
        assert store.embedder() == EmbedderRecord.of("minilm")


def test_a_configured_embedder_the_store_does_not_hold_is_refused_in_one_line(
    home: Path, runner: CliRunner, float_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMHOP_EMBEDDER", "minilm-int8")
    result = runner.invoke(app, ["search", "greyhound", "--db", str(float_store)])
    assert result.exit_code != 0 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert f"{float_store} was written by embedder all-MiniLM-L6-v2 (dim 384); this memhop uses minilm-int8" in result.stderr
