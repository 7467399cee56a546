"""Derived turn vectors and the ANN index (core/store/vectors.py) on a store made to count
as large: the read path answers from them as it does from exact search, ingest extends
them, and a forget leaves none behind."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from support import purge_world, replaced_store

from memhop.core.config import ReadSettings
from memhop.core.forget import forget
from memhop.core.ingest import ingest
from memhop.core.read import read
from memhop.core.store import open_store, recall, vectors
from memhop.core.store.bulk import arrow_vectors
from memhop.core.store.recall import snapshot

pytest.importorskip("usearch")

EMBED = purge_world.EMBEDDER
QUESTIONS = [
    "What instrument does Bob play?",
    "Where does Alice live?",
    "What did I do at work with Dan?",
    "Who has a greyhound?",
    "What happened in March 2024?",
]


@pytest.fixture
def two(purge_template: Path, tmp_path: Path) -> tuple[Path, Path]:
    """The same store twice: one searched exactly, one (the second) through derived vectors."""
    return purge_world.install_twice(purge_template, tmp_path, "exact", "approx")


@pytest.fixture
def small_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 10)


def _evidence(db: Path, question: str, k: int = 25) -> list[int]:
    with open_store(db, read_only=True) as store:
        context = read(store, question, EMBED, replace(ReadSettings(), evidence=k))
    return [e.turn.id for e in context.evidence]


def test_a_large_store_reads_the_same_evidence_through_the_index(two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    exact, approx = two
    expected = {q: _evidence(exact, q) for q in QUESTIONS}
    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 10)
    got = {q: _evidence(approx, q) for q in QUESTIONS}
    assert got == expected
    with open_store(approx, read_only=True) as store:
        turns = snapshot(store).turns
        assert turns.approximate and turns.columns is None  # texts were fetched by row, not loaded
    assert vectors.directory(approx).is_dir() and not vectors.directory(exact).exists()


@pytest.mark.parametrize("damage", ["refused", "cut short and refused"])
def test_a_large_store_duckdb_will_not_build_vectors_for_is_searched_exactly(
    two: tuple[Path, Path], small_threshold: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
    damage: str,
) -> None:
    exact, approx = two
    expected = {q: _evidence(exact, q) for q in QUESTIONS}
    if damage == "cut short and refused":  # current state, files cut short: the rebuild is refused
        _evidence(approx, QUESTIONS[0])
        (vectors.directory(approx) / "vectors.f16").write_bytes(b"")
    monkeypatch.setattr(vectors, "BUILD_BUFFERS", "a lot")  # DuckDB refuses the build's memory limit
    monkeypatch.setattr(recall, "_CACHE", {})  # a fresh process: no snapshot kept
    assert {q: _evidence(approx, q) for q in QUESTIONS} == expected
    assert "searching exactly" in caplog.text


def test_the_derived_files_hold_no_text(two: tuple[Path, Path], small_threshold: None) -> None:
    _, approx = two
    _evidence(approx, QUESTIONS[0])
    data = b"".join(p.read_bytes() for p in vectors.directory(approx).rglob("*") if p.is_file())
    assert b"Bob" not in data and b"greyhound" not in data


def test_ingest_extends_the_index_and_new_turns_are_found(
    two: tuple[Path, Path], small_threshold: None, tmp_path: Path
) -> None:
    _, approx = two
    _evidence(approx, QUESTIONS[0])
    before = vectors.State.of  # the state the files were written for
    with open_store(approx) as store:
        had = before(store)
    note = tmp_path / "extra.md"
    note.write_text("# Notes\n\n# 2024-05-01\n\nTook up sailing on the lake with a yellow dinghy.\n", encoding="utf-8")
    with open_store(approx) as store:
        ingest(store, [str(note)], EMBED)
        now = vectors.State.of(store)
        assert now.turns > had.turns
        loaded = vectors.load(store, build=False)  # already up to date: ingest extended it
        assert loaded is not None and len(loaded.ids) == now.turns
    assert any("dinghy" in t for t in _texts(approx, "Who sails a yellow dinghy?"))


def _texts(db: Path, question: str) -> list[str]:
    with open_store(db, read_only=True) as store:
        return [e.turn.text for e in read(store, question, EMBED, ReadSettings()).evidence]


def test_forget_deletes_the_derived_vectors_and_the_next_ask_rebuilds_without_the_turns(
    two: tuple[Path, Path], small_threshold: None
) -> None:
    _, approx = two
    _evidence(approx, QUESTIONS[0])
    assert vectors.leftovers(approx)
    with open_store(approx) as store:
        dropped = [r[0] for r in store.con.execute("SELECT id FROM turns WHERE text ILIKE '%Bob%'").fetchall()]
        report = forget(store, EMBED, name="Bob Kowalski", drop_turns=True)
    assert dropped and report.residue is not None and report.residue["derived_files"] == []
    assert vectors.leftovers(approx) == []
    _evidence(approx, QUESTIONS[0])
    with open_store(approx, read_only=True) as store:
        rebuilt = vectors.load(store, build=False)
    assert rebuilt is not None and not set(dropped) & set(rebuilt.ids.tolist())


@pytest.mark.parametrize("scan_max", [0, 1_000_000])  # the graph walked, or every vector scanned
def test_approximate_scores_are_the_exact_cosines_of_the_rows_that_can_rank(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, scan_max: int
) -> None:
    """Few candidates asked of the index: its nearest and their neighbours, every row a
    bonus may lift and every row of a small window are scored exactly, the rest never rank."""
    exact_db, approx_db = two
    query = EMBED.embed(["playing the piano"])[0]
    with open_store(exact_db, read_only=True) as store:
        exact = snapshot(store).turns
        want = exact.dense_matrix @ query if exact.dense_matrix is not None else None
    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 10)
    monkeypatch.setattr(recall, "ANN_MIN_CANDIDATES", 3)
    monkeypatch.setattr(recall, "ANN_FACTOR", 1)
    monkeypatch.setattr(vectors, "SCAN_MAX_TURNS", scan_max)
    with open_store(approx_db, read_only=True) as store:
        turns = snapshot(store).turns
        assert turns.approximate and want is not None and len(turns.ids) > 20
        bonus = np.arange(len(turns.ids) - 4, len(turns.ids))
        got = turns.cosines(query, 3, [bonus])
        scored = np.flatnonzero(np.isfinite(got))
        assert set(bonus) <= set(scored) and len(scored) < len(turns.ids)
        assert np.argmax(want) in scored  # the nearest turn is found by the index
        np.testing.assert_allclose(got[scored], want[scored], atol=2e-3)
        window = np.zeros(len(turns.ids), dtype=bool)
        window[5:12] = True
        inside = turns.cosines(query, 3, allowed=window)
        assert set(np.flatnonzero(np.isfinite(inside))) == set(range(5, 12))


@pytest.mark.parametrize("retriever", ["graph", "evograph", "fused"])
def test_retrievers_scoring_every_turn_read_the_derived_rows_alike(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, retriever: str
) -> None:
    exact, approx = two
    options = replace(ReadSettings(), retriever=retriever)

    def ids(db: Path) -> list[int]:
        with open_store(db, read_only=True) as store:
            return [e.turn.id for e in read(store, QUESTIONS[0], EMBED, options).evidence]

    expected = ids(exact)
    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 10)
    assert ids(approx) == expected


def test_a_large_store_reads_each_entitys_facts_as_a_small_one_holds_them(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    exact_db, approx_db = two
    with open_store(exact_db) as store:  # one fact superseded, so the counts are tested too
        first, second = (r[0] for r in store.con.execute("SELECT id FROM residuals ORDER BY id LIMIT 2").fetchall())
        store.con.execute(f"UPDATE residuals SET superseded_by = {second} WHERE id = {first}")
    shutil.copy(exact_db, approx_db)
    with open_store(exact_db, read_only=True) as store:
        snap = snapshot(store)
        entities = snap.profiles.entity_ids
        want = {e: snap.residuals.span(e) for e in entities}
    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 10)
    with open_store(approx_db, read_only=True) as store:
        got = snapshot(store).residuals.spans(entities)
    assert any(w.superseded for w in want.values())
    for e in entities:
        assert got[e].ids.tolist() == want[e].ids.tolist() and got[e].texts == want[e].texts
        assert got[e].source_turns == want[e].source_turns and got[e].superseded == want[e].superseded
        np.testing.assert_array_equal(got[e].matrix, want[e].matrix.astype(np.float16).astype(np.float32))  # the derived file's float16


def test_a_large_store_shows_its_facts_reading_only_the_shown_ones_texts(
    two: tuple[Path, Path], small_threshold: None
) -> None:
    """A question reads the texts of the facts it shows (the best few of each entity), not of
    every fact of the entities it selects; each shown fact has its stored text and source
    turns, and a span asked for later holds every text."""
    _, approx = two
    with open_store(approx, read_only=True) as store:
        snap = snapshot(store)
        lazy = snap.residuals
        assert isinstance(lazy, recall.LazyResiduals) and lazy.vectors is not None
        stored = {int(i): (text, tuple(turns)) for i, text, turns in
                  store.con.execute("SELECT id, text, source_turns FROM residuals").fetchall()}
        settings = replace(ReadSettings(), facts_per_entity=1)  # 1 + 3 listed in the trace, of up to 6 each
        for question in QUESTIONS:
            lazy.rows.clear()  # the texts read so far (shared with the snapshot the read takes)
            got = read(store, question, EMBED, settings)
            listed = [f for entity in got.trace.facts for f in (*entity.chosen, *entity.cut)]
            assert listed and all(stored[f.fact_id][0] == f.text for f in listed), question
            assert set(lazy.rows) == {f.fact_id for f in listed}, question  # those shown, no other
            sources = [f for s in got.selected for f in s.sources]
            assert all(stored[f.residual_id][1] == f.turn_ids for f in sources), question
            assert [s.facts for s in got.selected] == [tuple(stored[f.residual_id][0] for f in s.sources)
                                                       for s in got.selected]
        facts = {int(e): int(n) for e, n in zip(*np.unique(lazy.entity_ids, return_counts=True))}
        later = lazy.spans(list(facts))
    for span in later.values():
        assert list(span.texts) == [stored[int(i)][0] for i in span.ids]
        assert list(span.source_turns) == [stored[int(i)][1] for i in span.ids]


def test_a_served_store_keeps_its_snapshot_whole(two: tuple[Path, Path], small_threshold: None) -> None:
    """serve and MCP answer many questions from one process: they read every turn into memory
    once (exact search) instead of fetching rows per question as a one-shot ask does."""
    from memhop.core.mcp.service import MemoryService
    from memhop.core.store.recall import kept_whole

    exact, approx = two
    expected = _evidence(exact, QUESTIONS[1])
    with kept_whole(), open_store(approx, read_only=True) as store:
        turns = snapshot(store).turns
        assert not turns.approximate and turns.columns is not None
    assert _evidence(approx, QUESTIONS[1]) == expected  # outside it, the same store is read lazily
    with open_store(approx, read_only=True) as store:
        assert snapshot(store).turns.approximate
    service = MemoryService(db=approx, engine="offline", read_only=True)
    with service._memory(write=False) as mem:
        assert not snapshot(mem.store).turns.approximate


def test_a_large_store_reads_whole_turn_rows_again_in_one_process_and_none_after_a_forget(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows fetched for one question are kept for the next (BM25 reads the candidates' texts,
    then the evidence is read among them), as they are in the store, and never outlive it."""
    exact, approx = two
    with open_store(exact, read_only=True) as store:
        expected = [e.turn for e in read(store, QUESTIONS[0], EMBED, replace(ReadSettings(), evidence=25)).evidence]
    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 10)
    with open_store(approx) as store:
        first = [e.turn for e in read(store, QUESTIONS[0], EMBED, replace(ReadSettings(), evidence=25)).evidence]
        again = [e.turn for e in read(store, QUESTIONS[0], EMBED, replace(ReadSettings(), evidence=25)).evidence]
        assert first == again == expected
        assert any("Bob" in t.text for t in first)
        forget(store, EMBED, name="Bob Kowalski", drop_turns=True)
        after = [e.turn for e in read(store, QUESTIONS[0], EMBED, replace(ReadSettings(), evidence=25)).evidence]
    assert after and not any("Bob" in t.text for t in after)
    assert not {t.id for t in first if "Bob" in t.text} & {t.id for t in after}


