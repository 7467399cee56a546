"""A library call handed another embedder than its store records is refused in one line
naming the store, before it embeds or writes anything: vectors of two models never mix."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from support.fake_engine import FakeEngine
from support.read_world import DIARY, build_world

from memhop.core.config import ReadSettings
from memhop.core.edit import add_fact
from memhop.core.embed import Embedder, get_embedder
from memhop.core.errors import StoreError
from memhop.core.export import export_data, load_export
from memhop.core.ingest import ingest
from memhop.core.read import read
from memhop.core.search import search
from memhop.core.store import Store, open_store
from memhop.core.write import write_pending


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_world(tmp_path_factory.mktemp("float-world"))  # a float store


def _diary(store: Store) -> str:
    path = store.path.with_name("more.md")
    path.write_text(DIARY.replace("2024", "2025"), encoding="utf-8")
    return str(path)


CALLS: dict[str, Callable[[Store, Embedder], Any]] = {
    "ingest": lambda store, e: ingest(store, [_diary(store)], e, self_name="Maya Patel"),
    "write": lambda store, e: write_pending(store, FakeEngine(), e),
    "read": lambda store, e: read(store, "Where does Bob work?", e, ReadSettings()),
    "search": lambda store, e: search(store, e, "bakery"),
    "fact add": lambda store, e: add_fact(store, "Bob Kowalski", "Bob bakes bread.", e),
}


@pytest.mark.parametrize("call", CALLS)
def test_a_float_store_refuses_the_int8_embedder_and_stays_as_it_was(world: Path, tmp_path: Path, call: str) -> None:
    db = tmp_path / "memhop.duckdb"
    shutil.copy(world, db)
    with open_store(db) as store:
        before = store.counts()
        with pytest.raises(StoreError) as refused:
            CALLS[call](store, get_embedder("minilm-int8"))
        assert store.counts() == before
    message = str(refused.value)
    assert "\n" not in message and message.startswith(f"{db} holds vectors of embedder minilm")
    assert "given minilm-int8" in message


def test_an_int8_store_refuses_the_default_embedder_at_ingest(tmp_path: Path) -> None:
    """The reviewer's scenario: `open_store` picks int8 by the record, `get_embedder()` is float."""
    db = tmp_path / "int8.duckdb"
    open_store(db, embedder="minilm-int8").close()
    with open_store(db) as store:
        assert store.embedder_setting == "minilm-int8"
        with pytest.raises(StoreError, match=r"int8\.duckdb holds vectors of embedder minilm-int8 .* given minilm "):
            ingest(store, [_diary(store)], get_embedder(), self_name="Maya Patel")
        assert store.counts()["turns"] == 0
        ingest(store, [_diary(store)], get_embedder(store.embedder_setting), self_name="Maya Patel")
        assert store.counts()["turns"] > 0


def test_restore_into_an_int8_store_refuses_the_float_embedder(world: Path, tmp_path: Path) -> None:
    with open_store(world, read_only=True) as source:
        data = export_data(source)
    db = tmp_path / "restored.duckdb"
    with open_store(db, embedder="minilm-int8") as store:
        with pytest.raises(StoreError, match="restored.duckdb holds vectors of embedder minilm-int8"):
            load_export(store, data, get_embedder("minilm"))
        assert not any(store.counts().values())


class _OwnEmbedder:
    """A library caller's own embedder around one of memhop's: its own name, the inner one's
    model, so the same vectors."""

    def __init__(self, name: str, inner: Embedder) -> None:
        self.name, self.model, self.dim, self.inner = name, inner.model, inner.dim, inner

    def embed(self, texts: Sequence[str]) -> Any:
        return self.inner.embed(texts)


def test_a_callers_own_embedder_of_the_stores_model_is_accepted_and_another_model_refused(
    world: Path, tmp_path: Path
) -> None:
    db = tmp_path / "memhop.duckdb"
    shutil.copy(world, db)
    with open_store(db) as store:
        before = store.counts()["turns"]
        with pytest.raises(StoreError, match="holds vectors of embedder minilm .* given my-int8 "):
            ingest(store, [_diary(store)], _OwnEmbedder("my-int8", get_embedder("minilm-int8")), self_name="Maya Patel")
        assert store.counts()["turns"] == before
        with pytest.raises(StoreError, match="holds vectors of embedder minilm"):  # its name is the store's, its model not
            ingest(store, [_diary(store)], _OwnEmbedder("minilm", get_embedder("minilm-int8")), self_name="Maya Patel")
        assert store.counts()["turns"] == before
        ingest(store, [_diary(store)], _OwnEmbedder("my-minilm", get_embedder("minilm")), self_name="Maya Patel")
        assert store.counts()["turns"] > before


class _Unnamed:
    """An embedder written against the protocol before it had `model`."""

    name, dim = "mine", 384

    def embed(self, texts: Sequence[str]) -> Any:
        return get_embedder("minilm").embed(texts)


def test_an_embedder_that_does_not_report_its_model_is_refused_in_one_line(world: Path, tmp_path: Path) -> None:
    db = tmp_path / "memhop.duckdb"
    shutil.copy(world, db)
    with open_store(db) as store:
        before = store.counts()
        with pytest.raises(StoreError, match="embedder 'mine' does not say which model"):
            ingest(store, [_diary(store)], _Unnamed(), self_name="Maya Patel")  # type: ignore[arg-type]
        assert store.counts() == before
