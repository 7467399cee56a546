"""The two-layer write path (ProGraph §3.1): per session, one engine call to identify its
entities, then one co-extraction call per entity returning the updated profile and the
residuals the profile would lose. Engine calls happen before the transaction; each
session is then written whole or not at all, so a failed session is simply retried by
the next run.

One entity's failed co-extraction does not fail its session: the session is written
without that entity's profile and facts, and the update is held (core/store/quarantine.py),
with every later update of the same entity behind it, until a later run applies them in
session order (core/write_held.py). A failed identification stops the run at its session
(the sessions after it stay pending), so sessions are still written in date order.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field, replace
from functools import partial

import numpy as np

from memhop.core.embed import Embedder, RememberingEmbedder
from memhop.core.engines.base import Engine
from memhop.core.errors import EngineError, EngineUnreachable
from memhop.core.language import relations
from memhop.core.limits import fit_session
from memhop.core.model import (
    Extraction,
    FoundEntity,
    KnownEntity,
    ResidualDraft,
    SessionView,
    add_votes,
    decide_kind,
)
from memhop.core.progress import Progress, SilentProgress
from memhop.core.store import Store, memory, quarantine, spend
from memhop.core.write_batch import SessionBatch


@dataclass
class SessionFailure:
    session_id: int
    error: str


@dataclass
class HeldUpdate:
    """An entity's update of one session, held back for a later run."""

    entity: str
    session_id: int
    reason: str


@dataclass
class WriteReport:
    engine: str
    sessions: int = 0
    entities_added: int = 0
    residuals_added: int = 0
    residuals_deduplicated: int = 0
    residuals_superseded: int = 0
    failures: list[SessionFailure] = field(default_factory=list)
    quarantined: list[HeldUpdate] = field(default_factory=list)  # held back by this run
    released: int = 0  # updates held by an earlier run that this run applied
    warnings: list[str] = field(default_factory=list)  # turns the engines read only part of
    usage: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0


@dataclass(frozen=True)
class _EntityUpdate:
    found: FoundEntity
    known: KnownEntity | None
    extraction: Extraction
    profile_before: str | None = None
    residuals_before: tuple[memory.StoredResidual, ...] = ()  # live ones, when the engine was called
    held: str | None = None  # why its profile and facts are held back (its co-extraction failed, or waits)
    failed: bool = False  # held because its own call failed (not only waiting behind an earlier one)
    vectors: _SessionVectors | None = None  # embedded already, on the worker that asked for it

    @property
    def profile_changed(self) -> bool:
        return self.held is None and self.extraction.profile != self.profile_before


def _held_update(
    found: FoundEntity, known: KnownEntity | None, profile: str | None, reason: str, failed: bool
) -> _EntityUpdate:
    """Identification applied (entity, aliases, mentions), profile and facts not."""
    return _EntityUpdate(found, known, Extraction(profile or "", ()), profile, (), reason, failed)


def _registry_entry(found: FoundEntity, registry: Sequence[KnownEntity]) -> KnownEntity | None:
    """The stored entity the engine found: same name, or one known only by a kin word that
    the engine now names ("Leena", also "Mum"), which is then renamed."""
    for known in registry:
        if known.name == found.name:
            return known
    kin_named = [k for k in registry if k.name.lower() in relations.KIN_ALIASES and k.name in found.aliases]
    return kin_named[0] if len(kin_named) == 1 else None


