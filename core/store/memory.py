"""The memory layers: entities, profiles, residuals and mentions."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import numpy as np

from memhop.core.model import ExistingResidual, KindVotes, KnownEntity, ResidualDraft, SessionView, TurnView
from memhop.core.store.bulk import arrow_table, arrow_vectors, bulk_insert
from memhop.core.store.db import Store


@dataclass(frozen=True)
class StoredResidual:
    id: int
    entity_id: int
    text: str
    category: str
    date: date | None
    slot: str | None
    superseded_by: int | None
    source_turns: tuple[int, ...]


def registry(store: Store) -> list[KnownEntity]:
    rows = store.con.execute("SELECT id, name, kind, aliases, kind_votes FROM entities ORDER BY id").fetchall()
    return [
        KnownEntity(id=r[0], name=r[1], kind=r[2], aliases=tuple(r[3] or ()), kind_votes=_votes(r[4], r[2]))
        for r in rows
    ]


def _votes(stored: str | None, kind: str) -> KindVotes:
    """A store written before kinds were voted on holds one vote for the kind it has."""
    if not stored:
        return ((kind, 1.0),)
    return tuple((str(k), float(w)) for k, w in json.loads(stored).items())


def _votes_json(votes: KindVotes) -> str:
    return json.dumps({kind: round(weight, 3) for kind, weight in votes}, sort_keys=True)


def entity_summaries(store: Store) -> list[tuple[Any, ...]]:
    """id, name, kind, aliases, current facts, all facts, mentions, has profile: the diarist
    first, then by name."""
    return store.con.execute(
        "SELECT e.id, e.name, e.kind, e.aliases, "
        "(SELECT count(*) FROM residuals r WHERE r.entity_id = e.id AND r.superseded_by IS NULL), "
        "(SELECT count(*) FROM residuals r WHERE r.entity_id = e.id), "
        "(SELECT count(*) FROM mentions m WHERE m.entity_id = e.id), "
        "EXISTS (SELECT 1 FROM profiles p WHERE p.entity_id = e.id) "
        "FROM entities e ORDER BY e.kind = 'self' DESC, lower(e.name)"
    ).fetchall()


def entity_by_name(store: Store, name: str) -> KnownEntity | None:
    """Exact canonical name or alias, case-insensitive."""
    row = store.con.execute(
        "SELECT id, name, kind, aliases FROM entities "
        "WHERE lower(name) = lower(?) OR list_contains(list_transform(aliases, a -> lower(a)), lower(?)) "
        "ORDER BY id LIMIT 1",
        [name, name],
    ).fetchone()
    return None if row is None else KnownEntity(id=row[0], name=row[1], kind=row[2], aliases=tuple(row[3] or ()))


def add_entity(store: Store, name: str, kind: str, aliases: Sequence[str] = (), votes: KindVotes = ()) -> int:
    entity_id = store.next_id("entities")
    store.con.execute(
        "INSERT INTO entities (id, name, kind, aliases, created_at, kind_votes) VALUES (?, ?, ?, ?, ?, ?)",
        [entity_id, name, kind, list(aliases), datetime.now(), _votes_json(votes or ((kind, 1.0),))],
    )
    return entity_id


def set_kind(store: Store, entity_id: int, kind: str, votes: KindVotes) -> None:
    """The kind the evidence now favours, and that evidence."""
    store.con.execute("UPDATE entities SET kind = ?, kind_votes = ? WHERE id = ?", [kind, _votes_json(votes), entity_id])


def rename_entity(store: Store, entity_id: int, name: str) -> None:
    store.con.execute("UPDATE entities SET name = ? WHERE id = ?", [name, entity_id])


def set_aliases(store: Store, entity_id: int, aliases: Sequence[str]) -> None:
    store.con.execute("UPDATE entities SET aliases = ? WHERE id = ?", [sorted(set(aliases)), entity_id])


def id_list(ids: Iterable[int]) -> str:
    """A DuckDB list literal of integers. Binding a Python list as a parameter costs DuckDB
    several ms per statement, a hot cost in the write path; int() keeps the SQL safe."""
    return "[" + ",".join(str(int(i)) for i in ids) + "]"


def profile_of(store: Store, entity_id: int) -> str | None:
    return profiles_of(store, [entity_id]).get(entity_id)


def profiles_of(store: Store, entity_ids: Sequence[int]) -> dict[int, str]:
    if not entity_ids:
        return {}
    rows = store.con.execute(
        f"SELECT entity_id, text FROM profiles WHERE list_contains({id_list(entity_ids)}, entity_id)"
    ).fetchall()
    return {int(r[0]): str(r[1]) for r in rows}


def put_profile(store: Store, entity_id: int, text: str, embedding: np.ndarray) -> None:
    put_profiles(store, [entity_id], [text], np.asarray(embedding, dtype=np.float32).reshape(1, -1))


def put_profiles(store: Store, entity_ids: Sequence[int], texts: Sequence[str], vectors: np.ndarray) -> None:
    """Insert or replace, a new version each; vectors go through Arrow (a bound Python list
    costs ~0.2 s)."""
    if not entity_ids:
        return
    ids = id_list(entity_ids)
    versions = dict(store.con.execute(
        f"SELECT entity_id, version FROM profiles WHERE list_contains({ids}, entity_id)"
    ).fetchall())
    store.con.execute(f"DELETE FROM profiles WHERE list_contains({ids}, entity_id)")
    bulk_insert(
        store,
        "profiles",
        {
            "entity_id": entity_ids,
            "text": texts,
            "embedding": vectors,
            "version": [int(versions.get(e, 0)) + 1 for e in entity_ids],
            "updated_at": [datetime.now()] * len(entity_ids),
        },
    )


def set_profile_vectors(store: Store, entity_ids: Sequence[int], vectors: np.ndarray) -> None:
    """Replace the vectors of stored profiles, leaving their text, version and time alone."""
    if not entity_ids:
        return
    data = arrow_table("profiles", {"entity_id": entity_ids, "embedding": vectors})
    store.con.register("memhop_profile_vectors", data)
    try:
        store.con.execute(
            "UPDATE profiles SET embedding = v.embedding FROM memhop_profile_vectors v "
            "WHERE profiles.entity_id = v.entity_id"
        )
    finally:
        store.con.unregister("memhop_profile_vectors")


def residuals_of(store: Store, entity_id: int, include_superseded: bool = False) -> list[StoredResidual]:
    return residuals_of_many(store, [entity_id], include_superseded).get(entity_id, [])


def residuals_of_many(
    store: Store, entity_ids: Sequence[int], include_superseded: bool = False
) -> dict[int, list[StoredResidual]]:
    """Residuals by entity, oldest first; entities without any are absent."""
    if not entity_ids:
        return {}
    where = "" if include_superseded else "AND superseded_by IS NULL"
    rows = store.con.execute(
        "SELECT id, entity_id, text, category, date, slot, superseded_by, source_turns "
        f"FROM residuals WHERE list_contains({id_list(entity_ids)}, entity_id) {where} ORDER BY id",
    ).fetchall()
    found: dict[int, list[StoredResidual]] = {}
    for r in rows:
        found.setdefault(int(r[1]), []).append(
            StoredResidual(r[0], r[1], r[2], r[3], r[4], r[5], r[6], tuple(r[7] or ()))
        )
    return found


def as_existing(residuals: Sequence[StoredResidual]) -> list[ExistingResidual]:
    return [ExistingResidual(r.id, r.text, r.category, r.slot, r.date) for r in residuals]


def residual_vectors(store: Store, entity_ids: Sequence[int]) -> dict[int, np.ndarray]:
    """Embeddings of every residual of each entity (superseded too: a repeat is still a
    repeat); an entity without residuals gets a (0, DIM) matrix."""
    if not entity_ids:
        return {}
    table = store.con.execute(
        f"SELECT entity_id, embedding FROM residuals WHERE list_contains({id_list(entity_ids)}, entity_id) "
        "ORDER BY entity_id, id"
    ).arrow().read_all()
    owners = table.column("entity_id").to_numpy()
    matrix = arrow_vectors(table.column("embedding"))
    return {int(e): matrix[owners == e] for e in entity_ids}


def insert_residuals(
    store: Store, entity_id: int, drafts: Sequence[ResidualDraft], vectors: np.ndarray
) -> list[int]:
    return insert_residual_rows(store, [entity_id] * len(drafts), drafts, vectors)


def insert_residual_rows(
    store: Store, entity_ids: Sequence[int], drafts: Sequence[ResidualDraft], vectors: np.ndarray
) -> list[int]:
    """One insert for many entities' residuals; returns the new ids in input order."""
    if not drafts:
        return []
    first = store.next_id("residuals")
    ids = list(range(first, first + len(drafts)))
    bulk_insert(
        store,
        "residuals",
        {
            "id": ids,
            "entity_id": entity_ids,
            "text": [d.text for d in drafts],
            "category": [d.category for d in drafts],
            "embedding": vectors,
            "source_turns": [list(d.source_turns) for d in drafts],
            "date": [d.date for d in drafts],
            "slot": [d.slot for d in drafts],
            "superseded_by": [None] * len(drafts),
            "created_at": [datetime.now()] * len(drafts),
        },
    )
    return ids


