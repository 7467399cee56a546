"""Derived fact vectors (core/store/fact_vectors.py) on a store made to count as large: the
read path scores facts from them as it does from the store, they are rebuilt when missing
or stale, and a forget leaves no vector of a forgotten fact behind."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from support import purge_world

from memhop.core.config import ReadSettings
from memhop.core.edit import add_fact, edit_fact
from memhop.core.forget import forget
from memhop.core.read import read
from memhop.core.store import fact_vectors, open_store, recall, vectors
from memhop.core.store.recall import LazyResiduals, snapshot

pytest.importorskip("usearch")

EMBED = purge_world.EMBEDDER
QUESTIONS = purge_world.QUESTIONS


@pytest.fixture
def two(purge_template: Path, tmp_path: Path) -> tuple[Path, Path]:
    """The same store twice: one read as a small store, one (the second) as a large one."""
    return purge_world.install_twice(purge_template, tmp_path, "small", "large")


def _facts(db: Path, large: bool, monkeypatch: pytest.MonkeyPatch) -> dict[str, list[tuple[str, ...]]]:
    """Each question's chosen facts per selected entity, and the facts' scores in the trace."""
    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 10 if large else 10**9)
    out = {}
    with open_store(db, read_only=True) as store:
        for q in QUESTIONS:
            context = read(store, q, EMBED, replace(ReadSettings(), evidence=25))
            out[q] = [s.facts for s in context.selected] + [
                tuple(f"{f.fact_id}:{f.score:.2f}" for f in e.chosen) for e in context.trace.facts
            ]
    return out


def _mapped(db: Path) -> LazyResiduals:
    with open_store(db, read_only=True) as store:
        residuals = snapshot(store).residuals
    assert isinstance(residuals, LazyResiduals)
    return residuals


def test_a_large_store_scores_its_facts_from_the_derived_file_as_from_the_store(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    small, large = two
    expected = _facts(small, False, monkeypatch)
    assert _facts(large, True, monkeypatch) == expected
    assert _mapped(large).vectors is not None  # the vectors came from the file, not the store
    assert fact_vectors.directory(large).is_dir() and not vectors.directory(small).exists()
    data = b"".join(p.read_bytes() for p in fact_vectors.directory(large).iterdir())
    assert b"Bob" not in data and b"greyhound" not in data  # vectors and ids only, never text


@pytest.mark.parametrize("damage", ["missing", "stale"])
def test_a_missing_or_stale_file_is_rebuilt_and_answers_stay_the_same(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    _, large = two
    first = _facts(large, True, monkeypatch)
    target = fact_vectors.directory(large)
    if damage == "missing":
        shutil.rmtree(target)
    else:  # written for another state of the store: its facts and its last operation
        state = json.loads((target / "state.json").read_text(encoding="utf-8"))
        (target / "state.json").write_text(json.dumps({**state, "oplog": state["oplog"] - 1}), encoding="utf-8")
    monkeypatch.setattr(recall, "_CACHE", {})  # as in a fresh process: no snapshot of the store kept
    assert _facts(large, True, monkeypatch) == first
    with open_store(large, read_only=True) as store:
        assert fact_vectors.load(store, build=False) is not None  # rebuilt, current again


def _file_bytes(target: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(target.iterdir())}


def test_a_fact_added_to_a_large_store_is_in_the_file_when_the_command_ends(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, large = two
    _facts(large, True, monkeypatch)
    with open_store(large) as store:
        add_fact(store, "Bob Kowalski", "Bob restores old sailing boats on weekends.", EMBED)
        (new_id,) = store.con.execute("SELECT max(id) FROM residuals").fetchone()  # type: ignore[misc]
        current = fact_vectors.load(store, build=False)  # current already: no ask has to rebuild it
        assert current is not None and new_id in current.ids.tolist()
        assert current.state == fact_vectors.State.of(store.con)
        current.close()
    added = _file_bytes(fact_vectors.directory(large))  # the new row appended in place
    with open_store(large, read_only=True) as store:
        context = read(store, "What does Bob restore on weekends?", EMBED, ReadSettings())
    assert any("sailing boats" in fact for s in context.selected for fact in s.facts)
    shutil.rmtree(fact_vectors.directory(large))
    with open_store(large, read_only=True) as store:
        rebuilt = fact_vectors.load(store)
        assert rebuilt is not None
        rebuilt.close()
    assert _file_bytes(fact_vectors.directory(large)) == added  # the same files a whole build writes


def test_a_fact_added_beside_a_cut_short_file_builds_it_whole_instead_of_appending(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, large = two
    _facts(large, True, monkeypatch)
    rows = fact_vectors.directory(large) / "vectors.f16"
    rows.write_bytes(rows.read_bytes()[: -384 * 2])  # one row short: appended rows would be misplaced
    with open_store(large) as store:
        add_fact(store, "Bob Kowalski", "Bob restores old sailing boats on weekends.", EMBED)
        current = fact_vectors.load(store, build=False)
        stored = store.con.execute("SELECT embedding FROM residuals WHERE superseded_by IS NULL ORDER BY id").fetchall()
        assert current is not None and len(current.ids) == len(stored)
        assert np.allclose(current.rows(np.arange(len(stored))), [r[0] for r in stored], atol=2e-3)
        current.close()


def test_a_profile_edit_leaves_the_fact_file_current(two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from memhop.core.edit import edit_profile

    _, large = two
    _facts(large, True, monkeypatch)
    before = _file_bytes(fact_vectors.directory(large))
    with open_store(large) as store:
        edit_profile(store, "Bob Kowalski", EMBED, text="Bob Kowalski plays the cello.")
        assert fact_vectors.load(store, build=False) is not None  # no fact changed: not stale
    assert _file_bytes(fact_vectors.directory(large)) == before


def test_a_crash_between_the_commit_and_the_refresh_leaves_the_file_stale_then_rebuilt(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, large = two
    _facts(large, True, monkeypatch)
    with open_store(large) as store:
        (fact_id,) = store.con.execute(
            "SELECT min(r.id) FROM residuals r JOIN entities e ON e.id = r.entity_id "
            "WHERE e.name = 'Bob Kowalski' AND r.superseded_by IS NULL"
        ).fetchone()  # type: ignore[misc]

        def killed(store: object) -> None:
            raise KeyboardInterrupt  # the process dies right after the edit's commit

        with monkeypatch.context() as m:
            m.setattr(fact_vectors, "keep_current", killed)
            with pytest.raises(KeyboardInterrupt):
                edit_fact(store, int(fact_id), "Bob restores old sailing boats on weekends.", EMBED)
        assert fact_vectors.load(store, build=False) is None  # stale, never read as current
    with open_store(large, read_only=True) as store:
        context = read(store, "What does Bob restore on weekends?", EMBED, ReadSettings())
        rebuilt = fact_vectors.load(store, build=False)
        assert rebuilt is not None and rebuilt.state == fact_vectors.State.of(store.con)
        rebuilt.close()
    assert any("sailing boats" in fact for s in context.selected for fact in s.facts)


def test_forget_removes_the_forgotten_facts_vector_from_the_derived_file(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, large = two
    _facts(large, True, monkeypatch)
    with open_store(large, read_only=True) as store:
        fact_id, text = store.con.execute(
            "SELECT id, text FROM residuals WHERE text ILIKE '%greyhound%' ORDER BY id LIMIT 1"
        ).fetchone()  # type: ignore[misc]
        vector = fact_vectors.load(store, build=False)
        assert vector is not None
        row = vector.rows(np.searchsorted(vector.ids, [fact_id])).astype(np.float16).tobytes()
    assert row in (fact_vectors.directory(large) / "vectors.f16").read_bytes()  # it was there
    with open_store(large) as store:
        report = forget(store, EMBED, fact=int(fact_id))
    assert report.residue is not None and report.residue["derived_files"] == []
    assert not fact_vectors.directory(large).exists()
    _facts(large, True, monkeypatch)  # the next ask builds the files again, without it
    kept = fact_vectors.directory(large) / "vectors.f16"
    assert kept.is_file() and row not in kept.read_bytes()
    with open_store(large, read_only=True) as store:
        again = fact_vectors.load(store, build=False)
    assert again is not None and int(fact_id) not in again.ids.tolist()
    assert text not in str(_facts(large, True, monkeypatch))


def test_ingest_into_a_large_store_leaves_its_fact_vectors_current(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from memhop.core.ingest import ingest

    _, large = two
    _facts(large, True, monkeypatch)
    note = tmp_path / "extra.md"
    note.write_text("# Notes\n\n# 2024-05-01\n\nTook up sailing on the lake with a yellow dinghy.\n", encoding="utf-8")
    with open_store(large) as store:
        limit = store.con.execute("SELECT current_setting('memory_limit')").fetchone()
        ingest(store, [str(note)], EMBED)
        current = fact_vectors.load(store, build=False)  # built by ingest, not left to the next ask
        assert current is not None and current.state == fact_vectors.State.of(store.con)
        # the build read with a small DuckDB cache, and left the store's as it was
        assert store.con.execute("SELECT current_setting('memory_limit')").fetchone() == limit


def _answers_after(large: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, list[tuple[str, ...]]]:
    monkeypatch.setattr(recall, "_CACHE", {})  # as in a fresh process: no snapshot of the store kept
    return _facts(large, True, monkeypatch)


def test_duckdb_refusing_the_build_reads_the_facts_from_the_store(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _, large = two
    first = _facts(large, True, monkeypatch)
    shutil.rmtree(fact_vectors.directory(large))  # the turn vectors stay current: only the facts' are built
    monkeypatch.setattr(vectors, "BUILD_BUFFERS", "a lot")  # DuckDB refuses the build's memory limit
    assert _answers_after(large, monkeypatch) == first
    assert _mapped(large).vectors is None  # read from the store, not from a file
    assert not fact_vectors.directory(large).exists()
    assert "reading facts from the store" in caplog.text  # said, not silently slower


@pytest.mark.parametrize("content", ["[]", "{}", '{"format": 1}', '{"format": 1, "facts": "many"}', "null"])
def test_a_state_file_of_the_wrong_shape_is_stale_and_rebuilt(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, content: str
) -> None:
    _, large = two
    first = _facts(large, True, monkeypatch)
    for target in (fact_vectors.directory(large), vectors.directory(large)):
        (target / "state.json").write_text(content, encoding="utf-8")
    assert _answers_after(large, monkeypatch) == first
    with open_store(large, read_only=True) as store:
        assert fact_vectors.load(store, build=False) is not None  # rebuilt, current again
        assert vectors.load(store, build=False) is not None


@pytest.mark.parametrize("row", [-1, 10**6])
def test_an_owner_index_past_the_vectors_is_stale_and_rebuilt(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, row: int
) -> None:
    _, large = two
    first = _facts(large, True, monkeypatch)
    path = fact_vectors.directory(large) / "by_owner.i64"
    by_owner = np.fromfile(path, dtype=np.int64)
    by_owner[len(by_owner) // 2] = row
    by_owner.tofile(path)
    assert _answers_after(large, monkeypatch) == first
    rebuilt = np.fromfile(path, dtype=np.int64)
    assert sorted(rebuilt.tolist()) == list(range(len(rebuilt)))  # every row once: written again, not patched
    with open_store(large, read_only=True) as store:
        assert fact_vectors.load(store, build=False) is not None  # current again


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc/self (Linux)")
def test_forget_leaves_no_deleted_derived_file_open_in_a_long_lived_process(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    _, large = two
    _facts(large, True, monkeypatch)  # the snapshot kept in this process holds the derived files
    with open_store(large, read_only=True) as store:
        (fact_id,) = store.con.execute("SELECT min(id) FROM residuals").fetchone()  # type: ignore[misc]
    with open_store(large) as store:
        forget(store, EMBED, fact=int(fact_id))
    gc.collect()
    assert _open_derived(large) == []


def _open_derived(db: Path, names: tuple[str, ...] = ("",)) -> list[str]:
    """This process's open files and mappings in `db`'s derived directory whose path holds one of `names`."""
    derived = str(vectors.directory(db))
    fds = [str(p.readlink()) for p in Path("/proc/self/fd").iterdir() if p.is_symlink()]
    maps = Path("/proc/self/maps").read_text(encoding="utf-8").splitlines()
    return [f for f in fds + maps if derived in f and any(n in f for n in names)]


EMBEDDINGS = ("vectors.f16", "turns.usearch", "lists.i8", "facts/vectors")  # ids and orders may stay mapped


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc/self (Linux)")
def test_a_snapshot_replaced_after_an_ingest_keeps_no_forgotten_embedding_open_without_the_cycle_collector(
    two: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long-lived process may put the cyclic collector off: a snapshot replaced in the
    cache must be freed, files closed, as soon as nothing refers to it."""
    import gc

    from memhop.core.ingest import ingest

    _, large = two
    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 10)
    monkeypatch.setattr(recall, "_CACHE", {})
    gc.collect()
    gc.disable()
    try:
        with open_store(large) as store:
            for name, text in [("first", "Took up sailing on the lake with a yellow dinghy."),
                               ("second", "Signed up for a pottery class on Thursday evenings.")]:
                note = tmp_path / f"{name}.md"
                note.write_text(f"# Notes\n\n# 2024-05-01\n\n{text}\n", encoding="utf-8")
                ingest(store, [str(note)], EMBED)
                read(store, "Where does Alice live?", EMBED, ReadSettings())  # reads facts: spans kept
            assert isinstance(snapshot(store).residuals, LazyResiduals)
            forget(store, EMBED, source=str(tmp_path / "first.md"), drop_turns=True)
            left = [f for f in _open_derived(large, EMBEDDINGS) if "(deleted)" in f]
    finally:
        gc.enable()
    assert left == []


def test_forget_closes_the_derived_files_of_a_snapshot_a_caller_still_holds(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A library user or a served process may hold a snapshot across a forget: the files it
    reads (turn rows, index, routing lists, fact rows) are deleted by the forget's
    compaction and must be closed with it, or the forgotten text's vectors stay on disk."""
    from memhop.core.store import router

    _, large = two
    monkeypatch.setattr(vectors, "SCAN_MAX_TURNS", 0)  # the graph is walked: routing lists too
    monkeypatch.setattr(router, "LIST_TURNS", 8)
    _facts(large, True, monkeypatch)
    with open_store(large, read_only=True) as store:
        held = snapshot(store)
        (fact_id,) = store.con.execute("SELECT min(id) FROM residuals").fetchone()  # type: ignore[misc]
    assert held.turns.vectors is not None and held.turns.vectors.router is not None
    with open_store(large) as store:
        forget(store, EMBED, fact=int(fact_id))
    assert _open_derived(large, EMBEDDINGS) == []
    assert held is not None  # held to here
