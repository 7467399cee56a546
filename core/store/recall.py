"""What the read path reads: profile, residual and turn matrices, cached per store file.

A question must cost one matrix product, not a table scan through SQL, so each matrix is
loaded once per process through Arrow and kept until the store changes. "Changes" is
checked with one cheap aggregate query (row counts, largest ids, newest profile, last
logged operation) before every use; a stale cache is simply reloaded.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import numpy as np
import pyarrow as pa

from memhop.core.embed import DIM
from memhop.core.errors import StoreError
from memhop.core.language.name_index import NameIndex
from memhop.core.language.names import NameMatch
from memhop.core.store import meta
from memhop.core.store.bulk import arrow_vectors
from memhop.core.store.db import Store
from memhop.core.store.lookup import arrow_by_id, lookup_mode, rows_by_id, scanning
from memhop.core.store.turns import StoredTurn, stored_turn
from memhop.core.store.vectors import TurnVectors

if TYPE_CHECKING:
    from memhop.core.store.fact_vectors import FactVectors

_STAMP_SQL = """
SELECT 1, count(*), coalesce(max(id), 0), 0 FROM turns
UNION ALL SELECT 2, count(*), coalesce(max(entity_id), 0), coalesce(epoch_us(max(updated_at)), 0) FROM profiles
UNION ALL SELECT 3, count(*), coalesce(max(id), 0), count(superseded_by) FROM residuals
UNION ALL SELECT 4, count(*), coalesce(max(id), 0), 0 FROM entities
UNION ALL SELECT 5, count(*), 0, 0 FROM mentions
UNION ALL SELECT 6, count(*), coalesce(max(id), 0), 0 FROM oplog
"""  # one statement: scalar subqueries cost DuckDB ~10 ms each
# Approximate search on a large store: how many nearest turns the index is asked for.
ANN_FACTOR = 4  # times the rows wanted...
ANN_MIN_CANDIDATES = 400  # ...and at least this many...
ANN_MAX_CANDIDATES = 5_000  # ...and at most this many
EXACT_ROWS = 20_000  # a bonus set or a time window this small is scored row by row, exactly
DENSE_LOOKUP = 4_096  # ids looked up at once from which an id -> row table pays for itself
CENTROID_CHUNK = 65_536  # rows summed at a time from a large store's memory-mapped vectors
FETCHED_KEPT = 20_000  # turn rows a large store's snapshot keeps once fetched (then it starts afresh)
SPANS_KEPT = 2_000  # entities whose facts a large store's snapshot keeps once read (likewise)
FACT_ROWS_KEPT = 50_000  # fact texts a large store's snapshot keeps once read (likewise)
_CACHE_SIZE = 4  # store files kept warm per process
_CACHE: dict[str, tuple[tuple[Any, ...], Snapshot]] = {}
_WHOLE: ContextVar[bool] = ContextVar("memhop_whole_snapshot", default=False)
_TRUSTED: weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, Snapshot] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class ProfileIndex:
    """Every entity that has a profile, row-aligned with its profile embedding."""

    entity_ids: list[int]
    names: list[str]
    kinds: list[str]
    aliases: list[tuple[str, ...]]
    texts: list[str]
    matrix: np.ndarray  # (n, DIM), unit rows

    @cached_property
    def row_of(self) -> dict[str, int]:
        """Row of each name (the last, for a name two entities share), once per snapshot:
        expansion looks names up on every ask, and building this at 10k entities cost ~1 ms."""
        return {name: row for row, name in enumerate(self.names)}


@dataclass(frozen=True)
class ResidualIndex:
    """The live (not superseded) residuals of every entity."""

    ids: np.ndarray
    entity_ids: np.ndarray
    texts: Sequence[str]  # a list, or on a large store a column read from the store when first used
    source_turns: Sequence[tuple[int, ...]]
    matrix: np.ndarray
    superseded: dict[int, int]  # entity id -> how many of its residuals are superseded

    def span(self, entity_id: int) -> ResidualIndex:
        """One entity's live residuals (rows are sorted by entity, so a slice)."""
        lo, hi = (int(i) for i in np.searchsorted(self.entity_ids, [entity_id, entity_id + 1]))
        return ResidualIndex(
            self.ids[lo:hi], self.entity_ids[lo:hi], self.texts[lo:hi], self.source_turns[lo:hi], self.matrix[lo:hi],
            {entity_id: self.superseded[entity_id]} if entity_id in self.superseded else {},
        )

    def spans(self, entity_ids: Sequence[int], lazy: bool = False) -> dict[int, ResidualIndex]:
        """`span` of each of these entities (`lazy`: see LazyResiduals.spans)."""
        return {e: self.span(e) for e in entity_ids}

    def prefetch(self, fact_ids: Sequence[int]) -> None:
        """Nothing to read: every text is in memory."""

    def everything(self) -> ResidualIndex:
        return self


