"""The retrieval baselines memhop is measured against, over the same raw turns and the
same embedder: dense retrieval over 4-turn chunks (MemHop's RAG), the Entity–Memory
graph of seed 001, and full context (every turn: the recall ceiling and its cost).

Each returns corpus rows ranked best first; the runner cuts them to the evidence budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from memhop.core.embed import Embedder
from memhop.core.language.names import find_names
from memhop.core.model import TurnView
from memhop.core.store import Store
from memhop.core.store.memory import registry
from memhop.core.store.recall import snapshot

CHUNK = 4  # turns per chunk (seed 000, appendix C)


@dataclass(frozen=True)
class Corpus:
    """Every raw turn of a store in chronological order, with its embedding."""

    ids: tuple[int, ...]
    external: tuple[str | None, ...]
    texts: tuple[str, ...]
    speakers: tuple[str, ...]
    sessions: tuple[int, ...]
    times: tuple[datetime | None, ...]
    vectors: np.ndarray

    def __len__(self) -> int:
        return len(self.ids)

    def view(self, row: int) -> TurnView:
        return TurnView(self.ids[row], self.speakers[row], self.texts[row], self.times[row], self.external[row],
                        int(self.sessions[row]))


def load_corpus(store: Store) -> Corpus:
    """The read path's cached turns (sessions in id order, which is import order:
    chronological for every benchmark source)."""
    turns = snapshot(store).turns
    order = np.lexsort((turns.positions, turns.sessions))
    rows = turns.records(order.tolist())
    return Corpus(
        tuple(r.id for r in rows), tuple(r.external_id for r in rows), tuple(r.text for r in rows),
        tuple(r.speaker for r in rows), tuple(int(s) for s in turns.sessions[order]),
        tuple(r.timestamp for r in rows), np.ascontiguousarray(turns.matrix[order]),
    )


def tokens(text: str) -> int:
    """A model-free token estimate (4 characters a token), used for every system alike."""
    return (len(text) + 3) // 4


class DenseChunks:
    """Non-overlapping 4-turn chunks within a session, embedded as one text, ranked by cosine."""

    name = "dense-chunks"

    def __init__(self, corpus: Corpus, embedder: Embedder) -> None:
        self.chunks: list[list[int]] = []
        for row in range(len(corpus)):
            if self.chunks and corpus.sessions[self.chunks[-1][0]] == corpus.sessions[row] and len(self.chunks[-1]) < CHUNK:
                self.chunks[-1].append(row)
            else:
                self.chunks.append([row])
        texts = ["\n".join(f"{corpus.speakers[r]}: {corpus.texts[r]}" for r in chunk) for chunk in self.chunks]
        self.vectors = embedder.embed(texts) if texts else np.zeros((0, corpus.vectors.shape[1]), np.float32)

    def rank(self, question: str, qvec: np.ndarray, k: int) -> list[int]:
        order = np.argsort(-(self.vectors @ qvec), kind="stable")
        rows = [r for c in order for r in self.chunks[c]]
        return rows[:k]


class EntityGraph:
    """Seed 001 as a baseline: the `graph` retriever's ranking (core/retrievers/graph.py)
    over the bench's own Memory nodes. Entities are the store's registry (memhop's own
    entity recognition), linked to the turns that name them and to their speakers, by name.
    Memories are embedded with their speaker ("Alice: ..."), as the chunks are: on
    LoCoMo 26 that lifts R@10 from 0.26 to 0.45 over the bare turn text."""

    name = "em-graph"

    def __init__(self, corpus: Corpus, entities: Sequence[tuple[str, Sequence[str]]],
                 vectors: np.ndarray | None = None) -> None:
        self.corpus = corpus
        self.vectors = corpus.vectors if vectors is None else vectors
        self.sessions = np.asarray(corpus.sessions, dtype=np.int64)
        self.entities = list(entities)
        index = {name: i for i, (name, _) in enumerate(self.entities)}
        linked: list[list[int]] = [[] for _ in self.entities]
        for row, text in enumerate(corpus.texts):
            found = {index[m.entity] for m in find_names(text, self.entities)}
            found |= {index[m.entity] for m in find_names(corpus.speakers[row], self.entities)}
            for entity in found:
                linked[entity].append(row)
        self.links = [np.asarray(rows, dtype=np.int64) for rows in linked]

    @classmethod
    def from_store(cls, store: Store, corpus: Corpus, embedder: Embedder) -> EntityGraph:
        memories = [f"{speaker}: {text}" for speaker, text in zip(corpus.speakers, corpus.texts)]
        vectors = embedder.embed(memories) if memories else corpus.vectors
        return cls(corpus, [(e.name, e.aliases) for e in registry(store)], vectors)

    def rank(self, question: str, qvec: np.ndarray, k: int) -> list[int]:
        from memhop.core.retrievers.graph import entity_graph

        index = {name: i for i, (name, _) in enumerate(self.entities)}
        asked = sorted({index[m.entity] for m in find_names(question, self.entities)})
        found = entity_graph(self.vectors, qvec, [self.links[i] for i in asked], self.sessions, k)
        return [int(r) for r in found.rows]


class FullContext:
    """Every turn, oldest first: recall is 1 by construction; the price is the tokens."""

    name = "full-context"

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus

    def rank(self, question: str, qvec: np.ndarray, k: int) -> list[int]:
        return list(range(len(self.corpus)))
