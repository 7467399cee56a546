"""Rows by id (core/store/lookup.py) on real DuckDB files: the same rows as one plain `IN`
query, with or without lookup mode, for lists past the per-statement cap, with ids that
were never written or were deleted (forgotten); lookup mode reads from the key's index."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from memhop.core.store.lookup import CHUNK, arrow_by_id, lookup_mode, rows_by_id, scanning

ROWS = 6_000
GONE = {7, 2_500, 5_999}  # deleted after writing, as a forget deletes turns


@pytest.fixture(scope="module")
def table_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lookup") / "rows.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE notes (id BIGINT PRIMARY KEY, text VARCHAR NOT NULL, tags INTEGER[])")
        con.execute(f"INSERT INTO notes SELECT i, 'note ' || i, [i % 3] FROM range(1, {ROWS + 1}) t(i)")
        con.execute(f"DELETE FROM notes WHERE id IN ({','.join(map(str, GONE))})")
    return path


def _plain(con: duckdb.DuckDBPyConnection, ids: list[int]) -> list[tuple[object, ...]]:
    return sorted(con.execute(f"SELECT id, text, tags FROM notes WHERE id IN ({','.join(map(str, ids))})").fetchall())


@pytest.mark.parametrize("mode", [False, True])
def test_rows_by_id_are_the_rows_of_one_plain_in_query(table_file: Path, mode: bool) -> None:
    few = [3, 7, 12, 9_999, 4_000, 12]  # a deleted id, one never written, a repeat
    many = [*range(1, 2 * CHUNK + 500, 2), *GONE, ROWS + 10]  # more than two statements' worth
    with duckdb.connect(str(table_file), read_only=True) as con:
        expected = [_plain(con, few), _plain(con, many)]
        if mode:
            lookup_mode(con)
        for ids, rows in zip((few, many), expected):
            assert sorted(rows_by_id(con, "SELECT id, text, tags FROM notes", ids)) == rows
            table = arrow_by_id(con, "SELECT id, text, tags FROM notes", ids)
            assert sorted(zip(*(table.column(c).to_pylist() for c in ("id", "text", "tags")))) == \
                [(i, t, list(g)) for i, t, g in rows]
        assert (3, "note 3", [0]) in expected[0] and not any(r[0] in GONE for r in expected[1])
        assert rows_by_id(con, "SELECT id, text FROM notes", []) == []
        assert arrow_by_id(con, "SELECT id, text FROM notes", []).column_names == ["id", "text"]


def test_lookup_mode_reads_an_id_list_from_the_index_and_scanning_lifts_it(table_file: Path) -> None:
    ids = ",".join(map(str, range(100, 400, 3)))
    with duckdb.connect(str(table_file), read_only=True) as con:
        def plan() -> str:
            return str(con.execute(f"EXPLAIN ANALYZE SELECT text FROM notes WHERE id IN ({ids})").fetchall()[0][1])

        def threads() -> int:
            return int(con.execute("SELECT current_setting('threads')").fetchone()[0])  # type: ignore[index]

        default_threads = threads()
        assert "HASH_JOIN" in plan()  # DuckDB's rewrite of a long IN list: every row of the table joined
        lookup_mode(con)
        assert "Index Scan" in plan() and "HASH_JOIN" not in plan() and threads() == 1
        with scanning(con):
            assert "HASH_JOIN" in plan() and threads() == default_threads
        assert "Index Scan" in plan() and threads() == 1


def _mode(con: duckdb.DuckDBPyConnection) -> tuple[int, str, bool]:
    """threads, disabled optimizers, and whether a long IN list is read from the key's index."""
    row = con.execute("SELECT current_setting('threads'), current_setting('disabled_optimizers')").fetchone()
    assert row is not None
    ids = ",".join(map(str, range(100, 400, 3)))
    plan = str(con.execute(f"EXPLAIN ANALYZE SELECT text FROM notes WHERE id IN ({ids})").fetchall()[0][1])
    return int(row[0]), str(row[1]), "Index Scan" in plan and "HASH_JOIN" not in plan


def test_another_connection_to_the_file_scans_with_the_defaults_even_after_the_first_closes(table_file: Path) -> None:
    with duckdb.connect(str(table_file), read_only=True) as other:
        default = _mode(other)
        assert default[1:] == ("", False)
        with duckdb.connect(str(table_file), read_only=True) as first:
            lookup_mode(first)
        assert _mode(other) == (1, "in_clause", True)  # DuckDB's settings are the database's, not a connection's
        with scanning(other):
            assert _mode(other) == default
        assert _mode(other) == (1, "in_clause", True)  # put back as found


def test_nested_scans_keep_the_defaults_and_a_callers_settings_are_kept(table_file: Path) -> None:
    with duckdb.connect(str(table_file), read_only=True) as con:
        default_threads = _mode(con)[0]
        con.execute("SET disabled_optimizers = 'join_order'")
        lookup_mode(con)
        lookup_mode(con)  # twice is once
        assert _mode(con) == (1, "in_clause,join_order", True)
        with scanning(con):
            with scanning(con):
                assert _mode(con) == (default_threads, "join_order", False)
            assert _mode(con) == (default_threads, "join_order", False)  # the inner block left the outer's scan alone
        assert _mode(con) == (1, "in_clause,join_order", True)
        con.execute("SET threads = 1; SET disabled_optimizers = 'join_order'")
        with scanning(con):  # not in lookup mode: the caller's single thread is not lifted
            assert _mode(con) == (1, "join_order", False)


def test_a_failed_scan_restores_lookup_mode_and_keeps_its_error(table_file: Path) -> None:
    with duckdb.connect(str(table_file), read_only=True) as con:
        lookup_mode(con)
        with pytest.raises(duckdb.CatalogException):
            with scanning(con):
                con.execute("SELECT * FROM no_such_table")
        assert _mode(con) == (1, "in_clause", True)
        with pytest.raises(duckdb.ConnectionException, match="closed"):
            with scanning(con):
                con.close()
                con.execute("SELECT 1")
