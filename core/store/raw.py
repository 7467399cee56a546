"""The raw layer: sources, sessions and turns, written in bulk through Arrow."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

import numpy as np
import pyarrow as pa

from memhop.core.embed import DIM
from memhop.core.importers.base import ParsedSource, Session, Turn
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
    store.con.execute(
        "INSERT INTO sources VALUES (?, ?, ?, ?, ?, ?)",
        [source_id, path, sha256, parsed.format, parsed.owner, datetime.now()],
    )
    session_id = store.next_id("sessions")
    turn_id = store.next_id("turns")
    session_rows: dict[str, list[object]] = {k: [] for k in ("id", "ext", "title", "start")}
    turn_cols: dict[str, list[object]] = {
        k: [] for k in ("id", "session_id", "position", "speaker", "ts", "text", "ext", "fp")
    }
    for session, pairs in batches:
        session_rows["id"].append(session_id)
        session_rows["ext"].append(session.external_id)
        session_rows["title"].append(session.title)
        session_rows["start"].append(session.started_at or pairs[0][0].timestamp)
        for position, (turn, fp) in enumerate(pairs):
            turn_cols["id"].append(turn_id)
            turn_cols["session_id"].append(session_id)
            turn_cols["position"].append(position)
            turn_cols["speaker"].append(turn.speaker)
            turn_cols["ts"].append(turn.timestamp)
            turn_cols["text"].append(turn.text)
            turn_cols["ext"].append(turn.external_id)
            turn_cols["fp"].append(fp)
            turn_id += 1
        session_id += 1
    n_sessions = len(session_rows["id"])
    sessions = pa.table(
        {
            "id": pa.array(session_rows["id"], pa.int32()),
            "source_id": pa.array([source_id] * n_sessions, pa.int32()),
            "external_id": pa.array(session_rows["ext"], pa.string()),
            "title": pa.array(session_rows["title"], pa.string()),
            "started_at": pa.array(session_rows["start"], pa.timestamp("us")),
            "self_name": pa.array([self_name] * n_sessions, pa.string()),
            "written_at": pa.array([None] * n_sessions, pa.timestamp("us")),
        }
    )
    turns = pa.table(
        {
            "id": pa.array(turn_cols["id"], pa.int32()),
            "session_id": pa.array(turn_cols["session_id"], pa.int32()),
            "position": pa.array(turn_cols["position"], pa.int32()),
            "speaker": pa.array(turn_cols["speaker"], pa.string()),
            "ts": pa.array(turn_cols["ts"], pa.timestamp("us")),
            "text": pa.array(turn_cols["text"], pa.string()),
            "external_id": pa.array(turn_cols["ext"], pa.string()),
            "fingerprint": pa.array(turn_cols["fp"], pa.string()),
            "embedding": vectors_to_arrow(embeddings),
        }
    )
    for name, table in (("new_sessions", sessions), ("new_turns", turns)):
        store.con.register(name, table)
    try:
        store.con.execute("INSERT INTO sessions SELECT * FROM new_sessions")
        store.con.execute("INSERT INTO turns SELECT * FROM new_turns")
    finally:
        for name in ("new_sessions", "new_turns"):
            store.con.unregister(name)
    return RawCounts(sessions=n_sessions, turns=len(turn_cols["id"]))


def vectors_to_arrow(vectors: np.ndarray) -> pa.FixedSizeListArray:
    flat = np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1)
    return pa.FixedSizeListArray.from_arrays(pa.array(flat, pa.float32()), DIM)