def supersede(store: Store, old_ids: Sequence[int], new_id: int) -> None:
    if old_ids:
        store.con.execute(
            f"UPDATE residuals SET superseded_by = ? WHERE list_contains({id_list(old_ids)}, id) "
            "AND superseded_by IS NULL",
            [new_id],
        )


def add_mentions(store: Store, entity_id: int, turn_ids: Sequence[int]) -> None:
    add_mention_pairs(store, [(entity_id, t) for t in turn_ids])


def add_mention_pairs(store: Store, pairs: Sequence[tuple[int, int]]) -> None:
    """(entity id, turn id) pairs in one statement: each INSERT costs DuckDB ~5 ms."""
    if pairs:
        entities, turns = id_list(p[0] for p in pairs), id_list(p[1] for p in pairs)
        store.con.execute(f"INSERT OR IGNORE INTO mentions SELECT unnest({entities}), unnest({turns})")


def pending_sessions(store: Store) -> list[int]:
    """Sessions whose write path has not completed, oldest first: the resumable queue."""
    rows = store.con.execute(
        "SELECT id FROM sessions WHERE written_at IS NULL ORDER BY started_at NULLS LAST, id"
    ).fetchall()
    return [r[0] for r in rows]


def session_view(store: Store, session_id: int) -> SessionView:
    head = store.con.execute(
        "SELECT started_at, self_name FROM sessions WHERE id = ?", [session_id]
    ).fetchone()
    assert head is not None
    rows = store.con.execute(
        "SELECT id, speaker, text, ts, external_id FROM turns WHERE session_id = ? ORDER BY position",
        [session_id],
    ).fetchall()
    turns = tuple(TurnView(id=r[0], speaker=r[1], text=r[2], timestamp=r[3], external_id=r[4]) for r in rows)
    return SessionView(id=session_id, started_at=head[0], self_name=head[1], turns=turns)


