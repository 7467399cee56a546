"""Why gold evidence turns miss the default retriever's top 10/25: each miss, categorised.

    .venv/bin/python benchmarks/recall_misses.py [--stores /tmp/memhop-recall-stores] [--show 5]

Ingests LoCoMo 26 and 30 (shared/data/locomo beside the checkout, or $MEMHOP_LOCOMO_DIR;
read at run time, never copied) and the bench's first three generated scenarios with the
offline engine into stores kept in --stores (built once, reused by later runs), then reads
every question (LoCoMo categories 1-4; every scenario question) at budget 25 and, for each
gold turn outside the top 25 (or 10), says which of these held it out, first match wins:

- word mismatch: the turn is outside the best 100 by cosine of the question without its
  names AND shares no content word stem with it (neither score can find it);
- cosine-only miss: shares a rare word (it would be in BM25's top 25 over every turn)
  but its cosine keeps it out of the 100-turn pool BM25 re-scores;
- wrong person: the question names people, the gold turn is neither by nor about them,
  and focus turns (the entity bonus) hold most of the top 25;
- session hog: one session holds half of the top 25 and the gold turn is in another;
- fact turns: the gold turn would be in pure backfill's top 25, fact turns took its place;
- neighbour lending: turns placed by a lent score (not gold) outrank it;
- ranked low: in the pool, outranked on its own score (the weighting).

Prints the counts per source and per category, then a few examples of each, and beside
R@10 / R@25 the same ranking's R@50 / R@100: the ceiling of any re-ranking of its first
hundred turns (a gold turn outside them needs a new signal, not new weights).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from memhop.core.bench.metrics import recall_at
from memhop.core.bench.sources import LOCOMO_HEADLINE, BenchSource, default_locomo_dir, locomo_sources, memhop_sources
from memhop.core.retrievers.base import Ranking

DEPTH = 100  # the ranking is read this deep: what any re-ranking of it could reach at 25


@dataclass
class Tally:
    n: int = 0
    r10: float = 0.0
    r25: float = 0.0
    r50: float = 0.0
    r100: float = 0.0
    causes: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))


def build_stores(folder: Path, sources: Sequence[BenchSource]) -> dict[str, Path]:
    """One offline-engine store per source, built only if missing."""
    from memhop.core.bench.ingest import ingest_parsed
    from memhop.core.embed import get_embedder
    from memhop.core.engines.offline.engine import OfflineEngine
    from memhop.core.store import open_store

    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for source in sources:
        path = folder / f"{source.name}.duckdb"
        if not path.exists():
            print(f"building {path} …", flush=True)
            with open_store(path) as store:
                ingest_parsed(store, source.parsed, source.name, get_embedder("minilm"), OfflineEngine(),
                              self_name=source.self_name)
        out[source.name] = path
    return out


def all_sources(locomo: Path, scenarios: int) -> list[BenchSource]:
    return [*locomo_sources(locomo, ("26.json", "30.json")), *memhop_sources(scenarios, 40, 0, 20)]


def analyse(source: BenchSource, path: Path, tallies: dict[tuple[str, str], Tally]) -> None:
    from memhop.core.config import ReadSettings
    from memhop.core.embed import get_embedder
    from memhop.core.evidence import LEXICAL_POOL, backfill
    from memhop.core.language import lexical
    from memhop.core.read import evidence_query
    from memhop.core.retrievers import get as get_retriever
    from memhop.core.store import open_store
    from memhop.core.store.recall import snapshot

    embedder = get_embedder("minilm")
    with open_store(path, read_only=True) as store:
        snap = snapshot(store)
        turns = snap.turns
        all_texts = turns.texts(list(range(len(turns.ids))))
        all_terms = [lexical.terms(t) for t in all_texts]
        externals = [r.external_id for r in turns.records(list(range(len(turns.ids))))]
        row_of = {e: i for i, e in enumerate(externals)}
        for q in source.questions:
            if not q.evidence or (source.dataset == "locomo" and q.group not in LOCOMO_HEADLINE):
                continue
            query = evidence_query(store, q.text, embedder, ReadSettings(evidence=25))
            deep = get_retriever("prograph").retrieve(query, DEPTH)  # one ranking: its first 25 are budget 25's
            deeper = [externals[r] for r in deep.rows]
            ranking = Ranking(deep.retriever, deep.turns[:25])
            rows = ranking.rows
            got = deeper[:25]
            group = q.group if source.dataset == "locomo" else "all"
            tally = tallies[(source.name, group)]
            tally.n += 1
            tally.r10 += recall_at(got, q.evidence, 10) or 0.0
            tally.r25 += recall_at(got, q.evidence, 25) or 0.0
            tally.r50 += recall_at(deeper, q.evidence, 50) or 0.0
            tally.r100 += recall_at(deeper, q.evidence, 100) or 0.0
            query_text, vector = query.text, query.vector
            cos = turns.matrix @ vector
            cos_rank = np.argsort(np.argsort(-cos))
            qterms = lexical.terms(query_text)
            bm = np.asarray(lexical.bm25(qterms, all_terms)) if qterms else np.zeros(len(all_terms))
            bm_rank = np.argsort(np.argsort(-bm))
            reasons = [t.pick.reason for t in ranking.turns]
            sessions = Counter(int(turns.sessions[r]) for r in rows)
            focus = set(query.focus.tolist())
            focus_share = sum(r in focus for r in rows) / max(len(rows), 1)
            pure = {r for r, _, _ in backfill(turns, vector, query_text, np.zeros(0, dtype=np.int64), 25, set())}
            for gold in q.evidence:
                if gold in got[:25] or gold not in row_of:
                    continue
                g = row_of[gold]
                shared = set(qterms) & set(all_terms[g])
                gspeaker = turns.speakers[turns.speaker_codes[g]]
                people = query.people
                if cos_rank[g] >= LEXICAL_POOL and not shared:
                    cause = "word mismatch"
                elif cos_rank[g] >= LEXICAL_POOL and bm[g] > 0 and bm_rank[g] < 25:
                    cause = "cosine-only miss (BM25 would find it)"
                elif people and g not in focus and focus_share > 0.5:
                    cause = "wrong person"
                elif sessions.most_common(1)[0][1] >= 13 and int(turns.sessions[g]) != sessions.most_common(1)[0][0]:
                    cause = "session hog"
                elif g in pure and any(r == "fact source" or r == "neighbour" for r in reasons):
                    cause = "fact turns took its place"
                elif sum(r == "neighbour" for r in reasons) >= 5:
                    cause = "neighbour lending"
                elif cos_rank[g] >= LEXICAL_POOL:
                    cause = "outside the cosine pool"
                else:
                    cause = "ranked low (weighting)"
                tally.causes[cause] += 1
                if len(tally.examples[cause]) < 3:
                    tally.examples[cause].append(
                        f"{q.text!r} -> {gold} [{gspeaker}] cos#{cos_rank[g]} bm#{bm_rank[g]} "
                        f"shared={sorted(shared)}: {all_texts[g][:90]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stores", type=Path, default=Path("/tmp/memhop-recall-stores"))
    parser.add_argument("--locomo", type=Path, default=default_locomo_dir())
    parser.add_argument("--scenarios", type=int, default=3)
    parser.add_argument("--show", type=int, default=2, help="examples per cause")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sources = all_sources(args.locomo, args.scenarios)
    stores = build_stores(args.stores, sources)
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    for source in sources:
        analyse(source, stores[source.name], tallies)
    if args.json:
        print(json.dumps({f"{s}/{g}": [t.n, t.r10 / t.n, t.r25 / t.n, t.r50 / t.n, t.r100 / t.n, dict(t.causes)]
                          for (s, g), t in tallies.items()}))
        return
    for dataset in ("locomo", "scenario"):
        total = Tally()
        for (name, _), t in tallies.items():
            if name.startswith(dataset):
                total.n, total.r10, total.r25 = total.n + t.n, total.r10 + t.r10, total.r25 + t.r25
                total.r50, total.r100 = total.r50 + t.r50, total.r100 + t.r100
        if total.n:
            tallies[(f"{dataset} (all)", "every question")] = total
    for (name, group), t in sorted(tallies.items()):
        print(f"\n{name} {group}: n={t.n} R@10 {100 * t.r10 / t.n:.1f} R@25 {100 * t.r25 / t.n:.1f} "
              f"(ceiling: R@50 {100 * t.r50 / t.n:.1f} R@100 {100 * t.r100 / t.n:.1f})")
        for cause, count in t.causes.most_common():
            print(f"  {count:3d}  {cause}")
            for example in t.examples[cause][: args.show]:
                print(f"         {example}")


if __name__ == "__main__":
    main()
