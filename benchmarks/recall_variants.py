"""Would a different dense signal lift recall? Three standard ones, measured against today's.

    .venv/bin/python benchmarks/recall_variants.py [--stores /tmp/memhop-recall-stores]

Each variant replaces the turn cosines the default retriever (`prograph`) starts from —
everything after them (entity bonus, BM25 over the pool, session score, lending, fact
turns) is unchanged — and the LoCoMo 26 / 30 questions (categories 1-4) and the first three
generated scenarios are read at budget 25:

- sentences: a turn scores the mean of its own cosine and its best sentence's (each
  sentence of a turn with several embedded alone): a long turn's one relevant sentence is
  not averaged away by its greetings;
- context: a turn scores 0.7 of its cosine and 0.3 of the mean cosine of the turns up to
  two before and after it in its session: a reply ("I'm excited!") is about what was said
  around it;
- feedback: the question's vector moved towards the mean of its five nearest turns
  (Rocchio, 0.5) and searched again: more words for a short question.

and two fusions: the default's first 100 turns and the `hero` retriever's (seed 002's cue
graph), by reciprocal rank (k 10) at weight 0.25 or 0.5 against the default's 1.

The variants are patched in here, not built into memhop: none gained on every source
(issue #15's record). Stores are built as benchmarks/recall_misses.py builds them.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np

from memhop.core.bench.metrics import recall_at
from memhop.core.bench.sources import LOCOMO_HEADLINE, default_locomo_dir
from memhop.core.store.recall import TurnIndex

Transform = Callable[[TurnIndex, np.ndarray, np.ndarray], np.ndarray]  # (turns, question, cosines) -> cosines
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def sentences(embed: Callable[[list[str]], np.ndarray]) -> Transform:
    per_store: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def transform(turns: TurnIndex, question: np.ndarray, cosines: np.ndarray) -> np.ndarray:
        if id(turns) not in per_store:
            texts, owners = [], []
            for row, text in enumerate(turns.texts(list(range(len(turns.ids))))):
                parts = [p.strip() for p in _SENTENCE_END.split(text) if len(p.strip()) > 3]
                if len(parts) > 1:
                    texts += parts
                    owners += [row] * len(parts)
            per_store[id(turns)] = (embed(texts), np.asarray(owners, dtype=np.int64))
        vectors, owners = per_store[id(turns)]
        best = np.full(len(cosines), -np.inf)
        np.maximum.at(best, owners, vectors @ question)
        split = np.isfinite(best)
        out = cosines.copy()
        out[split] = 0.5 * cosines[split] + 0.5 * best[split]
        return out

    return transform


def context(turns: TurnIndex, question: np.ndarray, cosines: np.ndarray, reach: int = 2, share: float = 0.3) -> np.ndarray:
    n = len(cosines)
    total, count = np.zeros(n), np.zeros(n)
    for step in (*range(-reach, 0), *range(1, reach + 1)):
        other = np.clip(np.arange(n) + step, 0, n - 1)
        same = (np.arange(n) + step == other) & (turns.sessions[other] == turns.sessions)
        total[same] += cosines[other][same]
        count[same] += 1
    around = np.where(count > 0, total / np.maximum(count, 1), cosines)
    return ((1 - share) * cosines + share * around).astype(np.float32)


def feedback(turns: TurnIndex, question: np.ndarray, cosines: np.ndarray) -> np.ndarray:
    nearest = np.argsort(-cosines)[:5]
    moved = question + 0.5 * turns.matrix[nearest].mean(axis=0)
    return (turns.matrix @ (moved / np.linalg.norm(moved))).astype(np.float32)


def fused(ranking: list[int], other: list[int], weight: float, k: int = 10) -> list[int]:
    """Reciprocal-rank fusion of two rankings, the first at weight 1."""
    score: dict[int, float] = defaultdict(float)
    for at, row in enumerate(ranking):
        score[row] += 1 / (k + at + 1)
    for at, row in enumerate(other):
        score[row] += weight / (k + at + 1)
    return sorted(score, key=lambda row: -score[row])


def measure(stores: dict[str, Path], sources: list, transform: Transform | None,
            fuse_hero: float = 0.0) -> dict[str, tuple[int, float, float]]:
    """(questions, R@10, R@25) per source, with the cosines transformed (None: as shipped)
    or the ranking fused with hero's at weight `fuse_hero` (0: not fused)."""
    from memhop.core.config import ReadSettings
    from memhop.core.embed import get_embedder
    from memhop.core.read import evidence_query
    from memhop.core.retrievers import get as get_retriever
    from memhop.core.store import open_store

    shipped = TurnIndex.scored_cosines

    def scored(self: TurnIndex, query: np.ndarray, *args: object, **kwargs: object) -> tuple[np.ndarray, np.ndarray | None]:
        cosines, rows = shipped(self, query, *args, **kwargs)  # type: ignore[arg-type]
        if transform is None or self.dense_matrix is None:
            return cosines, rows
        return transform(self, query, cosines), rows

    embedder = get_embedder("minilm")
    out: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    TurnIndex.scored_cosines = scored  # type: ignore[method-assign]
    try:
        for source in sources:
            with open_store(stores[source.name], read_only=True) as store:
                for q in source.questions:
                    if not q.evidence or (source.dataset == "locomo" and q.group not in LOCOMO_HEADLINE):
                        continue
                    query = evidence_query(store, q.text, embedder, ReadSettings(evidence=25))
                    if fuse_hero:
                        rows = fused(get_retriever("prograph").retrieve(query, 100).rows,
                                     get_retriever("hero").retrieve(query, 100).rows, fuse_hero)[:25]
                    else:
                        rows = get_retriever("prograph").retrieve(query, 25).rows
                    externals = [r.external_id for r in query.snap.turns.records(rows)]
                    for key in (source.name, f"{source.dataset} (all)"):
                        tally = out[key]
                        tally[0] += 1
                        tally[1] += recall_at(externals, q.evidence, 10) or 0.0
                        tally[2] += recall_at(externals, q.evidence, 25) or 0.0
    finally:
        TurnIndex.scored_cosines = shipped  # type: ignore[method-assign]
    return {k: (int(n), 100 * a / n, 100 * b / n) for k, (n, a, b) in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stores", type=Path, default=Path("/tmp/memhop-recall-stores"))
    parser.add_argument("--locomo", type=Path, default=default_locomo_dir())
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    from recall_misses import all_sources, build_stores

    from memhop.core.embed import get_embedder

    sources = all_sources(args.locomo, 3)
    stores = build_stores(args.stores, sources)
    embedder = get_embedder("minilm")

    def unit(texts: list[str]) -> np.ndarray:
        vectors = np.asarray(embedder.embed(texts), dtype=np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    variants: dict[str, Transform | None] = {"shipped": None, "sentences": sentences(unit), "context": context,
                                             "feedback": feedback}
    results = {name: measure(stores, sources, transform) for name, transform in variants.items()}
    for weight in (0.25, 0.5):
        results[f"fused with hero at {weight}"] = measure(stores, sources, None, weight)
    keys = sorted(results["shipped"], key=lambda k: ("(all)" in k, k))
    print("R@10 / R@25 at budget 25 (LoCoMo categories 1-4; scenarios: every question)\n")
    print("| variant | " + " | ".join(keys) + " |")
    print("|---|" + "---|" * len(keys))
    for name, result in results.items():
        print(f"| {name} | " + " | ".join(f"{result[k][1]:.1f} / {result[k][2]:.1f}" for k in keys) + " |")


if __name__ == "__main__":
    main()