def extract_session(
    store: Store,
    engine: Engine,
    session: SessionView,
    registry: Sequence[KnownEntity],
    pool: ThreadPoolExecutor | None = None,
    held: Mapping[int, int] | None = None,
    embedder: Embedder | None = None,
    identified: Sequence[FoundEntity] | None = None,
) -> list[_EntityUpdate]:
    """All engine calls for one session (1 + E of them, E when `identified`, the session's
    identification against `registry`, was made already); reads the store, writes nothing.
    With a `pool`, the E co-extractions run at once: each sees only the state before the
    session, so the result is the sequential one.

    An entity whose co-extraction fails (EngineError) comes back held; so does one in
    `held` (entity id -> the session of its first held update), without a call: its
    update must wait for that one. EngineUnreachable and a failed identification raise.
    With an `embedder`, each update is embedded on its worker as soon as its reply is in,
    while the session's slower calls are still out."""
    waiting = held or {}
    if identified is None:
        identified = engine.identify(session, registry)
    entities = [(found, _registry_entry(found, registry)) for found in identified]
    known_ids = [known.id for _, known in entities if known]
    profiles = memory.profiles_of(store, known_ids)
    residuals = memory.residuals_of_many(store, known_ids)
    inputs = []
    for found, known in entities:
        profile = profiles.get(known.id) if known else None
        before = tuple(residuals.get(known.id, ())) if known else ()
        inputs.append((found, known, profile, before))

    def call(item: tuple[FoundEntity, KnownEntity | None, str | None, tuple[memory.StoredResidual, ...]]) -> _EntityUpdate:
        found, known, profile, before = item
        if known is not None and known.id in waiting:
            return _held_update(found, known, profile, quarantine.WAITING.format(session=waiting[known.id]), False)
        update = coextract_update(engine, session, found, known, profile, before)
        if embedder is None or update.held is not None:
            return update
        return replace(update, vectors=_embed([update], embedder)[0])

    return list(pool.map(call, inputs) if pool is not None and len(inputs) > 1 else map(call, inputs))


def coextract_update(
    engine: Engine,
    session: SessionView,
    found: FoundEntity,
    known: KnownEntity | None,
    profile: str | None,
    before: tuple[memory.StoredResidual, ...],
) -> _EntityUpdate:
    """One co-extraction (no store access: it may run on a worker thread); a call that
    failed for good (EngineError) comes back as a held update, EngineUnreachable raises."""
    try:
        extraction = engine.coextract(found, profile, memory.as_existing(before), session)
    except EngineUnreachable:
        raise
    except EngineError as exc:
        return _held_update(found, known, profile, str(exc), True)
    return _EntityUpdate(found, known, extraction, profile, before)


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


@dataclass(frozen=True)
class _SessionVectors:
    profile: np.ndarray | None  # None: the profile did not change (or its SessionBatch embeds it)
    drafts: np.ndarray  # one row per residual draft


def _embed(updates: Sequence[_EntityUpdate], embedder: Embedder, profiles: bool = True) -> list[_SessionVectors]:
    """One embedding call per session: changed profiles (unless a SessionBatch embeds them
    at its commit) and every residual draft (of the updates not embedded already, on a worker)."""
    todo = [u for u in updates if u.vectors is None]
    texts: list[str] = []
    for u in todo:
        if profiles and u.profile_changed:
            texts.append(u.extraction.profile)
        texts += [d.text for d in u.extraction.residuals]
    matrix, row, out = embedder.embed(texts) if texts else np.zeros((0, embedder.dim), np.float32), 0, []
    for u in updates:
        if u.vectors is not None:
            out.append(u.vectors)
            continue
        profile = None
        if profiles and u.profile_changed:
            profile, row = matrix[row], row + 1
        count = len(u.extraction.residuals)
        out.append(_SessionVectors(profile, matrix[row : row + count]))
        row += count
    return out


@dataclass(frozen=True)
class Prepared:
    """A session's updates embedded and deduplicated against what is stored: all `_apply`
    needs besides the store, worked out before its transaction."""

    updates: Sequence[_EntityUpdate]
    vectors: list[_SessionVectors]
    kept: list[list[int]]  # per update, its residual drafts that repeat nothing stored


def prepare(
    store: Store, updates: Sequence[_EntityUpdate], embedder: Embedder, threshold: float,
    vectors: list[_SessionVectors] | None = None, profiles: bool = True,
) -> Prepared:
    vectors = _embed(updates, embedder, profiles) if vectors is None else vectors
    previous = memory.residual_vectors(store, [u.known.id for u in updates if u.known])
    empty = np.zeros((0, embedder.dim), dtype=np.float32)
    kept = [novel_residuals(u.extraction.residuals, v.drafts, previous.get(u.known.id, empty) if u.known else empty,
                            threshold) for u, v in zip(updates, vectors)]
    return Prepared(updates, vectors, kept)


