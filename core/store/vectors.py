"""Derived turn vectors beside a large store: float16 rows and an ANN index, memory-mapped.

At 1M turns the float32 embeddings are 1.5 GB; loading them into every `memhop ask`
costs seconds and most of the process's memory, and one exact matrix product over them
costs more than a whole ask should. From ANN_MIN_TURNS turns on, the read path instead
maps two files that live in `<store>.vectors/`: every turn's embedding as float16, in
turn-id order (rescoring candidates exactly enough, half the bytes, nothing to convert
per row), and a usearch HNSW index over the same vectors keyed by turn id, opened as a
view of the file (nothing is loaded until a search touches it).

The DuckDB store stays the source of truth: the directory is derived, keyed to the
store's identity (core/store/meta.py: files left by a deleted store are never read as a
new one's at the same path) and state (turn count, largest turn id, last logged operation
and its time) and rebuilt when missing or stale. After ingest-only changes it is extended in place (new turns have
larger ids); after anything else — a forget rewriting or deleting turns — it is built
again from scratch. A compaction (every forget) deletes it first: it holds embeddings of
the forgotten text (core/store/compact.py).
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import MISSING, asdict, dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

import duckdb
import numpy as np

from memhop.core.embed import DIM
from memhop.core.store import router
from memhop.core.store.bulk import arrow_vectors
from memhop.core.store.db import Store
from memhop.core.store.router import Router

if TYPE_CHECKING:
    from _typeshed import DataclassInstance
    from usearch.index import Index

ANN_MIN_TURNS = 50_000  # below this an exact product over float32 rows is as fast, and exact
FORMAT = 1  # bump when the files' layout changes: an older directory is rebuilt
SUFFIX = ".vectors"
CHUNK = 50_000  # turns read from the store per query while building
BUILD_BUFFERS = "256MB"  # DuckDB's block cache while derived files are built (see bounded_buffers)
# HNSW parameters (usearch): 16 links per node, 64 candidates while adding; searches ask
# for their own count (core/store/recall.py sets it at least as large as the results wanted).
CONNECTIVITY = 16
EXPANSION_ADD = 64
# Candidates a search keeps while walking the graph, at least, when there is no router
# (core/store/router.py): turns are often near-copies of each other (the scale bench's are,
# by construction), and below ~2000 a search can stay inside one cluster of them and miss
# the nearest turns entirely (even at 2000 it often does: the router is the remedy).
EXPANSION_SEARCH = 2_000
# Up to this many turns the index is not walked but scanned: usearch compares the query with
# every int8 vector (SIMD, ~17 ms at 100k turns on a loaded 2-core machine) and finds the
# same candidates exact search would (HNSW on the scale bench's near-copies: recall@25 0.88).
SCAN_MAX_TURNS = 250_000
# Logged operations that leave every stored turn as it was (they add turns or change the
# memory layers only); after any other (`forget`) the files are rebuilt, never extended.
KEEP_TURNS = frozenset({"ingest", "edit", "fact add", "fact edit", "merge", "rename", "rebuild started", "rebuild finished"})
_STATE = "state.json"
S = TypeVar("S", bound="DataclassInstance")  # a derived directory's State (turn vectors, fact vectors)
_IDS = "ids.i64"
_VECTORS = "vectors.f16"
_INDEX = "turns.usearch"


def _usearch_index() -> Any:
    """usearch's Index class, loaded after onnxruntime: the other order crashes the process
    (usearch 2.26.6 then onnxruntime 1.32.0 segfaults in onnxruntime's module init), and
    every process that searches or builds the index embeds text with onnxruntime anyway."""
    import onnxruntime  # noqa: F401
    from usearch.index import Index

    return Index


def directory(store_path: Path) -> Path:
    """Where a store's derived vectors live: beside it, named after it."""
    return store_path.with_name(store_path.name + SUFFIX)


def discard(store_path: Path) -> None:
    """Delete a store's derived vectors (and any half-built copy): a forget must leave no
    embedding of the forgotten text anywhere."""
    target = directory(store_path)
    for leftover in target.parent.glob(f"{target.name}*"):
        if leftover.is_dir():
            shutil.rmtree(leftover, ignore_errors=True)
        else:
            leftover.unlink(missing_ok=True)


def leftovers(store_path: Path) -> list[str]:
    """Derived files of this store still on disk (the residue scan's view of them)."""
    target = directory(store_path)
    return sorted(str(p) for p in target.parent.glob(f"{target.name}*"))


@dataclass(frozen=True)
class State:
    """What the store looked like when the files were written: which store (its identity),
    and where in its history (counts, last logged operation and that operation's time)."""

    turns: int
    max_id: int
    oplog: int
    store: str = ""  # the store's identity (core/store/meta.py); "" for one without (yet)
    op_at: int = 0  # the last logged operation's time (µs): a restored backup's redone history differs

    @staticmethod
    def of(store: Store) -> State:
        turns, max_id = store.con.execute("SELECT count(*), coalesce(max(id), 0) FROM turns").fetchone()  # type: ignore[misc]
        identity, oplog, op_at = last_op(store.con)
        return State(int(turns), int(max_id), oplog, identity, op_at)


def last_op(con: duckdb.DuckDBPyConnection, where: str = "TRUE") -> tuple[str, int, int]:
    """(store identity, id and time in µs of the last logged operation that satisfies `where`).
    A store without an identity (not yet migrated) reports time 0: its files stay keyed to
    counts alone, as they were written before either existed."""
    from memhop.core.store import meta

    identity = meta.identity(con)
    row = con.execute(
        f"SELECT coalesce(max(id), 0), coalesce(epoch_us(arg_max(happened_at, id)), 0) FROM oplog WHERE {where}"
    ).fetchone()
    oplog, op_at = (int(row[0]), int(row[1])) if row else (0, 0)
    return identity, oplog, op_at if identity else 0


@dataclass(frozen=True)
class TurnVectors:
    """The derived files: `ids` sorted, row i of `file` is turn ids[i], `index` keyed by id.

    Rows are read from `file` by offset (`rows`), not through a mapping: a page fault on a mapped
    file maps the pages around it too (the kernel's fault-around, 64 KB), and each of them
    counts in the process's resident memory from then on. One ask rescoring ~1,200 scattered
    candidates mapped ~70 MB that way; twenty asks in one process at 1M turns, ~300 MB."""

    ids: np.ndarray
    index: Index
    state: State
    file: BinaryIO  # (n, DIM) float16 rows, read by offset
    router: Router | None = None  # routing lists (core/store/router.py), when the graph is walked

    def close(self) -> None:
        """Close the files holding embeddings: once a forget has deleted them, an open one
        would keep the forgotten turns' vectors on disk for as long as a snapshot lives."""
        self.file.close()
        self.index.reset()  # unmaps the index file (its int8 vectors)
        if self.router is not None:
            self.router.close()

    def nearest(self, query: np.ndarray, count: int) -> np.ndarray:
        """Positions (into `ids`) of about the `count` turns nearest `query`, by the index
        (when its graph is walked, and there is a router, the router's `count` as well)."""
        count = min(count, len(self.ids))
        scan = len(self.ids) <= SCAN_MAX_TURNS  # every int8 vector compared: no graph to get lost in
        routed = not scan and self.router is not None  # the router reaches the groups a wide walk was for
        self.index.expansion_search = max(count, 0 if routed else EXPANSION_SEARCH)  # type: ignore[misc]  # settable; usearch declares the setter apart from the getter
        keys = np.asarray(self.index.search(query.astype(np.float32), count, threads=1, exact=scan).keys, dtype=np.int64)
        pos = np.searchsorted(self.ids, keys)
        ok = (pos < len(self.ids)) & (self.ids[np.clip(pos, 0, len(self.ids) - 1)] == keys)
        found = np.asarray(pos[ok], dtype=np.int64)
        if scan or self.router is None:
            return found
        tail = self.rows(np.arange(self.router.covered, len(self.ids)))
        return np.concatenate([found, self.router.nearest(query, count, tail)])  # may repeat rows

    def cosines(self, positions: np.ndarray, query: np.ndarray) -> np.ndarray:
        """Exact cosine (float16 rows) of the turns at these positions."""
        if not len(positions):
            return np.zeros(0, dtype=np.float32)
        return self.rows(positions) @ query.astype(np.float32)

    def rows(self, positions: np.ndarray) -> np.ndarray:
        """The rows at these positions as float32, in the order asked: read from the file,
        one read per run of adjacent positions (a candidate and its neighbours are one)."""
        positions = np.asarray(positions, dtype=np.int64)
        if not len(positions):
            return np.zeros((0, DIM), dtype=np.float32)
        if int(positions.min()) < 0 or int(positions.max()) >= len(self.ids):
            raise IndexError(f"row positions outside 0..{len(self.ids) - 1}")
        return read_rows(self.file, positions)


def available() -> bool:
    """Whether the ANN library is installed; without it every store is searched exactly,
    in memory, as below ANN_MIN_TURNS (slower at scale, never a different answer)."""
    return importlib.util.find_spec("usearch") is not None


def load(store: Store, build: bool = True) -> TurnVectors | None:
    """The store's derived vectors, brought up to date first (when `build`); None for a
    store below ANN_MIN_TURNS, or when they are missing or stale and `build` is False."""
    state = State.of(store)
    if state.turns < ANN_MIN_TURNS or not available():
        return None
    target = directory(store.path)
    have = adopted(_read_state(target), state, target / _STATE, FORMAT)
    if have != state:
        if not build:
            return None
        try:
            refresh(store, state, have)
        except (OSError, duckdb.Error) as exc:  # nowhere to write, or DuckDB refused the build's reads
            unbuilt(target, exc, "searching exactly")
            return None
    try:
        return _routed(_open(target, state), target, build)
    except (OSError, ValueError):  # a file cut short or removed under us: build it again
        try:
            with bounded_buffers(store):
                _rebuild(store, target, state)
            return _open(target, state)
        except (OSError, ValueError, duckdb.Error) as exc:
            unbuilt(target, exc, "searching exactly")
            return None


def _routed(vectors: TurnVectors, target: Path, build: bool) -> TurnVectors:
    """`vectors` with their router (core/store/router.py) when their graph is walked, built
    first if it is due and `build`; without one when it cannot be built."""
    turns = len(vectors.ids)
    if turns <= SCAN_MAX_TURNS:
        return vectors
    if build:
        _route(target, turns)
    opened = router.open_router(target, turns)
    if build and opened is not None and opened.covered < turns:  # added lists damaged or mid-swap: filed again
        opened.close()
        _route(target, turns, repair=True)
        opened = router.open_router(target, turns)
    return replace(vectors, router=opened)


def _route(target: Path, turns: int, repair: bool = False) -> None:
    """Build the router of these vectors if their graph is walked and it is due, else file
    the turns added since in its lists (`repair`: see router.extend)."""
    if turns > SCAN_MAX_TURNS:
        try:
            router.update(target, turns, repair)
        except (OSError, ValueError) as exc:  # nowhere to write, or the rows cut short: the graph is walked alone
            unbuilt(target, exc, "walking the graph without routing lists")


def read_rows(file: BinaryIO, positions: np.ndarray) -> np.ndarray:
    """Rows of an open float16 vector file at these positions, as float32 in the order
    asked: one read per run of adjacent positions (a candidate and its neighbours are one).
    OSError when the file is shorter than a position needs."""
    positions = np.asarray(positions, dtype=np.int64)
    out = np.empty((len(positions), DIM), dtype=np.float32)
    if not len(positions):
        return out
    order = np.argsort(positions, kind="stable")
    ordered = positions[order]
    got = np.empty((len(ordered), DIM), dtype=np.float16)
    width = DIM * got.itemsize
    view = got.view(np.uint8).reshape(-1).data
    breaks = np.flatnonzero(np.diff(ordered) != 1) + 1
    firsts = np.r_[0, breaks]
    fd = file.fileno()
    for lo, hi, at in zip(firsts.tolist(), np.r_[breaks, len(ordered)].tolist(), (ordered[firsts] * width).tolist()):
        if lo < hi and os.preadv(fd, [view[lo * width : hi * width]], at) != (hi - lo) * width:
            raise OSError(f"{file.name}: derived vectors are cut short")
    out[order] = got
    return out


def unbuilt(target: Path, problem: Exception, instead: str) -> None:
    """Derived files could not be built for this ask: it reads the store `instead` (slower on
    a large store, never wrong), and the warning says why."""
    logging.getLogger(__name__).warning("%s: cannot build derived vectors (%s); %s", target, problem, instead)


def refresh(store: Store, state: State | None = None, have: State | None = None) -> float:
    """Bring the derived files up to date (the turn vectors, then the fact vectors inside
    their directory); seconds spent (0 when they already were)."""
    import time

    from memhop.core.store import fact_vectors

    state = state or State.of(store)
    target = directory(store.path)
    have = have if have is not None else adopted(_read_state(target), state, target / _STATE, FORMAT)
    if state.turns < ANN_MIN_TURNS or not available():
        return 0.0
    clock = time.perf_counter()
    with bounded_buffers(store):
        if have is not None and have != state and _only_appended(store, have, state):
            _extend(store, target, have, state)
        elif have != state:
            _rebuild(store, target, state)
    _route(target, state.turns)
    return time.perf_counter() - clock + fact_vectors.refresh(store)  # bounds its own build's buffers


def adopted(have: S | None, state: S, path: Path, fmt: int) -> S | None:
    """`have`, or `state` when `have` is the same files written before the store had an
    identity (the counts equal, no identity, no operation time): they are marked as this
    store's in place instead of rebuilt, which at 1M turns would take a quarter of an hour
    on the first ask after an upgrade. Only such files are trusted by counts, once."""
    if have is None:
        return None
    old, now = asdict(have), asdict(state)
    if old["store"] or not now["store"] or old != {**now, "store": "", "op_at": 0}:
        return have
    write_state(path, state, fmt)
    return state


def read_state(path: Path, kind: type[S], fmt: int) -> S | None:
    """The state a derived directory's files were written for (`kind`'s int fields, under
    `fmt`); None when missing, unreadable, of another format or the wrong shape: a damaged
    file is stale and the files are rebuilt, not an error on every ask."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != fmt:
        return None
    try:  # a field with a default may be missing: the files were written before it existed
        return kind(**{f.name: (str if f.type in ("str", str) else int)(data[f.name])
                       for f in fields(kind) if f.name in data or f.default is MISSING})
    except (KeyError, TypeError, ValueError):
        return None


def write_state(path: Path, state: S, fmt: int) -> None:
    """Write `state` under `fmt` through a temporary file: a reader sees the old or the new."""
    tmp = path.with_name(f"{path.name}.{uuid.uuid4().hex}")
    tmp.write_text(json.dumps({"format": fmt, **asdict(state)}), encoding="utf-8")
    os.replace(tmp, path)


def _read_state(target: Path) -> State | None:
    return read_state(target / _STATE, State, FORMAT)


def _write_state(target: Path, state: State) -> None:
    write_state(target / _STATE, state, FORMAT)


def _only_appended(store: Store, have: State, now: State) -> bool:
    """The same store, and only ingests since `have` (the operation it names still there),
    each adding turns with larger ids: the files can grow."""
    if not same_history(store, have, now):
        return False
    ops = store.con.execute(f"SELECT DISTINCT op FROM oplog WHERE id > {int(have.oplog)}").fetchall()
    if any(op not in KEEP_TURNS for (op,) in ops):
        return False
    (added,) = store.con.execute(f"SELECT count(*) FROM turns WHERE id > {int(have.max_id)}").fetchone()  # type: ignore[misc]
    return have.turns + int(added) == now.turns


def same_history(store: Store, have: S, now: S) -> bool:
    """Whether files keyed `have` were written by this store (`now`'s identity) at a point of
    its present history: the operation they were written after is still there, at the same
    time (a restored backup redone otherwise is not). Files written before stores had
    identities (neither in `have`) pass on counts alone, once."""
    old, new = asdict(have), asdict(now)
    if not old["store"] and not old["op_at"]:
        return True
    return bool(old["store"] == new["store"] and old["op_at"] == _op_at(store, old["oplog"], new["store"]))


def _op_at(store: Store, oplog: int, identity: str) -> int:
    """The time of the operation `oplog` in this store (0 for none, or a store without identity)."""
    row = store.con.execute(f"SELECT epoch_us(happened_at) FROM oplog WHERE id = {int(oplog)}").fetchone()
    return int(row[0]) if row and identity else 0


def id_chunks(
    con: duckdb.DuckDBPyConnection, table: str, after: int, last: int, where: str = "TRUE"
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(sorted ids, float32 embeddings) of `table`'s rows with after < id <= last that
    satisfy `where`, CHUNK ids at a time: a build holds one chunk, never the whole matrix."""
    for lo in range(after, last, CHUNK):
        span = f"id > {int(lo)} AND id <= {int(lo + CHUNK)}"  # ints, not bound: binding costs DuckDB an import
        rows = con.execute(f"SELECT id, embedding FROM {table} WHERE ({where}) AND {span}").arrow().read_all()
        if rows.num_rows:
            ids = rows.column("id").to_numpy().astype(np.int64)
            order = np.argsort(ids, kind="stable")
            yield ids[order], arrow_vectors(rows.column("embedding"))[order]


@contextmanager
def bounded_buffers(store: Store) -> Iterator[None]:
    """Within it, DuckDB keeps at most BUILD_BUFFERS of the store's blocks cached. Building
    derived files reads every embedding once; by default DuckDB keeps each block it read
    (up to 80 % of RAM), and a fresh ask that had to build the fact vectors at 1M turns
    peaked at 1.85 GB RSS (1.15 GB bounded, the whole ask; same CPU). DuckDB's default is
    put back after (memhop sets no other limit; setting back the value read before drifts:
    DuckDB reports it rounded)."""
    store.con.execute(f"SET memory_limit = '{BUILD_BUFFERS}'")
    try:
        yield
    finally:
        store.con.execute("RESET memory_limit")


def _new_index() -> Index:
    usearch_index = _usearch_index()

    return usearch_index(ndim=DIM, metric="ip", dtype="i8", connectivity=CONNECTIVITY, expansion_add=EXPANSION_ADD)


def _rebuild(store: Store, target: Path, state: State) -> None:
    def write(fresh: Path) -> None:
        index = _new_index()
        with open(fresh / _IDS, "wb") as ids_out, open(fresh / _VECTORS, "wb") as vec_out:
            for ids, vectors in id_chunks(store.con, "turns", 0, state.max_id):
                ids_out.write(ids.tobytes())
                vec_out.write(vectors.astype(np.float16).tobytes())
                index.add(ids, vectors, threads=os.cpu_count() or 1)
        index.save(str(fresh / _INDEX))
        _write_state(fresh, state)

    build_in_place(target, write, lambda: _read_state(target) == state)


def build_in_place(target: Path, write: Callable[[Path], None], current: Callable[[], bool]) -> None:
    """`write` every file into a fresh directory beside `target`, then swap it in (a reader
    sees the old files or the new, never half); on any failure nothing is left behind."""
    fresh = target.with_name(f"{target.name}.{uuid.uuid4().hex}.tmp")
    fresh.mkdir(mode=0o700)
    try:
        write(fresh)
        _swap_in(fresh, target, current)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise


def _swap_in(fresh: Path, target: Path, current: Callable[[], bool]) -> None:
    """Put a built directory in place. Two asks building at once: the second finds the
    first's in place, keeps it if it is `current` (as up to date), and drops its own."""
    old = target.with_name(f"{target.name}.{uuid.uuid4().hex}.old")
    try:
        if target.exists():
            os.replace(target, old)
        os.replace(fresh, target)
    except OSError:
        if not current():
            raise
        shutil.rmtree(fresh, ignore_errors=True)
    shutil.rmtree(old, ignore_errors=True)


def _extend(store: Store, target: Path, have: State, state: State) -> None:
    """Append the turns added since `have`: to the id and vector files, and to the index
    (loaded, extended, saved under a new name, then renamed over the old)."""
    if state.max_id == have.max_id:  # no turn added (a fact edit, a merge): the files are current
        _write_state(target, state)
        return
    usearch_index = _usearch_index()

    index = usearch_index.restore(str(target / _INDEX), view=False)
    if index is None:
        _rebuild(store, target, state)
        return
    _write_state(target, State(-1, -1, -1))  # files about to change: stale until done
    with open(target / _IDS, "ab") as ids_out, open(target / _VECTORS, "ab") as vec_out:
        for ids, vectors in id_chunks(store.con, "turns", have.max_id, state.max_id):
            ids_out.write(ids.tobytes())
            vec_out.write(vectors.astype(np.float16).tobytes())
            index.add(ids, vectors, threads=os.cpu_count() or 1)
    tmp = target / f"{_INDEX}.{uuid.uuid4().hex}"
    index.save(str(tmp))
    os.replace(tmp, target / _INDEX)
    _write_state(target, state)


def _open(target: Path, state: State) -> TurnVectors:
    usearch_index = _usearch_index()

    ids = np.memmap(target / _IDS, dtype=np.int64, mode="r")
    index = usearch_index.restore(str(target / _INDEX), view=True)
    if index is None or len(ids) != state.turns or (target / _VECTORS).stat().st_size != len(ids) * DIM * 2:
        raise OSError(f"{target}: derived vectors are incomplete")
    return TurnVectors(ids, index, state, open(target / _VECTORS, "rb"))  # noqa: SIM115  # kept open with the snapshot, closed by `close`
