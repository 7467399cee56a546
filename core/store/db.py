"""Opening the DuckDB file, migrating it, and scoping writes to one transaction."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb

from memhop.core.errors import StoreError
from memhop.core.store.schema import MIGRATIONS


@dataclass
class Store:
    path: Path
    con: duckdb.DuckDBPyConnection

    @contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """All or nothing: a crash or an exception leaves the file as it was before."""
        self.con.begin()
        try:
            yield self.con
        except BaseException:
            self.con.rollback()
            raise
        else:
            self.con.commit()

    def next_id(self, table: str) -> int:
        row = self.con.execute(f"SELECT coalesce(max(id), 0) + 1 FROM {table}").fetchone()
        assert row is not None
        return int(row[0])

    def log(self, op: str, detail: str) -> None:
        """Append to the operation log. Callers never pass forgotten content here."""
        self.con.execute(
            "INSERT INTO oplog (id, happened_at, op, detail) VALUES (?, ?, ?, ?)",
            [self.next_id("oplog"), datetime.now(), op, detail],
        )

    def last_op(self, ops: Sequence[str]) -> str | None:
        """Which of these operations was logged last, if any."""
        found = self.scalar(
            "SELECT op FROM oplog WHERE list_contains(?, op) ORDER BY id DESC LIMIT 1", [list(ops)]
        )
        return None if found is None else str(found)

    def checkpoint(self) -> None:
        """Write the WAL into the file now rather than at some later commit."""
        self.con.execute("CHECKPOINT")

    def scalar(self, sql: str, params: list[Any] | None = None) -> Any:
        row = self.con.execute(sql, params or []).fetchone()
        return None if row is None else row[0]

    def counts(self) -> dict[str, int]:
        tables = ("sources", "sessions", "turns", "entities", "profiles", "residuals")
        return {name: int(self.scalar(f"SELECT count(*) FROM {name}")) for name in tables}

    def schema_version(self) -> int:
        return int(self.scalar("SELECT coalesce(max(version), 0) FROM migrations"))

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _migrate(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(
        "CREATE TABLE IF NOT EXISTS migrations "
        "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMP NOT NULL)"
    )
    done = {row[0] for row in con.execute("SELECT version FROM migrations").fetchall()}
    for version, name, sql in MIGRATIONS:
        if version in done:
            continue
        con.begin()
        try:
            con.execute(sql)
            con.execute("INSERT INTO migrations VALUES (?, ?, ?)", [version, name, datetime.now()])
        except duckdb.Error:
            con.rollback()
            raise
        con.commit()


def open_store(path: Path, read_only: bool = False) -> Store:
    """Open (creating and migrating if needed) the store; the file is private to its owner."""
    path = Path(path).expanduser()
    if read_only and not path.exists():
        raise StoreError(f"{path}: no memhop store here yet (run `memhop ingest` first)")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    old_umask = os.umask(0o077)
    try:
        con = duckdb.connect(str(path), read_only=read_only)
    except duckdb.IOException as exc:
        raise StoreError(f"{path}: cannot open the store ({first_line(exc)})") from None
    except duckdb.Error as exc:
        raise StoreError(f"{path}: not a memhop store ({first_line(exc)})") from None
    finally:
        os.umask(old_umask)
    os.chmod(path, 0o600)
    con.execute("SET enable_progress_bar = false")  # DuckDB would draw on our stdout
    if not read_only:
        try:
            _migrate(con)
        except duckdb.Error as exc:
            con.close()
            raise StoreError(f"{path}: migration failed ({first_line(exc)})") from None
    elif not _has_table(con, "migrations"):
        con.close()
        raise StoreError(f"{path}: not a memhop store (no migrations table)")
    return Store(path=path, con=con)


def _has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    row = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [name]
    ).fetchone()
    return bool(row and row[0])


def quote(identifier: str) -> str:
    """An identifier for SQL text (table and column names come from the schema, never a user)."""
    return '"' + identifier.replace('"', '""') + '"'


def first_line(exc: BaseException) -> str:
    """A DuckDB error's first line: the rest is a stack trace or a hint meant for SQL users."""
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
