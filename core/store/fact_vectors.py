"""Derived fact vectors beside a large store: every live fact's embedding as float16, read by row.

A question on a large store scores the facts of the handful of entities it selects. Read
from DuckDB, their embeddings cost ~20 ms CPU a question at 1M turns (an entity's facts
are spread over every row group, and each row's FLOAT[384] is 1.5 KB to decode); read
from a file of float16 rows they cost one read per run of adjacent rows. So beside the
turn vectors, in `<store>.vectors/facts/`, live: the live facts' ids in id order with
their float16 rows, who owns each, and the rows' order by owner (one entity's facts are
one slice of it). No text: texts and source turns are still read from the store, for the
selected entities' facts only.

The store stays the source of truth: the files are keyed to its identity
(core/store/meta.py), its facts (count, largest id, how many are superseded) and its last
logged operation that may change facts (a profile edit does not), and built again from
scratch when missing or stale. Commands that change facts leave them current: ingest
builds them at its end, as it extends the turn vectors, and the hand edits
(core/edit.py) bring them up to date after their commit — a `fact add` by appending its
row, anything else by building them again.
They live inside the turn vectors' directory, so whatever removes that directory — every
forget's compaction (core/store/compact.py) — removes them too, and the forget's residue
scan (vectors.leftovers) sees them.
"""

from __future__ import annotations

import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import duckdb
import numpy as np

from memhop.core.embed import DIM
from memhop.core.store import vectors
from memhop.core.store.db import Store

FORMAT = 1  # bump when the files' layout changes: an older directory is rebuilt
NAME = "facts"
_STATE = "state.json"
_IDS = "ids.i64"  # live fact ids, ascending; row i of the vectors is fact ids[i]
_VECTORS = "vectors.f16"
_OWNERS = "owners.i64"  # owner of each row, in by-owner order
_BY_OWNER = "by_owner.i64"  # rows sorted by owner, then id
_SUPERSEDED = "superseded.i64"  # (entity, how many of its facts are superseded) pairs


# Logged operations that leave every fact as it was (a profile edit): they do not make the
# files stale. Any other may add, rewrite, move or supersede facts.
FACTS_KEPT = ("edit",)
_CHANGES_FACTS = "op NOT IN (" + ", ".join(f"'{op}'" for op in FACTS_KEPT) + ")"  # SQL: a logged op that may change the facts


@dataclass(frozen=True)
class State:
    """What the store's facts looked like when the files were written: which store, its
    facts' counts, and the last logged operation that may have changed them (and its time)."""

    facts: int
    max_id: int
    superseded: int
    oplog: int
    store: str = ""  # the store's identity (core/store/meta.py); "" for one without (yet)
    op_at: int = 0

    @staticmethod
    def of(con: duckdb.DuckDBPyConnection, counts: tuple[int, int, int] | None = None) -> State:
        """`counts` (facts, largest id, superseded) when the caller has them already."""
        facts, max_id, superseded = counts or con.execute(
            "SELECT count(*), coalesce(max(id), 0), count(superseded_by) FROM residuals"
        ).fetchone()  # type: ignore[misc]
        identity, oplog, op_at = vectors.last_op(con, _CHANGES_FACTS)
        return State(int(facts), int(max_id), int(superseded), oplog, identity, op_at)


@dataclass(frozen=True)
class FactVectors:
    """The files. Row r of the vectors is fact ids[r]; `by_owner` lists the rows owner by
    owner (ids ascending within one), `owners` the owner of each of those, sorted.

    The vectors are read with pread, not mapped: a question reads a few hundred rows
    spread over the file, and mapped, each one brought a whole page-cache folio (up to
    2 MiB) into the process — 355 MB of RSS for 500 rows at 1M turns."""

    ids: np.ndarray  # memory-mapped, as are owners and by_owner (read whole or by bisection)
    owners: np.ndarray
    by_owner: np.ndarray
    superseded: dict[int, int]  # entity id -> how many of its facts are superseded
    state: State
    vectors: BinaryIO  # the float16 rows, open since the files were checked (a rebuild swaps in new ones)

    def rows(self, positions: np.ndarray) -> np.ndarray:
        """The float32 vectors of these rows, in the order given: one read per run of
        adjacent rows."""
        return vectors.read_rows(self.vectors, positions)

    def close(self) -> None:
        """Let go of the vectors file: once a forget's compaction deleted it, an open
        descriptor would keep its bytes on disk for as long as the process lives."""
        self.vectors.close()