@dataclass(frozen=True)
class LazyResiduals:
    """A large store's residuals: which entity owns which live fact is kept in memory (two
    integer columns), texts and vectors are read when a question selects the entity (a
    question reads the facts of a handful of entities, not the million of the store).
    With the derived fact vectors (core/store/fact_vectors.py) the owners come from their
    files and the vectors are rows of its float16 file; only texts are read from the store."""

    ids: np.ndarray  # live residual ids, sorted by entity then id
    entity_ids: np.ndarray
    superseded: dict[int, int]
    con: duckdb.DuckDBPyConnection
    kept: dict[int, ResidualIndex] = field(default_factory=dict)  # spans read so far, by entity
    vectors: FactVectors | None = None  # None: read from the store with the texts; else ids = its ids[by_owner]
    rows: dict[int, tuple[str, tuple[int, ...]]] = field(default_factory=dict)  # fact id -> (text, source turns) read

    @staticmethod
    def load(con: duckdb.DuckDBPyConnection, facts: FactVectors | None = None) -> LazyResiduals:
        if facts is not None:
            return LazyResiduals(np.asarray(facts.ids[facts.by_owner]), facts.owners, facts.superseded, con,
                                 vectors=facts)
        table = con.execute("SELECT id, entity_id, superseded_by IS NULL AS live FROM residuals").arrow().read_all()
        ids = table.column("id").to_numpy().astype(np.int64)
        owners = table.column("entity_id").to_numpy().astype(np.int64)
        live = table.column("live").to_numpy(zero_copy_only=False).astype(bool)
        stale_owners, counts = np.unique(owners[~live], return_counts=True)
        order = np.lexsort((ids[live], owners[live]))
        return LazyResiduals(ids[live][order], owners[live][order],
                             {int(e): int(n) for e, n in zip(stale_owners, counts)}, con)

    def span(self, entity_id: int) -> ResidualIndex:
        return self.spans([entity_id])[entity_id]

    def spans(self, entity_ids: Sequence[int], lazy: bool = False) -> dict[int, ResidualIndex]:
        """The live residuals of each of these entities, read in one query by id (ids are
        written in order, so DuckDB skips the blocks holding none of them). Spans read once
        are kept with the snapshot (dropped with it when the store changes): reading an
        entity's fact vectors costs ~10 ms CPU at 1M turns, and the next question in the
        same process is often about the same people. `lazy` (the read path, with the derived
        fact vectors): texts and source turns are read when first used, through this
        connection (`prefetch` the ones a question shows); else they are read now. Kept
        spans read through no connection: one bound to this object would keep it alive in a
        cycle, and with it its open fact vector file, past a forget that deletes the file."""
        if len(self.kept) > SPANS_KEPT:
            self.kept.clear()
        known = {e: self.kept[e] for e in entity_ids if e in self.kept}
        fresh = self._read([e for e in dict.fromkeys(entity_ids) if e not in known])
        self.kept.update(fresh)
        found = {e: self._bound(known[e] if e in known else fresh[e]) for e in entity_ids}
        if lazy:
            return found
        whole = {e: self._whole(span) for e, span in found.items()}
        self.kept.update(whole)
        return whole

    def prefetch(self, fact_ids: Sequence[int]) -> None:
        """Read these facts' texts and source turns now, in one query: a question shows a
        few facts of each entity it selects, and reading those alone costs DuckDB ~1.6 ms
        CPU at 1M turns where every fact of six entities cost ~6.6 (the rest are read
        when first used)."""
        if self.vectors is not None:
            self._fetch(fact_ids)

    def _fetch(self, fact_ids: Sequence[int] | np.ndarray) -> None:
        missing = sorted({int(i) for i in fact_ids} - self.rows.keys())
        if not missing:
            return
        if len(self.rows) > FACT_ROWS_KEPT:
            self.rows.clear()
        found = rows_by_id(self.con, "SELECT id, text, source_turns FROM residuals", missing)
        if len(found) != len(missing):
            raise StoreError("the derived fact vectors list facts the store does not hold; delete the store's "
                             ".vectors directory and ask again")
        self.rows.update({int(i): (text, tuple(turns or ())) for i, text, turns in found})

    def _whole(self, span: ResidualIndex) -> ResidualIndex:
        """`span` with its texts and source turns read (it outlives this connection)."""
        if not isinstance(span.texts, _FactColumn):
            return span
        self._fetch(span.ids)
        rows = [self.rows[int(i)] for i in span.ids]
        return replace(span, texts=[r[0] for r in rows], source_turns=[r[1] for r in rows])

    def _bound(self, span: ResidualIndex) -> ResidualIndex:
        """A kept span whose columns read through this connection."""
        if not isinstance(span.texts, _FactColumn):
            return span
        return replace(span, texts=_FactColumn(span.ids, 0, self), source_turns=_FactColumn(span.ids, 1, self))

    def _read(self, entity_ids: Sequence[int]) -> dict[int, ResidualIndex]:
        if not entity_ids:
            return {}
        ranges = {e: tuple(int(i) for i in np.searchsorted(self.entity_ids, [e, e + 1])) for e in entity_ids}
        if self.vectors is not None:  # vectors from the derived file; texts read when first used
            by_owner = self.vectors.by_owner
            return {e: ResidualIndex(
                self.ids[lo:hi], np.full(hi - lo, e, dtype=np.int64), _FactColumn(self.ids[lo:hi], 0),
                _FactColumn(self.ids[lo:hi], 1), self.vectors.rows(np.asarray(by_owner[lo:hi])),
                {e: self.superseded[e]} if e in self.superseded else {},
            ) for e, (lo, hi) in ranges.items()}
        wanted = np.concatenate([self.ids[lo:hi] for lo, hi in ranges.values()]) if ranges else np.zeros(0, np.int64)
        table = arrow_by_id(self.con, "SELECT id, text, source_turns, embedding FROM residuals", wanted.tolist())
        got = table.column("id").to_numpy().astype(np.int64)
        at = {int(i): n for n, i in enumerate(got)}
        out = {}
        for e, (lo, hi) in ranges.items():
            rows = [at[int(i)] for i in self.ids[lo:hi] if int(i) in at]
            out[e] = _residuals(table.take(pa.array(rows, pa.int64())), {e: self.superseded[e]} if e in self.superseded else {},
                                owners=np.full(len(rows), e, dtype=np.int64))
        return out

    def everything(self) -> ResidualIndex:
        """Every live residual in memory (`search` ranks them all)."""
        with scanning(self.con):
            return _load_residuals(self.con)


