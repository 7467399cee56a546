"""Raw turns looked up by id, with where they came from: what a citation, `search` and
`show --turn` print (a date, a speaker and the imported file, never only an internal id)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memhop.core.store.db import Store
from memhop.core.store.lookup import rows_by_id

_SELECT = (
    "SELECT t.id, t.session_id, t.position, t.speaker, t.ts, t.text, t.external_id, src.path "
    "FROM turns t JOIN sessions s ON s.id = t.session_id JOIN sources src ON src.id = s.source_id "
)


@dataclass(frozen=True)
class StoredTurn:
    id: int
    session_id: int
    position: int
    speaker: str
    timestamp: datetime | None
    text: str
    external_id: str | None
    path: str  # the source file as it was imported ("-" for stdin)


def stored_turn(row: tuple[object, ...]) -> StoredTurn:
    """A turns row (id, session, position, speaker, ts, text, external id, file), typed."""
    tid, session, position, speaker, ts, text, external, path = row
    return StoredTurn(
        int(tid), int(session), int(position), str(speaker), ts, str(text),  # type: ignore[call-overload,arg-type]
        None if external is None else str(external), str(path),
    )


def turns_by_id(store: Store, turn_ids: Sequence[int]) -> dict[int, StoredTurn]:
    """The turns that still exist among `turn_ids` (a forgotten one is simply absent)."""
    if not turn_ids:
        return {}
    from memhop.core.store.recall import cites_from_snapshot  # recall imports this module

    snap = cites_from_snapshot(store)
    if snap is not None:  # a large store's snapshot has most of each row
        return snap.turns.stored(turn_ids)
    # IN over a literal list, not list_contains(): DuckDB prunes by the id column's zone maps
    # for IN (8 ms instead of 40 at 100k turns). The turns first, then their sessions' files:
    # joined in one query DuckDB hashes every session (26 ms CPU at 1M turns, 4 like this).
    found = rows_by_id(store.con, "SELECT id, session_id, position, speaker, ts, text, external_id FROM turns", turn_ids)
    if not found:
        return {}
    paths = dict(rows_by_id(
        store.con, "SELECT * FROM (SELECT s.id, src.path FROM sessions s JOIN sources src ON src.id = s.source_id)",
        {int(row[1]) for row in found},
    ))
    return {t.id: t for t in (stored_turn((*row, paths[row[1]])) for row in found if row[1] in paths)}


def turn_with_neighbours(store: Store, turn_id: int, before: int, after: int) -> list[StoredTurn]:
    """The turn and up to `before` / `after` turns around it in its session, in order
    (gaps left by forgotten turns do not count); empty when there is no such turn."""
    head = store.con.execute("SELECT session_id FROM turns WHERE id = ?", [turn_id]).fetchone()
    if head is None:
        return []
    found = store.con.execute(
        "WITH ranked AS (SELECT id, row_number() OVER (ORDER BY position, id) AS n FROM turns WHERE session_id = ?), "
        "here AS (SELECT n FROM ranked WHERE id = ?) "
        + _SELECT
        + "JOIN ranked r ON r.id = t.id WHERE r.n BETWEEN (SELECT n FROM here) - ? AND (SELECT n FROM here) + ? "
        "ORDER BY r.n",
        [head[0], turn_id, before, after],
    ).fetchall()
    return [stored_turn(r) for r in found]
