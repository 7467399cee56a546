"""ingest's raw layer when an engine reads the turns ahead while a worker embeds them."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from memhop.core import ingest as ingest_module
from memhop.core.embed import Embedder, get_embedder
from memhop.core.ingest import ingest
from memhop.core.store import open_store
from support.fake_engine import FakeEngine
from support.paths import SAMPLES

DIARY = str(SAMPLES / "maya-diary.md")


class CountingEmbedder:
    """The real embedder, counting its calls; the first call waits (at most a minute, as a
    guard against a hang) until the read-ahead side has failed, so that failure comes
    while the worker is in the middle of the file."""

    def __init__(self, inner: Embedder, failed: threading.Event) -> None:
        self.inner, self.failed = inner, failed
        self.dim, self.name, self.model = inner.dim, inner.name, inner.model
        self.calls = 0
        self.started = threading.Event()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        if self.calls == 1:
            self.started.set()
            self.failed.wait(60)
        return self.inner.embed(texts)


class FailingReadAhead(FakeEngine):
    """An engine whose read-ahead fails (a bug, or Ctrl-C) once the embedding has begun."""

    def __init__(self, embedder: CountingEmbedder, failed: threading.Event) -> None:
        super().__init__()
        self.embedder, self.failed = embedder, failed

    def read_ahead(self, turns: Sequence[tuple[str, str]]) -> None:
        self.embedder.started.wait(60)
        self.failed.set()
        raise RuntimeError("read-ahead broke")


def test_a_failing_read_ahead_stops_the_embedding_after_the_chunk_in_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ingest_module, "EMBED_CHUNK", 2)  # the diary's turns make many chunks
    failed = threading.Event()
    embedder = CountingEmbedder(get_embedder(), failed)
    with open_store(tmp_path / "m.duckdb") as store:
        with pytest.raises(RuntimeError, match="read-ahead broke"):
            ingest(store, [DIARY], embedder, engine=FailingReadAhead(embedder, failed))
        assert store.con.execute("SELECT count(*) FROM turns").fetchone() == (0,)
    assert embedder.calls <= 2  # the chunk being embedded when it failed, at most one more; not the file
