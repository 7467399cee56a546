"""Which embedder a store is used with: a new store gets the float one, an existing store
keeps the one it records when none is configured, and a configured one it does not hold is
refused in one line naming the store."""

from __future__ import annotations

import json
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


def _int8_store(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store written by the int8 embedder, MEMHOP_EMBEDDER still set to it."""
    db = tmp_path / "int8.duckdb"
    monkeypatch.setenv("MEMHOP_EMBEDDER", "minilm-int8")
    _ingest(runner, tmp_path, db)
    return db


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
    db = _int8_store(runner, tmp_path, monkeypatch)
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
    assert (
        f"{float_store} was written by embedder minilm (all-MiniLM-L6-v2, dim 384), not minilm-int8 as `embedder` "
        "is set in MEMHOP_EMBEDDER: remove that setting to use the store's own"
    ) in result.stderr


def _config_file(home: Path, text: str) -> Path:
    path = home / "config.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_an_embedder_set_in_the_config_file_writes_new_stores_and_is_named_when_it_refuses(
    home: Path, runner: CliRunner, tmp_path: Path, float_store: Path
) -> None:
    config = _config_file(home, "embedder: minilm-int8\n")
    db = tmp_path / "int8.duckdb"
    _ingest(runner, tmp_path, db)
    with open_store(db, read_only=True) as store:
        assert store.embedder() == EmbedderRecord.of("minilm-int8")
    asked = runner.invoke(app, ["ask", "Who did I go climbing with?", "--db", str(db)])
    assert asked.exit_code == 0, asked.output
    assert "Ottilie" in asked.stdout
    refused = runner.invoke(app, ["ask", "Where does Bob work?", "--db", str(float_store)])
    assert refused.exit_code == 1 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1
    assert (
        f"{float_store} was written by embedder minilm (all-MiniLM-L6-v2, dim 384), not minilm-int8 as `embedder` "
        f"is set in {config}: remove that setting to use the store's own"
    ) in refused.stderr


def test_memhop_embedder_wins_over_the_config_file(
    home: Path, runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _config_file(home, "embedder: minilm\n")
    db = _int8_store(runner, tmp_path, monkeypatch)
    with open_store(db, read_only=True) as store:
        assert store.embedder() == EmbedderRecord.of("minilm-int8")
    monkeypatch.delenv("MEMHOP_EMBEDDER")  # the file's float setting now refuses it, naming the file
    refused = runner.invoke(app, ["search", "climbing", "--db", str(db)])
    assert refused.exit_code == 1 and "not minilm as `embedder` is set in " in refused.stderr
    assert "config.yaml: remove that setting" in refused.stderr


def test_asking_an_int8_store_with_the_float_embedder_set_is_refused_naming_the_variable(
    home: Path, runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _int8_store(runner, tmp_path, monkeypatch)
    monkeypatch.setenv("MEMHOP_EMBEDDER", "minilm")
    refused = runner.invoke(app, ["ask", "Who did I go climbing with?", "--db", str(db)])
    assert refused.exit_code == 1 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1
    assert (
        f"{db} was written by embedder minilm-int8 (all-MiniLM-L6-v2-int8, dim 384), not minilm as `embedder` "
        "is set in MEMHOP_EMBEDDER: remove that setting to use the store's own"
    ) in refused.stderr
    monkeypatch.delenv("MEMHOP_EMBEDDER")
    asked = runner.invoke(app, ["ask", "Who did I go climbing with?", "--db", str(db)])
    assert asked.exit_code == 0 and "Ottilie" in asked.stdout


def test_config_says_null_for_the_stores_own_and_stats_names_the_stores_embedder(
    home: Path, runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _int8_store(runner, tmp_path, monkeypatch)
    monkeypatch.delenv("MEMHOP_EMBEDDER")
    config = runner.invoke(app, ["config", "--json", "--db", str(db)])
    assert config.exit_code == 0, config.output
    assert json.loads(config.stdout)["settings"]["embedder"] is None
    stats = runner.invoke(app, ["stats", "--json", "--db", str(db)])
    assert stats.exit_code == 0, stats.output
    assert json.loads(stats.stdout)["embedder"] == "minilm-int8"
    text = runner.invoke(app, ["stats", "--db", str(db)])
    assert "minilm-int8" in text.stdout
