"""The benchmark's Markdown report: headline tables side by side, breakdowns by hop depth
K and LoCoMo category, the write path's cost, speed at scale, and what could not run."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime
from pathlib import Path

from memhop.core.bench import gap
from memhop.core.bench.metrics import METRICS, markdown_table, mean, percentile
from memhop.core.bench.natural import NaturalResult, Tally
from memhop.core.bench.plots import draw_all
from memhop.core.bench.result import BenchResult, systems_in
from memhop.core.bench.routing import router_table
from memhop.core.bench.sources import LOCOMO_HEADLINE, default_dev_dir


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}"


def system_stats(result: BenchResult, dataset: str, system: str) -> dict[str, float | None] | None:
    """The headline numbers of one system on one dataset (LoCoMo: categories 1–4); None if it did not run."""
    recs = [r for r in result.records if r.dataset == dataset and r.system == system
            and (dataset == "memhop" or r.group in LOCOMO_HEADLINE)]
    if not recs:
        return None
    stats = {m: mean(METRICS[m](r) for r in recs) for m in METRICS}
    stats["context_tokens"] = mean(r.context_tokens for r in recs)
    stats["entities_read"] = mean(r.entities_read for r in recs)
    stats["p50_ms"] = percentile([r.seconds * 1000 for r in recs], 50)
    stats["questions"] = len(recs)
    return stats


def headline(result: BenchResult, dataset: str) -> str:
    """One row per system: recall, reach, answers, context size, latency."""
    if not any(r.dataset == dataset for r in result.records):
        return "not run in this benchmark."
    rows = []
    for system in systems_in(result):
        stats = system_stats(result, dataset, system)
        if stats is None:
            rows.append([system, *(["not available"] * len(METRICS)), "–", "–", "–", result.unavailable.get(system, "")])
            continue
        cells = [_pct(stats[m]) for m in METRICS]
        if dataset != "memhop":
            cells[2] = "–"  # LoCoMo questions have no chains
        read = f"{stats['entities_read']:.1f}" if stats["entities_read"] else "–"
        rows.append([system, *cells, read, f"{stats['context_tokens'] or 0:.0f}", f"{stats['p50_ms'] or 0:.0f}", ""])
    return markdown_table(["system", *METRICS, "entities read", "context tokens", "p50 ms", "note"], rows)


def summary(result: BenchResult) -> dict[str, object]:
    """What `memhop bench --json` prints: headline numbers per dataset and system."""
    return {
        "seconds": round(result.seconds, 1),
        "engine": result.engine,
        "machine": result.machine,
        "retrievers": _retriever_summary(result),
        "weights": _weights_summary(result),
        "headline": {
            d: {s: system_stats(result, d, s) for s in systems_in(result)} for d in ("memhop", "locomo")
        },
        "unavailable": result.unavailable,
        "ingest": [asdict(s) | {"calls_per_session": s.calls_per_session, "turns_per_second": s.turns_per_second}
                   for s in result.ingest],
        "scale": [asdict(p) for p in result.scale],
        "natural": result.natural.summary() if result.natural else None,
    }


def _retriever_summary(result: BenchResult) -> dict[str, object]:
    from memhop.core.bench import choice

    default, why = choice.choose(result)
    return {"default": default, "why": why}


def _weights_summary(result: BenchResult) -> dict[str, object]:
    return {c.weight: {"shipped": c.shipped, "chosen": c.chosen, "holds": c.holds()} for c in result.weight_choices}


def _of(part: int, whole: int) -> str:
    return f"{part}/{whole}"


def _entity_counts(nat: NaturalResult) -> str:
    ent = nat.entities
    return markdown_table(["cast found", "right kind", "stored", "spurious", "split"],
                     [[_of(len(ent.found), ent.gold), _of(len(ent.right_kind), ent.gold), str(ent.stored),
                       _of(len(ent.spurious), ent.stored), str(len(ent.split))]])


def natural_entities(nat: NaturalResult) -> str:
    """The stored registry against the cast: counts, then the names behind them."""
    ent = nat.entities
    lists = [
        ("missed", ", ".join(ent.missed)),
        ("wrong kind", "; ".join(f"{gold} stored as {', '.join(got)}" for gold, got in ent.wrong_kind.items())),
        ("spurious", ", ".join(ent.spurious)),
        ("split", "; ".join(f"{gold}: {', '.join(got)}" for gold, got in ent.split.items())),
    ]
    return _entity_counts(nat) + "\n\n" + "\n".join(f"- {label}: {names or 'none'}" for label, names in lists)


QUESTION_COLUMNS = ("questions", "n", "chain reach", "right", "refused", "wrong", "first support holds gold",
                    "evidence-day recall %",
                    "entities read")


def _tally_row(label: str, t: Tally) -> list[str]:
    read = "–" if t.entities_read is None else f"{t.entities_read:.1f}"
    return [label, str(t.n), _of(t.reached, t.n), _of(t.right, t.n), _of(t.refused, t.n), _of(t.wrong, t.n),
            _of(t.cited, t.answerable), _pct(t.day_recall), read]


def natural_questions(nat: NaturalResult) -> str:
    """Chain reach and answers over all questions, then by hop depth k and by type."""
    rows = [_tally_row("all", nat.total)]
    rows += [_tally_row(f"k={k}", t) for k, t in nat.by("k").items()]
    rows += [_tally_row(kind, t) for kind, t in nat.by("type").items()]
    return markdown_table(QUESTION_COLUMNS, rows)


def natural_headline(result: BenchResult) -> str:
    """The entity counts and the all-questions row, or why the section did not run."""
    nat = result.natural
    if nat is None:
        return natural_missing()
    return _entity_counts(nat) + "\n\n" + markdown_table(QUESTION_COLUMNS, [_tally_row("all", nat.total)])


def natural_missing() -> str:
    return (f"not run: no dev set folder (default {default_dev_dir()}; name one with --dev or "
            "$MEMHOP_DEV_DIR).")


def natural_section(result: BenchResult) -> str:
    nat = result.natural
    if nat is None:
        return natural_missing()
    return "\n\n".join([
        (f"`{nat.folder}`: {', '.join(nat.inputs)} ({nat.turns} turns) ingested with the offline engine"
         + (f" as `--self \"{nat.self_name}\"`" if nat.self_name else "")
         + f", each question asked as `memhop ask` does; {nat.seconds:.1f} s."),
        "### Entities against the cast\n\n" + natural_entities(nat),
        "### Questions\n\n" + natural_questions(nat),
    ])


def by_group(result: BenchResult, dataset: str, metric: str) -> str:
    groups = sorted({r.group for r in result.records if r.dataset == dataset})
    rows = []
    for system in systems_in(result):
        recs = [r for r in result.records if r.dataset == dataset and r.system == system]
        if not recs:
            continue
        cells = [_pct(mean(METRICS[metric](r) for r in recs if r.group == g)) for g in groups]
        rows.append([system, *cells])
    counts = [str(len({r.qid for r in result.records if r.dataset == dataset and r.group == g})) for g in groups]
    return markdown_table(["system", *(f"{g} (n={n})" for g, n in zip(groups, counts))], rows)


def broken_hops(result: BenchResult) -> str:
    """Where chains break, for K ≥ 2: the share of questions whose first missing hop is h."""
    rows = []
    for system in systems_in(result):
        recs = [r for r in result.records if r.dataset == "memhop" and r.system == system and r.group != "K=1"]
        if not recs:
            continue
        cells = [_pct(sum(r.broke_at == h for r in recs) / len(recs)) for h in range(1, 6)]
        rows.append([system, _pct(sum(r.broke_at is None for r in recs) / len(recs)), *cells])
    return markdown_table(["system", "complete", *(f"broke at hop {h}" for h in range(1, 6))], rows)


def ingest_table(result: BenchResult) -> str:
    """The write path's cost per source; entities = the registry the read path walks."""
    rows = [[s.source, str(s.sessions), str(s.turns), f"{s.embed_seconds:.1f}", f"{s.write_seconds:.1f}",
             f"{s.calls_per_session:.1f}", f"{s.turns_per_second:.1f}", str(s.entities), str(s.residuals), str(s.failures)]
            for s in result.ingest]
    return markdown_table(["source", "sessions", "turns", "embed s", "write s", "engine calls / session",
                      "ingest turns/s", "entities", "facts", "failed sessions"], rows)


