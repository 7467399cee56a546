"""Entity updates held back because their model call failed (after its retries).

One entity's bad reply must not cost the whole session: the session is written without
that entity's profile and facts (its identification and mentions are kept), and the
update is held here. Every later session's update of the same entity is held behind it
(it must see the profile the earlier one leaves), so each entity's updates still apply
in session order. The next write run (ingest, rebuild) retries them, oldest first.

Only ids, turn ids and the engine's error are kept: no prompt, reply, name or key.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from memhop.core.store.db import Store, has_table

TABLE = "quarantine"
WAITING = "waits for its update of session {session}"  # the reason of an update held behind another


@dataclass(frozen=True)
class Held:
    entity_id: int
    session_id: int
    turn_ids: tuple[int, ...]
    reason: str
    attempts: int  # failed model calls for it (0: it only waits for an earlier one)
    rank: int = 0  # its session's place in write order (sessions by date, then id)


def hold(store: Store, entity_id: int, session_id: int, turn_ids: tuple[int, ...], reason: str, failed: bool) -> None:
    """Record (or record again) a held update, inside the caller's transaction."""
    now = datetime.now()
    row = store.con.execute(
        f"SELECT attempts, first_failed_at FROM {TABLE} WHERE entity_id = ? AND session_id = ?", [entity_id, session_id]
    ).fetchone()
    attempts, first = (int(row[0]), row[1]) if row else (0, now)
    store.con.execute(f"DELETE FROM {TABLE} WHERE entity_id = ? AND session_id = ?", [entity_id, session_id])
    store.con.execute(
        f"INSERT INTO {TABLE} VALUES (?, ?, ?, ?, ?, ?, ?)",
        [entity_id, session_id, list(turn_ids), reason[:500], attempts + int(failed), first, now],
    )


def release(store: Store, entity_id: int, session_id: int) -> None:
    """The update was applied (inside the transaction that applied it)."""
    store.con.execute(f"DELETE FROM {TABLE} WHERE entity_id = ? AND session_id = ?", [entity_id, session_id])


def held(store: Store) -> list[Held]:
    """Every held update, in the order sessions are written (date, id), then by entity."""
    rows = store.con.execute(
        "SELECT q.entity_id, q.session_id, q.turn_ids, q.reason, q.attempts, "
        f"dense_rank() OVER (ORDER BY s.started_at NULLS LAST, s.id) FROM {TABLE} q "
        "JOIN sessions s ON s.id = q.session_id JOIN entities e ON e.id = q.entity_id "
        "ORDER BY s.started_at NULLS LAST, s.id, q.entity_id"
    ).fetchall()
    return [Held(int(r[0]), int(r[1]), tuple(r[2]), str(r[3]), int(r[4]), int(r[5])) for r in rows]


def first_held(store: Store) -> dict[int, int]:
    """Entity id -> the session of its first held update (its later updates wait for it)."""
    first: dict[int, int] = {}
    for item in held(store):
        first.setdefault(item.entity_id, item.session_id)
    return first


def move(store: Store, from_id: int, to_id: int) -> None:
    """A merge: the folded entity's held updates become the kept one's (one per session)."""
    store.con.execute(
        f"DELETE FROM {TABLE} WHERE entity_id = ? AND session_id IN (SELECT session_id FROM {TABLE} WHERE entity_id = ?)",
        [from_id, to_id],
    )
    store.con.execute(f"UPDATE {TABLE} SET entity_id = ? WHERE entity_id = ?", [to_id, from_id])


def clear(store: Store) -> None:
    """A rebuild starts the memory layers afresh: nothing is held any more."""
    store.con.execute(f"DELETE FROM {TABLE}")


def listing(store: Store) -> list[dict[str, Any]]:
    """What `memhop stats` shows: whose update, which session (date, source), why."""
    if not has_table(store.con, TABLE):  # a store opened read-only before migration 6 holds none
        return []
    rows = store.con.execute(
        f"SELECT e.name, q.session_id, s.started_at, src.path, q.attempts, q.reason, q.last_failed_at FROM {TABLE} q "
        "JOIN entities e ON e.id = q.entity_id JOIN sessions s ON s.id = q.session_id "
        "JOIN sources src ON src.id = s.source_id ORDER BY s.started_at NULLS LAST, s.id, e.name"
    ).fetchall()
    return [
        {
            "entity": r[0],
            "session": int(r[1]),
            "date": _day(r[2]),
            "source": r[3],
            "attempts": int(r[4]),
            "reason": r[5],
            "last_tried": r[6].isoformat(timespec="seconds"),
        }
        for r in rows
    ]


def _day(value: datetime | date | None) -> str | None:
    return None if value is None else value.date().isoformat() if isinstance(value, datetime) else value.isoformat()