def mark_written(store: Store, session_id: int) -> None:
    store.con.execute("UPDATE sessions SET written_at = ? WHERE id = ?", [datetime.now(), session_id])


def mark_all_written(store: Store) -> None:
    """Every pending session counts as written (memory layers made some other way)."""
    store.con.execute("UPDATE sessions SET written_at = ? WHERE written_at IS NULL", [datetime.now()])


def reset_written(store: Store) -> None:
    """Forget the derived layers so `rebuild` can write them again from the raw turns."""
    for table in ("mentions", "residuals", "profiles", "entities"):
        store.con.execute(f"DELETE FROM {table}")
    store.con.execute("UPDATE sessions SET written_at = NULL")


_WRITTEN_SQL = (
    "SELECT e.name, e.kind, e.aliases, p.text, p.version FROM entities e "
    "LEFT JOIN profiles p ON p.entity_id = e.id ORDER BY e.id",
    "SELECT r.id, e.name, r.text, r.category, r.source_turns, r.date, r.slot, r.superseded_by "
    "FROM residuals r JOIN entities e ON e.id = r.entity_id ORDER BY r.id",
    "SELECT entity_id, turn_id FROM mentions ORDER BY ALL",
)


def written(store: Store) -> tuple[tuple[Any, ...], ...]:
    """What the write path stored (entities and profiles, facts, mentions), in a stable
    order: two runs stored the same memory exactly when these are equal."""
    return tuple(tuple(store.con.execute(sql).fetchall()) for sql in _WRITTEN_SQL)
