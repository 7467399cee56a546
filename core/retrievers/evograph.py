"""`evograph`, seed 003 without an LLM: an entity index over the raw turns (the write path's
mentions and the speakers), co-occurrence expansion, then an embedding rerank.

Layer 1: the turns spoken by or naming an entity the question names. Layer 2: the turns of
the entities that co-occur with them — named in at least CO_MIN of the layer-1 turns, the
CO_TOP most frequent (seed 003: few, good entities beat many). Both layers are reranked
together by the cosine of the question without its names; every other turn follows by the
same cosine (dense backfill), so the ranking does not depend on the budget.
"""

from __future__ import annotations

import numpy as np

from memhop.core.evidence import rows_about
from memhop.core.retrievers.base import Query, Ranking, pick, ranked_rows

CO_MIN = 2  # a co-occurring entity shares at least this many layer-1 turns (one is chance)
CO_TOP = 5  # at most this many co-occurring entities (ProGraph's M, reused: few, good entities)


def co_occurring(query: Query, layer1: np.ndarray) -> list[tuple[int, int]]:
    """(entity id, shared layer-1 turns) of the entities named with the question's, most shared first."""
    turns = query.snap.turns
    inside = np.zeros(len(turns.ids), dtype=bool)
    inside[layer1] = True
    own = {p.entity_id for p in query.people}
    counts = [(e, int(inside[rows].sum())) for e, rows in turns.mentions.items() if e not in own]
    kept = sorted((c for c in counts if c[1] >= CO_MIN), key=lambda c: (-c[1], c[0]))
    return kept[:CO_TOP]


class EvoGraphRetriever:
    name = "evograph"

    def retrieve(self, query: Query, budget: int) -> Ranking:
        turns, profiles = query.snap.turns, query.snap.profiles
        ranking = Ranking(self.name)
        n = len(turns.ids)
        if budget <= 0 or not n:
            return ranking
        inside = np.ones(n, dtype=bool) if query.allowed is None else query.allowed
        layer1 = query.focus
        expanded = co_occurring(query, layer1) if len(layer1) else []
        label = np.zeros(n, dtype=np.int8)  # 0 dense, 1 entity, 2 co-occurrence
        for entity_id, _ in expanded:
            known = entity_id in profiles.entity_ids
            row = profiles.entity_ids.index(entity_id) if known else -1
            people = [(profiles.names[row], profiles.aliases[row])] if known else []
            label[rows_about(turns, people, [entity_id]) if people else turns.mentions[entity_id]] = 2
        label[layer1] = 1
        cosine = turns.matrix @ query.vector
        pool = np.flatnonzero((label > 0) & inside)
        top = ranked_rows(cosine, pool, budget)
        fill = ranked_rows(cosine, np.flatnonzero((label == 0) & inside), budget - len(top))
        reasons = {0: "dense backfill", 1: "entity", 2: "co-occurrence"}
        ranking.turns = [pick(query, r, reasons[int(label[r])], float(cosine[r])) for r in [*top.tolist(), *fill.tolist()]]
        names = {e: profiles.names[profiles.entity_ids.index(e)] if e in profiles.entity_ids else f"entity {e}"
                 for e, _ in expanded}
        ranking.stages = [
            f"entity index ({', '.join(p.name for p in query.people) or 'nobody named'}): {len(layer1)} turns",
            "co-occurrence: " + (", ".join(f"{names[e]} ({c} shared)" for e, c in expanded) or "none")
            + f"; {int((label == 2).sum())} more turns",
            f"embedding rerank: {len(top)} of {len(pool)} candidates; dense backfill: {len(fill)}",
        ]
        return ranking
