"""memhop export and restore, as a user runs them: out to a file and back into a new store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from memhop.cli.app import app
from memhop.core.store import open_store
from memhop.core.store.meta import EmbedderRecord

from support import purge_world

COUNTED = ("sources", "sessions", "turns", "entities", "profiles", "facts")
TABLES = {"facts": "residuals"}  # the export file counts rows per table
ROOMMATE = "What instrument does Alice's roommate play?"


@pytest.fixture
def exported(purge_db: Path, runner: CliRunner, tmp_path: Path) -> Path:
    target = tmp_path / "backup.json"
    assert run(runner, "export", "-o", str(target)).exit_code == 0
    return target


def run(runner: CliRunner, *args: str, input: str | None = None) -> Any:
    return runner.invoke(app, list(args), input=input)


def test_export_json_to_a_file_matches_stats_and_md_to_stdout(
    purge_db: Path, runner: CliRunner, tmp_path: Path, stats: Any
) -> None:
    target = tmp_path / "out" / "memhop.json"
    target.parent.mkdir()
    result = run(runner, "export", "--format", "json", "-o", str(target))
    assert result.exit_code == 0, result.output
    assert target.stat().st_mode & 0o777 == 0o600
    exported = json.loads(target.read_text(encoding="utf-8"))
    counts = stats()
    assert {k: exported["counts"][TABLES.get(k, k)] for k in COUNTED} == {k: counts[k] for k in COUNTED}
    assert json.loads(run(runner, "export", "-o", "-").stdout)["counts"] == exported["counts"]
    md = run(runner, "export", "--format", "md")
    assert md.exit_code == 0 and md.stdout.startswith("# memhop export")
    assert run(runner, "export", "--format", "csv").exit_code == 1


def test_export_replaces_a_previous_file_whole_and_privately(
    purge_db: Path, runner: CliRunner, tmp_path: Path
) -> None:
    target = tmp_path / "backup.md"
    target.write_text("an older backup, readable by all")
    target.chmod(0o644)
    store_mode = purge_db.stat().st_mode
    assert run(runner, "export", "-f", "md", "-o", str(target)).exit_code == 0
    assert target.read_text(encoding="utf-8").startswith("# memhop export")
    assert target.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temp file left
    assert purge_db.stat().st_mode == store_mode  # a read-only command leaves the store's mode alone
    nowhere = run(runner, "export", "-o", str(tmp_path / "no-such-dir" / "x.json"))
    assert nowhere.exit_code == 1 and nowhere.stderr.count("\n") == 1 and "cannot write" in nowhere.stderr


def test_restore_brings_back_the_same_memory(
    purge_db: Path, exported: Path, runner: CliRunner, tmp_path: Path, stats: Any
) -> None:
    fresh = tmp_path / "elsewhere" / "memhop.duckdb"  # a new store gets the float embedder that wrote purge_db
    result = run(runner, "restore", str(exported), "--db", str(fresh), "--json")
    assert result.exit_code == 0, result.output
    restored = json.loads(result.stdout)
    original = stats()
    assert {k: restored[k] for k in COUNTED} == {k: original[k] for k in COUNTED}
    assert restored["db"] == str(fresh)
    for args in (["show", "Bob Kowalski", "--json", "--all"], ["ask", ROOMMATE, "--json"]):
        before, after = run(runner, *args), run(runner, *args, "--db", str(fresh))
        assert before.exit_code == after.exit_code == 0, after.output
        same, again = json.loads(before.stdout), json.loads(after.stdout)
        for answer in (same, again):
            answer.pop("trace", None)  # carries timings and scores recomputed to float noise
        assert again == same


def test_restore_reads_stdin(exported: Path, runner: CliRunner, tmp_path: Path, stats: Any) -> None:
    fresh = tmp_path / "from-stdin.duckdb"
    result = run(runner, "restore", "-", "--db", str(fresh), input=exported.read_text(encoding="utf-8"))
    assert result.exit_code == 0, result.output
    assert stats("--db", str(fresh))["turns"] == stats()["turns"] > 0
    with open_store(fresh, read_only=True) as store:  # a new store: the default embedder
        assert store.embedder() == EmbedderRecord.of("minilm")


def test_restore_refuses_a_store_that_is_not_empty(purge_db: Path, exported: Path, runner: CliRunner) -> None:
    digest = purge_world.sha256_file(purge_db)
    result = run(runner, "restore", str(exported))
    assert result.exit_code == 1
    assert result.stderr.strip().count("\n") == 0 and "not empty" in result.stderr and str(exported) in result.stderr
    assert purge_world.sha256_file(purge_db) == digest


def test_a_bad_file_is_one_line_and_leaves_the_new_store_empty(
    exported: Path, runner: CliRunner, tmp_path: Path, stats: Any, locomo26: Path
) -> None:
    data = json.loads(exported.read_text(encoding="utf-8"))
    del data["sources"][-1]["sessions"][-1]["turns"][-1]["text"]  # found only while inserting turns
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps(data), encoding="utf-8")
    truncated = tmp_path / "truncated.json"
    truncated.write_text(exported.read_text(encoding="utf-8")[:5000], encoding="utf-8")
    cases = {
        damaged: "a damaged memhop export (KeyError",
        truncated: "invalid JSON",
        locomo26: "not a memhop export",
        tmp_path / "missing.json": "no such file",
    }
    for path, message in cases.items():
        fresh = tmp_path / f"{path.stem}.duckdb"
        result = run(runner, "restore", str(path), "--db", str(fresh))
        assert result.exit_code == 1, (path, result.output)
        line = result.stderr.strip()
        assert "\n" not in line and str(path) in line and message in line, line
        if fresh.exists():
            assert all(stats("--db", str(fresh))[k] == 0 for k in COUNTED)


def test_an_export_citing_a_missing_turn_is_refused_whole(
    exported: Path, runner: CliRunner, tmp_path: Path, stats: Any
) -> None:
    data = json.loads(exported.read_text(encoding="utf-8"))
    cited = next(t for e in data["entities"] for f in e["facts"] for t in f["source_turns"])
    for source in data["sources"]:
        for session in source["sessions"]:
            session["turns"] = [t for t in session["turns"] if t["id"] != cited]
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data), encoding="utf-8")
    fresh = tmp_path / "fresh.duckdb"
    result = run(runner, "restore", str(edited), "--db", str(fresh))
    assert result.exit_code == 1, result.output
    line = result.stderr.strip()
    assert "\n" not in line and str(edited) in line and f"cites turn {cited}, which is not in the file" in line
    assert all(stats("--db", str(fresh))[k] == 0 for k in COUNTED)  # nothing half-restored
