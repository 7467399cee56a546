"""The bench's router table: LoCoMo questions by category, routed, with the agreement."""

from __future__ import annotations

from pathlib import Path

from memhop.core.bench.metrics import Record
from memhop.core.bench.result import BenchConfig, BenchResult
from memhop.core.bench.routing import router_table

QUESTIONS = [  # (conversation, category, question)
    ("locomo-a", "multi-hop", "What board games has Teodora played?"),
    ("locomo-a", "multi-hop", "What did Teodora research?"),  # a multi-hop question that is one fact
    ("locomo-a", "temporal", "When did Brann move to Brackwood?"),
    ("locomo-a", "adversarial", "When did Teodora move to Brackwood?"),  # no type to compare with
    ("locomo-b", "open-domain", "Would Brann enjoy a night of jazz?"),
    ("locomo-b", "single-hop", "What did Brann cook on Friday?"),
]


def _result() -> BenchResult:
    result = BenchResult(BenchConfig(Path("out")), "offline")
    for i, (source, group, question) in enumerate(QUESTIONS):
        for system in ("memhop", "graph"):  # every system asks each question: counted once
            result.records.append(Record("locomo", source, system, f"q{i}", group, question, "x", None,
                                         None, None, None, None, 0, 0.0))
    return result


def test_each_category_is_routed_and_its_agreement_given_per_conversation() -> None:
    table = router_table(_result())
    assert "| multi-hop (≈ aggregation) | 2 | 1 | 1 | 0 | 0 | 50 % |" in table
    assert "| temporal (≈ temporal) | 1 | 0 | 0 | 1 | 0 | 100 % |" in table
    assert "| open-domain (≈ inference) | 1 | 0 | 0 | 0 | 1 | 100 % |" in table
    assert "adversarial" not in table
    assert "locomo-a 67 % (2/3), locomo-b 100 % (2/2)" in table


def test_without_locomo_the_table_says_so() -> None:
    assert router_table(BenchResult(BenchConfig(Path("out")), "offline")).startswith("not available")
