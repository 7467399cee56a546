from __future__ import annotations

import stat
from pathlib import Path

import duckdb
import pytest

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
