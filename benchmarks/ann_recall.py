"""Raw recall of a store's ANN search against exact search over its float16 rows.

    .venv/bin/python benchmarks/ann_recall.py STORE.duckdb "question" ["question" ...] [--count 400] [--k 25]

Reads the store's derived vectors read-only (`<store>.vectors/`, never built or changed
here), embeds each question with the store's embedder and prints, per question and on
average, the share of the exact K nearest turns (float16 rows, every one scored) found
among the `count` candidates of: the HNSW graph walked as `memhop ask` walks it (with
its own and with the wide expansion), an int8 scan of every vector in the index, the
routing lists alone (core/store/router.py) when the store has them, and the search
`memhop ask` makes (TurnVectors.nearest). Graph loss shows as a low walk with a full
scan; quantisation loss as a low scan. CPU ms per question (time.process_time) beside each.
The questions' own embeddings are searched: the read path often searches a rewritten
question's (core/read.py), so its candidates can differ from these.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from memhop.core.embed import get_embedder
from memhop.core.store import open_store, router, vectors

SCORE_ROWS = 65_536  # rows scored at a time by the exact search


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", type=Path)
    parser.add_argument("questions", nargs="+")
    parser.add_argument("--count", type=int, default=400, help="candidates asked (read path: 400 for 25 evidence)")
    parser.add_argument("--k", type=int, default=25, help="exact nearest turns that should be among them")
    args = parser.parse_args()
    with open_store(args.db, read_only=True) as store:
        loaded = vectors.load(store, build=False)
        embedder = get_embedder(store.embedder_setting)  # the model of its vectors, whatever is configured
    if loaded is None:
        print(f"{args.db}: no up-to-date derived vectors (below {vectors.ANN_MIN_TURNS} turns, or stale)", file=sys.stderr)
        return 1
    queries = embedder.embed(args.questions).astype(np.float32)
    exact = _exact(loaded, queries, args.k)
    index = loaded.index

    def walk(expansion: int) -> Callable[[np.ndarray], np.ndarray]:
        def search(q: np.ndarray) -> np.ndarray:
            index.expansion_search = expansion  # type: ignore[misc]
            return _positions(loaded, index.search(q, args.count, threads=1).keys)
        return search

    ways: dict[str, Callable[[np.ndarray], np.ndarray]] = {
        f"graph walk, expansion {args.count}": walk(args.count),
        f"graph walk, expansion {vectors.EXPANSION_SEARCH}": walk(max(args.count, vectors.EXPANSION_SEARCH)),
        "int8 scan of every vector": lambda q: _positions(loaded, index.search(q, args.count, threads=1, exact=True).keys),
    }
    if loaded.router is not None:
        lists = loaded.router
        ways[f"routing lists alone ({router.PROBES} probed)"] = lambda q: lists.nearest(
            q, args.count, loaded.rows(np.arange(lists.routed, len(loaded.ids))))
    ways["memhop ask's search (TurnVectors.nearest)"] = lambda q: loaded.nearest(q, args.count)
    print(f"{len(loaded.ids)} turns; exact {args.k} nearest among {args.count} candidates; router: "
          f"{'yes' if loaded.router is not None else 'no'}")
    for name, search in ways.items():
        clock = time.process_time()
        found = [search(q) for q in queries]
        ms = (time.process_time() - clock) * 1000 / len(queries)
        shares = [len(set(f.tolist()) & want) / len(want) for f, want in zip(found, exact)]
        print(f"{name:>45}: recall@{args.k} {np.mean(shares):.3f} (lowest {min(shares):.2f})  {ms:6.1f} ms CPU")
        print(" " * 47 + " ".join(f"{s:.2f}" for s in shares))
    return 0


def _exact(loaded: vectors.TurnVectors, queries: np.ndarray, k: int) -> list[set[int]]:
    """Positions of each query's k nearest rows, every float16 row scored."""
    n = len(loaded.ids)
    scores = np.empty((len(queries), n), dtype=np.float32)
    for lo in range(0, n, SCORE_ROWS):
        hi = min(lo + SCORE_ROWS, n)
        scores[:, lo:hi] = queries @ loaded.rows(np.arange(lo, hi)).T
    return [set(np.argsort(-row, kind="stable")[:k].tolist()) for row in scores]


def _positions(loaded: vectors.TurnVectors, keys: np.ndarray) -> np.ndarray:
    pos = np.searchsorted(loaded.ids, np.asarray(keys, dtype=np.int64))
    return pos[(pos < len(loaded.ids)) & (loaded.ids[np.clip(pos, 0, len(loaded.ids) - 1)] == keys)]


if __name__ == "__main__":
    raise SystemExit(main())
