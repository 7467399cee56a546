"""The meta record: a store knows which embedder's vectors it holds, and refuses any other
embedder (or a newer memhop's schema) without touching the file."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import duckdb
import pytest
from support.old_stores import store_at_version

from memhop.core.embed import DIM, MODEL
from memhop.core.errors import ConfigError, StoreError
from memhop.core.store import memory, meta, open_store
from memhop.core.store.meta import LEGACY, EmbedderRecord
from memhop.core.store.schema import LATEST


def _files(path: Path) -> dict[str, bytes]:
    """The store file and its WAL, if any: what "left untouched" compares."""
    wal = path.with_name(path.name + ".wal")
    return {p.name: p.read_bytes() for p in (path, wal) if p.exists()}


def _tamper(path: Path, sql: str, keep_wal: bool = False) -> None:
    """Change a store behind memhop's back, as another memhop would have written it."""
    con = duckdb.connect(str(path))
    if keep_wal:
        con.execute("PRAGMA disable_checkpoint_on_shutdown")
    con.execute(sql)
    con.close()


def _old_store(path: Path) -> None:
    """A store as memhop wrote it before the meta record: schema version 2, one entity."""
    con = store_at_version(path, 2)
    con.execute("INSERT INTO entities VALUES (1, 'Alice Nguyen', 'person', ['Alice'], now())")
    con.close()


INT8 = EmbedderRecord(f"{MODEL}-int8", DIM)


def test_a_new_store_records_the_embedder_that_created_it(tmp_path: Path) -> None:
    path = tmp_path / "memhop.duckdb"
    open_store(path, embedder="minilm").close()
    con = duckdb.connect(str(path), read_only=True)
    try:
        record = dict(con.execute("SELECT key, value FROM meta").fetchall())
        assert record == {"embedder": MODEL, "embedding_dim": str(DIM), "store_id": record["store_id"]}
        assert re.fullmatch(r"[0-9a-f]{32}", record["store_id"])
    finally:
        con.close()
    with open_store(path, read_only=True) as store:
        assert store.embedder() == EmbedderRecord(MODEL, DIM) == EmbedderRecord.of("minilm")


def test_with_no_embedder_configured_a_new_store_is_float(tmp_path: Path) -> None:
    path = tmp_path / "memhop.duckdb"
    with open_store(path) as store:
        assert store.embedder() == EmbedderRecord(MODEL, DIM) == EmbedderRecord.of("minilm")
        assert store.embedder_setting == "minilm"
    with open_store(path, read_only=True) as store:
        assert store.embedder_setting == "minilm"


@pytest.mark.parametrize("read_only", [False, True])
def test_with_no_embedder_configured_an_int8_store_keeps_its_embedder(tmp_path: Path, read_only: bool) -> None:
    """A store written by the int8 embedder opens with it when nothing is configured."""
    path = tmp_path / "memhop.duckdb"
    with open_store(path, embedder="minilm-int8") as store, store.transaction():
        memory.add_entity(store, "Bob Kowalski", "person")
    with open_store(path, read_only=read_only) as store:
        assert store.embedder_setting == "minilm-int8"
        assert store.embedder() == INT8
        assert memory.entity_by_name(store, "Bob Kowalski") is not None
    old = tmp_path / "old.duckdb"
    _old_store(old)  # before the meta record: MiniLM's vectors
    with open_store(old, read_only=read_only) as store:
        assert store.embedder_setting == "minilm"


def test_the_reference_embedder_computes_the_same_vectors_so_it_may_share_the_store(tmp_path: Path) -> None:
    path = tmp_path / "memhop.duckdb"
    open_store(path, embedder="minilm").close()
    with open_store(path, embedder="sentence-transformers") as store:
        assert store.embedder() == EmbedderRecord(MODEL, DIM)


@pytest.mark.parametrize("read_only", [False, True])
def test_int8_and_float_minilm_stores_refuse_each_other(tmp_path: Path, read_only: bool) -> None:
    """The int8 graph's vectors are near the float ones, not equal: a store of one is never
    searched with the other's query vectors (nor given the other's turns)."""
    int8, float32 = tmp_path / "int8.duckdb", tmp_path / "float.duckdb"
    open_store(int8, embedder="minilm-int8").close()
    open_store(float32, embedder="minilm").close()
    with open_store(int8, read_only=True, embedder="minilm-int8") as store:
        assert store.embedder() == EmbedderRecord(f"{MODEL}-int8", DIM) == EmbedderRecord.of("minilm-int8")
    for path, setting, own, says in (
        (int8, "minilm", "minilm-int8", f"{MODEL}-int8"), (float32, "minilm-int8", "minilm", MODEL)
    ):
        before = _files(path)
        with pytest.raises(StoreError) as refused:
            open_store(path, read_only=read_only, embedder=setting, embedder_from="MEMHOP_EMBEDDER")
        assert str(refused.value) == (
            f"{path} was written by embedder {own} ({says}, dim {DIM}), not {setting} as `embedder` is set "
            "in MEMHOP_EMBEDDER: remove that setting to use the store's own"
        )
        assert _files(path) == before


def test_an_old_store_without_meta_is_migrated_and_keeps_working(tmp_path: Path) -> None:
    path = tmp_path / "memhop.duckdb"
    _old_store(path)
    before = _files(path)
    with open_store(path, read_only=True) as store:  # reading never migrates
        assert store.schema_version() == 2
        assert store.embedder() == LEGACY
    assert _files(path) == before
    with open_store(path) as store:
        assert store.schema_version() == LATEST
        assert store.embedder() == LEGACY == EmbedderRecord(MODEL, DIM)
        assert memory.entity_by_name(store, "Alice") is not None
        with store.transaction():
            memory.add_entity(store, "Bob Kowalski", "person")
    with open_store(path, read_only=True) as store:
        assert [e.name for e in memory.registry(store)] == ["Alice Nguyen", "Bob Kowalski"]


