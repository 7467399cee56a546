"""`memhop ingest` hands the new turns to the offline engine while it embeds them, and the
engine parses them ahead (OfflineEngine.read_ahead). The memory written must be the same
as when each session's turns are parsed as the write path reaches them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memhop.core.embed import get_embedder
from memhop.core.engines.offline import engine as offline_engine
from memhop.core.engines.offline.engine import OfflineEngine
from memhop.core.ingest import ingest
from memhop.core.store import Store, open_store
from memhop.core.write import write_pending
from support.paths import SAMPLES

SOURCES = [str(SAMPLES / "maya-diary.md"), str(SAMPLES / "whatsapp-alice.txt"), str(SAMPLES / "notes.jsonl")]


def memory_of(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row the write path wrote, vectors included, by table."""
    queries = {
        "entities": "SELECT id, name, kind, aliases, kind_votes FROM entities ORDER BY id",
        "profiles": "SELECT entity_id, text, embedding, version FROM profiles ORDER BY entity_id",
        "residuals": "SELECT id, entity_id, text, category, embedding, source_turns, date, slot, superseded_by "
                     "FROM residuals ORDER BY id",
        "mentions": "SELECT entity_id, turn_id FROM mentions ORDER BY ALL",
        "written": "SELECT id FROM sessions WHERE written_at IS NOT NULL ORDER BY id",
    }
    return {table: store.con.execute(sql).fetchall() for table, sql in queries.items()}


def written(path: Path, read_ahead: bool) -> dict[str, list[tuple[Any, ...]]]:
    embedder = get_embedder()
    with open_store(path) as store:
        if read_ahead:  # ingest parses every new turn while embedding, then writes
            ingest(store, SOURCES, embedder, engine=OfflineEngine())
        else:  # the raw layer alone, then the write path parses each session as it reaches it
            ingest(store, SOURCES, embedder)
            write_pending(store, OfflineEngine(), embedder)
        return memory_of(store)


@pytest.fixture(scope="module")
def parsed_per_session(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[Any, ...]]]:
    return written(tmp_path_factory.mktemp("per-session") / "m.duckdb", read_ahead=False)


def test_turns_parsed_ahead_in_one_batch_write_the_same_memory(
    tmp_path: Path, parsed_per_session: dict[str, list[tuple[Any, ...]]]
) -> None:
    ahead = written(tmp_path / "m.duckdb", read_ahead=True)
    assert ahead["residuals"] and ahead["mentions"]  # the samples do give the write path something
    assert ahead == parsed_per_session


def test_a_read_ahead_that_holds_only_some_turns_writes_the_same_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parsed_per_session: dict[str, list[tuple[Any, ...]]]
) -> None:
    monkeypatch.setattr(offline_engine, "_AHEAD_DOCS", 7)  # the rest are parsed when their session is written
    assert written(tmp_path / "m.duckdb", read_ahead=True) == parsed_per_session