@dataclass(frozen=True)
class _FactColumn(Sequence[Any]):
    """Texts (column 0) or source turns (1) of a large store's facts, read from the store
    when first used: the facts a question shows were read together (`prefetch`); any other
    is read with every fact of its span, in one query, as a span used to be read."""

    ids: np.ndarray
    column: int
    source: LazyResiduals | None = None  # None while kept in a snapshot (LazyResiduals.spans binds it)

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, at: Any) -> Any:
        if isinstance(at, slice):
            return [self[i] for i in range(*at.indices(len(self)))]
        fact, source = int(self.ids[at]), self.source
        assert source is not None, "a kept span's column is read through LazyResiduals.spans"
        if fact not in source.rows:
            source._fetch(self.ids)
        return source.rows[fact][self.column]


def _residuals(table: pa.Table, superseded: dict[int, int], owners: np.ndarray | None = None) -> ResidualIndex:
    return ResidualIndex(
        ids=table.column("id").to_numpy().astype(np.int64),
        entity_ids=table.column("entity_id").to_numpy().astype(np.int64) if owners is None else owners,
        texts=table.column("text").to_pylist(),
        source_turns=[tuple(s or ()) for s in table.column("source_turns").to_pylist()],
        matrix=arrow_vectors(table.column("embedding")),
        superseded=superseded,
    )


@dataclass
class FetchedRows:
    """Turn rows and session names a large store's snapshot has fetched, kept with it (the
    snapshot is dropped when the store changes, so they cannot go stale): one question reads
    its best candidates' texts for BM25 and then the evidence among them, and the next
    question in the same process often reads the same turns."""

    texts: dict[int, str] = field(default_factory=dict)  # turn id -> text
    external: dict[int, str | None] = field(default_factory=dict)  # turn id -> external id (evidence rows)
    sessions: dict[int, str] = field(default_factory=dict)  # session id -> its external id
    source_of: dict[int, int] = field(default_factory=dict)  # session id -> its source's id
    paths: dict[int, str] = field(default_factory=dict)  # source id -> its path