def scale_table(result: BenchResult) -> str:
    rows = []
    for p in result.scale:
        per100k = f"{p.db_mb / p.turns * 100_000:.0f}" if p.turns and p.db_mb else "n/a"
        def fmt(v: float | None, unit: str = "") -> str:
            return "n/a" if v is None else f"{v}{unit}"

        rows.append([f"{p.turns:,}", f"{p.build_seconds:.0f}", f"{p.db_mb:.0f}", per100k, str(p.entities),
                     f"{p.residuals:,}", fmt(p.index_seconds), fmt(p.index_mb), fmt(p.warm_p50_ms),
                     fmt(p.warm_p95_ms), fmt(p.cores_p50_ms), fmt(p.cores_p95_ms), fmt(p.cold_seconds),
                     f"{p.peak_rss_mb:.0f}", _pct(p.em), _pct(p.recall25), p.note])
    table = markdown_table(["turns", "build s", "DB MB", "MB / 100k turns", "entities", "facts", "index build s",
                       "index MB", "ask p50 ms (warm)", "ask p95 ms", "p50 ms, BLAS on every core",
                       "p95 ms, BLAS on every core", "cold start s", "peak RSS MB", "EM %", "recall@25 vs exact %",
                       "note"], rows)
    return table + (
        "\n\nA real scenario's store grown with synthetic turns (other scenarios' sentences, re-embedded with "
        "noise), 1 entity per 100 turns and facts at the real write path's rate; each size is grown in one fresh "
        "process and asked in another (peak RSS is the asking process's). `ask` = read + offline answer, warm, "
        "over the scenario's own questions, with BLAS on one thread as `memhop ask` and `memhop serve` run it; the "
        "every-core columns time the same asks with BLAS on every core (numpy's default in a process that sets "
        "nothing), in a process of their own so both start from the same caches. Cold start: a fresh "
        "`memhop ask` process, wall time. From 50k turns the "
        "read path searches derived float16 vectors through an ANN index (index columns; n/a: exact search); "
        "recall@25: the share of exact search's 25 evidence turns per question the approximate path also returns."
    )


