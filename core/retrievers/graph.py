"""`graph`, seed 001's Entity–Memory graph over memhop's raw turns: turns are Memory nodes,
entities link the turns that name them or that they speak, chronological edges link the
turns of a session.

Entity gating (only turns linked to an entity the question names compete, when it names
any), fusion α·entity + β·cosine (α 0.3, β 0.7: the seed's values), one-hop chronological
recovery (a neighbour inherits 0.5 × a candidate's score), then dense backfill by cosine.
Every candidate lends, not only the top K: so the ranking does not depend on the budget
(the first K of a bigger budget are the budget-K turns). The bench's `em-graph` baseline
ranks with `entity_graph` too, over its own vectors and name links.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from memhop.core.evidence import rows_about
from memhop.core.retrievers.base import Query, Ranking, external, lend, pick, ranked_rows

ALPHA, BETA = 0.3, 0.7  # entity / semantic fusion (seed 001)
RECOVERY = 0.5  # share of a candidate's score its chronological neighbours inherit (seed 001)


@dataclass(frozen=True)
class GraphRanking:
    rows: np.ndarray  # best first
    scores: np.ndarray  # per row of `rows`
    origins: np.ndarray  # per row of `rows`: the row its score came from (itself unless lent)
    gated: int  # how many rows were entity-gated candidates (0: the question names nobody linked)
    recovered: int  # of `rows`, how many came in by a neighbour's score
    backfilled: int  # of `rows`, how many came in by cosine alone


def entity_graph(
    vectors: np.ndarray,
    query: np.ndarray,
    gates: Sequence[np.ndarray],
    sessions: np.ndarray,
    limit: int,
    allowed: np.ndarray | None = None,
) -> GraphRanking:
    """The best `limit` rows: `gates` holds, per entity the question names, the rows linked to it."""
    n = len(vectors)
    empty = np.zeros(0, dtype=np.int64)
    if n == 0 or limit <= 0:
        return GraphRanking(empty, np.zeros(0), empty, 0, 0, 0)
    cosine = vectors @ query
    entity = np.zeros(n, dtype=np.float32)
    for rows in gates:
        entity[np.unique(rows)] += 1.0
    if gates:
        entity /= len(gates)
    inside = np.ones(n, dtype=bool) if allowed is None else allowed
    candidates = (entity > 0) & inside
    gated = int(candidates.sum())
    if not gated:
        candidates = inside.copy()
    fused = ALPHA * entity + BETA * cosine
    own = np.where(candidates, fused, -np.inf)
    best, origin = lend(own, np.flatnonzero(candidates), RECOVERY, sessions)
    scored = np.flatnonzero(np.isfinite(best) & inside)
    top = ranked_rows(best, scored, limit)
    recovered = int((origin[top] != top).sum())
    rest = np.flatnonzero(inside & ~np.isfinite(best))
    fill = ranked_rows(cosine, rest, limit - len(top))
    rows = np.concatenate([top, fill])
    scores = np.concatenate([best[top], cosine[fill]])
    return GraphRanking(rows, scores, origin[rows], gated, recovered, len(fill))


class GraphRetriever:
    name = "graph"

    def retrieve(self, query: Query, budget: int) -> Ranking:
        turns = query.snap.turns
        gates = [rows_about(turns, [(p.name, p.aliases)], [p.entity_id] if p.entity_id is not None else [])
                 for p in query.people]
        found = entity_graph(turns.matrix, query.vector, gates, turns.sessions, budget, query.allowed)
        ranking = Ranking(self.name)
        fill_from = len(found.rows) - found.backfilled
        for i, (row, score, origin) in enumerate(zip(found.rows.tolist(), found.scores.tolist(), found.origins.tolist())):
            if i >= fill_from:
                ranking.turns.append(pick(query, row, "dense backfill", score))
            elif origin != row:
                ranking.turns.append(pick(query, row, "neighbour", score, external(query, origin)))
            else:
                ranking.turns.append(pick(query, row, "entity + cosine" if found.gated else "cosine", score))
        who = ", ".join(p.name for p in query.people) or "nobody"
        ranking.stages = [
            f"entity gating ({who}): {found.gated} candidate turns" if found.gated
            else f"entity gating ({who}): no linked turn, every turn a candidate",
            f"fusion {ALPHA}·entity + {BETA}·cosine, ±1 recovery at {RECOVERY}: {len(found.rows) - found.backfilled} "
            f"turns ({found.recovered} by a neighbour)",
            f"dense backfill: {found.backfilled}",
        ]
        return ranking
