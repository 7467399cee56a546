"""`memhop search`: the raw turns and facts closest to a query, for when an answer fails.

The read path's own ranker (core/evidence.py: cosine plus BM25 over the best candidates),
without its question machinery: no hops, no name boosts, and no score lent by a
neighbouring turn, so every result matches the query by itself. Turns and facts are
scored alike and listed together, best first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from memhop.core.cite import Cited, cite_fact, cite_turn
from memhop.core.embed import Embedder
from memhop.core.evidence import LEXICAL_POOL, backfill, hybrid_scores, rows_about
from memhop.core.inspect import resolve_entity
from memhop.core.model import KnownEntity
from memhop.core.read import fact_allowed
from memhop.core.store import Store
from memhop.core.store.recall import ResidualIndex, Snapshot, snapshot
from memhop.core.store.turns import turns_by_id
from memhop.core.window import Window


@dataclass(frozen=True)
class Hit:
    cited: Cited
    score: float

    def to_dict(self) -> dict[str, Any]:
        return {**self.cited.to_dict(), "score": round(self.score, 4)}


@dataclass(frozen=True)
class SearchResult:
    query: str
    person: str | None  # the entity's canonical name, when restricted to one
    window: Window
    hits: tuple[Hit, ...]

    def to_dict(self) -> dict[str, Any]:
        """The `search --json` shape."""
        return {
            "query": self.query,
            "person": self.person,
            "since": self.window.since.isoformat() if self.window.since else None,
            "until": self.window.until.isoformat() if self.window.until else None,
            "results": [h.to_dict() for h in self.hits],
        }


def search(
    store: Store, embedder: Embedder, query: str, person: str | None = None, window: Window | None = None, limit: int = 10
) -> SearchResult:
    """The `limit` best turns and facts for `query`; `person` (any name `show` accepts) keeps
    the turns they said or that name them and their own facts; `window` keeps those dated
    inside it (a fact by its source turns)."""
    store.check_embedder(embedder)
    window = window or Window()
    entity = resolve_entity(store, person) if person is not None else None
    query = " ".join(query.split())
    snap = snapshot(store)
    if limit <= 0 or not query:
        return SearchResult(query, entity.name if entity else None, window, ())
    vector = embedder.embed([query])[0]
    dated = window.mask(snap.turns.timestamps) if window else None
    turn_rows = _turn_mask(snap, entity, dated)
    ranked_turns = backfill(snap.turns, vector, query, np.zeros(0, dtype=np.int64), limit, (), turn_rows, lend=False)
    # a person's search reads that person's facts only (on a large store, not every fact in the file)
    residuals = snap.residuals.span(entity.id) if entity is not None else snap.residuals.everything()
    ranked_facts = _facts(snap, residuals, vector, query, entity, dated, limit)
    turn_ids = [int(snap.turns.ids[row]) for row, _, _ in ranked_turns]
    fact_sources = [residuals.source_turns[i] for i, _ in ranked_facts]
    stored = turns_by_id(store, turn_ids + [t for source in fact_sources for t in source[:1]])
    hits = [Hit(cite_turn(stored[t]), score) for t, (_, score, _) in zip(turn_ids, ranked_turns) if t in stored]
    hits += [
        Hit(cite_fact(int(residuals.ids[i]), residuals.texts[i], source, stored), score)
        for (i, score), source in zip(ranked_facts, fact_sources)
    ]
    hits.sort(key=lambda h: (-h.score, h.cited.kind, h.cited.id))
    return SearchResult(query, entity.name if entity else None, window, tuple(hits[:limit]))


def _turn_mask(snap: Snapshot, entity: KnownEntity | None, dated: np.ndarray | None) -> np.ndarray | None:
    """The turns a search may return: inside the window, and about the person; None: all."""
    turns = snap.turns
    if entity is None:
        return dated
    keep = np.ones(len(turns.ids), dtype=bool) if dated is None else dated.copy()
    about = np.zeros(len(turns.ids), dtype=bool)
    about[rows_about(turns, [(entity.name, entity.aliases)], [entity.id])] = True
    return keep & about


def _facts(
    snap: Snapshot, residuals: ResidualIndex, vector: np.ndarray, query: str, entity: KnownEntity | None,
    dated: np.ndarray | None, limit: int,
) -> list[tuple[int, float]]:
    """(residual row, score) of the best `limit` live facts — the person's own, with a source
    turn inside the window — best first."""
    if not len(residuals.ids):
        return []
    keep = np.ones(len(residuals.ids), dtype=bool)
    if entity is not None:
        keep &= residuals.entity_ids == entity.id
    if dated is not None:
        for i in np.flatnonzero(keep):
            keep[i] = fact_allowed(snap.turns, residuals.source_turns[int(i)], dated)
    scores, best = hybrid_scores(
        residuals.matrix @ vector, query, lambda rows: [residuals.texts[r] for r in rows], max(LEXICAL_POOL, limit),
        allowed=keep,
    )
    ordered = sorted(best.tolist(), key=lambda r: (-float(scores[r]), r))[:limit]
    return [(r, float(scores[r])) for r in ordered]
