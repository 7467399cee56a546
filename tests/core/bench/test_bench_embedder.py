"""`MEMHOP_EMBEDDER=minilm-int8 memhop bench`: the bench's stores are labelled with the
embedder that wrote them, and every later step (the write and ask workers, the scale
children) reads them with that embedder, configured or not."""

from __future__ import annotations

from pathlib import Path

import pytest

from memhop.core.bench import scale
from memhop.core.bench.jobs import ask_store, write_store
from memhop.core.bench.runner import VARIANTS, _ingest_raw, _path
from memhop.core.bench.sources import memhop_sources
from memhop.core.config import load_settings
from memhop.core.embed import get_embedder
from memhop.core.progress import SilentProgress
from memhop.core.store import open_store
from memhop.core.store.meta import EmbedderRecord


@pytest.mark.parametrize("configured", [True, False])
def test_an_int8_bench_store_is_written_and_read_as_int8(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, configured: bool
) -> None:
    monkeypatch.setenv("MEMHOP_EMBEDDER", "minilm-int8")
    [source] = memhop_sources(1, 2, sessions=2)
    settings = load_settings()
    ingested = _ingest_raw(source, tmp_path, get_embedder(settings.embedder), SilentProgress())
    assert ingested.turns > 0
    if not configured:  # the scale children and workers read the store's record alone
        monkeypatch.delenv("MEMHOP_EMBEDDER")
    db = _path(tmp_path, source, "full")
    with open_store(db, read_only=True) as store:
        assert store.embedder() == EmbedderRecord.of("minilm-int8")
    written = write_store(str(db), load_settings(), profile_only=False)
    assert written.error is None and written.report is not None
    asked = ask_store(source, {v: str(_path(tmp_path, source, v)) for v in VARIANTS}, load_settings(), wrote=True)
    assert {r.system for r in asked.records} >= {"memhop", "dense-chunks"}
    questions = [{"text": q.text, "answer": q.gold} for q in source.questions]
    spec: dict[str, object] = {"db": str(db), "engine": "offline", "questions": questions}
    # the recall step opens the int8 store with the embedder it records (it used to be refused);
    # below the ANN size there is no derived index, so no recall to compare
    assert scale.recall(spec) == {"recall25": None}
    latencies, hits = scale._warm_asks(spec)
    assert len(latencies) == len(hits) == len(questions)
