"""The raw layer: sources, sessions and turns, written in bulk through Arrow."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

import numpy as np
import pyarrow as pa

from memhop.core.importers.base import ParsedSource, Session, Turn
from memhop.core.store import cues
from memhop.core.store.bulk import bulk_insert
from memhop.core.store.db import Store


@dataclass(frozen=True)
class RawCounts:
    sessions: int
    turns: int


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def source_id_for(store: Store, sha256: str) -> int | None:
    found = store.scalar("SELECT id FROM sources WHERE sha256 = ?", [sha256])
    return None if found is None else int(found)


def fingerprints(session: Session) -> list[str]:
    """A turn's identity across overlapping exports: its session, speaker, time, text and
    how many identical turns came before it in that session."""
    seen: Counter[tuple[str, str, str]] = Counter()
    out = []
    for turn in session.turns:
        stamp = turn.timestamp.isoformat() if turn.timestamp else ""
        key = (turn.speaker, stamp, turn.text)
        seen[key] += 1
        raw = "\x1f".join((session.external_id, *key, str(seen[key])))
        out.append(hashlib.sha256(raw.encode("utf-8")).hexdigest())
    return out


def new_turns(store: Store, parsed: ParsedSource) -> list[tuple[Session, list[tuple[Turn, str]]]]:
    """Only the turns the store does not hold yet, grouped by session (empty sessions dropped)."""
    per_session = [(s, list(zip(s.turns, fingerprints(s)))) for s in parsed.sessions]
    all_prints = [fp for _, pairs in per_session for _, fp in pairs]
    known: set[str] = set()
    if all_prints:
        probe = pa.table({"fp": pa.array(all_prints, pa.string())})
        store.con.register("probe_fps", probe)
        try:
            rows = store.con.execute(
                "SELECT t.fingerprint FROM turns t JOIN probe_fps p ON t.fingerprint = p.fp"
            ).fetchall()
        finally:
            store.con.unregister("probe_fps")
        known = {r[0] for r in rows}
    result = []
    for session, pairs in per_session:
        fresh = [(turn, fp) for turn, fp in pairs if fp not in known]
        if fresh:
            result.append((session, fresh))
    return result


def insert_source(
    store: Store,
    path: str,
    sha256: str,
    parsed: ParsedSource,
    batches: list[tuple[Session, list[tuple[Turn, str]]]],
    embeddings: np.ndarray,
    self_name: str | None,
) -> RawCounts:
    """Insert one source with its new sessions and turns; the caller holds the transaction."""
    source_id = store.next_id("sources")
    bulk_insert(
        store,
        "sources",
        {
            "id": [source_id],
            "path": [path],
            "sha256": [sha256],
            "format": [parsed.format],
            "owner": [parsed.owner],
            "imported_at": [datetime.now()],
        },
    )
    session_id = store.next_id("sessions")
    turn_id = store.next_id("turns")
    sessions: dict[str, list[object]] = {k: [] for k in ("id", "external_id", "title", "started_at")}
    turns: dict[str, list[object]] = {
        k: [] for k in ("id", "session_id", "position", "speaker", "ts", "text", "external_id", "fingerprint")
    }
    filed: list[tuple[int, str, str]] = []
    for session, pairs in batches:
        sessions["id"].append(session_id)
        sessions["external_id"].append(session.external_id)
        sessions["title"].append(session.title)
        sessions["started_at"].append(session.started_at or pairs[0][0].timestamp)
        for position, (turn, fp) in enumerate(pairs):
            turns["id"].append(turn_id)
            turns["session_id"].append(session_id)
            turns["position"].append(position)
            turns["speaker"].append(turn.speaker)
            turns["ts"].append(turn.timestamp)
            turns["text"].append(turn.text)
            turns["external_id"].append(turn.external_id)
            turns["fingerprint"].append(fp)
            filed.append((turn_id, turn.speaker, turn.text))  # the cue table's rows, typed
            turn_id += 1
        session_id += 1
    n_sessions = len(sessions["id"])
    written_at: list[datetime | None] = [None] * n_sessions
    bulk_insert(
        store,
        "sessions",
        {**sessions, "source_id": [source_id] * n_sessions, "self_name": [self_name] * n_sessions, "written_at": written_at},
    )
    bulk_insert(store, "turns", {**turns, "embedding": embeddings})
    cues.add_turns(store.con, filed)
    return RawCounts(sessions=n_sessions, turns=len(turns["id"]))
