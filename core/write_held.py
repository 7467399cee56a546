"""Retrying the entity updates an earlier write run held back (core/store/quarantine.py).

Each entity's held updates are retried in session order, one at a time: the second must
see the profile and facts the first leaves. Different entities do not depend on each
other, so the first held update of every entity is asked at once (on the write path's
pool), then the second, and so on; results are applied in session order. An entity
whose retry fails again keeps that update, and those behind it, held for the next run.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from memhop.core.embed import Embedder
from memhop.core.engines.base import Engine
from memhop.core.errors import EngineUnreachable
from memhop.core.limits import fit_session
from memhop.core.model import FoundEntity, KnownEntity, SessionView
from memhop.core.store import Store, memory, quarantine
from memhop.core.write import SessionFailure, WriteReport, _apply, _EntityUpdate, coextract_update


@dataclass(frozen=True)
class _Retry:
    """One held update's co-extraction, with everything it reads from the store."""

    item: quarantine.Held
    session: SessionView
    entity: KnownEntity
    profile: str | None
    before: tuple[memory.StoredResidual, ...]

    def ask(self, engine: Engine) -> _EntityUpdate:
        found = FoundEntity(self.entity.name, self.entity.kind, self.entity.aliases, self.item.turn_ids)
        return coextract_update(engine, self.session, found, self.entity, self.profile, self.before)


def retry_held(
    store: Store,
    engine: Engine,
    embedder: Embedder,
    threshold: float,
    report: WriteReport,
    pool: ThreadPoolExecutor | None = None,
) -> dict[int, int] | None:
    """Apply what can be applied now; return what stays held (entity id -> the session of
    its first held update), or None when the server cannot be reached (stop the run)."""
    chains: dict[int, list[quarantine.Held]] = {}
    for item in quarantine.held(store):  # in session order
        chains.setdefault(item.entity_id, []).append(item)
    known = {k.id: k for k in memory.registry(store)}
    views: dict[int, SessionView] = {}
    while chains:
        heads = sorted((chain[0] for chain in chains.values()), key=lambda i: i.rank)
        retries = [_read(store, item, known[item.entity_id], views) for item in heads]
        try:
            if pool is not None and len(retries) > 1:
                updates = list(pool.map(lambda retry: retry.ask(engine), retries))
            else:
                updates = [retry.ask(engine) for retry in retries]
        except EngineUnreachable as exc:
            report.failures.append(SessionFailure(heads[0].session_id, str(exc)))
            return None
        by_session: dict[int, list[_EntityUpdate]] = {}
        for item, update in zip(heads, updates):
            by_session.setdefault(item.session_id, []).append(update)
            chain = chains[item.entity_id]
            chain.pop(0)
            if update.held is not None or not chain:  # failed again: the rest of its chain waits
                del chains[item.entity_id]
        for session_id, session_updates in by_session.items():
            _apply(store, views[session_id], session_updates, embedder, threshold, report, retried=True)
    return quarantine.first_held(store)


def _read(store: Store, item: quarantine.Held, entity: KnownEntity, views: dict[int, SessionView]) -> _Retry:
    """The session, the entity as stored now (with the turns identification found about it
    then), its profile and live facts; read here, on the thread that owns the store."""
    if item.session_id not in views:
        views[item.session_id], _ = fit_session(memory.session_view(store, item.session_id))
    profile = memory.profile_of(store, entity.id)
    before = tuple(memory.residuals_of_many(store, [entity.id]).get(entity.id, ()))
    return _Retry(item, views[item.session_id], entity, profile, before)
