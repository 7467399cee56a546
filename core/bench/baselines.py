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
ALPHA, BETA = 0.3, 0.7  # entity / semantic fusion (seed 001)
RECOVERY = 0.5  # share of a seed's score its chronological neighbours inherit (seed 001)


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
        return TurnView(self.ids[row], self.speakers[row], self.texts[row], self.times[row], self.external[row])


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
    """Seed 001: entity gating, α·entity + β·cosine fusion, ±1 chronological recovery at
    0.5 × the seed's score, then dense backfill. Entities are the store's registry (memhop's
    own entity recognition), linked to the turns that name them and to their speakers.
    Memories are embedded with their speaker ("Alice: ..."), as the chunks are: on
    LoCoMo 26 that lifts R@10 from 0.26 to 0.45 over the bare turn text."""

    name = "em-graph"

    def __init__(self, corpus: Corpus, entities: Sequence[tuple[str, Sequence[str]]],
                 vectors: np.ndarray | None = None) -> None:
        self.corpus = corpus
        self.vectors = corpus.vectors if vectors is None else vectors
        self.entities = list(entities)
        index = {name: i for i, (name, _) in enumerate(self.entities)}
        self.links: list[frozenset[int]] = []
        for row, text in enumerate(corpus.texts):
            found = {index[m.entity] for m in find_names(text, self.entities)}
            found |= {index[m.entity] for m in find_names(corpus.speakers[row], self.entities)}
            self.links.append(frozenset(found))

    @classmethod
    def from_store(cls, store: Store, corpus: Corpus, embedder: Embedder) -> EntityGraph:
        memories = [f"{speaker}: {text}" for speaker, text in zip(corpus.speakers, corpus.texts)]
        vectors = embedder.embed(memories) if memories else corpus.vectors
        return cls(corpus, [(e.name, e.aliases) for e in registry(store)], vectors)

    def rank(self, question: str, qvec: np.ndarray, k: int) -> list[int]:
        index = {name: i for i, (name, _) in enumerate(self.entities)}
        asked = {index[m.entity] for m in find_names(question, self.entities)}
        cosine = self.vectors @ qvec
        if asked:
            entity = np.array([len(asked & linked) / len(asked) for linked in self.links], dtype=np.float32)
            candidates = np.flatnonzero(entity > 0)
        else:
            entity = np.zeros(len(self.corpus), dtype=np.float32)
            candidates = np.arange(len(self.corpus))
        if candidates.size == 0:
            candidates = np.arange(len(self.corpus))
        fused = ALPHA * entity + BETA * cosine
        seeds = candidates[np.argsort(-fused[candidates], kind="stable")[:k]]
        scores = {int(r): float(fused[r]) for r in seeds}
        for r in seeds:
            for n in (int(r) - 1, int(r) + 1):
                if 0 <= n < len(self.corpus):
                    scores[n] = max(scores.get(n, -1.0), RECOVERY * float(fused[r]))
        ranked = sorted(scores, key=lambda r: (-scores[r], r))[:k]
        if len(ranked) < k:
            taken = set(ranked)
            ranked += [int(r) for r in np.argsort(-cosine, kind="stable") if int(r) not in taken][: k - len(ranked)]
        return ranked


class FullContext:
    """Every turn, oldest first: recall is 1 by construction; the price is the tokens."""

    name = "full-context"

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus

    def rank(self, question: str, qvec: np.ndarray, k: int) -> list[int]:
        return list(range(len(self.corpus)))