def test_a_large_store_reads_an_entitys_edited_fact_in_the_same_process(
    two: tuple[Path, Path], small_threshold: None
) -> None:
    """The facts a lazy snapshot has read are kept for the next question, never past a change."""
    from memhop.core.edit import edit_fact

    _, approx = two
    question = "What instrument does Bob play?"
    with open_store(approx) as store:
        before = read(store, question, EMBED, ReadSettings())
        bob = next(s for s in before.selected if s.name == "Bob Kowalski" and s.sources)
        edit_fact(store, bob.sources[0].residual_id, "Bob Kowalski plays the theremin in a cellar band.", EMBED)
        after = read(store, question, EMBED, ReadSettings())
    facts = next(s.facts for s in after.selected if s.name == "Bob Kowalski")
    assert "Bob Kowalski plays the theremin in a cellar band." in facts
    assert bob.facts[0] not in facts


def test_a_new_store_made_where_a_deleted_one_was_never_reads_the_old_ones_vectors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memhop.core.store import fact_vectors

    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 3)
    db = tmp_path / "memhop.duckdb"
    replaced_store.make(db, replaced_store.OLD, replaced_store.OLD_FACT)
    _texts(db, replaced_store.QUESTION)  # the old store's derived files, built and current
    assert fact_vectors.directory(db).is_dir()
    replaced_store.delete(db)
    replaced_store.make(db, replaced_store.NEW, replaced_store.NEW_FACT)  # the same counts, other texts
    monkeypatch.setattr(recall, "_CACHE", {})  # as in a fresh process: only the files on disk are left
    approx = _texts(db, replaced_store.QUESTION)
    with monkeypatch.context() as m:
        m.setattr(vectors, "ANN_MIN_TURNS", 10**9)  # the same store searched exactly, no derived files
        m.setattr(recall, "_CACHE", {})
        assert approx == _texts(db, replaced_store.QUESTION)
    assert approx[0] == replaced_store.NEW[0]  # "The dishwasher broke down ..."
    with open_store(db, read_only=True) as store:
        turns, facts = vectors.load(store, build=False), fact_vectors.load(store, build=False)
        stored = arrow_vectors(store.con.execute("SELECT embedding FROM turns ORDER BY id").arrow().read_all().column(0))
        (fact,) = store.con.execute("SELECT embedding FROM residuals").fetchone()  # type: ignore[misc]
        assert turns is not None and facts is not None
        assert np.allclose(turns.rows(np.arange(len(turns.ids))), stored, atol=2e-3)  # the new store's rows
        assert np.allclose(facts.rows(np.array([0])), [fact], atol=2e-3)
        facts.close()