def _mean_of(result: BenchResult, dataset: str, system: str, metric: str, groups: Sequence[str] | None = None) -> float | None:
    return mean(METRICS[metric](r) for r in result.records
                if r.dataset == dataset and r.system == system and (groups is None or r.group in groups))


def _delta(a: float | None, b: float | None) -> str:
    return "n/a" if a is None or b is None else f"{100 * (a - b):+.1f} pp"


def findings(result: BenchResult) -> str:
    """The comparisons the benchmark exists for, computed, whatever their sign."""
    deep = ("K=2", "K=3", "K=4", "K=5")

    def memhop(system: str, metric: str, groups: Sequence[str] | None = deep) -> float | None:
        return _mean_of(result, "memhop", system, metric, groups)

    def locomo(system: str, metric: str) -> float | None:
        return _mean_of(result, "locomo", system, metric, LOCOMO_HEADLINE)

    reach = {s: memhop(s, "chain reach") for s in ("memhop", "dense-chunks", "em-graph", "no-expansion")}
    return "\n".join([
        (
            f"- Chain reach at K ≥ 2: memhop {_pct(reach['memhop'])} % vs dense-chunks {_pct(reach['dense-chunks'])} % "
            f"({_delta(reach['memhop'], reach['dense-chunks'])}); em-graph {_pct(reach['em-graph'])} %."
        ),
        (
            f"- What expansion is worth (memhop − no-expansion), K ≥ 2: chain reach "
            f"{_delta(reach['memhop'], reach['no-expansion'])}, R@10 "
            f"{_delta(memhop('memhop', 'R@10'), memhop('no-expansion', 'R@10'))}, EM "
            f"{_delta(memhop('memhop', 'EM'), memhop('no-expansion', 'EM'))}; 5 hops vs 1 hop, all K: EM "
            f"{_delta(memhop('memhop', 'EM', None), memhop('1-hop', 'EM', None))}."
        ),
        (
            f"- What facts are worth on LoCoMo (categories 1–4): memhop − no-facts-read: R@10 "
            f"{_delta(locomo('memhop', 'R@10'), locomo('no-facts-read', 'R@10'))}, F1 "
            f"{_delta(locomo('memhop', 'F1'), locomo('no-facts-read', 'F1'))}; memhop − profile-only-write: F1 "
            f"{_delta(locomo('memhop', 'F1'), locomo('profile-only-write', 'F1'))}."
        ),
        (
            f"- LoCoMo evidence recall@25 (categories 1–4): memhop {_pct(locomo('memhop', 'R@25'))} %, em-graph "
            f"{_pct(locomo('em-graph', 'R@25'))} %, dense-chunks {_pct(locomo('dense-chunks', 'R@25'))} %."
        ),
    ])


