"""`prograph`, the default retriever: the turns the chosen verified facts came from, their
chronological neighbours, then hybrid backfill over every turn (core/evidence.py)."""

from __future__ import annotations

from memhop.core.evidence import FACT_SHARE, backfill, fact_picks
from memhop.core.retrievers.base import Query, Ranked, Ranking, external, pick


class ProGraphRetriever:
    name = "prograph"

    def retrieve(self, query: Query, budget: int) -> Ranking:
        turns = query.snap.turns
        ranking = Ranking(self.name)
        if budget <= 0 or not len(turns.ids):
            return ranking
        cap = -(-budget // FACT_SHARE)
        facts = fact_picks(turns, query.sources, cap, query.allowed)
        ranking.turns = [Ranked(row, p) for row, p in facts.items()]
        taken = set(facts)
        for row, score, origin in backfill(
            turns, query.vector, query.text, query.focus, budget - len(taken), taken, query.allowed
        ):
            reason, via = ("dense", None) if origin == row else ("neighbour", external(query, origin))
            ranking.turns.append(pick(query, row, reason, score, via))
        from_facts = len(facts)
        ranking.stages = [
            f"fact sources and neighbours: {from_facts} (at most {cap})",
            f"hybrid backfill: {len(ranking.turns) - from_facts} (cosine, BM25, entity bonus, scores lent to neighbours)",
        ]
        return ranking
