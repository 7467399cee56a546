"""The store's record of what wrote it: the embedder whose vectors it holds, and its identity.

Vectors of two embedders cannot be compared, so a store keeps the ones it was created
with; the record lets `open_store` refuse any other embedder instead of answering with
nonsense.

The identity is a random id the store gets when it is made (or, for a store made before
there was one, at the first writing open: the migration that adds it). Derived files
beside the store (`<store>.vectors/`) are keyed to it as well as to the store's counts, so
files left behind by a deleted store are never read as those of a new store made at the
same path. A copy of the file (a backup) is the same store and keeps the id: files
derived from it at another point of its history are told apart by the counts and the
last logged operation's time (core/store/vectors.py State).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path

import duckdb

from memhop.core.embed import embedder_writing, vector_space
from memhop.core.errors import StoreError

EMBEDDER_KEY = "embedder"
DIM_KEY = "embedding_dim"
IDENTITY_KEY = "store_id"


@dataclass(frozen=True)
class EmbedderRecord:
    """An embedder as a store records it: its model and their vectors' dimension."""

    name: str
    dim: int

    @classmethod
    def of(cls, embedder: str) -> EmbedderRecord:
        """The record an embedder setting (e.g. "minilm") writes; ConfigError if unknown."""
        return cls(*vector_space(embedder))


# Every store made before the meta record holds MiniLM's vectors: it was the only embedder.
LEGACY = EmbedderRecord.of("minilm")


def write(con: duckdb.DuckDBPyConnection, record: EmbedderRecord) -> None:
    """Inside the caller's transaction (the migration that creates the table)."""
    con.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?), (?, ?)",
        [EMBEDDER_KEY, record.name, DIM_KEY, str(record.dim)],
    )


def write_identity(con: duckdb.DuckDBPyConnection) -> None:
    """A fresh random identity, inside the caller's transaction (the migration that adds it)."""
    con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [IDENTITY_KEY, uuid.uuid4().hex])


def identity(con: duckdb.DuckDBPyConnection) -> str:
    """The store's identity; "" for a store opened read-only before a writing open gave it
    one (it is not migrated: derived files are then keyed to its counts alone, as before)."""
    try:
        row = con.execute("SELECT value FROM meta WHERE key = ?", [IDENTITY_KEY]).fetchone()
    except duckdb.CatalogException:  # older still: no meta table (its embedder is meta.LEGACY)
        return ""
    return "" if row is None else str(row[0])


def read(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    return {str(k): str(v) for k, v in con.execute("SELECT key, value FROM meta").fetchall()}


def recorded(path: Path, con: duckdb.DuckDBPyConnection) -> EmbedderRecord:
    """The embedder a store says it was written by."""
    values = read(con)
    try:
        return EmbedderRecord(values[EMBEDDER_KEY], int(values[DIM_KEY]))
    except (KeyError, ValueError):
        raise StoreError(f"{path}: damaged store (its meta record names no embedder)") from None


def setting(path: Path, record: EmbedderRecord) -> str:
    """The embedder setting that reads and writes a store of this record (no embedder configured)."""
    name = embedder_writing(record.name, record.dim)
    if name is None:
        raise StoreError(
            f"{path} was written by embedder {record.name} (dim {record.dim}), which this memhop does not know: "
            "use the memhop that wrote it, or `memhop export` there and `memhop restore` here"
        )
    return name


def mismatch(path: Path, stored: EmbedderRecord, setting: str, wanted: EmbedderRecord, source: str | None) -> str:
    """The one-line refusal. This memhop reads a store of any embedder it knows when none is
    set, so it says which setting to remove (and where it is); a store of an embedder it does
    not know needs the memhop that wrote it."""
    own = embedder_writing(stored.name, stored.dim)
    if own is None:
        return (
            f"{path} was written by embedder {stored.name} (dim {stored.dim}); this memhop uses {setting} "
            f"({wanted.name}, dim {wanted.dim}): use the memhop that wrote it, "
            "or `memhop export` there and `memhop restore` here"
        )
    where = f" in {source}" if source else ""
    return (
        f"{path} was written by embedder {own} ({stored.name}, dim {stored.dim}), not {setting} "
        f"as `embedder` is set{where}: remove that setting to use the store's own"
    )


def given_other(path: Path, stored: EmbedderRecord, setting: str, name: str, given: EmbedderRecord) -> str:
    """The one-line refusal of a library call handed another embedder than its store's."""
    return (
        f"{path} holds vectors of embedder {setting} ({stored.name}, dim {stored.dim}) but was given "
        f"{name} ({given.name}, dim {given.dim}): use get_embedder(store.embedder_setting)"
    )
