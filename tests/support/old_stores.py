"""Stores as an older memhop wrote them: the first `version` migrations applied and recorded,
so a test can check what opening them with today's memhop does."""

from __future__ import annotations

from pathlib import Path

import duckdb

from memhop.core.store import meta
from memhop.core.store.meta import EmbedderRecord
from memhop.core.store.schema import META_MIGRATION, MIGRATIONS


def store_at_version(path: Path, version: int) -> duckdb.DuckDBPyConnection:
    """An open connection to a new store at schema `version`; the caller adds rows and closes it."""
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMP NOT NULL)"
    )
    for number, name, sql in MIGRATIONS[:version]:
        con.execute(sql)
        if number == META_MIGRATION:
            meta.write(con, EmbedderRecord.of("minilm"))
        con.execute("INSERT INTO migrations VALUES (?, ?, now())", [number, name])
    return con
