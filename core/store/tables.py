"""Any table by its primary key: listing text columns, finding, counting, deleting and
rewriting rows, and dumping them.

Generic on purpose: a table added by a later migration is covered by forget's label
redaction and residue scan, and by export's checks, without anyone remembering to add it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from memhop.core.language.names import fold
from memhop.core.store.bulk import arrow_array, column_type
from memhop.core.store.db import Store, quote

Key = Any  # a primary-key value (int for every memhop table) or a rowid
TEXT_TYPES = ("VARCHAR", "VARCHAR[]")


@dataclass(frozen=True)
class TextColumn:
    table: str
    column: str
    is_list: bool


def rows(store: Store, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> list[tuple[Any, ...]]:
    """Every row a query returns; the store modules' shorthand."""
    return store.con.execute(sql, params if isinstance(params, Mapping) else list(params)).fetchall()


def tables(store: Store) -> list[str]:
    found = rows(
        store,
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() "
        "AND schema_name = 'main' ORDER BY table_name",
    )
    return [r[0] for r in found]


def key_column(store: Store, table: str) -> str:
    """The single-column primary key of a table, else DuckDB's rowid."""
    row = store.con.execute(
        "SELECT constraint_column_names FROM duckdb_constraints() WHERE database_name = current_database() "
        "AND schema_name = 'main' AND table_name = ? AND constraint_type = 'PRIMARY KEY'",
        [table],
    ).fetchone()
    return row[0][0] if row and len(row[0]) == 1 else "rowid"


def text_columns(store: Store) -> list[TextColumn]:
    """Every VARCHAR and VARCHAR[] column of every table where words can hide. The meta
    record is left out: it names the embedder, never a person, and rewriting it would
    make the store unopenable."""
    found = rows(
        store,
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_catalog = current_database() AND table_schema = 'main' AND data_type IN (?, ?) "
        "AND table_name <> 'meta' ORDER BY table_name, ordinal_position",
        list(TEXT_TYPES),
    )
    return [TextColumn(r[0], r[1], r[2].endswith("[]")) for r in found]


def rows_containing(store: Store, col: TextColumn, needles: Sequence[str]) -> list[tuple[Key, Any]]:
    """(key, value) of rows whose column contains a needle, ignoring case and accents
    ("ines" finds Inês): a cheap prefilter; callers confirm whole-word matches in Python."""
    if not needles:
        return []
    expr = f"array_to_string({quote(col.column)}, chr(10))" if col.is_list else quote(col.column)
    where = " OR ".join(f"contains(lower({expr}), ?) OR contains(strip_accents(lower({expr})), ?)" for _ in needles)
    key = key_column(store, col.table)
    sql = f"SELECT {key}, {quote(col.column)} FROM {quote(col.table)} WHERE {where} ORDER BY 1"
    params = [p for n in needles for p in (n.lower(), fold(n).lower())]
    return [(r[0], r[1]) for r in rows(store, sql, params)]


def delete_where(store: Store, table: str, column: str, values: Iterable[Any]) -> int:
    values = sorted(set(values))
    if not values:
        return 0
    sql = f"DELETE FROM {quote(table)} WHERE list_contains(?, {quote(column)}) RETURNING 1"
    return len(rows(store, sql, [values]))


def count_where(store: Store, table: str, column: str, values: Iterable[Any]) -> int:
    return int(
        store.scalar(
            f"SELECT count(*) FROM {quote(table)} WHERE list_contains(?, {quote(column)})", [sorted(set(values))]
        )
    )


def update_rows(store: Store, table: str, changes: Sequence[tuple[Key, Mapping[str, Any]]]) -> None:
    """Set some columns of many rows, one UPDATE per set of columns, through Arrow typed by
    the schema: binding a vector as a Python parameter costs DuckDB a lookup per float."""
    groups: dict[tuple[str, ...], list[tuple[Key, Mapping[str, Any]]]] = {}
    for key, values in changes:
        if values:
            groups.setdefault(tuple(sorted(values)), []).append((key, values))
    key_col = key_column(store, table)
    for columns, members in groups.items():
        data: dict[str, Any] = {"memhop_key": pa.array([k for k, _ in members])}
        for column in columns:
            data[column] = arrow_array([v[column] for _, v in members], column_type(table, column))
        store.con.register("memhop_updates", pa.table(data))
        try:
            sets = ", ".join(f"{quote(c)} = u.{quote(c)}" for c in columns)
            store.con.execute(
                f"UPDATE {quote(table)} SET {sets} FROM memhop_updates u WHERE {quote(table)}.{key_col} = u.memhop_key"
            )
        finally:
            store.con.unregister("memhop_updates")


def dump_table(
    store: Store, table: str, skip: Sequence[str] = ("embedding",)
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Every row of a table (minus derivable columns), in key order."""
    cols = [
        r[0]
        for r in rows(
            store,
            "SELECT column_name FROM information_schema.columns WHERE table_catalog = current_database() "
            "AND table_schema = 'main' AND table_name = ? ORDER BY ordinal_position",
            [table],
        )
        if r[0] not in skip
    ]
    order = ", ".join(quote(c) for c in cols)
    return cols, rows(store, f"SELECT {order} FROM {quote(table)} ORDER BY {order}")


def all_text(store: Store) -> str:
    """Every live text value, lowercased, NUL-separated: what the store still says."""
    parts: list[str] = []
    for col in text_columns(store):
        expr = f"array_to_string({quote(col.column)}, chr(0))" if col.is_list else quote(col.column)
        sql = f"SELECT lower({expr}) FROM {quote(col.table)} WHERE {quote(col.column)} IS NOT NULL"
        parts.extend(r[0] for r in rows(store, sql))
    return "\x00".join(parts)


def table_rows(store: Store, table: str, columns: Sequence[str], order: str) -> list[dict[str, Any]]:
    sql = f"SELECT {', '.join(quote(c) for c in columns)} FROM {quote(table)} ORDER BY {order}"
    return [dict(zip(columns, row, strict=True)) for row in rows(store, sql)]
