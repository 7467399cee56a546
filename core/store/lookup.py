"""Rows by primary key, and the mode in which a large store's read-only connection reads them.

A question on a large store reads ~100 turn texts, a few dozen facts and their sessions'
names by id. DuckDB 1.5 turns an `IN` list of more than four constants into a hash join
that scans the whole id column of the table; with its `in_clause` rewrite off, the same
list is answered from the primary key's index (up to `index_scan_max_count`, 2,048 rows).
Run on one thread, these small statements also skip the worker hand-offs. Measured on the
1M-turn store, the statements of 20 first asks: 12.8-13.9 ms CPU per ask by default,
9.0-10.4 on one thread, 7.8-8.9 on one thread from the index.

Both settings belong to the whole database (every connection to the file in this process),
not to one statement or connection; so lookup mode is set only on a read-only connection
whose snapshot is loaded (nothing left to scan but rows by id; DuckDB opens a file in one
access mode per process, so every connection to it is read-only too), every id list goes
through `rows_by_id` (at most `CHUNK` ids a statement, on the `id` key: past the index's
limit, or off a key, an `IN` list without the rewrite is matched constant by constant,
seconds at 1M rows), and a scan that still has to happen, on any connection, runs
`scanning`, which reads the mode from DuckDB.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import duckdb
import pyarrow as pa

CHUNK = 2_048  # ids per statement: DuckDB's index_scan_max_count (its default)
IN_CLAUSE = "in_clause"  # the optimizer that turns a long IN list into a hash join


def _in_list(ids: Iterable[int]) -> str:
    """The same integers for `IN (...)`; NULL when there are none, so the SQL stays valid.
    Ids are written into the SQL (ints, so safe): binding a Python list costs DuckDB a
    failed `import pandas` per element, and a join or list_contains() scans where IN prunes."""
    return ",".join(str(int(i)) for i in ids) or "NULL"


def rows_by_id(con: duckdb.DuckDBPyConnection, select: str, ids: Iterable[int]) -> list[tuple[Any, ...]]:
    """`select` (a statement with no WHERE, over a table with an `id` key) for each of these
    ids the table holds; the ids it does not hold are simply absent."""
    return [row for chunk in _chunks(ids) for row in con.execute(f"{select} WHERE id IN ({_in_list(chunk)})").fetchall()]


def arrow_by_id(con: duckdb.DuckDBPyConnection, select: str, ids: Iterable[int]) -> pa.Table:
    """`rows_by_id` as one Arrow table (its schema even when no id is found)."""
    chunks = _chunks(ids) or [[]]
    return pa.concat_tables([con.execute(f"{select} WHERE id IN ({_in_list(c)})").arrow().read_all() for c in chunks])


def lookup_mode(con: duckdb.DuckDBPyConnection) -> None:
    """From now on this (read-only, snapshot loaded) connection's database reads rows by id
    on one thread from the primary key's index. Both settings are the database's (GLOBAL in
    DuckDB): every connection to the same file in this process shares them, so the state is
    read from DuckDB, never kept beside it, and `scanning` lifts it for whichever
    connection scans. Optimizers a caller disabled stay disabled."""
    threads, disabled = _settings(con)
    if threads == 1 and IN_CLAUSE in disabled:
        return
    # the optimizer first: it marks the mode, so scanning still sees a half-set one (and this redoes it)
    con.execute(f"SET disabled_optimizers = '{','.join([*disabled, IN_CLAUSE])}'; SET threads = 1")


@contextmanager
def scanning(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """Within it, a database in lookup mode scans as any other does (every thread, the `IN`
    rewrite on): a snapshot loaded whole, every fact ranked by `search`. The settings found
    are put back after, exactly: a nested block, or a database not in lookup mode, is left
    as it is."""
    threads, disabled = _settings(con)
    if IN_CLAUSE not in disabled:
        yield
        return
    rest = [d for d in disabled if d != IN_CLAUSE]
    con.execute(f"RESET threads; SET disabled_optimizers = '{','.join(rest)}'")
    try:
        yield
    finally:
        try:
            con.execute(f"SET threads = {threads}; SET disabled_optimizers = '{','.join(disabled)}'")
        except duckdb.ConnectionException:  # closed in the block: nothing to restore, keep its error
            pass


def _settings(con: duckdb.DuckDBPyConnection) -> tuple[int, list[str]]:
    """The database's `threads` and its disabled optimizers, as DuckDB has them now."""
    row = con.execute("SELECT current_setting('threads'), current_setting('disabled_optimizers')").fetchone()
    assert row is not None  # a SELECT of constants has its one row
    return int(row[0]), [d.strip() for d in str(row[1]).split(",") if d.strip()]


def _chunks(ids: Iterable[int]) -> list[list[int]]:
    wanted = sorted({int(i) for i in ids})
    return [wanted[start:start + CHUNK] for start in range(0, len(wanted), CHUNK)]
