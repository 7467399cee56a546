"""`memhop bench` end to end on one small scenario, plus the pieces a reader of the report
relies on: the metrics, the Entity–Memory graph baseline, the profile-only ablation and
the synthetic growth used for speed at scale."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from memhop.core.bench.baselines import Corpus, EntityGraph
from memhop.core.bench.ingest import ingest_parsed
from memhop.core.bench.metrics import METRICS, Record, exact_match, is_idk, mean, recall_at, split_evidence, token_f1
from memhop.core.bench.scale import grow
from memhop.core.bench.sources import locomo_sources
from memhop.core.bench.systems import ProfileOnly
from memhop.core.bench.generator import generate_scenario
from memhop.core.embed import get_embedder
from memhop.core.model import ExistingResidual, Extraction, FoundEntity, KnownEntity, ResidualDraft, SessionView
from memhop.core.store import open_store
from memhop.core.write import write_pending
from typer.testing import CliRunner

from support.fake_engine import FakeEngine

QUESTIONS = 5
SYSTEMS = ("memhop", "no-expansion", "1-hop", "no-facts-read", "profile-only-write", "graph", "evograph", "fused",
           "hero", "dense-chunks", "em-graph", "full-context")


@pytest.fixture(scope="module")
def bench_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict, Path]]:
    """One `memhop bench --json` run: 1 short scenario, 5 questions, no LoCoMo, no scale stage."""
    from memhop.cli.app import app

    root = tmp_path_factory.mktemp("bench")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEMHOP_HOME", str(root / "home"))
        mp.setenv("MEMHOP_LOCOMO_DIR", str(root / "no-locomo"))  # no default LoCoMo folder: LoCoMo is skipped
        mp.chdir(root)
        result = CliRunner().invoke(app, ["bench", "--scenarios", "1", "--questions", str(QUESTIONS),
                                          "--sessions", "4", "--no-scale", "--out", "out", "--json", "-q"])
    assert result.exit_code == 0, result.output
    yield json.loads(result.stdout), root / "out"


@pytest.mark.slow
def test_every_system_is_measured_or_said_not_available(bench_run: tuple[dict, Path]) -> None:
    summary, _ = bench_run
    memhop = summary["headline"]["memhop"]
    assert set(memhop) == set(SYSTEMS)
    for system, stats in memhop.items():
        if stats is None:
            assert system in summary["unavailable"], system
        else:
            assert stats["questions"] == QUESTIONS
            assert 0.0 <= stats["R@10"] <= stats["R@25"] <= 1.0
            assert stats["answered"] + stats["refused"] == pytest.approx(1.0) and stats["wrong"] <= stats["answered"]
    assert memhop["full-context"]["R@10"] == 1.0  # every turn: the ceiling
    assert memhop["full-context"]["context_tokens"] > 5 * memhop["dense-chunks"]["context_tokens"]
    assert summary["headline"]["locomo"] == {s: None for s in SYSTEMS}


@pytest.mark.slow
def test_report_records_and_plots_are_written(bench_run: tuple[dict, Path]) -> None:
    summary, out = bench_run
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "## MemHop-style, all K" in report and "| dense-chunks |" in report
    assert "| answered | refused | wrong |" in report and "### wrong" in report
    assert "## LoCoMo, categories 1–4\n\nnot run" in report
    retrievers = report.split("## Evidence retrievers side by side")[1].split("\n## ")[0]
    assert all(f"| {name} |" in retrievers for name in ("prograph", "graph", "evograph", "fused", "hero"))
    assert summary["retrievers"]["default"] in ("prograph", "graph", "evograph", "fused", "hero")
    assert f"**Default: `{summary['retrievers']['default']}`.**" in retrievers
    ran = [s for s, stats in summary["headline"]["memhop"].items() if stats]
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    assert len(records) == QUESTIONS * len(ran)
    assert {r["group"] for r in records} <= {f"K={k}" for k in range(1, 6)}
    plots = sorted(out.glob("*.png"))
    assert plots and all(p.read_bytes()[:4] == b"\x89PNG" for p in plots)


@pytest.mark.slow
def test_write_path_costs_are_reported(bench_run: tuple[dict, Path]) -> None:
    summary, _ = bench_run
    if "memhop" in summary["unavailable"]:
        pytest.skip(summary["unavailable"]["memhop"])
    (stat,) = summary["ingest"]
    assert stat["turns"] > 40 and stat["calls_per_session"] >= 1 and stat["turns_per_second"] > 0


def test_answer_and_recall_metrics() -> None:
    assert exact_match("The Piano.", "piano") and not exact_match("piano and cello", "piano")
    assert token_f1("Italian food", "Italian") == pytest.approx(2 / 3)
    assert is_idk("I don't know.") and not is_idk("Lisbon")
    assert recall_at(["D1:1", "D2:2", "D3:3"], ["D2:2", "D9:9"], 2) == 0.5
    assert recall_at(["D1:1"], [], 10) is None
    assert split_evidence(["D8:6; D9:17", "D1:3"]) == ["D8:6", "D9:17", "D1:3"]


def test_answered_refused_and_wrong_split_every_answer() -> None:
    def record(answer: str | None, gold: str | None) -> Record:
        return Record("memhop", "s0", "memhop", "q", "K=1", "?", gold, answer, None, None, None, None, 0, 0.0)

    cases = [record("piano", "piano"), record("The cello", "piano"), record("I don't know", "piano"),
             record("I don't know", None), record("Lisbon", None), record(None, "piano")]
    rates = {m: mean(METRICS[m](r) for r in cases) for m in ("answered", "refused", "wrong", "EM")}
    assert rates == {"answered": 3 / 5, "refused": 2 / 5, "wrong": 2 / 5, "EM": 2 / 5}  # None: not counted
    assert [r.wrong for r in cases] == [False, True, False, False, True, False]


def _corpus(texts: Sequence[str], vectors: np.ndarray) -> Corpus:
    n = len(texts)
    return Corpus(tuple(range(1, n + 1)), tuple(f"D1:{i + 1}" for i in range(n)), tuple(texts),
                  ("Maya",) * n, (1,) * n, (None,) * n, vectors.astype(np.float32))


def test_entity_graph_gates_by_name_and_recovers_neighbours() -> None:
    texts = ["Bob moved in.", "He plays the piano every night.", "Carol likes jazz.", "Weather was grey.",
             "Dana plays the piano too."]
    vectors = np.eye(5, 4, dtype=np.float32)
    vectors[1] = [0.6, 0.8, 0, 0]
    vectors[4] = [0, 1, 0, 0]  # Dana's turn is the closest by cosine to a piano question
    graph = EntityGraph(_corpus(texts, vectors), [("Bob", ()), ("Carol", ()), ("Dana", ())])
    query = np.array([0.2, 1.0, 0.0, 0.0], dtype=np.float32)
    ranked = graph.rank("What does Bob play?", query, 2)
    assert ranked[0] == 0 and 1 in ranked  # Bob's turn, then its neighbour at 0.5 x its score
    assert 4 not in ranked  # Dana's turn is gated out although it is the most similar
    assert graph.rank("What is played?", query, 1) == [4]  # no entity named: dense ranking


def scripted_engine() -> FakeEngine:
    """Every session: one entity, Bob, with a fixed profile and one residual."""

    def identify(session: SessionView, known: Sequence[KnownEntity]) -> list[FoundEntity]:
        return [FoundEntity("Bob", "person", (), tuple(t.id for t in session.turns))]

    def coextract(entity: FoundEntity, profile: str | None, existing: Sequence[ExistingResidual],
                  session: SessionView) -> Extraction:
        fact = ResidualDraft("Bob plays the piano.", "identity", (session.turns[0].id,))
        return Extraction("Bob lives with Alice.", (fact,))

    return FakeEngine(identify, coextract, name="scripted")


def test_profile_only_write_keeps_profiles_and_drops_facts(tmp_path: Path) -> None:
    scenario = generate_scenario(0, questions=5, sessions=3)
    embedder = get_embedder("minilm")
    counts = {}
    for variant, engine in (("full", scripted_engine()), ("profile", ProfileOnly(scripted_engine()))):
        with open_store(tmp_path / f"{variant}.duckdb") as store:
            ingest_parsed(store, scenario.parsed, "s0", embedder)
            report = write_pending(store, engine, embedder)
            counts[variant] = (store.counts(), report.usage["calls"])
    (full, calls_full), (profile, calls_profile) = counts["full"], counts["profile"]
    assert full["residuals"] > 0 and profile["residuals"] == 0
    assert profile["profiles"] == full["profiles"] == 1 and calls_profile == calls_full == 6


def test_growing_a_store_adds_turns_and_memory_in_proportion(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(3, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    with open_store(tmp_path / "grow.duckdb") as store:
        grow(store, ["Quiet day.", "Made soup.", "Long walk."], vectors, 1_000, "Maya Patel")
        counts = store.counts()
        pending = store.scalar("SELECT count(*) FROM sessions WHERE written_at IS NULL")
        norms = store.con.execute("SELECT list_reduce(list_transform(embedding, x -> x * x), (a, b) -> a + b) "
                                  "FROM turns LIMIT 5").fetchall()
    assert counts["turns"] == 1_000 and counts["entities"] == counts["profiles"] == 10
    assert pending == 0 and all(abs(n[0] - 1.0) < 1e-3 for n in norms)


def test_locomo_questions_keep_category_gold_and_evidence(locomo26: Path) -> None:
    (source,) = locomo_sources(locomo26.parent, ("26.json",))
    assert source.dataset == "locomo" and len(source.questions) == 199
    groups = {q.group for q in source.questions}
    assert groups == {"multi-hop", "temporal", "open-domain", "single-hop", "adversarial"}
    assert all(q.gold is None for q in source.questions if q.group == "adversarial")
    first = source.questions[0]
    assert (first.gold, first.evidence) == ("7 May 2023", ("D1:3",))
    turn_ids = {t.external_id for s in source.parsed.sessions for t in s.turns}
    assert sum(e in turn_ids for q in source.questions for e in q.evidence) > 0.95 * sum(
        len(q.evidence) for q in source.questions)


def test_a_missing_locomo_folder_is_one_error_line(tmp_path: Path, home: Path, runner: CliRunner) -> None:
    from memhop.cli.app import app

    result = runner.invoke(app, ["bench", "--scenarios", "1", "--no-scale", "--locomo", str(tmp_path / "nowhere"),
                                 "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "no LoCoMo conversations" in result.output and "Traceback" not in result.output