def test_a_restored_backup_whose_history_is_redone_otherwise_never_reads_the_undone_vectors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A copy of the store is the same store (its identity too): after it is restored, the
    files of the history it undid are told apart by their last operation, not by counts."""
    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 3)
    db, backup = tmp_path / "memhop.duckdb", tmp_path / "backup.duckdb"
    replaced_store.make(db, replaced_store.OLD, replaced_store.OLD_FACT)
    shutil.copyfile(db, backup)
    replaced_store.add(db, replaced_store.NEW, month=6)  # ingest extends the derived files
    undone = _texts(db, replaced_store.QUESTION)
    assert undone[0] == replaced_store.NEW[0]
    shutil.copyfile(backup, db)  # the backup restored over the store: the new diary undone
    new = replaced_store.NEW
    other = [new[1], new[2], "The toaster sparked and died this morning.", new[3]]  # the appliance moved
    replaced_store.add(db, other, month=6)  # redone otherwise: every count as before the restore
    monkeypatch.setattr(recall, "_CACHE", {})  # as in a fresh process
    approx = _texts(db, replaced_store.QUESTION)
    with monkeypatch.context() as m:
        m.setattr(vectors, "ANN_MIN_TURNS", 10**9)
        m.setattr(recall, "_CACHE", {})
        assert approx == _texts(db, replaced_store.QUESTION)
    assert approx[0] == other[2]


def _as_before_identities(db: Path) -> list[Path]:
    """Both derived state files rewritten as they were before stores had identities."""
    import json

    from memhop.core.store import fact_vectors

    states = [vectors.directory(db) / "state.json", fact_vectors.directory(db) / "state.json"]
    for path in states:
        data = json.loads(path.read_text(encoding="utf-8"))
        path.write_text(json.dumps({k: v for k, v in data.items() if k not in ("store", "op_at")}), encoding="utf-8")
    return states


def test_files_written_before_identities_grow_with_the_first_ingest_after_an_upgrade(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first command after an upgrade is often an ingest: the old files are extended
    (once, by counts alone), not rebuilt — at 1M turns a rebuild takes a quarter of an hour."""
    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 3)
    db = tmp_path / "memhop.duckdb"
    replaced_store.make(db, replaced_store.OLD, replaced_store.OLD_FACT)
    _texts(db, replaced_store.QUESTION)
    _as_before_identities(db)
    rebuilt: list[Path] = []
    real = vectors._rebuild
    monkeypatch.setattr(vectors, "_rebuild", lambda store, target, state: (rebuilt.append(target), real(store, target, state)))
    replaced_store.add(db, replaced_store.NEW, month=6)
    assert rebuilt == []
    monkeypatch.setattr(recall, "_CACHE", {})
    approx = _texts(db, replaced_store.QUESTION)
    assert approx[0] == replaced_store.NEW[0]  # the new turns are searched
    with monkeypatch.context() as m:
        m.setattr(vectors, "ANN_MIN_TURNS", 10**9)
        m.setattr(recall, "_CACHE", {})
        assert approx == _texts(db, replaced_store.QUESTION)


