"""Can a category-membership signal reach the aggregation misses? An oracle count, then a fusion.

    .venv/bin/python benchmarks/category_oracle.py [--stores /tmp/memhop-recall-stores] [--list]

For an aggregation question that names a category ("which <things> has X <verb>", "what
kinds of <things> …": core/route.py's AGGREGATION with a noun phrase before the
auxiliary: core/route.py `category`), the category phrase is embedded with the store's embedder (MiniLM) and each
turn by or naming the question's people (the focus rows) is scored three ways:

- turn: cosine of the category phrase and the turn's stored vector (no parse, no new embedding
  but the phrase's);
- chunks: the best cosine of the category phrase and the turn's noun phrases (a noun with its
  compound and adjective modifiers) and verb phrases (a verb alone, and with its object,
  particle or preposition), parsed by the offline engine's spaCy pipeline, embedded one by one;
- contrast: the chunks' cosine minus their best cosine to WordNet's noun supersenses (coarse
  classes: person, place, time, feeling, …) not close to the category, a zero-shot margin
  that discounts a chunk near everything.

The oracle: of the gold turns outside the default retriever's top 25 (without the
category), how many each signal puts in the top 25 of the person's turns. Then the fusion
(core/category.py `fuse`): the default ranking's first 100 and the signal's best 100 of
the person's turns, by reciprocal rank (k 60) at weight w against 1 ("turn" at 0.25 is
what the read path does), R@10 / R@25 per source (an untouched question keeps its ranking).
Stores are built as benchmarks/recall_misses.py builds them (reused when present).
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from memhop.core.bench.metrics import recall_at
from memhop.core.bench.sources import LOCOMO_HEADLINE, default_locomo_dir

# WordNet's noun supersenses (its lexicographer files), named in plain words.
SUPERSENSES = (
    "act activity", "animal", "artifact object", "attribute", "body", "cognition idea", "communication",
    "event", "feeling emotion", "food", "group", "location place", "motive", "natural object", "person",
    "phenomenon", "plant", "possession", "process", "quantity", "relation", "shape", "state", "substance", "time",
)
NEAR = 0.45  # a supersense this close to the category is not a contrast
POOL = 100
WEIGHTS = (0.1, 0.2, 0.25, 0.35, 0.5, 1.0)
def chunks(doc: Any) -> list[str]:
    """Noun phrases and verb phrases of a parsed turn, lower-cased (the pipeline has no
    coarse tags, so spaCy's noun_chunks is empty: dependencies and fine tags instead)."""
    out: list[str] = []
    for tok in doc:
        if tok.tag_.startswith("NN") and tok.dep_ != "compound":
            start = min([tok.i] + [c.i for c in tok.lefts if c.dep_ in ("compound", "amod", "nmod")])
            out.append(doc[start : tok.i + 1].text.lower())
        if tok.tag_.startswith("VB") and tok.dep_ not in ("aux", "auxpass"):
            objects = [c for c in tok.rights if c.dep_ in ("dobj", "prt", "prep", "acomp", "xcomp")]
            end = max((c.right_edge.i for c in objects), default=tok.i)
            if tok.i < end <= tok.i + 6:
                out.append(doc[tok.i : end + 1].text.lower())
            out.append(tok.text.lower())
    return out


class Unit:
    """Unit vectors of short texts, each embedded once."""

    def __init__(self) -> None:
        from memhop.core.embed import get_embedder

        self.embedder = get_embedder("minilm")
        self.seen: dict[str, np.ndarray] = {}

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        new = [t for t in dict.fromkeys(texts) if t not in self.seen]
        for text, vector in zip(new, self.embedder.embed(new) if new else []):
            self.seen[text] = np.asarray(vector, dtype=np.float64) / np.linalg.norm(vector)
        return np.array([self.seen[t] for t in texts]) if texts else np.zeros((0, 384))


def signals(query: Any, phrase: str, unit: Unit, parsed: dict[int, list[str]]) -> dict[str, np.ndarray]:
    """Per focus row, the three scores (module docstring)."""
    from memhop.core.engines.offline.nlp import _pipeline

    turns, focus = query.snap.turns, query.focus
    vector = unit([phrase])[0]
    labels = unit(list(SUPERSENSES))
    contrast = labels[labels @ vector < NEAR]
    missing = [r for r in focus.tolist() if r not in parsed]
    for row, doc in zip(missing, _pipeline().pipe(turns.texts(missing))):
        parsed[row] = chunks(doc)
    best = np.full(len(focus), -1.0)
    margin = np.full(len(focus), -9.0)
    for at, row in enumerate(focus.tolist()):
        if parsed[row]:
            vectors = unit(parsed[row])
            near = vectors @ vector
            best[at] = near.max()
            margin[at] = (near - (vectors @ contrast.T).max(axis=1)).max() if len(contrast) else best[at]
    return {"turn": turns.matrix[focus].astype(np.float64) @ vector, "chunks": best, "contrast": margin}


def ranked(focus: np.ndarray, scores: np.ndarray) -> list[int]:
    """The person's turns by a signal, best first, the first POOL."""
    return [int(r) for r in focus[np.argsort(-scores, kind="stable")][:POOL]]


def rank_of(scores: np.ndarray, at: int) -> int:
    return int((scores > scores[at]).sum()) + 1


def main() -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from recall_misses import all_sources, build_stores

    from memhop.core.category import fuse
    from memhop.core.config import ReadSettings
    from memhop.core.embed import get_embedder
    from memhop.core.read import evidence_query
    from memhop.core.retrievers import get as get_retriever
    from memhop.core.route import classify
    from memhop.core.store import open_store
    from memhop.core.store.recall import snapshot

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stores", type=Path, default=Path("/tmp/memhop-recall-stores"))
    parser.add_argument("--locomo", type=Path, default=default_locomo_dir())
    parser.add_argument("--scenarios", type=int, default=3)
    parser.add_argument("--list", action="store_true", help="each touched question's miss ranks")
    args = parser.parse_args()
    sources = all_sources(args.locomo, args.scenarios)
    stores = build_stores(args.stores, sources)
    unit, embedder, prograph = Unit(), get_embedder("minilm"), get_retriever("prograph")
    variants: list[tuple[str, Callable[[list[int], Any, dict[str, np.ndarray]], list[int]]]] = [("prograph", lambda b, q, s: b)]
    for name in ("turn", "chunks", "contrast"):
        for w in WEIGHTS:
            variants.append((f"RRF {name} w={w}", lambda b, q, s, n=name, w=w: fuse(b, ranked(q.focus, s[n]), w) if s else b))
    recall: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    misses: Counter[str] = Counter()
    reached: Counter[tuple[str, str]] = Counter()
    touched: Counter[str] = Counter()
    for source in sources:
        with open_store(stores[source.name], read_only=True) as store:
            snap = snapshot(store)
            externals = [r.external_id for r in snap.turns.records(list(range(len(snap.turns.ids))))]
            row_of = {e: i for i, e in enumerate(externals)}
            parsed: dict[int, list[str]] = {}
            label = source.name if source.dataset == "locomo" else "generated"
            for q in source.questions:
                if not q.evidence or (source.dataset == "locomo" and q.group not in LOCOMO_HEADLINE):
                    continue
                query = evidence_query(store, q.text, embedder, ReadSettings(evidence=25))
                base = prograph.retrieve(replace(query, category=None), POOL).rows
                phrase = classify(query.question).category if len(query.focus) else None
                scores = signals(query, phrase, unit, parsed) if phrase else {}
                touched[label] += bool(scores)
                for name, rank in variants:
                    got = [externals[r] for r in rank(base, query, scores)[:25]]
                    tally = recall[(label, name)]
                    tally[0] += 1
                    tally[1] += recall_at(got, q.evidence, 10) or 0.0
                    tally[2] += recall_at(got, q.evidence, 25) or 0.0
                if not scores:
                    continue
                top = {externals[r] for r in base[:25]}
                focus = query.focus
                out = [row_of[g] for g in q.evidence if g in row_of and g not in top]
                ranks = []
                for row in out:
                    misses[label] += 1
                    at = int(np.searchsorted(focus, row))
                    if at >= len(focus) or focus[at] != row:
                        ranks.append(None)
                        continue
                    ranks.append({name: rank_of(s, at) for name, s in scores.items()})
                    for name, s in scores.items():
                        reached[(label, name)] += rank_of(s, at) <= 25
                if args.list and out:
                    print(f"{label} [{phrase}] {q.text[:70]!r}: miss ranks among the person's turns {ranks}")
    print("\noracle: gold turns outside prograph's top 25 that a signal ranks in the top 25 of the person's turns")
    for label in misses:
        print(f"  {label}: {touched[label]} questions touched, {misses[label]} misses; "
              + ", ".join(f"{n} {reached[(label, n)]}" for n in ("turn", "chunks", "contrast")))
    print("\nR@10 / R@25 (every question of categories 1-4; untouched ones keep the default ranking)")
    labels = list(dict.fromkeys(label for label, _ in recall))
    print("variant".ljust(24) + "".join(f"{label:>18s}" for label in labels) + f"   touched {dict(touched)}")
    for name, _ in variants:
        cells = [recall[(label, name)] for label in labels]
        print(name.ljust(24) + "".join(f"{100 * c[1] / c[0]:9.1f} /{100 * c[2] / c[0]:5.1f}" for c in cells))


if __name__ == "__main__":
    main()
