"""Ingesting a ParsedSource that no file holds (the benchmark generator's scenarios)
through the normal raw layer and write path, so benchmarks measure what users run."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from memhop.core.embed import Embedder
from memhop.core.engines.base import Engine
from memhop.core.importers.base import ParsedSource
from memhop.core.ingest import store_parsed
from memhop.core.progress import Progress, SilentProgress
from memhop.core.store import Store, raw
from memhop.core.write import WriteReport, write_pending


@dataclass
class IngestedSource:
    name: str
    sessions: int
    turns: int
    embed_seconds: float  # embedding and storing the raw turns
    write: WriteReport | None = None


def parsed_sha256(parsed: ParsedSource) -> str:
    """A stable identity for in-memory content, standing in for a file's sha256."""
    payload = [
        [s.external_id, s.started_at, [[t.speaker, t.text, t.timestamp, t.external_id] for t in s.turns]]
        for s in parsed.sessions
    ]
    return raw.sha256_of(json.dumps([parsed.format, payload], default=str).encode("utf-8"))


def ingest_parsed(
    store: Store,
    parsed: ParsedSource,
    name: str,
    embedder: Embedder,
    engine: Engine | None = None,
    self_name: str | None = None,
    dedup_threshold: float = 0.9,
    progress: Progress | None = None,
) -> IngestedSource:
    """Store the raw turns (one transaction), then run the write path when an engine is given.

    Ingesting the same content twice stores nothing new, like re-importing a file.
    """
    progress = progress or SilentProgress()
    started = time.perf_counter()
    sha = parsed_sha256(parsed)
    sessions = turns = 0
    if raw.source_id_for(store, sha) is None:
        counts = store_parsed(store, name, sha, parsed, embedder, self_name, progress, engine)
        sessions, turns = counts.sessions, counts.turns
    embedded = time.perf_counter() - started
    write = write_pending(store, engine, embedder, dedup_threshold, progress) if engine is not None else None
    return IngestedSource(name, sessions, turns, embedded, write)
