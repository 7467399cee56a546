from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import duckdb
import pytest
from support.paths import UNBORN_STORE

from memhop.core.errors import StoreError
from memhop.core.store import open_store
from memhop.core.store.schema import MIGRATIONS


def test_new_store_is_private_and_fully_migrated(tmp_path: Path) -> None:
    path = tmp_path / "data" / "memhop.duckdb"
    with open_store(path) as store:
        assert store.schema_version() == MIGRATIONS[-1][0]
        assert store.counts() == dict.fromkeys(
            ("sources", "sessions", "turns", "entities", "profiles", "residuals"), 0
        )
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_migrations_are_recorded_once(tmp_path: Path) -> None:
    path = tmp_path / "m.duckdb"
    open_store(path).close()
    with open_store(path) as store:
        rows = store.con.execute("SELECT version, name FROM migrations ORDER BY version").fetchall()
    assert [r[0] for r in rows] == [m[0] for m in MIGRATIONS]


def test_failed_transaction_leaves_nothing(tmp_path: Path) -> None:
    with open_store(tmp_path / "m.duckdb") as store:
        with pytest.raises(RuntimeError):
            with store.transaction():
                store.log("test", "half done")
                raise RuntimeError("crash in the middle")
        assert store.scalar("SELECT count(*) FROM oplog") == 0


def test_a_file_that_is_not_a_store_is_refused(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.duckdb"
    bogus.write_text("these are my notes, not a database\n")
    with pytest.raises(StoreError, match="notes.duckdb"):
        open_store(bogus)
    assert bogus.read_text() == "these are my notes, not a database\n"


def test_read_only_open_of_a_missing_store_says_so(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no memhop store"):
        open_store(tmp_path / "absent.duckdb", read_only=True)
    assert not (tmp_path / "absent.duckdb").exists()


def test_foreign_duckdb_file_is_not_taken_for_a_store_read_only(tmp_path: Path) -> None:
    path = tmp_path / "other.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE t (x INTEGER)")
    con.close()
    with pytest.raises(StoreError, match="not a memhop store"):
        open_store(path, read_only=True)


def _modes(folder: Path) -> dict[str, int]:
    return {p.name: stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()}


def test_the_wal_is_private_in_a_shared_folder(tmp_path: Path) -> None:
    """DuckDB creates the WAL anew at the first write after each checkpoint; it holds the
    text just written, so it must never be readable by others, whatever the folder."""
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o755)
    path = folder / "m.duckdb"
    with open_store(path) as store:
        for n in range(2):  # a write, a checkpoint (the WAL goes), and a write again
            with store.transaction():
                store.log("test", f"private diary text {n}")
            assert _modes(folder) == {"m.duckdb": 0o600, "m.duckdb.wal": 0o600, "m.duckdb.lock": 0o600}
            store.checkpoint()
    assert _modes(folder) == {"m.duckdb": 0o600, "m.duckdb.lock": 0o600}  # the lock file holds no text
    other = folder / "notes.txt"
    other.write_text("x")  # the process umask is as it was
    assert stat.S_IMODE(other.stat().st_mode) == 0o644 & ~_umask()


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def test_read_only_opens_never_change_the_mode(tmp_path: Path) -> None:
    path = tmp_path / "m.duckdb"
    open_store(path).close()
    path.chmod(0o640)  # the owner's choice
    with open_store(path, read_only=True) as store:
        assert store.counts()["sources"] == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    open_store(path).close()  # a writer makes it private again
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_store_killed_while_being_created_opens_again_with_its_wal_kept_aside(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    for part in UNBORN_STORE.iterdir():
        shutil.copy(part, tmp_path / part.name)
    path = tmp_path / "memhop.duckdb"
    with open_store(path) as store:
        assert store.counts()["turns"] == 0
        assert store.schema_version() == MIGRATIONS[-1][0]
    kept = tmp_path / "memhop.duckdb.wal.unreplayable"
    assert kept.read_bytes() == (UNBORN_STORE / "memhop.duckdb.wal").read_bytes()  # moved aside, not deleted
    assert "cut off while being created" in caplog.text
