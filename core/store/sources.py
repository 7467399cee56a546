"""Imported sources as forget --source sees them: which there are, what each brought in,
and what still points at one once it is forgotten."""

from __future__ import annotations

from collections.abc import Sequence

from memhop.core.store.db import Store
from memhop.core.store.tables import rows


def sources(store: Store) -> list[tuple[int, str, str]]:
    """(id, path as imported, sha256) of every source."""
    return [(r[0], r[1], r[2]) for r in rows(store, "SELECT id, path, sha256 FROM sources ORDER BY id")]


def source_contents(store: Store, source_id: int) -> tuple[list[int], list[tuple[int, str]]]:
    """The session ids of a source and its turns as (id, text)."""
    sessions = [r[0] for r in rows(store, "SELECT id FROM sessions WHERE source_id = ? ORDER BY id", [source_id])]
    turns = rows(store, "SELECT id, text FROM turns WHERE list_contains(?, session_id) ORDER BY id", [sessions])
    return sessions, [(r[0], r[1]) for r in turns]


def source_leftovers(store: Store, source_id: int, turn_ids: Sequence[int]) -> dict[str, int]:
    """What still points at a forgotten source: every count must be 0."""
    turns = sorted(turn_ids)
    checks = {
        "sources (the source)": ("SELECT count(*) FROM sources WHERE id = ?", source_id),
        "sessions (its sessions)": ("SELECT count(*) FROM sessions WHERE source_id = ?", source_id),
        "turns (its turns)": ("SELECT count(*) FROM turns WHERE list_contains(?, id)", turns),
        "mentions (of its turns)": ("SELECT count(*) FROM mentions WHERE list_contains(?, turn_id)", turns),
        "residuals (citing its turns)": ("SELECT count(*) FROM residuals WHERE list_has_any(source_turns, ?)", turns),
    }
    return {label: int(store.scalar(sql, [param])) for label, (sql, param) in checks.items()}
