"""The two-layer write path (ProGraph §3.1): per session, one engine call to identify its
entities, then one co-extraction call per entity returning the updated profile and the
residuals the profile would lose. Engine calls happen before the transaction; each
session is then written whole or not at all, so a failed session is simply retried by
the next run.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from memhop.core.embed import Embedder
from memhop.core.engines.base import Engine, Extraction, FoundEntity, KnownEntity, ResidualDraft, SessionView
from memhop.core.errors import EngineError
from memhop.core.progress import Progress, SilentProgress
from memhop.core.store import Store
from memhop.core.store import memory


@dataclass
class SessionFailure:
    session_id: int
    error: str


@dataclass
class WriteReport:
    engine: str
    sessions: int = 0
    entities_added: int = 0
    residuals_added: int = 0
    residuals_deduplicated: int = 0
    residuals_superseded: int = 0
    failures: list[SessionFailure] = field(default_factory=list)
    usage: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0


@dataclass(frozen=True)
class _EntityUpdate:
    found: FoundEntity
    known: KnownEntity | None
    extraction: Extraction


def _registry_entry(found: FoundEntity, registry: Sequence[KnownEntity]) -> KnownEntity | None:
    for known in registry:
        if known.name == found.name:
            return known
    return None


def extract_session(
    store: Store, engine: Engine, session: SessionView, registry: Sequence[KnownEntity]
) -> list[_EntityUpdate]:
    """All engine calls for one session (1 + E of them); reads the store, writes nothing."""
    updates = []
    for found in engine.identify(session, registry):
        known = _registry_entry(found, registry)
        profile = memory.profile_of(store, known.id) if known else None
        existing = memory.as_existing(memory.residuals_of(store, known.id)) if known else []
        updates.append(_EntityUpdate(found, known, engine.coextract(found, profile, existing, session)))
    return updates


def novel_residuals(
    drafts: Sequence[ResidualDraft], vectors: np.ndarray, existing: np.ndarray, threshold: float
) -> list[int]:
    """Indexes of drafts that repeat nothing already stored (or kept earlier in this batch)."""
    kept: list[int] = []
    for index in range(len(drafts)):
        vector = vectors[index]
        if existing.size and float(np.max(existing @ vector)) > threshold:
            continue
        if kept and float(np.max(vectors[kept] @ vector)) > threshold:
            continue
        kept.append(index)
    return kept


def _apply(
    store: Store,
    session: SessionView,
    updates: Sequence[_EntityUpdate],
    embedder: Embedder,
    threshold: float,
    report: WriteReport,
) -> None:
    profile_vectors = embedder.embed([u.extraction.profile for u in updates])
    residual_vectors = [embedder.embed([d.text for d in u.extraction.residuals]) for u in updates]
    previous = [memory.residual_vectors(store, u.known.id) if u.known else None for u in updates]
    with store.transaction():
        for update, profile_vector, vectors, old in zip(updates, profile_vectors, residual_vectors, previous):
            entity_id = _ensure_entity(store, update, report)
            memory.put_profile(store, entity_id, update.extraction.profile, profile_vector)
            memory.add_mentions(store, entity_id, update.found.turn_ids)
            drafts = update.extraction.residuals
            old_vectors = old if old is not None else np.zeros((0, embedder.dim), dtype=np.float32)
            keep = novel_residuals(drafts, vectors, old_vectors, threshold)
            report.residuals_deduplicated += len(drafts) - len(keep)
            kept = [drafts[i] for i in keep]
            new_ids = memory.insert_residuals(store, entity_id, kept, vectors[keep])
            report.residuals_added += len(new_ids)
            report.residuals_superseded += _supersede(store, entity_id, update.extraction, kept, new_ids)
        memory.mark_written(store, session.id)


def _ensure_entity(store: Store, update: _EntityUpdate, report: WriteReport) -> int:
    found = update.found
    if update.known is None:
        report.entities_added += 1
        return memory.add_entity(store, found.name, found.kind, found.aliases)
    known = update.known
    merged = set(known.aliases) | set(found.aliases)
    fuller = _fuller_name(known, merged)
    holder = memory.entity_by_name(store, fuller) if fuller is not None else None
    if fuller is not None and (holder is None or holder.id == known.id):
        memory.rename_entity(store, known.id, fuller)
        merged = (merged - {fuller}) | {known.name}
    if merged != set(known.aliases):
        memory.set_aliases(store, known.id, sorted(merged))
    return known.id


def _fuller_name(known: KnownEntity, aliases: set[str]) -> str | None:
    """'Bob' first seen in a diary becomes 'Bob Kowalski' once the full name turns up."""
    if known.kind not in ("person", "self") or " " in known.name:
        return None
    longer = sorted(a for a in aliases if a.lower().startswith(known.name.lower() + " ") and len(a.split()) == 2)
    return longer[0] if longer else None


def _supersede(
    store: Store, entity_id: int, extraction: Extraction, kept: Sequence[ResidualDraft], new_ids: Sequence[int]
) -> int:
    """A newer residual for the same slot (job, home...) retires the older one, which stays stored."""
    retired = 0
    current = {r.id: r for r in memory.residuals_of(store, entity_id)}
    for draft, new_id in zip(kept, new_ids):
        if not draft.slot:
            continue
        older = [
            rid for rid, r in current.items()
            if rid not in new_ids and r.slot == draft.slot and r.text != draft.text
        ]
        older += [rid for rid in extraction.supersedes if rid in current and rid not in older]
        memory.supersede(store, older, new_id)
        retired += len(older)
        for rid in older:
            current.pop(rid, None)
    leftovers = [rid for rid in extraction.supersedes if rid in current and rid not in new_ids]
    if leftovers and new_ids:
        memory.supersede(store, leftovers, new_ids[0])
        retired += len(leftovers)
    return retired


def write_pending(
    store: Store,
    engine: Engine,
    embedder: Embedder,
    dedup_threshold: float = 0.9,
    progress: Progress | None = None,
) -> WriteReport:
    """Run the write path over every session not yet written, oldest first."""
    started = time.perf_counter()
    report = WriteReport(engine=engine.name)
    progress = progress or SilentProgress()
    pending = memory.pending_sessions(store)
    progress.start(f"extracting memories ({engine.name})", len(pending))
    for session_id in pending:
        session = memory.session_view(store, session_id)
        try:
            updates = extract_session(store, engine, session, memory.registry(store))
        except EngineError as exc:
            report.failures.append(SessionFailure(session_id, str(exc)))
        else:
            _apply(store, session, updates, embedder, dedup_threshold, report)
            report.sessions += 1
        progress.advance(1)
    report.usage = {k: v for k, v in asdict(engine.usage).items()}
    report.seconds = time.perf_counter() - started
    return report


REBUILD_STARTED = "rebuild started"
REBUILD_FINISHED = "rebuild finished"


def rebuild(
    store: Store,
    engine: Engine,
    embedder: Embedder,
    dedup_threshold: float = 0.9,
    progress: Progress | None = None,
) -> WriteReport:
    """Re-derive profiles and residuals from the raw turns (e.g. after switching engine).

    An interrupted rebuild is resumed, not restarted, by running it again.
    """
    last = store.scalar(
        "SELECT op FROM oplog WHERE op IN (?, ?) ORDER BY id DESC LIMIT 1", [REBUILD_STARTED, REBUILD_FINISHED]
    )
    if last != REBUILD_STARTED:
        with store.transaction():
            memory.reset_written(store)
            store.log(REBUILD_STARTED, f"engine {engine.name}")
    report = write_pending(store, engine, embedder, dedup_threshold, progress)
    if not report.failures:
        with store.transaction():
            store.log(REBUILD_FINISHED, f"engine {engine.name}: {report.sessions} sessions")
    return report