def directory(store_path: Path) -> Path:
    """Inside the turn vectors' directory: removed with it, listed by its residue scan."""
    return vectors.directory(store_path) / NAME


def load(store: Store, state: State | None = None, build: bool = True) -> FactVectors | None:
    """The store's fact vectors, built first when missing or stale (if `build`); None when
    they are not there and not built, or there is nowhere to write them."""
    state = state or State.of(store.con)
    target = directory(store.path)
    have = vectors.adopted(_read_state(target), state, target / _STATE, FORMAT)
    if have != state:
        if not build:
            return None
        try:
            _update(store, target, have, state)
        except (OSError, duckdb.Error) as exc:  # nowhere to write, or DuckDB refused the build's reads
            vectors.unbuilt(target, exc, "reading facts from the store")
            return None
    try:
        return _open(target, state)
    except (OSError, ValueError):  # a file cut short, removed under us or wrong: build it again
        try:
            _build(store, target, state)
            return _open(target, state)
        except (OSError, ValueError, duckdb.Error) as exc:
            vectors.unbuilt(target, exc, "reading facts from the store")
            return None


def refresh(store: Store) -> float:
    """Bring the files up to date when the store is large enough to have turn vectors;
    seconds spent (0 when they already were, or are not kept for this store)."""
    if not vectors.directory(store.path).is_dir():
        return 0.0
    state = State.of(store.con)
    target = directory(store.path)
    have = vectors.adopted(_read_state(target), state, target / _STATE, FORMAT)
    if have == state:
        return 0.0
    clock = time.perf_counter()
    _update(store, target, have, state)
    return time.perf_counter() - clock


def _update(store: Store, target: Path, have: State | None, state: State) -> None:
    """From the files for `have` to files for `state`: new rows appended when facts were only
    added since, else built again from scratch."""
    if have is not None and _only_added(store, have, state):
        try:
            _append(store, target, have, state)
            return
        except ValueError:  # the files are not what their state says: built again below
            pass
    _build(store, target, state)


def keep_current(store: Store) -> None:
    """After a command changed facts (and committed): bring the files up to date now, so the
    next ask does not rebuild them. If this fails or the process dies first, the files stay
    keyed to the store as it was, are stale, and the next ask rebuilds them: never wrong."""
    try:
        refresh(store)
    except (OSError, duckdb.Error) as exc:
        vectors.unbuilt(directory(store.path), exc, "the next ask builds them")


def _read_state(target: Path) -> State | None:
    return vectors.read_state(target / _STATE, State, FORMAT)


def _build(store: Store, target: Path, state: State) -> None:
    target.parent.mkdir(mode=0o700, exist_ok=True)

    def write(fresh: Path) -> None:
        with vectors.bounded_buffers(store):  # every embedding is read once: cache few blocks
            _write(store, fresh, state)

    vectors.build_in_place(target, write, lambda: _read_state(target) == state)


def _write(store: Store, fresh: Path, state: State) -> None:
    """The files, into `fresh`. Vectors are written as they are read, in id order: the
    process holds one chunk of them at a time, never the whole matrix."""
    table = store.con.execute("SELECT id, entity_id, superseded_by IS NULL AS live FROM residuals").arrow().read_all()
    ids = table.column("id").to_numpy().astype(np.int64)
    owners = table.column("entity_id").to_numpy().astype(np.int64)
    live = table.column("live").to_numpy(zero_copy_only=False).astype(bool)
    stale_owners, stale_counts = np.unique(owners[~live], return_counts=True)
    order = np.argsort(ids[live], kind="stable")
    ids, owners = ids[live][order], owners[live][order]
    with open(fresh / _VECTORS, "wb") as out:
        _write_rows(store, out, 0, state.max_id, ids)
    by_owner = np.lexsort((ids, owners))
    ids.tofile(fresh / _IDS)
    owners[by_owner].tofile(fresh / _OWNERS)
    by_owner.astype(np.int64).tofile(fresh / _BY_OWNER)
    np.stack([stale_owners, stale_counts]).astype(np.int64).T.tofile(fresh / _SUPERSEDED)
    vectors.write_state(fresh / _STATE, state, FORMAT)