@dataclass(frozen=True)
class TurnIndex:
    """Every raw turn, in chronological order within each session (neighbours are adjacent
    rows). A small store keeps its float32 matrix and text columns in memory (exact search,
    evidence needs no query); from vectors.ANN_MIN_TURNS turns on the matrix is the
    memory-mapped derived file with its ANN index, and texts are fetched by row from the
    store, only for the turns a question needs."""

    ids: np.ndarray
    sessions: np.ndarray
    positions: np.ndarray
    speaker_codes: np.ndarray
    speakers: list[str]
    mentions: dict[int, np.ndarray]  # entity id -> rows of the turns that name it
    id_order: np.ndarray  # rows sorted by turn id, for id -> row lookups
    id_rank: np.ndarray  # per row, its place in id order (the derived files' row)
    timestamps: pa.ChunkedArray | pa.Array  # ts, row-aligned (for time windows)
    columns: pa.Table | None  # text, external_id, ts, session (its external id), row-aligned; None: fetched
    dense_matrix: np.ndarray | None  # (n, DIM) float32, unit rows; None: `vectors`
    vectors: TurnVectors | None = None  # derived float16 rows + ANN index, in id order
    con: duckdb.DuckDBPyConnection | None = None  # where fetched rows come from (bound per call)
    fetched: FetchedRows = field(default_factory=FetchedRows)  # rows fetched so far (large store)

    @property
    def approximate(self) -> bool:
        return self.vectors is not None

    @property
    def matrix(self) -> np.ndarray:
        """Every row as float32, row-aligned: retrievers that score all turns at once use it
        (on a large store it is built from the derived file on each use)."""
        if self.dense_matrix is not None:
            return self.dense_matrix
        return self.vectors_of(np.arange(len(self.ids)))

    def vectors_of(self, rows: np.ndarray) -> np.ndarray:
        """These rows' vectors as float32 (from the derived file on a large store)."""
        if self.dense_matrix is not None:
            return self.dense_matrix[rows]
        assert self.vectors is not None
        return self.vectors.rows(self.id_rank[rows])

    def cosines(
        self, query: np.ndarray, wanted: int, extra: Sequence[np.ndarray] = (), allowed: np.ndarray | None = None
    ) -> np.ndarray:
        """Cosine of every row to `query`. Exact on a small store; on a large one only the
        rows that can rank among the best `wanted` are scored (the index's nearest, their
        neighbours, the `extra` rows a bonus may lift, or every `allowed` row when few are)
        and the rest are -inf."""
        return self.scored_cosines(query, wanted, extra, allowed)[0]

    def scored_cosines(
        self, query: np.ndarray, wanted: int, extra: Sequence[np.ndarray] = (), allowed: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """`cosines`, and on a large store the rows it scored (ascending, every one finite,
        every one inside `allowed`); None on a small one, where every row is scored."""
        if self.dense_matrix is not None:
            return self.dense_matrix @ query, None
        assert self.vectors is not None
        n = len(self.ids)
        rows = self._candidates(query, wanted, extra, allowed)
        out = np.full(n, -np.inf, dtype=np.float32)
        out[rows] = self.vectors.cosines(self.id_rank[rows], query)
        return out, rows[np.isfinite(out[rows])]

    def _candidates(
        self, query: np.ndarray, wanted: int, extra: Sequence[np.ndarray], allowed: np.ndarray | None
    ) -> np.ndarray:
        assert self.vectors is not None
        n = len(self.ids)
        if allowed is not None:
            inside = int(allowed.sum())
            if inside <= EXACT_ROWS:
                return np.flatnonzero(allowed)
        # Enough nearest turns that the best `wanted` of any large subset a bonus or a window
        # favours are among them: `wanted / share` for a subset holding `share` of the turns.
        share = 1.0
        parts: list[np.ndarray] = []
        for rows in extra:
            if len(rows) <= EXACT_ROWS:
                parts.append(np.asarray(rows, dtype=np.int64))
            else:
                share = min(share, len(rows) / n)
        if allowed is not None:
            share = min(share, max(int(allowed.sum()), 1) / n)
        count = int(min(max(ANN_FACTOR * wanted, ANN_MIN_CANDIDATES, wanted / share * 1.5), ANN_MAX_CANDIDATES, n))
        near = self.id_order[self.vectors.nearest(query, count)]
        parts += [near, near - 1, near + 1]
        rows = distinct(np.concatenate(parts))
        rows = rows[(rows >= 0) & (rows < n)]
        return rows if allowed is None else rows[allowed[rows]]

    @cached_property
    def centroid(self) -> np.ndarray:
        """The normalised mean of every turn's vector (hero's expansion bar), once per snapshot;
        a large store's rows are read from its derived file and summed a chunk at a time."""
        if self.dense_matrix is not None:
            total = self.dense_matrix.sum(axis=0, dtype=np.float64)
        else:
            assert self.vectors is not None
            n = len(self.vectors.ids)
            total = np.zeros(DIM, dtype=np.float64)
            for start in range(0, n, CENTROID_CHUNK):
                total += self.vectors.rows(np.arange(start, min(start + CENTROID_CHUNK, n))).sum(axis=0, dtype=np.float64)
        norm = float(np.linalg.norm(total))
        return (total / norm if norm else total).astype(np.float32)

    @cached_property
    def sorted_ids(self) -> np.ndarray:
        """Every turn id, ascending (ids[id_order]): made once, not on every lookup."""
        return self.ids[self.id_order]

    def rows_of(self, turn_ids: Sequence[int]) -> np.ndarray:
        """Row of each turn id; ids that are gone are dropped."""
        rows, found = self.lookup(turn_ids)
        return rows[found]

    def lookup(self, turn_ids: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Row of each turn id, aligned, and whether the snapshot holds it."""
        many = len(turn_ids) >= DENSE_LOOKUP  # the id table is made once, when first worth it
        return _lookup(self.ids, self.id_order, turn_ids, self.sorted_ids, self.id_table if many else None)

    @cached_property
    def id_table(self) -> np.ndarray | None:
        """`_id_table` of the snapshot's turns, once: hero looks up a speaker cue's every turn
        on each ask, and a table of the largest id's size per ask cost 8 MB at 1M turns."""
        return _id_table(self.ids, self.id_order)

    def texts(self, rows: Sequence[int]) -> list[str]:
        if self.columns is not None:
            return self.columns.column("text").take(pa.array(rows, pa.int64())).to_pylist()
        found = self._texts(rows)  # texts alone: BM25 reads the texts of a whole pool
        return [found[int(self.ids[r])] for r in rows]

    def records(self, rows: Sequence[int]) -> list[TurnRecord]:
        """Full rows, in the order asked for."""
        if self.columns is None:
            return self._fetched(rows)
        picked = self.columns.take(pa.array(rows, pa.int64())).to_pydict()
        return [
            TurnRecord(int(self.ids[r]), session, self.speakers[self.speaker_codes[r]], ts, ext, text,
                       int(self.sessions[r]))
            for r, session, ts, ext, text in zip(
                rows, picked["session"], picked["ts"], picked["external_id"], picked["text"]
            )
        ]

    def _fetched(self, rows: Sequence[int]) -> list[TurnRecord]:
        if not len(rows):
            return []
        found = self._rows(rows)
        names = self._session_names({int(self.sessions[r]) for r in rows})
        stamps = self.timestamps.take(pa.array(rows, pa.int64())).to_pylist()
        out = []
        for r, ts in zip(rows, stamps):
            tid = int(self.ids[r])
            ext, text = found[tid]
            session = int(self.sessions[r])
            out.append(TurnRecord(tid, names[session], self.speakers[self.speaker_codes[r]], ts, ext, text, session))
        return out

    def stored(self, turn_ids: Iterable[int]) -> dict[int, StoredTurn]:
        """`turns.turns_by_id` from a large store's snapshot (ascending id, as DuckDB gives
        them): a row's session, position, speaker and time are the snapshot's columns, its
        text and external id are fetched once (the evidence's already were, for the
        answerer), its file is looked up by session and kept. Reading those columns and
        files from the store again for the answer's citations cost DuckDB ~5 ms CPU an ask
        at 1M turns."""
        wanted = sorted({int(i) for i in turn_ids})
        rows, found = self.lookup(wanted)
        picked = rows[found].tolist()
        if not picked:
            return {}
        paths = self._paths({int(self.sessions[r]) for r in picked})
        return {
            rec.id: stored_turn((rec.id, rec.session_id, self.positions[r], rec.speaker, rec.timestamp, rec.text,
                                 rec.external_id, paths[rec.session_id]))
            for r, rec in zip(picked, self._fetched(picked))
            if rec.session_id in paths  # a session with no source: not a turn turns_by_id finds
        }

    def prefetch(self, rows: Sequence[int], paths: bool = True) -> None:
        """A large store's rows fetched now, with their sessions' files if the answer's
        citations read them from here (`stored`, `paths`): the evidence and the turns its
        facts came from; fetched apart, they cost DuckDB two more statements an ask."""
        if self.columns is None and len(rows):
            self._rows(rows)
            if paths:
                self._paths({int(self.sessions[r]) for r in rows})

    def _session_names(self, sessions: set[int]) -> dict[int, str]:
        """Session id -> its external id, fetched once a snapshot with its source's id (in
        the same statement: the column costs DuckDB next to nothing more)."""
        kept = self.fetched
        unnamed = sessions - kept.sessions.keys()
        if unnamed:
            for session, name, source in rows_by_id(self._connection(), "SELECT id, external_id, source_id FROM sessions",
                                                    unnamed):
                kept.sessions[int(session)], kept.source_of[int(session)] = name, int(source)
        return {s: kept.sessions[s] for s in sessions if s in kept.sessions}

    def _paths(self, sessions: set[int]) -> dict[int, str]:
        """Session id -> its source file's path (sessions without one are absent)."""
        kept = self.fetched
        named = self._session_names(sessions)
        missing = {kept.source_of[s] for s in named} - kept.paths.keys()
        if missing:
            kept.paths.update((int(i), str(path)) for i, path in rows_by_id(self._connection(), "SELECT id, path FROM sources",
                                                                             missing))
        return {s: kept.paths[kept.source_of[s]] for s in named if kept.source_of[s] in kept.paths}

    def _rows(self, rows: Sequence[int]) -> dict[int, tuple[str | None, str]]:
        """Turn id -> (external id, text) of these rows (the evidence), fetched once a
        snapshot. A row's session and time are the snapshot's own columns, not fetched again
        (at 1M turns they cost a pool's query ~2 ms CPU of its ~4); session names are looked
        up apart, for these few rows (for a pool of ~100 turns that lookup cost DuckDB
        ~2.7 ms CPU)."""
        con, kept = self._connection(), self.fetched
        wanted = {int(self.ids[r]) for r in rows}
        missing = wanted - kept.external.keys()
        if missing:
            for tid, ext, text in rows_by_id(con, "SELECT id, external_id, text FROM turns", missing):
                kept.texts[int(tid)], kept.external[int(tid)] = text, ext
        return {t: (kept.external[t], kept.texts[t]) for t in wanted}

    def _texts(self, rows: Sequence[int]) -> dict[int, str]:
        """Turn id -> text of these rows, fetched once a snapshot: BM25 reads a pool of ~100
        turns, of which only the evidence needs its external id (`_rows`); reading that
        column for the whole pool cost DuckDB ~2.8 ms CPU an ask at 1M turns."""
        con, kept = self._connection(), self.fetched
        wanted = {int(self.ids[r]) for r in rows}
        missing = wanted - kept.texts.keys()
        if missing:
            kept.texts.update((int(tid), text) for tid, text in rows_by_id(con, "SELECT id, text FROM turns", missing))
        return {t: kept.texts[t] for t in wanted}

    def _connection(self) -> duckdb.DuckDBPyConnection:
        """The store rows are fetched from; what was fetched is forgotten past FETCHED_KEPT rows."""
        if self.con is None:
            raise RuntimeError("a large store's turn index is used without a store connection")
        kept = self.fetched
        if len(kept.texts) > FETCHED_KEPT:
            kept.texts.clear()
            kept.external.clear()
        return self.con


def distinct(values: np.ndarray) -> np.ndarray:
    """Sorted distinct values, as np.unique gives them: np.unique itself imports numpy.ma on
    first use (~7 ms CPU of a cold ask) to rule out masked arrays."""
    ordered = np.sort(values)
    return ordered[np.r_[True, ordered[1:] != ordered[:-1]]] if len(ordered) else ordered


def _ascending(keys: list[np.ndarray]) -> bool:
    """Whether rows are already in lexsort order of `keys` (last key first): one pass, where
    sorting a million rows costs a noticeable part of a cold ask."""
    if not len(keys[0]):
        return True
    later = np.zeros(len(keys[0]) - 1, dtype=bool)  # strictly after the previous row so far
    same = np.ones(len(keys[0]) - 1, dtype=bool)
    for key in reversed(keys):
        later |= same & (key[1:] > key[:-1])
        same &= key[1:] == key[:-1]
    return bool(np.all(later | same))


def _lookup(
    ids: np.ndarray, order: np.ndarray, wanted_ids: Sequence[int] | np.ndarray, ordered: np.ndarray | None = None,
    table: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Row of each wanted id, and whether it is there (`ordered`: ids[order], `table`:
    `_id_table`, if made already). Many ids (a snapshot's mentions) are looked up in a table
    indexed by id when the ids are dense enough for it: a binary search per id cost ~290 ms
    CPU for 680k mentions in 1M turns, the table ~20."""
    wanted = np.asarray(wanted_ids, dtype=np.int64)
    if not len(ids) or not len(wanted):
        return np.zeros(len(wanted), dtype=np.int64), np.zeros(len(wanted), dtype=bool)
    if len(wanted) >= DENSE_LOOKUP:
        table = table if table is not None else _id_table(ids, order)
        if table is not None:
            inside = (wanted >= 0) & (wanted < len(table))
            rows = np.where(inside, table[np.where(inside, wanted, 0)], -1)
            return np.maximum(rows, 0), rows >= 0
    ordered = ids[order] if ordered is None else ordered
    at = np.clip(np.searchsorted(ordered, wanted), 0, len(ordered) - 1)
    return order[at], ordered[at] == wanted


def _id_table(ids: np.ndarray, order: np.ndarray) -> np.ndarray | None:
    """The row of every id, indexed by id (-1: no such row), when the ids are dense enough
    for a table (at most 4 slots a row); None otherwise, or for no ids."""
    if not len(ids) or int(ids[order[0]]) < 0 or int(ids[order[-1]]) > 4 * len(ids):
        return None
    table = np.full(int(ids[order[-1]]) + 1, -1, dtype=np.int64)
    table[ids] = np.arange(len(ids))
    return table


@dataclass(frozen=True)
class TurnRecord:
    id: int
    session: str
    speaker: str
    timestamp: datetime | None
    external_id: str | None
    text: str
    session_id: int  # the session's row: its name (`session`) can repeat across sources


@dataclass(frozen=True)
class Snapshot:
    """The three matrices of one store, as of one stamp."""

    profiles: ProfileIndex
    residuals: ResidualIndex | LazyResiduals  # lazy on a large store (its turns searched approximately)
    turns: TurnIndex
    names: NameIndex  # the profiled entities' names and aliases, for matching text
    speakers: NameIndex  # raw-turn speakers that are not (yet) entities
    links: dict[int, dict[int, list[NameMatch]]] = field(default_factory=dict)
    # ^ profile row -> {row of each entity its profile names: the mentions}; filled as read


@contextmanager
def kept_whole() -> Iterator[None]:
    """Within it, a snapshot holds every turn in memory whatever the store's size (exact
    search, no row fetched per question). A long-lived process (serve, MCP) answers many
    questions from one snapshot, so loading it whole once beats fetching rows on every
    question; a one-shot `ask` reads only what its question needs."""
    token = _WHOLE.set(True)
    try:
        yield
    finally:
        _WHOLE.reset(token)


def snapshot(store: Store) -> Snapshot:
    """The cached matrices of this store file, reloaded only if the store changed since.

    A read-only connection cannot see the file change (DuckDB lets no other process
    write while it is open), so once checked its snapshot is reused without a query.
    """
    whole = _WHOLE.get()
    trusted = _TRUSTED.get(store.con)
    if trusted is not None and not (whole and trusted.turns.approximate):
        return trusted
    # Row 0, which store: one made anew at the path has its own identity (core/store/meta.py)
    # even where every count is the same.
    stamp = ((0, meta.identity(store.con), 0, 0), *sorted(store.con.execute(_STAMP_SQL).fetchall()))
    key = str(store.path.resolve()) + ("#whole" if whole else "")
    hit = _CACHE.get(key)
    if hit is not None and hit[0] == stamp:
        value = hit[1]
    else:
        with scanning(store.con):
            value = _load(store, key, stamp)
    if value.turns.approximate and value.turns.con is not store.con:  # rows are fetched through this store
        lazy = value.residuals
        value = replace(value, turns=replace(value.turns, con=store.con),
                        residuals=replace(lazy, con=store.con) if isinstance(lazy, LazyResiduals) else lazy)
    if store.con.execute("SELECT current_setting('access_mode')").fetchone() == ("read_only",):
        _TRUSTED[store.con] = value
        if value.turns.approximate:  # nothing left to scan: the rest is rows by id
            lookup_mode(store.con)
    return value


def trusted(store: Store) -> Snapshot | None:
    """The snapshot of this read-only connection, once loaded (it cannot go stale: no
    process writes the file while it is open read-only); None otherwise."""
    return _TRUSTED.get(store.con)


def cites_from_snapshot(store: Store) -> Snapshot | None:
    """The snapshot citations read turn rows from: a large store's, on a read-only
    connection (`trusted`); None where they are read from the store."""
    snap = trusted(store)
    return snap if snap is not None and snap.turns.approximate else None


def drop(store: Store) -> None:
    """Forget every snapshot of this store file and close its derived files. A forget's
    compaction deletes the derived files; a long-lived process (serve, library use) would
    otherwise keep the deleted files open, their bytes on disk, until the snapshot went."""
    from memhop.core.store import vectors

    key = str(store.path.resolve())
    gone = [_CACHE.pop(k)[1] for k in (key, key + "#whole") if k in _CACHE]
    if store.con in _TRUSTED:
        gone.append(_TRUSTED.pop(store.con))
    derived = vectors.directory(store.path.resolve())
    files = {id(v.turns.vectors) for v in gone if v.turns.vectors is not None}
    files |= {id(f) for f in map(_fact_file, gone) if f is not None}
    for con, value in list(_TRUSTED.items()):  # other connections to the file (closed, kept by their snapshot)
        facts = _fact_file(value)
        if (id(value.turns.vectors) in files or id(facts) in files
                or (facts is not None and Path(facts.vectors.name).is_relative_to(derived))):
            gone.append(_TRUSTED.pop(con))
    for value in gone:
        facts = _fact_file(value)
        if facts is not None:
            facts.close()
        if value.turns.vectors is not None:
            value.turns.vectors.close()


def _fact_file(value: Snapshot) -> FactVectors | None:
    return value.residuals.vectors if isinstance(value.residuals, LazyResiduals) else None


def _load(store: Store, key: str, stamp: tuple[Any, ...]) -> Snapshot:
    profiles = _load_profiles(store)
    turns = _load_turns(store, whole=_WHOLE.get())
    known = {n.lower() for n in profiles.names}
    value = Snapshot(
        profiles,
        LazyResiduals.load(store.con, _fact_vectors(store, stamp)) if turns.approximate else _load_residuals(store.con),
        turns,
        NameIndex(list(zip(profiles.names, profiles.aliases))),
        NameIndex([(s, ()) for s in turns.speakers if s.lower() not in known]),
    )
    _CACHE.pop(key, None)
    while len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = (stamp, value)
    return value


def _fact_vectors(store: Store, stamp: tuple[Any, ...]) -> FactVectors | None:
    """The derived fact vectors, keyed by the stamp's fact counts (and the store's last
    fact-changing operation)."""
    from memhop.core.store import fact_vectors

    facts, max_id, superseded = {row[0]: row[1:] for row in stamp}[3]
    return fact_vectors.load(store, fact_vectors.State.of(store.con, (int(facts), int(max_id), int(superseded))))


def _load_profiles(store: Store) -> ProfileIndex:
    table = store.con.execute(
        "SELECT e.id, e.name, e.kind, e.aliases, p.text, p.embedding "
        "FROM entities e JOIN profiles p ON p.entity_id = e.id ORDER BY e.id"
    ).arrow().read_all()
    return ProfileIndex(
        entity_ids=table.column("id").to_pylist(),
        names=table.column("name").to_pylist(),
        kinds=table.column("kind").to_pylist(),
        aliases=[tuple(a or ()) for a in table.column("aliases").to_pylist()],
        texts=table.column("text").to_pylist(),
        matrix=arrow_vectors(table.column("embedding")),
    )


def _load_residuals(con: duckdb.DuckDBPyConnection) -> ResidualIndex:
    table = con.execute(
        "SELECT id, entity_id, text, source_turns, embedding FROM residuals "
        "WHERE superseded_by IS NULL ORDER BY entity_id, id"
    ).arrow().read_all()
    stale = con.execute(
        "SELECT entity_id, count(*) FROM residuals WHERE superseded_by IS NOT NULL GROUP BY entity_id"
    ).fetchall()
    return _residuals(table, {int(e): int(n) for e, n in stale})


def _load_turns(store: Store, whole: bool = False) -> TurnIndex:
    from memhop.core.store import vectors as derived

    large = None if whole else derived.load(store)  # None below ANN_MIN_TURNS: all read into memory
    sql = (
        "SELECT id, session_id, position, speaker, ts FROM turns" if large  # texts are fetched by row
        else "SELECT t.id, t.session_id, t.position, t.speaker, t.ts, t.embedding, t.text, t.external_id, "
        "s.external_id AS session FROM turns t JOIN sessions s ON s.id = t.session_id"
    )
    table = store.con.execute(sql).arrow().read_all()
    # Chronological within each session; sorted here, not in SQL (ORDER BY moves every vector).
    keys = [table.column(c).to_numpy().astype(np.int64) for c in ("id", "position", "session_id")]
    if not _ascending(keys):
        table = table.take(pa.array(np.lexsort(keys)))
    speaker_col = table.column("speaker").combine_chunks().dictionary_encode()
    ids = table.column("id").to_numpy().astype(np.int64)
    order = np.argsort(ids, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    if large is not None and not np.array_equal(large.ids, ids[order]):
        raise StoreError(f"{store.path}: the derived vectors do not match the store's turns; delete "
                         f"{derived.directory(store.path)} and ask again")
    pairs = store.con.execute("SELECT entity_id, turn_id FROM mentions").arrow().read_all()
    entities = pairs.column("entity_id").to_numpy().astype(np.int64)
    rows, found = _lookup(ids, order, pairs.column("turn_id").to_numpy())
    # By entity, then row: one sort of (entity << 32 | row) keys, distinct keys kept (a lexsort
    # of the two columns cost ~130 ms CPU at 1M turns, this ~40).
    pair_keys = distinct((entities[found] << 32) | rows[found])
    named, named_rows = pair_keys >> 32, pair_keys & 0xFFFFFFFF
    starts = np.flatnonzero(np.r_[True, named[1:] != named[:-1]]) if len(named) else np.zeros(0, np.int64)
    mentions = {int(named[s]): g for s, g in zip(starts, np.split(named_rows, starts[1:]))}
    return TurnIndex(
        ids=ids,
        sessions=table.column("session_id").to_numpy().astype(np.int64),
        positions=table.column("position").to_numpy().astype(np.int64),
        speaker_codes=speaker_col.indices.to_numpy(zero_copy_only=False).astype(np.int32),
        speakers=speaker_col.dictionary.to_pylist(),
        mentions=mentions,
        id_order=order,
        id_rank=rank,
        timestamps=table.column("ts").combine_chunks(),
        columns=None if large else table.select(["text", "external_id", "ts", "session"]).combine_chunks(),
        dense_matrix=None if large else arrow_vectors(table.column("embedding")),
        vectors=large,
        con=store.con if large else None,
    )
