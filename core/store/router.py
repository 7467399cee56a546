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
every candidate exactly from the float16 rows. Turns added after the router was built (the file's tail, which ingest
appends to) are scored exactly as well, until there are more than `TAIL_MAX` of them and
the router is built again. The files live in `<store>.vectors/router/`, so a rebuilt or
deleted vector directory takes them along.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from memhop.core.embed import DIM

LIST_TURNS = 256  # turns per list when built (pivots = turns / LIST_TURNS)
PROBES = 24  # lists read per search: ~6,000 rows at 1M turns (~2.3 MB, 24 reads)
TAIL_MAX = 16_384  # turns added since the build that are scored exactly, at most; then rebuilt
BUILD_ROWS = 4_096  # rows filed at a time while building (their scores against every pivot)
FORMAT = 2  # 2: int8 lists with a scale per row (1 held float16 rows)
DIRECTORY = "router"
_STATE = "state.json"
_PIVOTS = "pivots.f32"
_STARTS = "starts.i64"
_ORDER = "order.i64"
_LISTS = "lists.i8"
_SCALES = "scales.f32"


@dataclass(frozen=True)
class RouterState:
    routed: int  # the vector file's first `routed` rows are filed in the lists


@dataclass(frozen=True)
class Router:
    pivots: np.ndarray  # (p, DIM) float32
    starts: np.ndarray  # (p + 1,) list i is rows starts[i]:starts[i + 1] of `lists`
    order: np.ndarray  # (routed,) memory-mapped: the vector file's position of each list row
    scales: np.ndarray  # (routed,) memory-mapped: list row i is lists[i] * scales[i]
    lists: BinaryIO  # (routed, DIM) int8, grouped by list
    routed: int

    def close(self) -> None:
        self.lists.close()

    def nearest(self, query: np.ndarray, count: int, tail: np.ndarray) -> np.ndarray:
        """Positions of the `count` rows nearest `query` among the nearest lists and the
        `tail` rows ((n - routed, DIM) float32, positions routed..n-1)."""
        q = query.astype(np.float32)
        probes = min(PROBES, len(self.pivots))
        chosen = np.sort(np.argpartition(-(self.pivots @ q), probes - 1)[:probes])
        parts, positions = [tail @ q], [np.arange(self.routed, self.routed + len(tail), dtype=np.int64)]
        fd = self.lists.fileno()
        for pivot in chosen.tolist():
            lo, hi = int(self.starts[pivot]), int(self.starts[pivot + 1])
            if hi > lo:
                raw = os.pread(fd, (hi - lo) * DIM, lo * DIM)
                if len(raw) != (hi - lo) * DIM:
                    raise OSError(f"{self.lists.name}: routing lists are cut short")
                rows = np.frombuffer(raw, dtype=np.int8).reshape(-1, DIM).astype(np.float32)
                parts.append((rows @ q) * self.scales[lo:hi])
                positions.append(np.asarray(self.order[lo:hi], dtype=np.int64))
        scores, found = np.concatenate(parts), np.concatenate(positions)
        if len(found) > count:
            found = found[np.argpartition(-scores, count - 1)[:count]]
        return found


def due(target: Path, turns: int) -> bool:
    """Whether the router in vector directory `target` must be (re)built for `turns` rows."""
    have = _read_state(target / DIRECTORY)
    return have is None or have.routed > turns or turns - have.routed > TAIL_MAX


def build(target: Path, turns: int) -> None:
    """File the first `turns` rows of `target`'s float16 vectors under evenly spaced pivots,
    each stored again as int8 (`_quantised`) in its list."""
    from memhop.core.store.vectors import build_in_place, write_state

    source = target / "vectors.f16"

    def write(fresh: Path) -> None:
        count = max(1, turns // LIST_TURNS)
        with open(source, "rb") as f:
            at = (np.arange(count, dtype=np.int64) * turns) // count
            pivots = np.stack([_read_rows(f, int(p), 1)[0] for p in at.tolist()])
            filed = np.empty(turns, dtype=np.int64)
            for lo in range(0, turns, BUILD_ROWS):
                rows = _read_rows(f, lo, min(BUILD_ROWS, turns - lo))
                filed[lo : lo + len(rows)] = np.argmax(rows @ pivots.T, axis=1)
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
        np.searchsorted(filed[order], np.arange(count + 1)).astype(np.int64).tofile(fresh / _STARTS)
        order.astype(np.int64).tofile(fresh / _ORDER)
        write_state(fresh / _STATE, RouterState(turns), FORMAT)

    folder = target / DIRECTORY
    build_in_place(folder, write, lambda: _read_state(folder) == RouterState(turns))


def open_router(target: Path, turns: int) -> Router | None:
    """The router of vector directory `target`, or None when it is missing, damaged or
    files more rows than the vectors hold (a search then walks the graph alone)."""
    folder = target / DIRECTORY
    state = _read_state(folder)
    if state is None or state.routed > turns:
        return None
    try:
        pivots = np.fromfile(folder / _PIVOTS, dtype=np.float32)
        starts = np.fromfile(folder / _STARTS, dtype=np.int64)
        order = np.memmap(folder / _ORDER, dtype=np.int64, mode="r")
        scales = np.memmap(folder / _SCALES, dtype=np.float32, mode="r")
        lists = open(folder / _LISTS, "rb")  # noqa: SIM115  # kept open with the snapshot, closed with it
    except (OSError, ValueError):
        return None
    p = len(starts) - 1
    sizes = (len(order), len(scales), os.fstat(lists.fileno()).st_size // DIM)
    if (p < 1 or len(pivots) != p * DIM or int(starts[-1]) != state.routed or sizes != (state.routed,) * 3
            or (state.routed and (int(order.min()) < 0 or int(order.max()) >= turns))):
        lists.close()
        return None
    return Router(pivots.reshape(p, DIM), starts, order, scales, lists, state.routed)


def _quantised(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int8 rows, scale per row): each row's largest component maps to ±127."""
    scale = np.maximum(np.abs(rows).max(axis=1), np.finfo(np.float32).tiny) / 127.0
    return np.rint(rows / scale[:, None]).astype(np.int8), scale.astype(np.float32)


def _read_rows(f: BinaryIO, first: int, count: int) -> np.ndarray:
    """Rows first..first+count-1 of an open float16 vector file, as float32."""
    from memhop.core.store.vectors import read_rows

    return read_rows(f, np.arange(first, first + count))


def _read_state(folder: Path) -> RouterState | None:
    from memhop.core.store.vectors import read_state

    return read_state(folder / _STATE, RouterState, FORMAT)
