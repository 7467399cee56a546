"""The SQL behind forget, edit and export: generic row edits keyed by each table's primary
key, and the few specific queries those operations need.

Generic on purpose: a table added by a later migration is covered by forget's label
redaction and its residue scan without anyone remembering to add it there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
import pyarrow as pa

from memhop.core.store.db import Store
from memhop.core.store.raw import vectors_to_arrow

Key = Any  # a primary-key value (int for every memhop table) or a rowid
TEXT_TYPES = ("VARCHAR", "VARCHAR[]")


@dataclass(frozen=True)
class TextColumn:
    table: str
    column: str
    is_list: bool


def _q(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


def tables(store: Store) -> list[str]:
    rows = store.con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() "
        "AND schema_name = 'main' ORDER BY table_name"
    ).fetchall()
    return [r[0] for r in rows]


def key_column(store: Store, table: str) -> str:
    """The single-column primary key of a table, else DuckDB's rowid."""
    row = store.con.execute(
        "SELECT constraint_column_names FROM duckdb_constraints() WHERE database_name = current_database() "
        "AND schema_name = 'main' AND table_name = ? AND constraint_type = 'PRIMARY KEY'",
        [table],
    ).fetchone()
    return row[0][0] if row and len(row[0]) == 1 else "rowid"


def text_columns(store: Store) -> list[TextColumn]:
    """Every VARCHAR and VARCHAR[] column of every table: where words can hide."""
    rows = store.con.execute(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_catalog = current_database() AND table_schema = 'main' AND data_type IN (?, ?) "
        "ORDER BY table_name, ordinal_position",
        list(TEXT_TYPES),
    ).fetchall()
    return [TextColumn(r[0], r[1], r[2].endswith("[]")) for r in rows]


def rows_containing(store: Store, col: TextColumn, needles: Sequence[str]) -> list[tuple[Key, Any]]:
    """(key, value) of rows whose column contains a needle, case-insensitively: a cheap
    prefilter; callers confirm whole-word matches in Python."""
    if not needles:
        return []
    expr = f"array_to_string({_q(col.column)}, chr(10))" if col.is_list else _q(col.column)
    where = " OR ".join(f"contains(lower({expr}), ?)" for _ in needles)
    key = key_column(store, col.table)
    sql = f"SELECT {key}, {_q(col.column)} FROM {_q(col.table)} WHERE {where} ORDER BY 1"
    return [(r[0], r[1]) for r in store.con.execute(sql, [n.lower() for n in needles]).fetchall()]


