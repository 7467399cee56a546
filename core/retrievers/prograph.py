"""`prograph`, the default retriever: the turns the chosen verified facts came from and
their chronological neighbours, and hybrid backfill over every turn (core/evidence.py).

Fact turns take a quarter of any budget K (rounded up), backfill the rest. As one ranking
(issue #15, item 5) that is: a fact turn at places 1, 5, 9, … and backfill between, so the
first K turns of a bigger budget are exactly the turns budget K gives — the same turns as
before the ranking, only their order within the budget differs. An aggregation question
naming a category ("which sports has Tomas played?") has that ranking fused with the
person's turns closest to the category (core/category.py).
"""

from __future__ import annotations

from dataclasses import replace

from memhop.core import category
from memhop.core.evidence import WEIGHTS, Weights, backfill, fact_picks
from memhop.core.retrievers.base import Query, Ranked, Ranking, external, pick


class ProGraphRetriever:
    name = "prograph"

    def __init__(self, weights: Weights = WEIGHTS) -> None:
        self.weights = weights  # the shipped ones; the benchmark's gap report tries others

    def retrieve(self, query: Query, budget: int) -> Ranking:
        if query.category is None or budget <= 0:
            return self._ranking(query, budget)[0]
        ranking, fact_rows = self._ranking(query, max(budget, category.POOL))
        rows, cosines = category.members(query.snap.turns, query.category, query.focus, query.allowed, query.in_period)
        closeness = dict(zip(rows.tolist(), cosines.tolist()))
        had = {t.row: t for t in ranking.turns}
        without = set(ranking.rows[:budget])  # the budget the ranking alone would give
        order = category.fuse(ranking.rows, rows.tolist())[:budget]
        ranking.turns = [
            pick(query, row, "category", closeness[row]) if row not in had
            else had[row] if row in without
            else Ranked(row, replace(had[row].pick, reason=f"category: {had[row].pick.reason}"))  # lifted in
            for row in order
        ]
        joined = sum(row not in had for row in order)
        lifted = sum(row not in without for row in order)
        facts = sum(row in fact_rows for row in order)
        ranking.stages = [
            *self._stages(facts, len(order) - facts - joined, f"the first {category.POOL} before the fusion", " there"),
            f"category members: {lifted} brought into the budget by the fusion, marked 'category' (the person's "
            f"{len(rows)} turns closest to the question's category, fused with the ranking by reciprocal rank at "
            f"weight {category.WEIGHT})",
        ]
        return ranking

    def _stages(self, facts: int, fill: int, of: str = "the budget", there: str = "") -> list[str]:
        share = self.weights.fact_share
        return [
            f"fact sources and neighbours: {facts} (1/{share} of {of} at most, {_every(share)}{there})",
            f"hybrid backfill: {fill} (cosine, BM25, entity bonus and name weight unless a turn "
            "only addresses the person, session score, scores lent across speakers, a question's score passed to "
            "its reply)",
        ]

    def _ranking(self, query: Query, budget: int) -> tuple[Ranking, set[int]]:
        """The ranking of fact turns and backfill, and the rows the facts placed."""
        turns = query.snap.turns
        ranking = Ranking(self.name)
        if budget <= 0 or not len(turns.ids):
            return ranking, set()
        share = self.weights.fact_share
        cap = -(-budget // share)
        facts = list(fact_picks(turns, query.sources, cap, query.allowed, self.weights.neighbour_share).items())
        fill = [
            pick(query, row, "dense", score) if origin == row
            else pick(query, row, "neighbour", score, external(query, origin))
            for row, score, origin in backfill(
                turns, query.vector, query.text, query.focus, budget, set(), query.allowed,
                in_period=query.in_period, weights=self.weights, named=query.named,
                listeners=query.listeners,
            )
        ]
        at: dict[int, int] = {}  # row -> its place in the ranking
        used_facts = next_fill = 0
        while len(ranking.turns) < budget:
            place = len(ranking.turns) + 1
            if used_facts < min(len(facts), -(-place // share)):  # a fact turn's place
                row, fact = facts[used_facts]
                used_facts += 1
                if row in at:  # already ranked by backfill: it keeps its place, as a fact turn
                    ranking.turns[at[row]] = Ranked(row, fact)
                else:
                    at[row] = len(ranking.turns)
                    ranking.turns.append(Ranked(row, fact))
                    continue
            while next_fill < len(fill) and fill[next_fill].row in at:
                next_fill += 1
            if next_fill < len(fill):
                at[fill[next_fill].row] = len(ranking.turns)
                ranking.turns.append(fill[next_fill])
            elif used_facts < len(facts):  # backfill ran out (a tiny store): the facts left
                row, fact = facts[used_facts]
                used_facts += 1
                if row not in at:
                    at[row] = len(ranking.turns)
                    ranking.turns.append(Ranked(row, fact))
            else:
                break  # every turn there is
        ranking.stages = self._stages(used_facts, len(ranking.turns) - used_facts)
        return ranking, {row for row, _ in facts[:used_facts]}


def _every(n: int) -> str:
    """ "every fourth place" for 4."""
    return "every place" if n <= 1 else f"every {({2: 'second', 3: 'third', 4: 'fourth'}.get(n, f'{n}th'))} place"