def retriever_section(result: BenchResult) -> str:
    """Each retriever of `ask --retriever` through the whole read path, and the default kept."""
    from memhop.core.bench import choice

    default, why = choice.choose(result)
    return (choice.table(result) + "\n\nR@k: LoCoMo categories 1–4 per conversation; MemHop all K. Chain reach here "
            "counts a hop reached when one of its gold turns is among the 10 evidence turns (the same for every "
            f"retriever, unlike memhop's entity-based reach above).\n\n**Default: `{default}`.** {why}")


def gap_section(result: BenchResult) -> str:
    """Each tunable weight of `prograph` chosen on one LoCoMo conversation, tested on the others."""
    return gap.section(result.weight_choices)


def render(result: BenchResult, plots: Sequence[str]) -> str:
    cfg = result.config
    n_memhop = len({r.qid for r in result.records if r.dataset == "memhop"})
    n_locomo = len({r.qid for r in result.records if r.dataset == "locomo"})
    parts = [
        f"# memhop bench ({'quick' if cfg.quick else 'full'})",
        (
            f"Run {datetime.now():%Y-%m-%d %H:%M}; engine `{result.engine}`; wall time {result.seconds / 60:.1f} min "
            f"on {result.machine}. MemHop-style: {cfg.n_scenarios} generated scenarios (seed {cfg.seed}), "
            f"{n_memhop} questions. LoCoMo: {n_locomo} questions"
            + (f" from `{cfg.locomo}`." if cfg.locomo else " (no LoCoMo folder given).")
        ),
        (
            "All systems share the embedder (all-MiniLM-L6-v2), the answerer (the configured engine) and the "
            "evidence budget: R@k counts gold turns among the first k evidence turns; answers see the first 10 "
            "(full context: all)."
        ),
        "## Findings\n\n" + findings(result),
        "## Evidence retrievers side by side\n\n" + retriever_section(result),
        "## The default's weights, trained on one conversation and tested on another\n\n" + gap_section(result),
        "## MemHop-style, all K\n\n" + headline(result, "memhop"),
        "## LoCoMo, categories 1–4\n\n" + headline(result, "locomo"),
        "## Natural text (dev set)\n\n" + natural_section(result),
        "## MemHop by hop depth K",
        *(f"### {m}\n\n" + by_group(result, "memhop", m) for m in ("R@10", "R@25", "chain reach", "EM", "refused", "wrong")),
        "### Which hop broke (K ≥ 2)\n\n" + broken_hops(result),
        "## LoCoMo by category",
        *(f"### {m}\n\n" + by_group(result, "locomo", m) for m in ("R@10", "R@25", "EM", "F1", "refused", "wrong")),
        "### Question types (core/route.py) against the categories\n\n" + router_table(result),
        "## Write path (full memory)\n\n" + ingest_table(result),
        "## Speed at scale\n\n" + (scale_table(result) if result.scale else "not available: "
                                   + result.unavailable.get("scale", "not run")),
    ]
    if result.unavailable:
        parts.append("## Not available\n\n" + "\n".join(f"- `{k}`: {v}" for k, v in sorted(result.unavailable.items())))
    parts.append("## Plots\n\n" + "\n".join(f"![{p}]({p})" for p in plots))
    parts.append(DEFINITIONS)
    return "\n\n".join(parts) + "\n"


