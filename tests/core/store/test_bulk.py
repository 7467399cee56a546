"""Bulk inserts typed by the schema's column spec: rows go in by column name and come back
as they were, vectors included."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import numpy as np
import pytest

from memhop.core.embed import DIM
from memhop.core.store import Store, open_store
from memhop.core.store.bulk import arrow_table, arrow_vectors, bulk_insert, vectors_to_arrow
from memhop.core.store.schema import COLUMNS


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(tmp_path / "memhop.duckdb") as opened:
        yield opened


def _unit(n: int, seed: int = 0) -> np.ndarray:
    vectors = np.random.default_rng(seed).normal(size=(n, DIM)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_residual_rows_round_trip_in_the_spec_s_order(store: Store) -> None:
    vectors = _unit(2)
    when = datetime(2024, 3, 2, 9, 30)
    # deliberately not in table order: the spec, not the caller, orders the columns
    given = {
        "created_at": [when, when],
        "text": ["Alice plays the cello.", "Alice moved to Leeds."],
        "embedding": vectors,
        "id": np.array([7, 8]),  # int64: the spec makes it INTEGER
        "entity_id": [3, 3],
        "category": ["identity", "event"],
        "source_turns": [[1, 2], []],
        "date": [None, date(2024, 3, 1)],
        "slot": [None, "home"],
        "superseded_by": [None, None],
    }
    with store.transaction():
        bulk_insert(store, "residuals", given)
    got = store.con.execute(
        "SELECT id, entity_id, text, category, source_turns, date, slot, superseded_by, created_at "
        "FROM residuals ORDER BY id"
    ).fetchall()
    assert got == [
        (7, 3, "Alice plays the cello.", "identity", [1, 2], None, None, None, when),
        (8, 3, "Alice moved to Leeds.", "event", [], date(2024, 3, 1), "home", None, when),
    ]
    table = store.con.execute("SELECT embedding FROM residuals ORDER BY id").arrow().read_all()
    assert np.array_equal(arrow_vectors(table.column("embedding")), vectors)


def test_a_column_left_out_gets_its_default(store: Store) -> None:
    bulk_insert(store, "entities", {"id": [1], "name": ["Pepper"], "kind": ["pet"], "created_at": [datetime.now()]})
    assert store.con.execute("SELECT name, aliases FROM entities").fetchall() == [("Pepper", [])]


def test_every_table_s_arrow_table_follows_the_spec() -> None:
    for table, columns in COLUMNS.items():
        data = arrow_table(table, {name: [] for name, _ in reversed(columns)})
        assert data.column_names == [name for name, _ in columns], table


def test_a_column_the_table_does_not_have_is_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="mentions has no column weight"):
        bulk_insert(store, "mentions", {"entity_id": [1], "turn_id": [2], "weight": [0.5]})
    assert store.scalar("SELECT count(*) FROM mentions") == 0


def test_skip_duplicates_drops_repeats_in_the_data_and_rows_already_there(store: Store) -> None:
    bulk_insert(store, "mentions", {"entity_id": [1], "turn_id": [1]})
    bulk_insert(store, "mentions", {"entity_id": [1, 1, 2], "turn_id": [1, 2, 2]}, skip_duplicates=True)
    bulk_insert(store, "mentions", {"entity_id": [2, 2], "turn_id": [2, 2]}, skip_duplicates=True)
    assert store.con.execute("SELECT * FROM mentions ORDER BY ALL").fetchall() == [(1, 1), (1, 2), (2, 2)]


def test_vectors_of_another_dimension_are_refused() -> None:
    with pytest.raises(ValueError, match=f"dimension {DIM}"):
        vectors_to_arrow(np.zeros((2, DIM * 2), np.float32))
    assert len(vectors_to_arrow(np.zeros((0, DIM), np.float32))) == 0
