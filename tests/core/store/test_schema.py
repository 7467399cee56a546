"""schema.COLUMNS is what bulk inserts build their Arrow tables from: it must say exactly
what the migrations leave in the file."""

from __future__ import annotations

from pathlib import Path

from memhop.core.embed import DIM
from memhop.core.store import open_store
from memhop.core.store.schema import COLUMNS


def test_the_column_spec_is_the_migrated_schema(tmp_path: Path) -> None:
    with open_store(tmp_path / "memhop.duckdb") as store:
        found = store.con.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_catalog = current_database() AND table_schema = 'main' "
            "ORDER BY table_name, ordinal_position"
        ).fetchall()
    migrated: dict[str, list[tuple[str, str]]] = {}
    for table, column, data_type in found:
        migrated.setdefault(table, []).append((column, data_type))
    assert migrated == {table: list(columns) for table, columns in COLUMNS.items()}
    assert ("embedding", f"FLOAT[{DIM}]") in migrated["turns"]