def _write_rows(store: Store, out: BinaryIO, after: int, last: int, expected: np.ndarray) -> None:
    """Write the live facts' vectors with after < id <= last to `out` as float16, a chunk at
    a time; OSError unless their ids are `expected`, in order (the facts changed meanwhile)."""
    written = 0
    for chunk_ids, chunk in vectors.id_chunks(store.con, "residuals", after, last, "superseded_by IS NULL"):
        if not np.array_equal(chunk_ids, expected[written : written + len(chunk_ids)]):
            raise OSError(f"{store.path}: the facts changed while their vectors were written")
        out.write(chunk.astype(np.float16).tobytes())
        written += len(chunk_ids)
    if written != len(expected):
        raise OSError(f"{store.path}: the facts changed while their vectors were written")


def _only_added(store: Store, have: State, now: State) -> bool:
    """The same store, its history since `have` only `fact add`s (each a new live fact with a
    larger id, none superseding another): the files can take the new rows at their end."""
    if have.superseded != now.superseded or not vectors.same_history(store, have, now):
        return False
    ops = store.con.execute(
        f"SELECT DISTINCT op FROM oplog WHERE id > {int(have.oplog)} AND {_CHANGES_FACTS}"
    ).fetchall()
    if any(op != "fact add" for (op,) in ops):
        return False
    (added,) = store.con.execute(f"SELECT count(*) FROM residuals WHERE id > {int(have.max_id)}").fetchone()  # type: ignore[misc]
    return have.facts + int(added) == now.facts


def _append(store: Store, target: Path, have: State, state: State) -> None:
    """Add the facts made since `have` in place: their rows at the vectors' end, and the
    (small) id and owner files written again. Marked stale first, so a crash midway leaves
    files the next ask rebuilds, never wrong ones."""
    old = np.fromfile(target / _IDS, dtype=np.int64)
    by_owner, owned = (np.fromfile(target / name, dtype=np.int64) for name in (_BY_OWNER, _OWNERS))
    if (not len(old) == len(by_owner) == len(owned) == have.facts - have.superseded
            or (target / _VECTORS).stat().st_size != len(old) * DIM * 2
            or (len(old) and (int(by_owner.min()) < 0 or int(by_owner.max()) >= len(old)))):
        raise ValueError(f"{target}: derived fact vectors do not hold what their state says")
    vectors.write_state(target / _STATE, State(-1, -1, -1, -1), FORMAT)
    row_owner = np.empty(len(old), dtype=np.int64)
    row_owner[by_owner] = owned
    new = store.con.execute(
        f"SELECT id, entity_id FROM residuals WHERE id > {int(have.max_id)} AND superseded_by IS NULL ORDER BY id"
    ).fetchall()
    new_ids = np.array([i for i, _ in new], dtype=np.int64)
    with open(target / _VECTORS, "ab") as out:
        _write_rows(store, out, have.max_id, state.max_id, new_ids)
    ids = np.concatenate([old, new_ids])
    owners = np.concatenate([row_owner, np.array([e for _, e in new], dtype=np.int64)])
    by_owner = np.lexsort((ids, owners))
    for name, values in ((_IDS, ids), (_OWNERS, owners[by_owner]), (_BY_OWNER, by_owner.astype(np.int64))):
        tmp = target / f"{name}.{uuid.uuid4().hex}"
        values.tofile(tmp)
        os.replace(tmp, target / name)
    vectors.write_state(target / _STATE, state, FORMAT)


def _open(target: Path, state: State) -> FactVectors:
    ids = np.memmap(target / _IDS, dtype=np.int64, mode="r") if (target / _IDS).stat().st_size else np.zeros(0, np.int64)
    if len(ids) != state.facts - state.superseded:
        raise OSError(f"{target}: derived fact vectors are incomplete")
    if (target / _VECTORS).stat().st_size != len(ids) * DIM * 2:
        raise OSError(f"{target}: derived fact vectors are incomplete")
    owners: np.ndarray
    by_owner: np.ndarray
    if len(ids):
        owners = np.memmap(target / _OWNERS, dtype=np.int64, mode="r", shape=(len(ids),))
        by_owner = np.memmap(target / _BY_OWNER, dtype=np.int64, mode="r", shape=(len(ids),))
        if int(by_owner.min()) < 0 or int(by_owner.max()) >= len(ids):  # a row past the vectors' end
            raise ValueError(f"{target}: derived fact vectors list rows they do not hold")
    else:
        owners = by_owner = np.zeros(0, np.int64)
    pairs = np.fromfile(target / _SUPERSEDED, dtype=np.int64).reshape(-1, 2)
    return FactVectors(ids, owners, by_owner, {int(e): int(n) for e, n in pairs}, state,
                       open(target / _VECTORS, "rb", buffering=0))  # kept open with the snapshot

