"""Routing lists beside the ANN index (core/store/router.py): when the graph is walked and
loses a query's nearest turns, the router still finds them; turns ingested after it was
built are filed in its added lists and found there, past GROWTH_MAX it is built again, and
a forget leaves none of them behind."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from support import purge_world

from memhop.core.config import ReadSettings
from memhop.core.forget import forget
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


def _ingest_note(store: object, folder: Path, name: str, text: str) -> None:
    note = folder / f"{name}.md"
    note.write_text(f"# Notes\n\n# 2024-05-01\n\n{text}\n", encoding="utf-8")
    ingest(store, [str(note)], EMBED)  # type: ignore[arg-type]


def _filed(loaded: vectors.TurnVectors) -> list[int]:
    """Every position the router files, in its built and its added lists."""
    assert loaded.router is not None
    lists = [loaded.router.built] + ([loaded.router.added] if loaded.router.added is not None else [])
    return sorted(int(p) for part in lists for p in np.asarray(part.order))


def test_turns_ingested_after_the_router_are_filed_in_its_added_lists_and_found(walked: Path, tmp_path: Path) -> None:
    with open_store(walked) as store:
        before = vectors.load(store)
        assert before is not None and before.router is not None and before.router.added is None
        _ingest_note(store, tmp_path, "sailing", "Took up sailing on the lake with a yellow dinghy.")
        _ingest_note(store, tmp_path, "pottery", "Signed up for a pottery class on Thursday evenings.")
        after = vectors.load(store, build=False)  # ingest filed them: nothing left to do at ask time
        assert after is not None and after.router is not None and after.router.added is not None
        assert after.router.routed == before.router.routed < after.router.covered == len(after.ids)
        assert _filed(after) == list(range(len(after.ids)))  # every row in one list, once
        for text in ["Who sails a yellow dinghy?", "Who takes a pottery class?", *QUERIES]:
            query = EMBED.embed([text])[0]
            listed = after.router.nearest(query, 3, np.zeros((0, 384), np.float32))
            assert _exact_top(after, query, 1) <= set(listed.tolist()), text
    with open_store(walked, read_only=True) as store:
        for question, word in [("Who sails a yellow dinghy?", "dinghy"), ("Who takes a pottery class?", "pottery")]:
            assert any(word in e.turn.text for e in read(store, question, EMBED, ReadSettings()).evidence)


def test_a_store_grown_past_growth_max_since_the_build_rebuilds_the_router(
    walked: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_store(walked) as store:
        vectors.load(store)
        monkeypatch.setattr(router, "GROWTH_MAX", 0)
        _ingest_note(store, tmp_path, "sailing", "Took up sailing on the lake with a yellow dinghy.")
        rebuilt = vectors.load(store, build=False)
    assert rebuilt is not None and rebuilt.router is not None
    assert rebuilt.router.routed == len(rebuilt.ids) and rebuilt.router.added is None
    assert not (vectors.directory(walked) / router.DIRECTORY / router.ADDED).exists()


@pytest.mark.parametrize("damage", ["cut", "missing"])
def test_added_lists_being_swapped_are_left_out_and_their_turns_scored_exactly_then_filed_again(
    walked: Path, tmp_path: Path, damage: str
) -> None:
    import shutil

    with open_store(walked) as store:
        vectors.load(store)
        _ingest_note(store, tmp_path, "sailing", "Took up sailing on the lake with a yellow dinghy.")
        added = vectors.directory(walked) / router.DIRECTORY / router.ADDED
        if damage == "cut":
            (added / "order.i64").write_bytes(b"")  # as if read half-way through a swap
        else:
            shutil.rmtree(added)  # as if read between a swap's two renames
        loaded = vectors.load(store, build=False)
        assert loaded is not None and loaded.router is not None and loaded.router.added is None
        assert loaded.router.covered == loaded.router.routed < len(loaded.ids)  # the new turns: the exact tail
        query = EMBED.embed(["Who sails a yellow dinghy?"])[0]
        assert _exact_top(loaded, query, 1) <= set(loaded.nearest(query, 1).tolist())
        loaded.close()
    with open_store(walked, read_only=True) as store:
        repaired = vectors.load(store)  # an ask files them again, though the states say every row is filed
        assert repaired is not None and repaired.router is not None and repaired.router.added is not None
        assert repaired.router.covered == len(repaired.ids) and _filed(repaired) == list(range(len(repaired.ids)))
        repaired.close()




def test_two_asks_extending_the_added_lists_at_once_file_every_row_under_its_own_vector(
    walked: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two read-only asks may both extend lagging lists; the second swaps its `added/` in
    while the first is between opening the lists and reading their rows."""
    target = vectors.directory(walked)
    with open_store(walked) as store:
        vectors.load(store)
        _ingest_note(store, tmp_path, "sailing", "Took up sailing on the lake with a yellow dinghy.")
        with monkeypatch.context() as m:
            m.setattr(router, "update", lambda target, turns, repair=False: None)  # routing left to the asks
            _ingest_note(store, tmp_path, "pottery", "Signed up for a pottery class on Thursday evenings. Bought a kiln.")
            _ingest_note(store, tmp_path, "opera", "Went to the opera with Dan and his sister.")
        turns = store.counts()["turns"]
    opened_first = router.open_router

    def racing(target: Path, turns: int) -> router.Router | None:
        got = opened_first(target, turns)
        monkeypatch.setattr(router, "open_router", opened_first)
        router.extend(target, turns)  # the other ask finishes first and swaps in its added/
        return got

    monkeypatch.setattr(router, "open_router", racing)
    router.extend(target, turns)
    opened = router.open_router(target, turns)
    assert opened is not None and opened.added is not None and opened.covered == turns
    rows = np.fromfile(opened.added.rows, dtype=np.int8).reshape(-1, 384)
    with open(target / "vectors.f16", "rb") as f:
        want = router._quantised(vectors.read_rows(f, np.asarray(opened.added.order)))[0]
    opened.close()
    assert len(rows) == turns - opened.routed and (rows == want).all()


