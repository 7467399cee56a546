from __future__ import annotations

import os
import stat
import subprocess
import sys
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


def _killed_while_created(path: Path, first_table: str) -> bytes:
    """A store killed before its first tables reached the file: the file holds no table,
    its WAL holds them, and one record of that WAL is damaged, as a kill -9 in the middle
    of writing it left it (DuckDB cannot replay it). The WAL's bytes."""
    killed = subprocess.run([sys.executable, "-c", (
        "import duckdb, os, sys\n"
        "con = duckdb.connect(sys.argv[1])\n"
        "con.execute(\"SET checkpoint_threshold = '1GB'\")\n"  # the tables stay in the WAL
        f"con.execute({first_table!r})\n"
        "os._exit(0)\n"  # no checkpoint at close: as killed
    ), str(path)], check=False)
    assert killed.returncode == 0
    wal = path.with_name(path.name + ".wal")
    damaged = bytearray(wal.read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF
    wal.write_bytes(damaged)
    return bytes(damaged)


def test_a_store_killed_while_being_created_opens_again_with_its_wal_kept_aside(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "memhop.duckdb"
    wal = _killed_while_created(path, "CREATE TABLE migrations (version INTEGER, name TEXT)")
    with pytest.raises(duckdb.Error, match="WAL"):
        duckdb.connect(str(path)).close()  # what DuckDB alone makes of it
    with open_store(path) as store:
        assert store.counts()["turns"] == 0
        assert store.schema_version() == MIGRATIONS[-1][0]
    kept = tmp_path / "memhop.duckdb.wal.unreplayable"
    assert kept.read_bytes() == wal  # moved aside, not deleted
    assert "cut off while being created" in caplog.text


def test_a_store_with_tables_and_an_unreplayable_wal_stays_refused_with_its_wal(tmp_path: Path) -> None:
    path = tmp_path / "memhop.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE notes (text TEXT)")
        con.execute("INSERT INTO notes VALUES ('kept')")  # checkpointed into the file at close
    wal = _killed_while_created(path, "CREATE TABLE more (x INTEGER)")
    with pytest.raises(StoreError):
        open_store(path).close()
    assert path.with_name(path.name + ".wal").read_bytes() == wal  # nothing moved aside
    assert not (tmp_path / "memhop.duckdb.wal.unreplayable").exists()