def test_files_written_before_the_store_had_an_identity_are_kept_not_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An upgrade gives an old store its identity; its derived files, current by the counts
    they were keyed to then, are marked as its own instead of rebuilt (a quarter of an hour
    at 1M turns), and answer as before."""
    import json


    monkeypatch.setattr(vectors, "ANN_MIN_TURNS", 3)
    db = tmp_path / "memhop.duckdb"
    replaced_store.make(db, replaced_store.OLD, replaced_store.OLD_FACT)
    before = _texts(db, replaced_store.QUESTION)
    states = _as_before_identities(db)
    written = {p: p.stat().st_mtime_ns for p in vectors.directory(db).rglob("*") if p.is_file() and p.name != "state.json"}
    monkeypatch.setattr(recall, "_CACHE", {})  # a fresh process
    assert _texts(db, replaced_store.QUESTION) == before
    assert {p: p.stat().st_mtime_ns for p in written} == written  # not one file written again
    with open_store(db, read_only=True) as store:
        identity = store.con.execute("SELECT value FROM meta WHERE key = 'store_id'").fetchone()
    assert identity and identity[0]
    assert all(json.loads(p.read_text(encoding="utf-8"))["store"] == identity[0] for p in states)


def stored_dim() -> int:
    return int(EMBED.dim)


def _resident_kb(path: Path) -> int:
    """Resident kB of this process's mappings of `path` (Linux /proc/self/smaps)."""
    total, inside = 0, False
    for line in Path("/proc/self/smaps").read_text(encoding="utf-8").splitlines():
        head = line.split()
        if head and "-" in head[0] and len(head) >= 5:  # a mapping's first line: range perms offset dev inode [path]
            inside = len(head) >= 6 and Path(head[-1]) == path
        elif inside and head[:1] == ["Rss:"]:
            total += int(head[1])
    return total


