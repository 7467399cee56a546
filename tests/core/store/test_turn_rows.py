"""Turn rows for citations on a store made to count as large: `turns_by_id` answers from the
read-only snapshot (core/store/recall.py TurnIndex.stored) exactly as the store's own
statements answer, and an answer cites the same turns as on a store searched exactly."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from support import purge_world

from memhop.core.config import ReadSettings
from memhop.core.engines.offline.answer import reply_offline
from memhop.core.read import ask
from memhop.core.store import open_store, recall, vectors
from memhop.core.store.recall import snapshot
from memhop.core.store.turns import turns_by_id

pytest.importorskip("usearch")


@pytest.fixture
def two(purge_template: Path, tmp_path: Path) -> tuple[Path, Path]:
    return purge_world.install_twice(purge_template, tmp_path, "exact", "approx")


def test_a_large_stores_snapshot_gives_the_rows_the_store_gives(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every turn, unknown ids, repeats and any order: the same rows as the store's
    statements (by id, the only way callers read them), ascending from the snapshot;
    fetched before a read, after it, and again."""
    _, approx = two
    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 10)
    with open_store(approx, read_only=True) as store:
        ids = [int(i) for i, in store.con.execute("SELECT id FROM turns").fetchall()]
        asked = [*reversed(ids), ids[0], ids[3], max(ids) + 7, -1]
        snap = snapshot(store)
        assert snap.turns.approximate and recall.trusted(store) is snap
        from_snapshot = [turns_by_id(store, asked[:5]), turns_by_id(store, asked)]
        read_ask(store, purge_world.QUESTIONS[0])
        from_snapshot.append(turns_by_id(store, asked))
        recall._TRUSTED.pop(store.con)  # the store's own statements
        from_store = turns_by_id(store, asked)
        recall._TRUSTED[store.con] = snap
    assert len(from_store) == len(ids)
    assert list(from_snapshot[0]) == sorted(set(asked[:5]))
    for got in from_snapshot[1:]:
        assert sorted(got.items()) == sorted(from_store.items())  # callers read by id; SQL gives no order


def read_ask(store: object, question: str) -> list[object]:
    answer = ask(store, question, purge_world.EMBEDDER, replace(ReadSettings(), evidence=25), reply_offline)  # type: ignore[arg-type]
    return [answer.text, [e.turn for e in answer.context.evidence], answer.support.to_list()]


def test_an_answer_cites_the_same_turns_as_on_a_store_searched_exactly(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    exact, approx = two
    with open_store(exact, read_only=True) as store:
        expected = [read_ask(store, q) for q in purge_world.QUESTIONS]
    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 10)
    with open_store(approx, read_only=True) as store:
        got = [read_ask(store, q) for q in purge_world.QUESTIONS]
        assert recall.cites_from_snapshot(store) is snapshot(store)  # citations were read from the snapshot
        assert snapshot(store).turns.fetched.paths  # which looked each source's path up itself
    assert got == expected
    assert all(items for _, _, items in got)  # every question cited something


def test_a_large_store_names_exactly_the_rows_it_scored(two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The rows `scored_cosines` gives are every finite row of its cosines, ascending, and
    inside the window: the evidence ranks those instead of finding them again in every row."""
    import numpy as np

    _, approx = two
    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 10)
    query = purge_world.EMBEDDER.embed([purge_world.QUESTIONS[0]])[0]
    with open_store(approx, read_only=True) as store:
        turns = snapshot(store).turns
        allowed = np.zeros(len(turns.ids), dtype=bool)
        allowed[::3] = True
        for window in (None, allowed):
            cosines, rows = turns.scored_cosines(query, 5, (), window)
            assert rows is not None and len(rows) and np.array_equal(rows, np.flatnonzero(np.isfinite(cosines)))
            assert window is None or window[rows].all()  # inside the window: the evidence filters them no more
