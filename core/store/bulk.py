"""Rows in and out of the store in bulk, through Arrow, typed by the schema's column spec.

Binding Python values costs DuckDB a lookup per value (a vector is DIM of them); an Arrow
table is read in place. Every bulk insert builds its table here, from
schema.COLUMNS, and names its columns, so no caller keeps its own copy of a table's shape.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyarrow as pa

from memhop.core.embed import DIM
from memhop.core.store.db import Store, quote
from memhop.core.store.schema import COLUMNS

_SCALARS = {
    "INTEGER": pa.int32(),
    "BIGINT": pa.int64(),
    "DOUBLE": pa.float64(),
    "VARCHAR": pa.string(),
    "TIMESTAMP": pa.timestamp("us"),
    "DATE": pa.date32(),
    "FLOAT": pa.float32(),
}
_FIXED = re.compile(r"(\w+)\[(\d+)\]")


def arrow_type(sql_type: str) -> pa.DataType:
    """The Arrow type DuckDB reads into a column of this type without a cast."""
    if sql_type.endswith("[]"):
        return pa.list_(arrow_type(sql_type[:-2]))
    fixed = _FIXED.fullmatch(sql_type)
    if fixed:
        return pa.list_(arrow_type(fixed[1]), int(fixed[2]))
    return _SCALARS[sql_type]


def column_type(table: str, column: str) -> pa.DataType:
    for name, sql_type in COLUMNS[table]:
        if name == column:
            return arrow_type(sql_type)
    raise ValueError(f"{table} has no column {column!r}")


def arrow_array(values: Any, kind: pa.DataType) -> pa.Array | pa.ChunkedArray:
    """One column: an Arrow array as given (cast if needed), a vector matrix, or values."""
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        return values if values.type == kind else values.cast(kind)
    if pa.types.is_fixed_size_list(kind):
        return vectors_to_arrow(np.asarray(values, dtype=np.float32))
    return pa.array(values, type=kind)


def arrow_table(table: str, columns: Mapping[str, Any]) -> pa.Table:
    """An Arrow table of `table`'s rows from its columns' values, in schema order. A column
    left out is left to its default (NULL unless the schema says otherwise)."""
    unknown = set(columns) - {name for name, _ in COLUMNS[table]}
    if unknown:
        raise ValueError(f"{table} has no column {', '.join(sorted(unknown))}")
    return pa.table(
        {
            name: arrow_array(columns[name], arrow_type(sql_type))
            for name, sql_type in COLUMNS[table]
            if name in columns
        }
    )


def bulk_insert(store: Store, table: str, columns: Mapping[str, Any], skip_duplicates: bool = False) -> None:
    """One INSERT of many rows, given as columns. `skip_duplicates`: rows whose key the table
    (or an earlier row of `columns`) already holds are dropped instead of failing."""
    data = arrow_table(table, columns)
    if data.num_rows == 0:
        return
    names = ", ".join(quote(c) for c in data.column_names)
    insert, distinct = ("INSERT OR IGNORE", "DISTINCT ") if skip_duplicates else ("INSERT", "")
    store.con.register("memhop_bulk", data)
    try:
        store.con.execute(f"{insert} INTO {quote(table)} ({names}) SELECT {distinct}{names} FROM memhop_bulk")
    finally:
        store.con.unregister("memhop_bulk")


def vectors_to_arrow(vectors: np.ndarray) -> pa.FixedSizeListArray:
    """An (n, DIM) matrix as a FLOAT[DIM] column, without a Python loop."""
    matrix = np.ascontiguousarray(vectors, dtype=np.float32)
    if matrix.size == 0:
        matrix = matrix.reshape(0, DIM)
    if matrix.ndim != 2 or matrix.shape[1] != DIM:
        raise ValueError(f"expected vectors of dimension {DIM}, got an array of shape {matrix.shape}")
    return pa.FixedSizeListArray.from_arrays(pa.array(matrix.reshape(-1), pa.float32()), DIM)


def arrow_vectors(column: pa.ChunkedArray) -> np.ndarray:
    """A FLOAT[DIM] column as an (n, DIM) float32 matrix without a Python loop."""
    if column.num_chunks == 0 or len(column) == 0:
        return np.zeros((0, DIM), dtype=np.float32)
    combined = column.combine_chunks()
    flat = combined.flatten().to_numpy(zero_copy_only=False)
    return np.asarray(flat, dtype=np.float32).reshape(len(combined), -1)