def _rows(store: Store, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> list[tuple[Any, ...]]:
    return store.con.execute(sql, params if isinstance(params, Mapping) else list(params)).fetchall()


def delete_where(store: Store, table: str, column: str, values: Iterable[Any]) -> int:
    values = sorted(set(values))
    if not values:
        return 0
    rows = store.con.execute(
        f"DELETE FROM {_q(table)} WHERE list_contains(?, {_q(column)}) RETURNING 1", [values]
    ).fetchall()
    return len(rows)


def count_where(store: Store, table: str, column: str, values: Iterable[Any]) -> int:
    return int(
        store.scalar(f"SELECT count(*) FROM {_q(table)} WHERE list_contains(?, {_q(column)})", [sorted(set(values))])
    )


def update_rows(store: Store, table: str, rows: Sequence[tuple[Key, Mapping[str, Any]]]) -> None:
    """Set some columns of many rows, one UPDATE per set of columns, through Arrow: binding
    a vector as a Python parameter costs DuckDB a module lookup per float."""
    groups: dict[tuple[str, ...], list[tuple[Key, Mapping[str, Any]]]] = {}
    for key, values in rows:
        if values:
            groups.setdefault(tuple(sorted(values)), []).append((key, values))
    key_col = key_column(store, table)
    for columns, members in groups.items():
        data: dict[str, Any] = {"memhop_key": pa.array([k for k, _ in members])}
        for column in columns:
            cells = [v[column] for _, v in members]
            is_vector = isinstance(cells[0], np.ndarray)
            data[column] = vectors_to_arrow(np.stack(cells)) if is_vector else pa.array(cells)
        store.con.register("memhop_updates", pa.table(data))
        try:
            sets = ", ".join(f"{_q(c)} = u.{_q(c)}" for c in columns)
            store.con.execute(
                f"UPDATE {_q(table)} SET {sets} FROM memhop_updates u WHERE {_q(table)}.{key_col} = u.memhop_key"
            )
        finally:
            store.con.unregister("memhop_updates")


def bump_profiles(store: Store, entity_ids: Iterable[int]) -> None:
    """A rewritten profile is a new version of it."""
    ids = sorted(set(entity_ids))
    if ids:
        store.con.execute(
            "UPDATE profiles SET version = version + 1, updated_at = ? WHERE list_contains(?, entity_id)",
            [datetime.now(), ids],
        )


def entity_summaries(store: Store) -> list[tuple[Any, ...]]:
    """id, name, kind, aliases, current facts, all facts, mentions, has profile."""
    return _rows(
        store,
        "SELECT e.id, e.name, e.kind, e.aliases, "
        "(SELECT count(*) FROM residuals r WHERE r.entity_id = e.id AND r.superseded_by IS NULL), "
        "(SELECT count(*) FROM residuals r WHERE r.entity_id = e.id), "
        "(SELECT count(*) FROM mentions m WHERE m.entity_id = e.id), "
        "EXISTS (SELECT 1 FROM profiles p WHERE p.entity_id = e.id) "
        "FROM entities e ORDER BY e.kind = 'self' DESC, lower(e.name)",
    )


def dump_table(
    store: Store, table: str, skip: Sequence[str] = ("embedding",)
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Every row of a table (minus derivable columns), in key order."""
    cols = [
        r[0]
        for r in _rows(
            store,
            "SELECT column_name FROM information_schema.columns WHERE table_catalog = current_database() "
            "AND table_schema = 'main' AND table_name = ? ORDER BY ordinal_position",
            [table],
        )
        if r[0] not in skip
    ]
    order = ", ".join(_q(c) for c in cols)
    return cols, _rows(store, f"SELECT {order} FROM {_q(table)} ORDER BY {order}")


def all_text(store: Store) -> str:
    """Every live text value, lowercased, NUL-separated: what the store still says."""
    parts: list[str] = []
    for col in text_columns(store):
        expr = f"array_to_string({_q(col.column)}, chr(0))" if col.is_list else _q(col.column)
        rows = store.con.execute(f"SELECT lower({expr}) FROM {_q(col.table)} WHERE {_q(col.column)} IS NOT NULL")
        parts.extend(r[0] for r in rows.fetchall())
    return "\x00".join(parts)


def table_rows(store: Store, table: str, columns: Sequence[str], order: str) -> list[dict[str, Any]]:
    sql = f"SELECT {', '.join(_q(c) for c in columns)} FROM {_q(table)} ORDER BY {order}"
    return [dict(zip(columns, row, strict=True)) for row in _rows(store, sql)]


def insert_arrow(store: Store, table: str, data: pa.Table) -> None:
    store.con.register("memhop_load", data)
    try:
        names = ", ".join(_q(c) for c in data.column_names)
        store.con.execute(f"INSERT INTO {_q(table)} ({names}) SELECT {names} FROM memhop_load")
    finally:
        store.con.unregister("memhop_load")


# --- the specific questions forget and edit ask -------------------------------------------


def session_turns_around(store: Store, turn_ids: Sequence[int]) -> list[tuple[int, int, str, str]]:
    """(id, session, speaker, text) of every turn in the sessions holding these turns, in order."""
    return [
        (r[0], r[1], r[2], r[3])
        for r in _rows(
            store,
            "SELECT id, session_id, speaker, text FROM turns WHERE session_id IN "
            "(SELECT DISTINCT session_id FROM turns WHERE list_contains(?, id)) ORDER BY session_id, position",
            [sorted(turn_ids)],
        )
    ]


def residuals_citing(store: Store, turn_ids: Sequence[int]) -> list[tuple[int, int, str, list[int]]]:
    """(id, entity, text, source turns) of residuals drawn from any of these turns."""
    sql = "SELECT id, entity_id, text, source_turns FROM residuals WHERE list_has_any(source_turns, ?) ORDER BY id"
    return [(r[0], r[1], r[2], list(r[3])) for r in _rows(store, sql, [sorted(turn_ids)])]


def fact_owner(store: Store, fact_id: int) -> tuple[int, str, str] | None:
    """(entity id, entity name, fact text) of a residual."""
    row = _rows(
        store,
        "SELECT r.entity_id, e.name, r.text FROM residuals r JOIN entities e ON e.id = r.entity_id WHERE r.id = ?",
        [fact_id],
    )
    return (row[0][0], row[0][1], row[0][2]) if row else None


def sources(store: Store) -> list[tuple[int, str, str]]:
    return [(r[0], r[1], r[2]) for r in _rows(store, "SELECT id, path, sha256 FROM sources ORDER BY id")]


def source_contents(store: Store, source_id: int) -> tuple[list[int], list[tuple[int, str]]]:
    """The session ids of a source and its turns as (id, text)."""
    sessions = [r[0] for r in _rows(store, "SELECT id FROM sessions WHERE source_id = ? ORDER BY id", [source_id])]
    turns = _rows(store, "SELECT id, text FROM turns WHERE list_contains(?, session_id) ORDER BY id", [sessions])
    return sessions, [(r[0], r[1]) for r in turns]


def entities_touched(
    store: Store, turn_ids: Sequence[int], fact_ids: Sequence[int]
) -> list[tuple[int, int, int, str | None]]:
    """Entities mentioned in these turns or owning these facts, with how many mentions and
    facts they keep once those are gone, and their profile."""
    return [
        (r[0], int(r[1]), int(r[2]), r[3])
        for r in _rows(
            store,
            "SELECT e.id, "
            "(SELECT count(*) FROM mentions m WHERE m.entity_id = e.id AND NOT list_contains($turns, m.turn_id)), "
            "(SELECT count(*) FROM residuals r WHERE r.entity_id = e.id AND NOT list_contains($facts, r.id)), "
            "(SELECT text FROM profiles p WHERE p.entity_id = e.id) FROM entities e WHERE e.id IN "
            "(SELECT entity_id FROM mentions WHERE list_contains($turns, turn_id) "
            " UNION SELECT entity_id FROM residuals WHERE list_contains($facts, id)) ORDER BY e.id",
            {"turns": sorted(turn_ids), "facts": sorted(fact_ids)},
        )
    ]


def source_leftovers(store: Store, source_id: int, turn_ids: Sequence[int]) -> dict[str, int]:
    """What still points at a forgotten source: every count must be 0."""
    turns = sorted(turn_ids)
    checks = {
        "sources (the source)": ("SELECT count(*) FROM sources WHERE id = ?", source_id),
        "sessions (its sessions)": ("SELECT count(*) FROM sessions WHERE source_id = ?", source_id),
        "turns (its turns)": ("SELECT count(*) FROM turns WHERE list_contains(?, id)", turns),
        "mentions (of its turns)": ("SELECT count(*) FROM mentions WHERE list_contains(?, turn_id)", turns),
        "residuals (citing its turns)": ("SELECT count(*) FROM residuals WHERE list_has_any(source_turns, ?)", turns),
    }
    return {label: int(store.scalar(sql, [param])) for label, (sql, param) in checks.items()}


def mentioned_turns(store: Store, entity_id: int) -> list[int]:
    return [r[0] for r in _rows(store, "SELECT turn_id FROM mentions WHERE entity_id = ? ORDER BY 1", [entity_id])]


def move_residuals(store: Store, from_entity: int, to_entity: int) -> None:
    store.con.execute("UPDATE residuals SET entity_id = ? WHERE entity_id = ?", [to_entity, from_entity])
