"""Rows by primary key, and the mode in which a large store's read-only connection reads them.

A question on a large store reads ~100 turn texts, a few dozen facts and their sessions'
names by id. DuckDB 1.5 turns an `IN` list of more than four constants into a hash join
that scans the whole id column of the table; with its `in_clause` rewrite off, the same
list is answered from the primary key's index (up to `index_scan_max_count`, 2,048 rows).
Run on one thread, these small statements also skip the worker hand-offs. Measured on the
1M-turn store, the statements of 20 first asks: 12.8-13.9 ms CPU per ask by default,
9.0-10.4 on one thread, 7.8-8.9 on one thread from the index.

Both settings belong to the whole database, not to one statement; so lookup mode is set
only on a read-only connection whose snapshot is loaded (nothing left to scan but rows by
id), every id list goes through `rows_by_id` (at most `CHUNK` ids a statement: past the
index's limit an `IN` list without the rewrite is matched constant by constant, seconds
at 1M rows), and a scan that still has to happen runs `scanning`.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import duckdb
import pyarrow as pa

CHUNK = 2_048  # ids per statement: DuckDB's index_scan_max_count (its default)
_LOOKUP: weakref.WeakSet[duckdb.DuckDBPyConnection] = weakref.WeakSet()


def in_list(ids: Iterable[int]) -> str:
    """The same integers for `IN (...)`; NULL when there are none, so the SQL stays valid.
    Ids are written into the SQL (ints, so safe): binding a Python list costs DuckDB a
    failed `import pandas` per element, and a join or list_contains() scans where IN prunes."""
    return ",".join(str(int(i)) for i in ids) or "NULL"


def rows_by_id(con: duckdb.DuckDBPyConnection, select: str, ids: Iterable[int]) -> list[tuple[Any, ...]]:
    """`select` (a statement with no WHERE, over a table with an `id` key) for each of these
    ids the table holds; the ids it does not hold are simply absent."""
    return [row for chunk in _chunks(ids) for row in con.execute(f"{select} WHERE id IN ({in_list(chunk)})").fetchall()]


def arrow_by_id(con: duckdb.DuckDBPyConnection, select: str, ids: Iterable[int]) -> pa.Table:
    """`rows_by_id` as one Arrow table (its schema even when no id is found)."""
    chunks = _chunks(ids) or [[]]
    return pa.concat_tables([con.execute(f"{select} WHERE id IN ({in_list(c)})").arrow().read_all() for c in chunks])


def lookup_mode(con: duckdb.DuckDBPyConnection) -> None:
    """From now on this (read-only, snapshot loaded) connection reads rows by id on one
    thread from the primary key's index."""
    if con in _LOOKUP:
        return
    con.execute("SET threads = 1")
    con.execute("SET disabled_optimizers = 'in_clause'")
    _LOOKUP.add(con)


@contextmanager
def scanning(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """Within it, a connection in lookup mode scans as any other does (every thread, the
    `IN` rewrite on): a snapshot loaded whole, every fact ranked by `search`."""
    if con not in _LOOKUP:
        yield
        return
    con.execute("RESET threads")
    con.execute("RESET disabled_optimizers")
    try:
        yield
    finally:
        con.execute("SET threads = 1")
        con.execute("SET disabled_optimizers = 'in_clause'")


def _chunks(ids: Iterable[int]) -> list[list[int]]:
    wanted = sorted({int(i) for i in ids})
    return [wanted[start:start + CHUNK] for start in range(0, len(wanted), CHUNK)]
