"""The specific rows forget and edit work on: turns around a hit, facts citing turns, the
owner of a fact, the entities a removal touches, and moving facts between entities."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from memhop.core.store.db import Store
from memhop.core.store.tables import rows


def bump_profiles(store: Store, entity_ids: Iterable[int]) -> None:
    """A rewritten profile is a new version of it."""
    ids = sorted(set(entity_ids))
    if ids:
        store.con.execute(
            "UPDATE profiles SET version = version + 1, updated_at = ? WHERE list_contains(?, entity_id)",
            [datetime.now(), ids],
        )


def session_turns_around(store: Store, turn_ids: Sequence[int]) -> list[tuple[int, int, str, str]]:
    """(id, session, speaker, text) of every turn in the sessions holding these turns, in order."""
    return [
        (r[0], r[1], r[2], r[3])
        for r in rows(
            store,
            "SELECT id, session_id, speaker, text FROM turns WHERE session_id IN "
            "(SELECT DISTINCT session_id FROM turns WHERE list_contains(?, id)) ORDER BY session_id, position",
            [sorted(turn_ids)],
        )
    ]


def residuals_citing(store: Store, turn_ids: Sequence[int]) -> list[tuple[int, int, str, list[int]]]:
    """(id, entity, text, source turns) of residuals drawn from any of these turns."""
    sql = "SELECT id, entity_id, text, source_turns FROM residuals WHERE list_has_any(source_turns, ?) ORDER BY id"
    return [(r[0], r[1], r[2], list(r[3])) for r in rows(store, sql, [sorted(turn_ids)])]


def fact_owner(store: Store, fact_id: int) -> tuple[int, str, str] | None:
    """(entity id, entity name, fact text) of a residual."""
    row = rows(
        store,
        "SELECT r.entity_id, e.name, r.text FROM residuals r JOIN entities e ON e.id = r.entity_id WHERE r.id = ?",
        [fact_id],
    )
    return (row[0][0], row[0][1], row[0][2]) if row else None


def entities_touched(
    store: Store, turn_ids: Sequence[int], fact_ids: Sequence[int]
) -> list[tuple[int, int, int, str | None]]:
    """Entities mentioned in these turns or owning these facts, with how many mentions and
    facts they keep once those are gone, and their profile."""
    return [
        (r[0], int(r[1]), int(r[2]), r[3])
        for r in rows(
            store,
            "SELECT e.id, "
            "(SELECT count(*) FROM mentions m WHERE m.entity_id = e.id AND NOT list_contains($turns, m.turn_id)), "
            "(SELECT count(*) FROM residuals r WHERE r.entity_id = e.id AND NOT list_contains($facts, r.id)), "
            "(SELECT text FROM profiles p WHERE p.entity_id = e.id) FROM entities e WHERE e.id IN "
            "(SELECT entity_id FROM mentions WHERE list_contains($turns, turn_id) "
            " UNION SELECT entity_id FROM residuals WHERE list_contains($facts, id)) ORDER BY e.id",
            {"turns": sorted(turn_ids), "facts": sorted(fact_ids)},
        )
    ]


def mentioned_turns(store: Store, entity_id: int) -> list[int]:
    return [r[0] for r in rows(store, "SELECT turn_id FROM mentions WHERE entity_id = ? ORDER BY 1", [entity_id])]


def move_residuals(store: Store, from_entity: int, to_entity: int) -> None:
    store.con.execute("UPDATE residuals SET entity_id = ? WHERE entity_id = ?", [to_entity, from_entity])
