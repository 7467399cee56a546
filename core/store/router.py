"""Routing lists beside the ANN index: a second, exact route to a query's nearest turns.

The HNSW graph is walked from one entry point. When turns come in tight groups of
near-copies (the scale bench's store holds ~1,700 noisy copies of each of ~600 sentences)
its bottom layer falls apart into the groups, and a search that enters the wrong group
never leaves it: at 1M such turns the index's 400 candidates held 69 % of the exact 25
nearest (some questions none), while an int8 scan of every vector held all of them. The
graph, not the int8 vectors, loses them (a wider walk barely helps: 8,000 kept candidates, 86 %).

The router is an inverted file: `LIST_TURNS`-th turns, evenly spaced, are pivots; every
turn is filed under its nearest pivot, and the rows are stored again grouped by pivot, so
a list is one read. They are stored as int8 with a scale per row (the int8 scan of every
vector found all of the exact 25 at 1M, so int8 is precise enough to pick candidates;
float16 rows cost three times the CPU to convert, ~2 ms an ask): a search scores the
pivots, reads the `PROBES` lists whose pivots are nearest and scores their rows;
`TurnVectors.nearest` merges those candidates with the graph's, and the read path rescores
every candidate exactly from the float16 rows. Turns ingested after the build (the vector
file's tail) are filed under the same pivots into a second, smaller set of lists (`added/`,
written again whole on each extension, swapped in as one directory), so an ask reads them
with their lists instead of scoring every one of them; only when they outgrow
`GROWTH_MAX` × the built rows is the router built again (new pivots for the grown store).
Rows filed in neither (the added lists are missing, stale or being swapped) are scored
exactly (slower, never wrong) until the next ask or ingest files them again. The files
live in `<store>.vectors/router/`, so a rebuilt or deleted vector directory (every forget
deletes it) takes them along.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TypeVar

import numpy as np

from memhop.core.embed import DIM

LIST_TURNS = 256  # turns per list when built (pivots = turns / LIST_TURNS)
PROBES = 24  # lists read per search: ~6,000 rows at 1M turns (~2.3 MB, 24 reads)
GROWTH_MAX = 0.25  # turns added since the build, as a share of the turns built: past it the router is built again
SCORE_ROWS = 256  # list rows converted to float32 and scored at a time
BUILD_ROWS = 4_096  # rows filed at a time while building (their scores against every pivot)
FORMAT = 2  # 2: int8 lists with a scale per row (1 held float16 rows)
DIRECTORY = "router"
ADDED = "added"  # the lists of turns added since the build, a directory inside DIRECTORY
_STATE = "state.json"
_PIVOTS = "pivots.f32"
_STARTS = "starts.i64"
_ORDER = "order.i64"
_LISTS = "lists.i8"
_SCALES = "scales.f32"


_S = TypeVar("_S", "RouterState", "AddedState")


@dataclass(frozen=True)
class RouterState:
    routed: int  # the vector file's first `routed` rows are filed in the lists


@dataclass(frozen=True)
class AddedState:
    routed: int  # the built lists these extend (their RouterState.routed)
    added: int  # rows routed..routed+added-1 of the vector file are filed in the added lists


@dataclass(frozen=True)
class Lists:
    """Rows stored again grouped by pivot, as int8 with a scale per row."""

    starts: np.ndarray  # (p + 1,) list i is rows starts[i]:starts[i + 1]
    order: np.ndarray  # (rows,) the vector file's position of each list row (memory-mapped when built)
    scales: np.ndarray  # (rows,) list row i is rows[i] * scales[i]
    rows: BinaryIO  # (rows, DIM) int8, grouped by list

    def close(self) -> None:
        self.rows.close()

    def spans(self, chosen: list[int]) -> list[tuple[int, int]]:
        """(first row, row count) of each chosen list that is not empty."""
        return [(lo, hi - lo) for lo, hi in zip(self.starts[chosen].tolist(), self.starts[np.add(chosen, 1)].tolist())
                if hi > lo]


@dataclass(frozen=True)
class Router:
    pivots: np.ndarray  # (p, DIM) float32
    built: Lists  # the vector file's first `routed` rows
    routed: int
    added: Lists | None = None  # the next `len(added.order)` rows, filed since the build

    @property
    def covered(self) -> int:
        """Rows filed in a list (the vector file's first ones); later rows are scored exactly."""
        return self.routed + (len(self.added.order) if self.added is not None else 0)

    def close(self) -> None:
        self.built.close()
        if self.added is not None:
            self.added.close()

    def nearest(self, query: np.ndarray, count: int, tail: np.ndarray) -> np.ndarray:
        """Positions of the `count` rows nearest `query` among the nearest lists (built and
        added) and the `tail` rows ((n - covered, DIM) float32, positions covered..n-1).
        Every chosen list is read into one buffer."""
        q = query.astype(np.float32)
        probes = min(PROBES, len(self.pivots))
        chosen = np.sort(np.argpartition(-(self.pivots @ q), probes - 1)[:probes]).tolist()
        parts = [(lists, lists.spans(chosen)) for lists in (self.built, self.added) if lists is not None]
        total = sum(n for _, spans in parts for _, n in spans)
        raw = np.empty((total, DIM), dtype=np.int8)
        view = raw.reshape(-1).data
        scales, positions = [], [np.arange(self.covered, self.covered + len(tail), dtype=np.int64)]
        at = 0
        for lists, spans in parts:
            fd = lists.rows.fileno()
            for lo, n in spans:
                if os.preadv(fd, [view[at * DIM : (at + n) * DIM]], lo * DIM) != n * DIM:
                    raise OSError(f"{lists.rows.name}: routing lists are cut short")
                scales.append(lists.scales[lo : lo + n])
                positions.append(np.asarray(lists.order[lo : lo + n], dtype=np.int64))
                at += n
        # Converted and scored SCORE_ROWS at a time: converting every row at once makes a
        # float32 copy too large for the cache and costs twice the CPU.
        listed = np.concatenate([np.zeros(0, np.float32), *(raw[lo : lo + SCORE_ROWS].astype(np.float32) @ q
                                                            for lo in range(0, total, SCORE_ROWS))])
        listed *= np.concatenate([np.zeros(0, np.float32), *scales])
        scores, found = np.concatenate([tail @ q, listed]), np.concatenate(positions)
        if len(found) > count:
            found = found[np.argpartition(-scores, count - 1)[:count]]
        return found


def due(target: Path, turns: int) -> bool:
    """Whether the router in vector directory `target` must be (re)built for `turns` rows:
    none yet, more rows filed than the vectors hold, or the store grown past GROWTH_MAX since."""
    have = _read_state(target / DIRECTORY, RouterState)
    return have is None or have.routed > turns or turns - have.routed > GROWTH_MAX * have.routed


def update(target: Path, turns: int, repair: bool = False) -> None:
    """Build the router if it is due, else file the rows added since into its added lists
    (`repair`: see `extend`)."""
    if due(target, turns):
        build(target, turns)
    else:
        extend(target, turns, repair)


def build(target: Path, turns: int) -> None:
    """File the first `turns` rows of `target`'s float16 vectors under evenly spaced pivots,
    each stored again as int8 (`_quantised`) in its list."""
    from memhop.core.store.vectors import build_in_place

    source = target / "vectors.f16"

    def write(fresh: Path) -> None:
        count = max(1, turns // LIST_TURNS)
        with open(source, "rb") as f:
            at = (np.arange(count, dtype=np.int64) * turns) // count
            pivots = np.stack([_read_rows(f, int(p), 1)[0] for p in at.tolist()])
            filed = np.empty(turns, dtype=np.int64)
            for lo in range(0, turns, BUILD_ROWS):
                rows = _read_rows(f, lo, min(BUILD_ROWS, turns - lo))
                filed[lo : lo + len(rows)] = _nearest(pivots, rows)
            order = np.argsort(filed, kind="stable")
            slot = np.empty(turns, dtype=np.int64)
            slot[order] = np.arange(turns)
            lists = np.memmap(fresh / _LISTS, dtype=np.int8, mode="w+", shape=(turns, DIM))
            scales = np.memmap(fresh / _SCALES, dtype=np.float32, mode="w+", shape=(turns,))
            for lo in range(0, turns, BUILD_ROWS):
                rows = _read_rows(f, lo, min(BUILD_ROWS, turns - lo))
                where = slot[lo : lo + len(rows)]
                lists[where], scales[where] = _quantised(rows)
            lists.flush()
            scales.flush()
            del lists, scales
        if (fresh / _LISTS).stat().st_size != turns * DIM or (fresh / _SCALES).stat().st_size != turns * 4:
            raise OSError(f"{fresh / _LISTS}: written short")
        pivots.astype(np.float32).tofile(fresh / _PIVOTS)
        _write_lists(fresh, filed[order], order, count, RouterState(turns))

    folder = target / DIRECTORY
    build_in_place(folder, write, lambda: _read_state(folder, RouterState) == RouterState(turns))


def extend(target: Path, turns: int, repair: bool = False) -> None:
    """File rows `covered`..`turns`-1 of `target`'s vectors under the built router's pivots:
    the added lists so far and these rows, grouped by pivot, written into a fresh `added/`
    swapped in whole (a reader opening it half-way finds its count wrong and scores those
    rows exactly instead). Nothing to do when every row is filed already: checked by the
    states alone (an ask's open reads the files once, after), or, with `repair` (the
    opened lists covered fewer rows than their states say: damaged or mid-swap), by the files."""
    from memhop.core.store.vectors import build_in_place

    folder = target / DIRECTORY
    state, have = _read_state(folder, RouterState), _read_state(folder / ADDED, AddedState)
    if (not repair and state is not None
            and state.routed + (have.added if have and have.routed == state.routed else 0) == turns):
        return
    built = open_router(target, turns)
    if state is None or built is None:
        raise OSError(f"{folder}: no router to extend")
    try:
        if built.covered >= turns:
            return
        old = built.added
        old_rows = np.zeros((0, DIM), dtype=np.int8)
        old_scales, old_order = np.zeros(0, np.float32), np.zeros(0, np.int64)
        old_filed = np.zeros(0, np.int64)
        if old is not None and len(old.order):
            # Through the file opened and checked with their order: a swap since would give
            # another `added/`, whose rows belong to other positions.
            old_rows = np.fromfile(old.rows, dtype=np.int8, count=len(old.order) * DIM).reshape(-1, DIM)
            if len(old_rows) != len(old.order):
                raise OSError(f"{old.rows.name}: routing lists are cut short")
            old_scales, old_order = np.asarray(old.scales), np.asarray(old.order)
            old_filed = np.repeat(np.arange(len(old.starts) - 1), np.diff(old.starts))
        first = built.covered
        with open(target / "vectors.f16", "rb") as f:
            chunks = [_filed(built.pivots, _read_rows(f, lo, min(BUILD_ROWS, turns - lo)))
                      for lo in range(first, turns, BUILD_ROWS)]
    finally:
        built.close()
    filed = np.concatenate([old_filed, *(c[0] for c in chunks)])
    rows = np.concatenate([old_rows, *(c[1] for c in chunks)])
    scales = np.concatenate([old_scales, *(c[2] for c in chunks)])
    positions = np.concatenate([old_order, np.arange(first, turns, dtype=np.int64)])
    order = np.argsort(filed, kind="stable")
    added = AddedState(state.routed, turns - state.routed)

    def write(fresh: Path) -> None:
        rows[order].tofile(fresh / _LISTS)
        scales[order].astype(np.float32).tofile(fresh / _SCALES)
        _write_lists(fresh, filed[order], positions[order], len(built.pivots), added)

    build_in_place(folder / ADDED, write, lambda: _read_state(folder / ADDED, AddedState) == added)


def _write_lists(fresh: Path, filed: np.ndarray, positions: np.ndarray, p: int, state: RouterState | AddedState) -> None:
    """The starts, order and state of lists whose rows and scales are written in `fresh`:
    `filed` is each list row's pivot (ascending), `positions` its vector file position."""
    from memhop.core.store.vectors import write_state

    np.searchsorted(filed, np.arange(p + 1)).astype(np.int64).tofile(fresh / _STARTS)
    positions.astype(np.int64).tofile(fresh / _ORDER)
    write_state(fresh / _STATE, state, FORMAT)


def _nearest(pivots: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The nearest pivot of each row: the list it is filed in."""
    return np.argmax(rows @ pivots.T, axis=1).astype(np.int64)


def _filed(pivots: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(nearest pivot, int8 row, scale) of each row."""
    return (_nearest(pivots, rows), *_quantised(rows))


def open_router(target: Path, turns: int) -> Router | None:
    """The router of vector directory `target`, or None when it is missing, damaged or
    files more rows than the vectors hold (a search then walks the graph alone); its added
    lists when they extend these built ones, are whole and file no row past the vectors'
    (else those rows are scored exactly)."""
    folder = target / DIRECTORY
    state = _read_state(folder, RouterState)
    if state is None or state.routed > turns:
        return None
    try:
        pivots = np.fromfile(folder / _PIVOTS, dtype=np.float32)
    except (OSError, ValueError):
        return None
    p = len(pivots) // DIM
    built = _open_lists(folder, p, state.routed, range(turns), mapped=True) if p and len(pivots) == p * DIM else None
    if built is None:
        return None
    added = _read_state(folder / ADDED, AddedState)
    extra = None
    if added is not None and added.routed == state.routed and 0 < added.added <= turns - state.routed:
        extra = _open_lists(folder / ADDED, p, added.added, range(state.routed, state.routed + added.added), mapped=False)
    return Router(pivots.reshape(p, DIM), built, state.routed, extra)


def _open_lists(folder: Path, p: int, count: int, inside: range, mapped: bool) -> Lists | None:
    """The lists in `folder` if they hold `count` rows under `p` pivots, each a position in
    `inside`; None when missing or of another shape. The built lists' order and scales are
    memory-mapped (a search touches a few pages of each); the small added ones are read."""
    try:
        starts = np.fromfile(folder / _STARTS, dtype=np.int64)
        if mapped:
            order: np.ndarray = np.memmap(folder / _ORDER, dtype=np.int64, mode="r")
            scales: np.ndarray = np.memmap(folder / _SCALES, dtype=np.float32, mode="r")
        else:
            order, scales = np.fromfile(folder / _ORDER, dtype=np.int64), np.fromfile(folder / _SCALES, dtype=np.float32)
        rows = open(folder / _LISTS, "rb")  # noqa: SIM115  # kept open with the snapshot, closed with it
    except (OSError, ValueError):
        return None
    sizes = (len(order), len(scales), os.fstat(rows.fileno()).st_size // DIM)
    if (len(starts) != p + 1 or int(starts[-1]) != count or sizes != (count,) * 3
            or (count and (int(order.min()) < inside.start or int(order.max()) >= inside.stop))):
        rows.close()
        return None
    return Lists(starts, order, scales, rows)


def _quantised(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int8 rows, scale per row): each row's largest component maps to ±127."""
    scale = np.maximum(np.abs(rows).max(axis=1), np.finfo(np.float32).tiny) / 127.0
    return np.rint(rows / scale[:, None]).astype(np.int8), scale.astype(np.float32)


def _read_rows(f: BinaryIO, first: int, count: int) -> np.ndarray:
    """Rows first..first+count-1 of an open float16 vector file, as float32."""
    from memhop.core.store.vectors import read_rows

    return read_rows(f, np.arange(first, first + count))


def _read_state(folder: Path, kind: type[_S]) -> _S | None:
    """The state of the lists in `folder`: the built ones (RouterState) or the added (AddedState)."""
    from memhop.core.store.vectors import read_state

    return read_state(folder / _STATE, kind, FORMAT)