@pytest.mark.skipif(not Path("/proc/self/smaps").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("retriever", ["prograph", "hero"])
def test_asking_a_large_store_leaves_none_of_its_vector_file_resident(
    two: tuple[Path, Path], small_threshold: None, retriever: str
) -> None:
    """Candidates are rescored from rows read out of the float16 file, not touched through its
    mapping: each touched page would stay resident (with its neighbours) for the process's life,
    ~300 MB over twenty asks at 1M turns."""
    _, approx = two
    recall._CACHE.clear()
    settings = replace(ReadSettings(), evidence=25, retriever=retriever)
    with open_store(approx, read_only=True) as store:
        for question in QUESTIONS:
            assert read(store, question, EMBED, settings).evidence
        turns = snapshot(store).turns
        assert turns.vectors is not None
        if retriever == "hero":
            assert turns.centroid.shape == (stored_dim(),)  # sums every row
        assert _resident_kb(Path(turns.vectors.file.name).resolve()) == 0


def test_rows_read_from_the_file_are_the_mapped_rows_in_the_order_asked(
    two: tuple[Path, Path], small_threshold: None
) -> None:
    _, approx = two
    _evidence(approx, QUESTIONS[0])
    with open_store(approx, read_only=True) as store:
        loaded = vectors.load(store, build=False)
    assert loaded is not None
    n = len(loaded.ids)
    asked = np.array([n - 1, 3, 4, 5, 0, 4, 2, n - 2], dtype=np.int64)  # runs, a repeat, both ends
    whole = np.fromfile(loaded.file.name, dtype=np.float16).reshape(n, -1)
    np.testing.assert_array_equal(loaded.rows(asked), whole[asked].astype(np.float32))
    assert loaded.rows(np.zeros(0, dtype=np.int64)).shape == (0, whole.shape[1])
    with pytest.raises(IndexError):
        loaded.rows(np.array([n]))