def test_added_lists_filing_rows_past_the_vectors_are_left_out(walked: Path, tmp_path: Path) -> None:
    target = vectors.directory(walked)
    with open_store(walked) as store:
        vectors.load(store)
        _ingest_note(store, tmp_path, "sailing", "Took up sailing on the lake with a yellow dinghy.")
        turns = store.counts()["turns"]
    whole = router.open_router(target, turns)
    assert whole is not None and whole.added is not None
    whole.close()
    fewer = router.open_router(target, turns - 1)  # the added lists file row turns-1, which these vectors lack
    assert fewer is not None and fewer.added is None and fewer.covered <= turns - 1
    fewer.close()


def test_a_forget_leaves_no_embedding_of_an_added_turn_in_any_file(walked: Path, tmp_path: Path) -> None:
    with open_store(walked) as store:
        vectors.load(store)
        _ingest_note(store, tmp_path, "sailing", "Took up sailing on the lake with a yellow dinghy, named Pike.")
        loaded = vectors.load(store, build=False)
        assert loaded is not None and loaded.router is not None and loaded.router.added is not None
        vector = np.asarray(store.con.execute("SELECT embedding FROM turns WHERE text ILIKE '%dinghy%'").fetchone()[0],  # type: ignore[index]
                            dtype=np.float32)
        quantised = router._quantised(vector.astype(np.float16).astype(np.float32)[None, :])[0].tobytes()  # from the f16 row
        files = [p for p in vectors.directory(walked).rglob("*") if p.is_file()]
        assert any(quantised in p.read_bytes() for p in files)  # the added lists hold it, as int8
        loaded.close()
        read(store, "Who sails a yellow dinghy?", EMBED, ReadSettings())
        held = recall.snapshot(store)  # a caller holding a snapshot across the forget
        held_router = held.turns.vectors.router if held.turns.vectors is not None else None
        assert held_router is not None and held_router.added is not None
        report = forget(store, EMBED, source=str(tmp_path / "sailing.md"), drop_turns=True)
        assert held_router.built.rows.closed and held_router.added.rows.closed  # closed with the deleted files
    assert report.residue is not None and report.residue["derived_files"] == []
    assert vectors.leftovers(walked) == []
    with open_store(walked) as store:
        again = vectors.load(store)
        assert again is not None and again.router is not None
        assert store.con.execute("SELECT count(*) FROM turns WHERE text ILIKE '%dinghy%'").fetchone() == (0,)
    data = b"".join(p.read_bytes() for p in vectors.directory(walked).rglob("*") if p.is_file())
    assert quantised not in data and vector.astype(np.float16).tobytes() not in data


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