def expected_after(prepared: Prepared, first_id: int) -> dict[int, tuple[str | None, tuple[memory.StoredResidual, ...]]]:
    """Each known entity's profile and live residuals as `_apply` will leave them (its new
    residuals numbered from `first_id` on, as the insert numbers them), so the next
    session's co-extraction can be asked while this one is written. Entities found twice
    in the session, new ones and held ones are left out."""
    found = [u.known.id for u in prepared.updates if u.known]
    next_id, out = first_id, {}
    for u, keep in zip(prepared.updates, prepared.kept):
        added = [(u.extraction.residuals[i], next_id + n) for n, i in enumerate(keep)]
        next_id += len(keep)
        if u.known is None or u.held is not None or found.count(u.known.id) > 1:
            continue
        retired = {old for old, _ in _retirements(u, added)}
        live = [r for r in u.residuals_before if r.id not in retired] + [
            memory.StoredResidual(i, u.known.id, d.text, d.category, d.date, d.slot, None, d.source_turns)
            for d, i in added
        ]
        out[u.known.id] = (u.extraction.profile if u.profile_changed else u.profile_before, tuple(live))
    return out


def _apply(
    store: Store,
    session: SessionView,
    updates: Sequence[_EntityUpdate],
    embedder: Embedder,
    threshold: float,
    report: WriteReport,
    retried: bool = False,
    prepared: Prepared | None = None,
    meanwhile: Callable[[], None] | None = None,
    batch: SessionBatch | None = None,
) -> None:
    """The session in one transaction, one statement per table rather than per entity.
    `retried`: updates held by an earlier run, of a session written already (their
    entities and mentions are stored: only profiles and facts are applied).

    `meanwhile` runs inside the transaction once the entities are written (the registry is
    as the session leaves it), while a worker thread embeds the session's profiles and
    facts: ONNX Runtime leaves the GIL as it computes, so the next session's identification
    (write_pending) is done on the core the embedder leaves idle.

    In a `batch`, the session is written in the batch's transaction and its changed
    profiles are embedded by the batch, once, when it commits."""
    profiles = batch is None
    if prepared is None and meanwhile is None:  # nothing to overlap: embed before the transaction opens
        prepared = prepare(store, updates, embedder, threshold, profiles=profiles)
    with ExitStack() as stack:
        embedding = None
        if prepared is None:
            embedding = stack.enter_context(ThreadPoolExecutor(1, "memhop-embed")).submit(
                _embed, updates, embedder, profiles)
        with batch.session() if batch is not None else store.transaction():
            entity_ids = [u.known.id if retried and u.known else _ensure_entity(store, u, report) for u in updates]
            if meanwhile is not None:
                meanwhile()
            prepared = prepared or prepare(store, updates, embedder, threshold, embedding.result() if embedding else None)
            _write_memory(store, session, updates, entity_ids, prepared, embedder.dim, report, retried, batch)


