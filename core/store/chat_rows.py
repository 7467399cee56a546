"""The rows a question about a chat group reads (core/groups.py): who speaks in each
source, the turns that may record a group event, and the messages that say a word. Each
is a scan of the turns, so each runs `scanning`: on a read-only store in lookup mode a
scan would otherwise run on one thread."""

from __future__ import annotations

from datetime import date

from memhop.core.store.db import Store
from memhop.core.store.lookup import scanning

_FROM = "FROM turns t JOIN sessions s ON s.id = t.session_id"


def speakers_by_source(store: Store) -> list[tuple[int, str]]:
    """(source, speaker) for every speaker of every source."""
    with scanning(store.con):
        return store.con.execute(f"SELECT DISTINCT s.source_id, t.speaker {_FROM}").fetchall()


def group_record_candidates(store: Store) -> list[tuple[int, int, str, str]]:
    """(source, turn, speaker, text) of every turn whose words could be a group event's
    ("created group", "changed the subject"), oldest first; the caller tells which are."""
    with scanning(store.con):
        return store.con.execute(
            f"SELECT s.source_id, t.id, t.speaker, t.text {_FROM} "
            "WHERE t.text ILIKE '%group%' OR t.text ILIKE '%subject%' ORDER BY t.ts NULLS LAST, s.started_at, t.position"
        ).fetchall()


def saying(store: Store, fragment: str) -> list[tuple[int, str | None, date | None, str]]:
    """(source, speaker, day, text) of every turn whose text holds `fragment` (any case)."""
    with scanning(store.con):
        return store.con.execute(
            f"SELECT s.source_id, t.speaker, CAST(coalesce(t.ts, s.started_at) AS DATE), t.text {_FROM} "
            "WHERE t.text ILIKE ?",
            [f"%{fragment}%"],
        ).fetchall()
