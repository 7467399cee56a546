"""The retrievers side by side, and which one the benchmark keeps as the default.

The rule is fixed in advance, not tuned to a conversation: `prograph` stays the default
unless another retriever has both a higher R@10 and a higher R@25 on EVERY source group
separately — each LoCoMo conversation, and the generated MemHop scenarios — so a win on one
conversation alone never moves the default (issue #15: measured on conversations never seen).
"""

from __future__ import annotations

from memhop.core.bench.metrics import Record, markdown_table, mean, percentile
from memhop.core.bench.result import BenchResult
from memhop.core.bench.sources import LOCOMO_HEADLINE
from memhop.core.bench.systems import RETRIEVER_SYSTEMS

DEFAULT = "prograph"


def _groups(result: BenchResult) -> list[str]:
    """"memhop" (every generated scenario), then each LoCoMo conversation."""
    locomo = sorted({r.source for r in result.records if r.dataset == "locomo"})
    memhop = ["memhop"] if any(r.dataset == "memhop" for r in result.records) else []
    return memhop + locomo


def _in(r: Record, group: str) -> bool:
    if group == "memhop":
        return r.dataset == "memhop"
    return r.source == group and r.group in LOCOMO_HEADLINE


def recall(result: BenchResult, system: str, group: str) -> tuple[float | None, float | None]:
    recs = [r for r in result.records if r.system == system and _in(r, group)]
    return mean(r.recall10 for r in recs), mean(r.recall25 for r in recs)


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}"


def table(result: BenchResult) -> str:
    """Per retriever: R@10 / R@25 per source group, MemHop chain reach by turns, p50 latency."""
    groups = _groups(result)
    ran = {r.system for r in result.records}
    rows = []
    for system, name in RETRIEVER_SYSTEMS.items():
        if system not in ran:
            continue
        cells = [name]
        for group in groups:
            r10, r25 = recall(result, system, group)
            cells.append(f"{_pct(r10)} / {_pct(r25)}")
        memhop = [r for r in result.records if r.system == system and r.dataset == "memhop"]
        cells.append(_pct(mean(r.turn_reached for r in memhop)))
        cells.append(f"{percentile([r.seconds * 1000 for r in result.records if r.system == system], 50):.0f}")
        rows.append(cells)
    header = ["retriever", *(f"{g} R@10 / R@25" for g in groups), "MemHop chain reach (turns)", "p50 ms"]
    return markdown_table(header, rows)


def choose(result: BenchResult) -> tuple[str, str]:
    """The default kept and why, by the rule in this module's docstring."""
    groups = _groups(result)
    ran = {r.system for r in result.records}
    if "memhop" not in ran or not groups:
        return DEFAULT, "prograph kept: the benchmark did not run it, so nothing was compared."
    base = {g: recall(result, "memhop", g) for g in groups}
    winners, losses = [], []
    for system, name in RETRIEVER_SYSTEMS.items():
        if system == "memhop" or system not in ran:
            continue
        lost = [g for g in groups if not _beats(recall(result, system, g), base[g])]
        (losses.append(f"{name} not ahead on {', '.join(lost)}") if lost else winners.append(name))
    if not winners:
        return DEFAULT, ("prograph kept: no other retriever has a higher R@10 and R@25 on every source "
                         f"({', '.join(groups)}) — " + "; ".join(losses) + ".")
    return winners[0], f"{winners[0]} has a higher R@10 and R@25 than prograph on every source ({', '.join(groups)})."


def _beats(got: tuple[float | None, float | None], base: tuple[float | None, float | None]) -> bool:
    return all(g is not None and b is not None and g > b for g, b in zip(got, base))
