"""Routing lists beside the ANN index (core/store/router.py): when the graph is walked and
loses a query's nearest turns, the router still finds them; turns ingested after it was
built are searched too, and past TAIL_MAX it is built again."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from support import purge_world

from memhop.core.config import ReadSettings
from memhop.core.ingest import ingest
from memhop.core.read import read
from memhop.core.store import open_store, recall, router, vectors

pytest.importorskip("usearch")

EMBED = purge_world.EMBEDDER
QUERIES = ["What instrument does Bob play?", "Where does Alice live?", "Who has a greyhound?", "a walk by the river",
           "What happened in March 2024?", "dinner with friends", "a new job", "the dog was ill"]


@pytest.fixture
def walked(purge_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store counted as large whose graph is walked (never scanned), made poor on purpose:
    two links per turn, three candidates kept while adding and walking."""
    db = purge_world.install(purge_template, tmp_path / "walked")
    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 10)
    monkeypatch.setattr(vectors, "SCAN_MAX_TURNS", 0)
    monkeypatch.setattr(vectors, "CONNECTIVITY", 2)
    monkeypatch.setattr(vectors, "EXPANSION_ADD", 2)
    monkeypatch.setattr(vectors, "EXPANSION_SEARCH", 1)
    monkeypatch.setattr(router, "LIST_TURNS", 8)
    monkeypatch.setattr(recall, "_CACHE", {})
    return db


def _exact_top(loaded: vectors.TurnVectors, query: np.ndarray, count: int) -> set[int]:
    scores = loaded.rows(np.arange(len(loaded.ids))) @ query
    return set(np.argsort(-scores, kind="stable")[:count].tolist())


def test_a_walked_graph_that_loses_the_nearest_turns_is_backed_by_the_router(walked: Path) -> None:
    with open_store(walked) as store:
        loaded = vectors.load(store)
    assert loaded is not None and loaded.router is not None and loaded.router.routed == len(loaded.ids)
    assert len(loaded.router.pivots) == len(loaded.ids) // 8
    for text in QUERIES:
        query = EMBED.embed([text])[0]
        assert _exact_top(loaded, query, 3) <= set(loaded.nearest(query, 3).tolist()), text


def test_turns_ingested_after_the_router_are_searched_and_too_many_rebuild_it(
    walked: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_store(walked) as store:
        before = vectors.load(store)
        assert before is not None and before.router is not None
        note = tmp_path / "extra.md"
        note.write_text("# Notes\n\n# 2024-05-01\n\nTook up sailing on the lake with a yellow dinghy.\n", encoding="utf-8")
        ingest(store, [str(note)], EMBED)
        after = vectors.load(store)
        assert after is not None and after.router is not None
        assert after.router.routed == before.router.routed < len(after.ids)  # the new turns are the tail
        query = EMBED.embed(["Who sails a yellow dinghy?"])[0]
        assert _exact_top(after, query, 1) <= set(after.nearest(query, 1).tolist())
        monkeypatch.setattr(router, "TAIL_MAX", 0)
        rebuilt = vectors.load(store)
        assert rebuilt is not None and rebuilt.router is not None and rebuilt.router.routed == len(rebuilt.ids)
    with open_store(walked, read_only=True) as store:
        texts = [e.turn.text for e in read(store, "Who sails a yellow dinghy?", EMBED, ReadSettings()).evidence]
    assert any("dinghy" in t for t in texts)


def test_a_damaged_router_is_left_out_and_built_again(walked: Path) -> None:
    with open_store(walked) as store:
        vectors.load(store)
        (vectors.directory(walked) / router.DIRECTORY / "starts.i64").write_bytes(b"")
        assert router.open_router(vectors.directory(walked), store.counts()["turns"]) is None
        (vectors.directory(walked) / router.DIRECTORY / "state.json").write_text("{}", encoding="utf-8")
        again = vectors.load(store)
    assert again is not None and again.router is not None and again.router.routed == len(again.ids)


def test_list_rows_are_kept_to_within_half_a_step_of_int8() -> None:
    rows = np.random.default_rng(3).normal(size=(50, 384)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    quantised, scales = router._quantised(rows)
    step = np.abs(rows).max(axis=1) / 127
    assert np.all(np.abs(quantised * scales[:, None] - rows) <= step[:, None] / 2 + 1e-7)
    assert np.all(np.abs(quantised).max(axis=1) == 127)