def _write_memory(
    store: Store,
    session: SessionView,
    updates: Sequence[_EntityUpdate],
    entity_ids: list[int],
    prepared: Prepared,
    dim: int,
    report: WriteReport,
    retried: bool,
    batch: SessionBatch | None = None,
) -> None:
    """Profiles, mentions, facts, replacements and held updates of a session whose entities
    are written; the caller holds the transaction. In a `batch`, profiles are put with a
    placeholder vector that the batch replaces before it commits."""
    vectors, kept = prepared.vectors, prepared.kept
    profiles = {e: (u.extraction.profile, v.profile) for u, v, e in zip(updates, vectors, entity_ids)
                if u.profile_changed}  # an entity found twice keeps its last profile
    texts = [text for text, _ in profiles.values()]
    if batch is not None:
        batch.defer(list(profiles), texts)
        matrix = np.zeros((len(profiles), dim), dtype=np.float32)
    else:
        matrix = np.array([vec for _, vec in profiles.values()], dtype=np.float32).reshape(-1, dim)
    memory.put_profiles(store, list(profiles), texts, matrix)
    memory.add_mention_pairs(store, [(e, t) for u, e in zip(updates, entity_ids) for t in u.found.turn_ids])
    report.residuals_deduplicated += sum(len(u.extraction.residuals) - len(k) for u, k in zip(updates, kept))
    rows = [(e, u.extraction.residuals[i], v.drafts[i])
            for u, v, e, k in zip(updates, vectors, entity_ids, kept) for i in k]
    new_ids = iter(memory.insert_residual_rows(
        store, [e for e, _, _ in rows], [d for _, d, _ in rows],
        np.array([vec for _, _, vec in rows], dtype=np.float32).reshape(-1, dim),
    ))
    report.residuals_added += len(rows)
    for update, keep in zip(updates, kept):
        added = [(update.extraction.residuals[i], next(new_ids)) for i in keep]
        report.residuals_superseded += _supersede(store, update, added)
    for update, entity_id in zip(updates, entity_ids):
        if update.held is not None:
            quarantine.hold(store, entity_id, session.id, update.found.turn_ids, update.held, update.failed)
            report.quarantined.append(HeldUpdate(update.found.name, session.id, update.held))
        elif retried:
            quarantine.release(store, entity_id, session.id)
            report.released += 1
    if not retried:
        memory.mark_written(store, session.id)


def _ensure_entity(store: Store, update: _EntityUpdate, report: WriteReport) -> int:
    found = update.found
    if update.known is None:
        report.entities_added += 1
        return memory.add_entity(store, found.name, found.kind, found.aliases, found.kind_votes)
    known = update.known
    votes = add_votes(known.kind_votes, found.kind_votes or ((found.kind, 1.0),))
    kind = decide_kind(votes, known.kind)
    memory.set_kind(store, known.id, kind, votes)
    known = replace(known, kind=kind)
    merged = set(known.aliases) | set(found.aliases)
    if found.name != known.name:  # matched through a kin word: the engine's name wins
        merged.add(found.name)
    fuller = fuller_name(known, merged)
    holder = memory.entity_by_name(store, fuller) if fuller is not None else None
    if fuller is not None and (holder is None or holder.id == known.id):
        memory.rename_entity(store, known.id, fuller)
        merged = (merged - {fuller}) | {known.name}
    if merged != set(known.aliases):
        memory.set_aliases(store, known.id, sorted(merged))
    return known.id


def fuller_name(known: KnownEntity, aliases: set[str]) -> str | None:
    """'Bob' first seen in a diary becomes 'Bob Kowalski' once the full name turns up, and
    'Mum' becomes 'Leena' once the diary says "Mum (Leena)"."""
    if known.kind not in ("person", "self") or " " in known.name:
        return None
    if known.name.lower() in relations.KIN_ALIASES:
        names = sorted(a for a in aliases if a.lower() not in relations.KIN_ALIASES and a[:1].isupper())
        return names[0] if names else None
    own = known.name.lower()
    # "Bob" -> "Bob Kowalski"; "Sora" -> "Lima Sora" (family name first, see identify)
    longer = sorted(
        a for a in aliases if len(a.split()) == 2 and (a.lower().startswith(own + " ") or a.lower().endswith(" " + own))
    )
    return longer[0] if longer else None


def _supersede(store: Store, update: _EntityUpdate, added: Sequence[tuple[ResidualDraft, int]]) -> int:
    """Retire the older residuals the engine says this session replaces (a new job, a new
    home): each points at the new residual of the same slot, else at the entity's first
    new one, and stays stored, hidden from answers. Only the engine decides: a residual of
    the same slot that restates the same value ("works at X" after "started at X") is
    not a replacement, and only the engine can tell the two apart."""
    retired = _retirements(update, added)
    for old_id, new_id in retired:
        memory.supersede(store, [old_id], new_id)
    return len(retired)