DEFINITIONS = """## Definitions

- **memhop**: the read path with default settings (top 5, gate 0.2, up to 5 hops, facts, 10 evidence turns).
  **no-expansion**: stage 2 off. **1-hop**: at most one expansion round. **no-facts-read**: verified
  facts not read (profiles and raw turns only). **profile-only-write**: a store written with every fact
  dropped, read with default settings.
- **dense-chunks**: non-overlapping 4-turn chunks per session, embedded as one text, top chunks by cosine.
  **em-graph**: seed 001's Entity–Memory graph: turns gated by the entities the question names (memhop's
  registry, linked by name and speaker; turns embedded as "speaker: text"), α 0.3 · entity + β 0.7 · cosine,
  ±1 chronological recovery at 0.5 × the seed's score, dense backfill.
  **full-context**: every turn (recall ceiling; see its tokens).
- **graph**, **evograph**, **fused**: the read path with `--retriever` set (stages 1–3 as memhop's;
  only the raw evidence turns are ranked differently, core/retrievers/). **graph**: seed 001 over
  the stored turns and the write path's mentions; **evograph**: seed 003's entity index and
  co-occurrence expansion, reranked by cosine; **fused**: reciprocal-rank fusion (k = 60) of
  prograph (memhop's own), graph and evograph.
- **chain reach**: the context carried the answer-bearing hop. memhop systems: the entity is among the
  selected profiles; raw-turn systems: one of the hop's gold turns is among the 10 evidence turns.
  **which hop broke**: the first hop of the chain the context did not carry.
- **EM**: normalised exact match (lower case, no punctuation or articles). **F1**: token overlap (LoCoMo's
  metric). **answered**: share not answered "I don't know". **refused**: share answered "I don't know"
  (the right answer to adversarial questions). **wrong**: share answered, but not matching the gold by
  EM (any answer to an adversarial question): a wrong answer is worse than a refusal.
- **entities read**: profiles (with their facts) in the answerer's context; compare with the entities
  per store in the write-path table: reaching the answer's entity by reading most profiles is cheap.
- **context tokens**: characters / 4 of everything given to the answerer. **p50 ms**: retrieval + answer.
- **natural text**: names match when equal after folding case, accents and whitespace (no other
  normalisation: "Zoë's" is not "Zoë"). **cast found**: a stored entity is named or aliased like
  a cast entry; **right kind**: one of those has its kind; **split**: two or more do; **spurious**: a
  stored entity matching no cast entry and no other real name of the text. **chain reach**: the chain's
  last entity is among the selected profiles; **right**: the answer contains the gold's normalised words
  (an unanswerable question: "I don't know"); **refused**: "I don't know" to an answerable question;
  **first support holds gold**: of the answerable questions, those whose first support item (the first
  memory `ask` prints under the answer, or the closest one under a refusal) contains the gold's words;
  **evidence-day recall**: share of the gold evidence dates among the evidence turns' dates.
"""


def write_outputs(result: BenchResult, out: Path) -> list[Path]:
    """report.md, records.jsonl (every question × system), summary.json, natural.jsonl (the
    natural-text questions, when that section ran) and the plots."""
    out.mkdir(parents=True, exist_ok=True)
    plots = draw_all(result, out)
    report = out / "report.md"
    report.write_text(render(result, [p.name for p in plots]), encoding="utf-8")
    records = out / "records.jsonl"
    with records.open("w", encoding="utf-8") as fh:
        for r in result.records:
            fh.write(json.dumps({**asdict(r), "em": r.em if r.answer is not None else None}, default=str) + "\n")
    summary_path = out / "summary.json"
    summary_path.write_text(json.dumps(summary(result), indent=2, default=str), encoding="utf-8")
    written = [report, records, summary_path]
    if result.natural is not None:
        natural = out / "natural.jsonl"
        with natural.open("w", encoding="utf-8") as fh:
            for q in result.natural.questions:
                fh.write(json.dumps(asdict(q), ensure_ascii=False) + "\n")
        written.append(natural)
    return [*written, *plots]
