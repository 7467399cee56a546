"""PNG plots of a benchmark run (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

from pathlib import Path

from memhop.core.bench.metrics import METRICS, Metric, mean
from memhop.core.bench.result import BenchResult, systems_in

KS = ("K=1", "K=2", "K=3", "K=4", "K=5")


def _by_k(result: BenchResult, system: str, metric: Metric) -> list[float | None]:
    recs = [r for r in result.records if r.dataset == "memhop" and r.system == system]
    return [mean(metric(r) for r in recs if r.group == k) for k in KS]


def draw_all(result: BenchResult, out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths: list[Path] = []
    systems = [s for s in systems_in(result) if any(r.system == s and r.dataset == "memhop" for r in result.records)]
    for key, title in (("EM", "Answer exact match"), ("R@10", "Evidence recall@10"), ("chain reach", "Chain reach")):
        if not systems:
            break
        fig, ax = plt.subplots(figsize=(7, 4.2))
        for system in systems:
            values = _by_k(result, system, METRICS[key])
            xs = [i + 1 for i, v in enumerate(values) if v is not None]
            ax.plot(xs, [100 * v for v in values if v is not None], marker="o", label=system)
        ax.set(xlabel="hop depth K", ylabel="%", title=f"{title} vs K (MemHop-style)", ylim=(0, 105), xticks=range(1, 6))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
        path = out / f"{key.replace('@', '').replace(' ', '_').lower()}_vs_k.png"
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    points = [p for p in result.scale if p.warm_p50_ms is not None]
    if points:
        fig, ax = plt.subplots(figsize=(6, 4))
        turns = [p.turns for p in points]
        ax.plot(turns, [p.warm_p50_ms or 0.0 for p in points], marker="o", label="ask p50 (warm)")
        ax.plot(turns, [p.warm_p95_ms or 0.0 for p in points], marker="s", label="ask p95 (warm)")
        ax.plot(turns, [p.cores_p50_ms or 0.0 for p in points], marker="^", ls="--", label="p50, BLAS on every core")
        ax.set(xscale="log", xlabel="turns in the store", ylabel="ms", title="Ask latency vs store size")
        ax.grid(alpha=0.3, which="both")
        ax.legend()
        path = out / "latency_vs_size.png"
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths
