"""`fused`: reciprocal-rank fusion (Cormack et al. 2009) of prograph, graph, evograph and hero.

A turn scores Σ 1 / (RRF_K + rank) over the retrievers that rank it in their first DEPTH;
RRF_K = 60 is the constant the method was published with, not tuned here. Each list is
taken at a fixed depth, so the fused ranking does not depend on the budget; past the
fused turns, prograph's own ranking fills the budget.
"""

from __future__ import annotations

from memhop.core.retrievers.base import Query, Ranked, Ranking, pick

RRF_K = 60
DEPTH = 100  # turns taken from each retriever's ranking
PARTS = ("prograph", "graph", "evograph", "hero")


class FusedRetriever:
    name = "fused"

    def retrieve(self, query: Query, budget: int) -> Ranking:
        from memhop.core import retrievers

        ranking = Ranking(self.name)
        if budget <= 0:
            return ranking
        parts = [retrievers.get(name).retrieve(query, max(DEPTH, budget) if name == PARTS[0] else DEPTH)
                 for name in PARTS]
        score: dict[int, float] = {}
        first: dict[int, Ranked] = {}  # the pick of the list that ranks a turn best
        best_rank: dict[int, int] = {}
        for part in parts:
            for rank, turn in enumerate(part.turns[:DEPTH], start=1):
                score[turn.row] = score.get(turn.row, 0.0) + 1.0 / (RRF_K + rank)
                if rank < best_rank.get(turn.row, DEPTH + 1):
                    best_rank[turn.row], first[turn.row] = rank, turn
        order = sorted(score, key=lambda r: (-score[r], r))[:budget]
        for row in order:
            via = first[row].pick
            ranking.turns.append(pick(query, row, f"fused: {via.reason}", score[row], via.via))
        taken = set(order)
        tail = [t for t in parts[0].turns[DEPTH:] if t.row not in taken][: budget - len(ranking.turns)]
        ranking.turns += tail
        ranking.stages = [f"{part.retriever}: {len(part.turns[:DEPTH])} turns ranked" for part in parts]
        ranking.stages.append(f"reciprocal-rank fusion (k={RRF_K}): {len(order)} turns; prograph beyond: {len(tail)}")
        return ranking
