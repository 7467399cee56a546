"""The gap between LoCoMo conversations for the default retriever's weights (issue #15).

Every tunable number of `prograph` (core/evidence.py `Weights`) gets a small grid, one
weight at a time with the others at their shipped values. Each conversation in turn is the
training set: the value with the best mean of R@10 and R@25 there is chosen (a tie keeps
the shipped value) and tested on the other conversations. The shipped value holds when
every conversation, trained on alone, chooses it, or when it does as well on every test set
as the value chosen elsewhere. Ranking only: the questions' queries are built once per
conversation (core/read.py `evidence_query`) and re-ranked for each grid point.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from memhop.core.bench.metrics import markdown_table, mean, recall_at
from memhop.core.evidence import WEIGHTS, Weights
from memhop.core.retrievers.base import Query

# weight -> the values tried (the shipped one among them)
GRID: dict[str, tuple[float, ...]] = {
    "entity_bonus": (0.0, 0.05, 0.1, 0.2),
    "lexical": (0.1, 0.2, 0.3),
    "neighbour_share": (0.0, 0.5, 0.7, 0.8),
    "fact_share": (2, 3, 4, 6, 8),
    "session": (0.0, 0.1, 0.2, 0.3),
}
BUDGET = 25


@dataclass(frozen=True)
class GapRecord:
    """One question of one conversation ranked with one weight set to one value."""

    source: str
    weight: str
    value: float
    qid: str
    recall10: float
    recall25: float


def settings() -> list[tuple[str, float, Weights]]:
    """(weight, value, the shipped weights with that one changed) for every grid point."""
    out = []
    for name, values in GRID.items():
        for value in values:
            typed: Any = int(value) if isinstance(getattr(WEIGHTS, name), int) else float(value)
            out.append((name, value, replace(WEIGHTS, **{name: typed})))
    return out


def rank_grid(source: str, questions: Iterable[tuple[str, Query, Sequence[str]]],
              external: Callable[[list[int]], list[str | None]]) -> list[GapRecord]:
    """Each question (id, query, gold turn ids) ranked at every grid point."""
    from memhop.core.retrievers.prograph import ProGraphRetriever

    grid = [(name, value, ProGraphRetriever(weights)) for name, value, weights in settings()]
    out = []
    for qid, query, gold in questions:
        for name, value, retriever in grid:
            got = external(retriever.retrieve(query, BUDGET).rows)
            r10, r25 = recall_at(got, gold, 10), recall_at(got, gold, 25)
            if r10 is not None and r25 is not None:
                out.append(GapRecord(source, name, value, qid, r10, r25))
    return out


@dataclass(frozen=True)
class Choice:
    weight: str
    shipped: float
    chosen: dict[str, float]  # training conversation -> the value it chooses
    recall: dict[tuple[str, float], tuple[float, float]]  # (conversation, value) -> (R@10, R@25)

    @property
    def sources(self) -> list[str]:
        return list(self.chosen)

    def holds(self) -> bool:
        """Every conversation chooses the shipped value, or the shipped value does at least as
        well on each held-out conversation as the value its training conversation chose."""
        return all(
            _objective(self.recall[(test, self.shipped)]) >= _objective(self.recall[(test, value)]) - 1e-9
            for train, value in self.chosen.items() for test in self.sources if test != train
        )


def _objective(r: tuple[float, float]) -> float:
    return (r[0] + r[1]) / 2


def _best(values: Sequence[float], recalls: Sequence[tuple[float, float]], shipped: float) -> float:
    """The value with the best objective; a tie keeps the shipped value, else the first."""
    ranked = sorted(zip(values, recalls), key=lambda vr: (-round(_objective(vr[1]), 9), vr[0] != shipped))
    return ranked[0][0]


def choices(records: Sequence[GapRecord]) -> list[Choice]:
    """Per weight: the value each conversation chooses and every value's recall on each."""
    sources = sorted({r.source for r in records})
    grouped: dict[tuple[str, str, float], list[GapRecord]] = {}
    for r in records:  # one pass over the records, not one per (weight, source, value)
        grouped.setdefault((r.weight, r.source, r.value), []).append(r)
    out = []
    for name, values in GRID.items():
        recall: dict[tuple[str, float], tuple[float, float]] = {}
        for source in sources:
            for value in values:
                mine = grouped.get((name, source, value))
                if mine:
                    recall[(source, value)] = (mean(r.recall10 for r in mine) or 0.0,
                                               mean(r.recall25 for r in mine) or 0.0)
        shipped = float(getattr(WEIGHTS, name))
        if any((s, v) not in recall for s in sources for v in values):
            continue
        chosen = {s: _best(values, [recall[(s, v)] for v in values], shipped) for s in sources}
        out.append(Choice(name, shipped, chosen, recall))
    return out


def _pct(r: tuple[float, float]) -> str:
    return f"{100 * r[0]:.1f} / {100 * r[1]:.1f}"


def section(found: Sequence[Choice]) -> str:
    """The Markdown of the report's gap section, from `choices` (worked out once per run:
    BenchResult.weight_choices, which the JSON summary reads too)."""
    if not found or len(found[0].sources) < 2:
        return ("not run: the gap needs two LoCoMo conversations or more (a full `memhop bench` "
                "with a LoCoMo folder; `--quick` reads one).")
    sources = found[0].sources
    header = ["weight", "grid", "shipped", *(f"shipped on {s}" for s in sources)]
    for train in sources:
        header += [f"chosen on {train}", f"train ({train})", "test (" + ", ".join(t for t in sources if t != train) + ")"]
    header.append("shipped holds")
    rows = []
    for c in found:
        cells = [f"`{c.weight}`", ", ".join(f"{v:g}" for v in GRID[c.weight]), f"{c.shipped:g}"]
        cells += [_pct(c.recall[(s, c.shipped)]) for s in sources]
        for train in sources:
            value = c.chosen[train]
            tests = [c.recall[(t, value)] for t in sources if t != train]
            test = (mean(r[0] for r in tests) or 0.0, mean(r[1] for r in tests) or 0.0)
            cells += [f"{value:g}", _pct(c.recall[(train, value)]), _pct(test)]
        cells.append("yes" if c.holds() else "no")
        rows.append(cells)
    return markdown_table(header, rows) + (
        "\n\nR@10 / R@25 of `prograph` at budget 25, LoCoMo categories 1–4. One weight varies at a time, the "
        "others at their shipped values; each conversation alone chooses the value with the best mean of R@10 "
        "and R@25 (a tie keeps the shipped one), tested on the others. **shipped holds**: every conversation "
        "chooses the shipped value, or it does at least as well on each held-out conversation as the value "
        "chosen without it."
    )