def _retirements(update: _EntityUpdate, added: Sequence[tuple[ResidualDraft, int]]) -> list[tuple[int, int]]:
    """(old residual, the new one that replaces it) for each replacement `_supersede` makes."""
    live = {r.id: r for r in update.residuals_before}
    pairs = []
    for old_id in dict.fromkeys(update.extraction.supersedes):
        old = live.get(old_id)
        if old is None or not added:  # not this entity's live residual, or nothing replaces it
            continue
        pairs.append((old_id, next((i for d, i in added if d.slot and d.slot == old.slot), added[0][1])))
    return pairs


@dataclass
class _Identified:
    """A pending session as the engines read it, the registry of that moment, and, when it
    was identified ahead, the engine's answer (or its failure: an EngineError is recorded
    as the session's failure, anything else is raised to the caller)."""

    session: SessionView
    cut_turns: list[str]
    registry: list[KnownEntity]
    found: list[FoundEntity] | None = None
    failure: BaseException | None = None


def _read(store: Store, session_id: int) -> _Identified:
    session, cut_turns = fit_session(memory.session_view(store, session_id))
    return _Identified(session, cut_turns, memory.registry(store))


def _identify_into(out: list[_Identified], store: Store, engine: Engine, session_id: int) -> None:
    """The session identified against the registry as it is now (inside the transaction of
    the session before it, its entities written), kept for the loop's next turn; a failure
    is kept too, and stops the run there, after the session before it is committed.

    Any failure is kept, not only an EngineError: raised here, inside that transaction, a
    Ctrl-C, a missing model or a bug in identify would roll back the finished session."""
    step = _read(store, session_id)
    try:
        step.found = engine.identify(step.session, step.registry)
    except BaseException as exc:  # re-raised by write_pending once the session before is committed
        step.failure = exc
    out.append(step)


def engine_jobs(engine: Engine) -> int:
    """How many model calls the engine says it can have in flight (1: call it sequentially;
    the offline engine is CPU-bound and not thread-safe, so it says nothing)."""
    jobs = getattr(engine, "concurrency", 1)
    return jobs if isinstance(jobs, int) and jobs > 1 else 1


