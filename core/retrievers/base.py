"""The retriever contract: one question's read context in, one ranking of raw turns out.

Every retriever returns ONE ranking: the first K turns of a bigger budget are the turns of
budget K (issue #15, item 5), so asking for more evidence never changes the top.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

from memhop.core.evidence import FactSource, Listener
from memhop.core.store.recall import Snapshot
from memhop.core.trace import EvidencePick

if TYPE_CHECKING:
    import duckdb


@dataclass(frozen=True)
class Person:
    """An entity the question starts from: named in it, or `self` for "I"/"my"."""

    name: str
    aliases: tuple[str, ...]
    entity_id: int | None  # None: a raw-turn speaker that is not an entity


@dataclass(frozen=True)
class Query:
    """What the read path knows when it asks for evidence."""

    question: str
    vector: np.ndarray  # the question without its names, embedded
    text: str  # the question without its names
    snap: Snapshot
    people: tuple[Person, ...]  # whom the question is about, in question order
    focus: np.ndarray  # rows of the turns spoken by or naming them
    sources: tuple[FactSource, ...]  # the chosen verified facts that cleared the gate
    allowed: np.ndarray | None = None  # a time window over the turns; None: every turn
    in_period: np.ndarray | None = None  # the turns said in the period the question names ("in May 2024")
    con: duckdb.DuckDBPyConnection | None = None  # the store, for retrievers that read tables the snapshot lacks
    named: tuple[np.ndarray, ...] = ()  # per person, in `people` order, the rows of `focus` by or naming them
    listeners: tuple[Listener, ...] = ()  # per person, in `people` order: their name's forms and the turns they said
    category: np.ndarray | None = None  # an aggregation's category ("sports"), embedded (core/category.py); None: none


@dataclass(frozen=True)
class Ranked:
    row: int  # the turn's row in the snapshot's turn index
    pick: EvidencePick


@dataclass
class Ranking:
    """Best first, at most the budget; `stages` says what each stage contributed."""

    retriever: str
    turns: list[Ranked] = field(default_factory=list)
    stages: list[str] = field(default_factory=list)

    @property
    def rows(self) -> list[int]:
        return [t.row for t in self.turns]


class Retriever(Protocol):
    name: str

    def retrieve(self, query: Query, budget: int) -> Ranking: ...


def pick(query: Query, row: int, reason: str, score: float, via: str | None = None) -> Ranked:
    return Ranked(row, EvidencePick(int(query.snap.turns.ids[row]), None, reason, via, round(score, 4)))


def ranked_rows(scores: np.ndarray, rows: np.ndarray, limit: int) -> np.ndarray:
    """The `limit` best of `rows` by score, best first, ties by row (stable over budgets)."""
    if not len(rows) or limit <= 0:
        return np.zeros(0, dtype=np.int64)
    if len(rows) > limit:  # sort only the best: every row scoring at least the limit-th best (ties kept)
        values = scores[rows]
        cut = np.partition(-values, limit - 1)[limit - 1]
        rows = rows[-values <= cut]
    order = np.lexsort((rows, -scores[rows]))
    return rows[order[:limit]]


def same_session_neighbours(sessions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: has a previous / next row in the same session (chronological neighbours)."""
    same = sessions[1:] == sessions[:-1]
    return np.r_[False, same], np.r_[same, False]


def lend(scores: np.ndarray, lenders: np.ndarray, share: float, sessions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One-hop chronological recovery: each row's score is the larger of its own and `share`
    of a lending neighbour's (in the same session); also, per row, the row it came from."""
    n = len(scores)
    best, origin = scores.copy(), np.arange(n)
    has_prev, has_next = same_session_neighbours(sessions)
    lent_mask = np.zeros(n, dtype=bool)
    lent_mask[lenders] = True
    for step, has in ((1, has_prev), (-1, has_next)):  # step 1: from the previous row to this one
        src = np.arange(n) - step
        ok = has & lent_mask[np.clip(src, 0, n - 1)]
        offered = np.where(ok, share * scores[np.clip(src, 0, n - 1)], -np.inf)
        better = offered > best
        best[better], origin[better] = offered[better], src[better]
    return best, origin


def external(query: Query, row: int) -> str:
    return f"turn {int(query.snap.turns.ids[row])}"


def rows_in(query: Query, rows: Sequence[int] | np.ndarray) -> np.ndarray:
    """Those of `rows` inside the time window."""
    arr = np.asarray(rows, dtype=np.int64)
    return arr if query.allowed is None else arr[query.allowed[arr]]