def test_each_new_store_has_its_own_identity_and_a_copy_keeps_it(tmp_path: Path) -> None:
    first, second = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    open_store(first).close()
    open_store(second).close()
    shutil.copyfile(first, tmp_path / "backup.duckdb")
    ids = []
    for path in (first, second, tmp_path / "backup.duckdb"):
        with open_store(path, read_only=True) as store:
            ids.append(meta.identity(store.con))
    assert ids[0] != ids[1] and ids[2] == ids[0]  # a backup is the same store (core/store/meta.py)
    with open_store(first) as store:
        assert meta.identity(store.con) == ids[0]  # kept across opens


def test_an_old_store_gets_an_identity_at_its_first_writing_open_and_none_read_only(tmp_path: Path) -> None:
    path = tmp_path / "memhop.duckdb"
    store_at_version(path, LATEST - 1).close()
    before = _files(path)
    with open_store(path, read_only=True) as store:  # reading never migrates: no identity yet
        assert meta.identity(store.con) == ""
    assert _files(path) == before
    with open_store(path) as store:
        assert store.schema_version() == LATEST
        made = meta.identity(store.con)
    with open_store(path, read_only=True) as store:
        assert made and meta.identity(store.con) == made
    _old_store(tmp_path / "older.duckdb")  # before the meta table itself
    with open_store(tmp_path / "older.duckdb", read_only=True) as store:
        assert meta.identity(store.con) == ""


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ("UPDATE meta SET value = 'bge-small-en-v1.5' WHERE key = 'embedder'", "bge-small-en-v1.5 (dim 384)"),
        ("UPDATE meta SET value = '768' WHERE key = 'embedding_dim'", f"{MODEL} (dim 768)"),
    ],
)
@pytest.mark.parametrize("read_only", [False, True])
def test_a_store_of_another_embedder_is_refused_untouched(
    tmp_path: Path, change: str, says: str, read_only: bool
) -> None:
    path = tmp_path / "memhop.duckdb"
    open_store(path, embedder="minilm").close()
    _tamper(path, change, keep_wal=True)  # a pending WAL: a writing connection would replay it
    before = _files(path)
    assert len(before) == 2
    for setting, refusal in (
        ("minilm", f"{path} was written by embedder {says}; this memhop uses minilm ({MODEL}, dim {DIM})"),
        (None, f"{path} was written by embedder {says}, which this memhop does not know"),
    ):
        with pytest.raises(StoreError) as refused:
            open_store(path, read_only=read_only, embedder=setting)
        message = str(refused.value)
        assert "\n" not in message
        assert message.startswith(refusal)
        assert "`memhop export` there and `memhop restore` here" in message
        assert _files(path) == before


@pytest.mark.parametrize("read_only", [False, True])
def test_a_store_from_a_newer_memhop_is_refused_untouched(tmp_path: Path, read_only: bool) -> None:
    path = tmp_path / "memhop.duckdb"
    open_store(path).close()
    future = LATEST + 4
    _tamper(path, f"INSERT INTO migrations VALUES ({future}, 'from the future', now())", keep_wal=True)
    before = _files(path)
    with pytest.raises(StoreError) as refused:
        open_store(path, read_only=read_only)
    assert str(refused.value) == (
        f"{path}: schema version {future} is newer than this memhop knows ({LATEST}): upgrade memhop"
    )
    assert _files(path) == before


def test_an_unknown_embedder_setting_creates_no_store(tmp_path: Path) -> None:
    path = tmp_path / "memhop.duckdb"
    with pytest.raises(ConfigError, match="unknown embedder 'bert-huge'"):
        open_store(path, embedder="bert-huge")
    assert not path.exists()


def test_a_meta_record_without_an_embedder_is_called_damaged(tmp_path: Path) -> None:
    path = tmp_path / "memhop.duckdb"
    open_store(path).close()
    _tamper(path, "DELETE FROM meta WHERE key = 'embedder'")
    before = _files(path)
    with pytest.raises(StoreError, match=r"memhop.duckdb: damaged store \(its meta record names no embedder\)"):
        open_store(path)
    assert _files(path) == before


def test_a_store_this_process_has_open_for_writing_opens_again(tmp_path: Path) -> None:
    path = tmp_path / "memhop.duckdb"
    with open_store(path) as first, open_store(path) as second:
        assert second.embedder() == first.embedder() == EmbedderRecord(MODEL, DIM)


@pytest.mark.parametrize("read_only", [False, True])
@pytest.mark.parametrize("embedder", [None, "minilm", "minilm-int8"])
def test_a_store_whose_meta_table_is_gone_is_called_damaged_not_float(
    tmp_path: Path, read_only: bool, embedder: str | None
) -> None:
    path = tmp_path / "memhop.duckdb"
    open_store(path, embedder="minilm-int8").close()
    _tamper(path, "DROP TABLE meta")
    before = _files(path)
    with pytest.raises(StoreError) as refused:
        open_store(path, read_only=read_only, embedder=embedder)
    assert str(refused.value) == f"{path}: damaged store (its meta table, which records the embedder, is missing)"
    assert _files(path) == before