def write_pending(
    store: Store,
    engine: Engine,
    embedder: Embedder,
    dedup_threshold: float = 0.9,
    progress: Progress | None = None,
    fresh: bool = False,
) -> WriteReport:
    """Run the write path over every session not yet written, oldest first.

    An engine that keeps replies (`use_replies`) keeps them in the store, so a run that was
    killed resumes without paying again; `fresh` asks anew what earlier runs asked. One
    that runs calls concurrently (`concurrency` > 1) has upcoming sessions prefetched
    (core/prefetch.py) while sessions are still applied one by one, in order.

    Entity updates an earlier run held back (a failed co-extraction) are retried first,
    each entity's in session order; an entity still held holds its updates of this run's
    sessions too. A failed identification, or a server that cannot be reached, stops the
    run: the sessions left stay pending, so sessions are still written in date order."""
    from memhop.core.prefetch import Prefetcher
    from memhop.core.store.replies import ReplyCache
    from memhop.core.write_held import retry_held

    started = time.perf_counter()
    store.check_embedder(embedder)
    embedder = RememberingEmbedder(embedder)  # a restated fact or profile is embedded once a run
    report = WriteReport(engine=engine.name)
    progress = progress or SilentProgress()
    pending = memory.pending_sessions(store)
    progress.start(f"extracting memories ({engine.name})", len(pending))
    keep = getattr(engine, "use_replies", None)
    replies = ReplyCache(store, reuse=not fresh) if callable(keep) else None
    jobs = engine_jobs(engine)
    with ExitStack() as stack:
        if replies is not None and callable(keep):
            keep(replies)
            stack.callback(replies.close)
            stack.callback(keep, None)
        stack.callback(_count_spend, store, engine, asdict(engine.usage))
        pool = stack.enter_context(ThreadPoolExecutor(jobs, "memhop-call")) if jobs > 1 else None
        held = retry_held(store, engine, embedder, dedup_threshold, report, pool)
        if held is None:  # the server is gone: nothing more to try
            pending, held = [], {}
        prefetch = stack.enter_context(Prefetcher(store, engine, pending, jobs, held)) if jobs > 1 and pending else None
        overlap = pool is None and replies is None  # a local engine called in turn: see _apply's `meanwhile`
        # a local engine's sessions share transactions, their profiles embedded once each (core/write_batch.py)
        batch = stack.enter_context(SessionBatch(store, embedder)) if overlap else None
        ahead: list[_Identified] = []  # the next session, identified while this one was embedded
        for position, session_id in enumerate(pending):
            if prefetch is not None:
                prefetch.advance(position)
            step = ahead.pop() if ahead else _read(store, session_id)
            session = step.session
            report.warnings += step.cut_turns
            try:
                if step.failure is not None:
                    raise step.failure  # the sessions before it are whole: the batch keeps them
                updates = extract_session(store, engine, session, step.registry, pool, held,
                                          embedder if pool is not None else None, step.found)
            except EngineError as exc:  # no identification (or no server): later sessions must wait
                report.failures.append(SessionFailure(session_id, str(exc)))
                break  # the sessions left stay pending for the next run, still in date order
            if overlap and position + 1 < len(pending):
                following = partial(_identify_into, ahead, store, engine, pending[position + 1])
                _apply(store, session, updates, embedder, dedup_threshold, report, meanwhile=following, batch=batch)
            else:
                prepared = prepare(store, updates, embedder, dedup_threshold, profiles=batch is None)
                if prefetch is not None:  # the next session's calls for these entities, asked while this one is written
                    prefetch.expect(position + 1, expected_after(prepared, store.next_id("residuals")))
                _apply(store, session, updates, embedder, dedup_threshold, report, prepared=prepared, batch=batch)
            if any(u.failed for u in updates):
                held.update({e: s for e, s in quarantine.first_held(store).items() if e not in held})
            report.sessions += 1
            progress.advance(1)
            progress.note(spend_note(engine, started))
    report.usage = {k: v for k, v in asdict(engine.usage).items()}
    report.seconds = time.perf_counter() - started
    return report


def spend_note(engine: Engine, started: float) -> str:
    """What the progress bar shows of the run's model calls: rate and tokens so far."""
    usage = engine.usage
    seconds = max(time.perf_counter() - started, 1e-9)
    tokens = usage.prompt_tokens + usage.completion_tokens
    return f"{usage.calls} calls, {usage.calls / seconds:.1f}/s, {tokens:,} tokens" if usage.calls else ""


def _count_spend(store: Store, engine: Engine, before: dict[str, float]) -> None:
    """Add what this run's engine calls cost to the store's counters (`memhop stats`)."""
    spent = spend.Spent.between(before, asdict(engine.usage))
    with store.transaction():
        spend.add(store, engine.name, str(getattr(engine, "model", "") or ""), spent)


REBUILD_STARTED = "rebuild started"
REBUILD_FINISHED = "rebuild finished"


def rebuild(
    store: Store,
    engine: Engine,
    embedder: Embedder,
    dedup_threshold: float = 0.9,
    progress: Progress | None = None,
    fresh: bool = False,
) -> WriteReport:
    """Re-derive profiles and residuals from the raw turns (e.g. after switching engine).

    An interrupted rebuild is resumed, not restarted, by running it again. Replies kept
    from earlier runs are reused (same model, prompt version and request) unless `fresh`.
    """
    if store.last_op((REBUILD_STARTED, REBUILD_FINISHED)) != REBUILD_STARTED:
        with store.transaction():
            memory.reset_written(store)
            quarantine.clear(store)
            store.log(REBUILD_STARTED, f"engine {engine.name}")
    report = write_pending(store, engine, embedder, dedup_threshold, progress, fresh)
    if not report.failures:
        with store.transaction():
            store.log(REBUILD_FINISHED, f"engine {engine.name}: {report.sessions} sessions")
    return report
