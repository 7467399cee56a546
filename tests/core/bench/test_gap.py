"""The 26-vs-30 gap report: each weight of the default retriever chosen on one conversation
and tested on the other, and whether the shipped value holds."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from memhop.core.bench.gap import GRID, GapRecord, choices, rank_grid, section, settings
from memhop.core.bench.report import render, summary
from memhop.core.bench.result import BenchConfig, BenchResult
from memhop.core.config import ReadSettings
from memhop.core.embed import get_embedder
from memhop.core.evidence import WEIGHTS
from memhop.core.read import evidence_query, read
from memhop.core.store import Store, open_store


def records(source: str, weight: str, recall: dict[float, float], questions: int = 2) -> list[GapRecord]:
    """Every grid point of every weight at 0.5, except `weight`, whose values score as given."""
    out = []
    for name, values in GRID.items():
        for value in values:
            r = recall.get(value, 0.5) if name == weight else 0.5
            out += [GapRecord(source, name, value, f"{source}-{i}", r, r) for i in range(questions)]
    return out


def test_each_conversation_chooses_its_best_value_and_a_tie_keeps_the_shipped_one() -> None:
    shipped = WEIGHTS.session
    got = choices(records("alpha", "session", {0.3: 0.9}) + records("beta", "session", {}))
    (session,) = [c for c in got if c.weight == "session"]
    assert session.chosen == {"alpha": 0.3, "beta": shipped}  # beta: every value ties
    assert session.recall[("alpha", 0.3)] == (0.9, 0.9)
    assert session.holds()  # shipped does as well on beta as alpha's choice does
    others = [c for c in got if c.weight != "session"]
    assert others and all(c.chosen == {"alpha": c.shipped, "beta": c.shipped} for c in others)


def test_a_value_chosen_elsewhere_that_wins_on_the_held_out_conversation_means_the_shipped_one_fails() -> None:
    got = choices(records("alpha", "session", {0.3: 0.9}) + records("beta", "session", {0.3: 0.7}))
    (session,) = [c for c in got if c.weight == "session"]
    assert session.chosen == {"alpha": 0.3, "beta": 0.3} and not session.holds()
    text = section(got)
    row = next(line for line in text.splitlines() if line.startswith("| `session`"))
    assert row.endswith("| no |") and "90.0 / 90.0" in row and "70.0 / 70.0" in row


def test_the_report_and_the_json_summary_show_the_same_choices() -> None:
    result = BenchResult(BenchConfig(Path("out")), "offline",
                         gap=records("alpha", "session", {0.3: 0.9}) + records("beta", "session", {0.3: 0.7}))
    weights = summary(result)["weights"]
    assert isinstance(weights, dict) and weights["session"] == {"shipped": WEIGHTS.session,
                                                                "chosen": {"alpha": 0.3, "beta": 0.3}, "holds": False}
    row = next(line for line in render(result, []).splitlines() if line.startswith("| `session`"))
    assert row.endswith("| no |") and "| 0.3 | 90.0 / 90.0 | 70.0 / 70.0 |" in row  # alpha's choice, as in the JSON
    assert "| 0.3 | 70.0 / 70.0 | 90.0 / 90.0 |" in row  # beta's


def test_one_conversation_is_no_gap() -> None:
    assert section(choices(records("alpha", "session", {}))).startswith("not run")


@pytest.fixture
def store(purge_template: Path) -> Iterator[Store]:
    with open_store(purge_template, read_only=True) as opened:
        yield opened


def test_the_grid_re_ranks_real_questions_and_its_shipped_point_is_the_default(store: Store) -> None:
    embedder, options = get_embedder("minilm"), ReadSettings()
    questions = ["What does Bob play?", "Why was sprint planning long?"]
    default = {q: [e.turn.external_id for e in read(store, q, embedder, replace(options, evidence=25)).evidence]
               for q in questions}
    gold = {q: (str(default[q][0]), str(default[q][9])) for q in questions}  # its first and tenth: a reorder shows
    asked = [(q, evidence_query(store, q, embedder, options), gold[q]) for q in questions]
    turns = asked[0][1].snap.turns
    got = rank_grid("purge", asked, lambda rows: [r.external_id for r in turns.records(rows)])
    assert len(got) == len(questions) * len(settings())
    for name in GRID:
        shipped = [r for r in got if r.weight == name and r.value == getattr(WEIGHTS, name)]
        assert [(r.recall10, r.recall25) for r in shipped] == [(1.0, 1.0)] * len(questions), name
    # ...and the other points really rank with their weights: some question's recall moves
    moved = {r.weight for r in got if (r.recall10, r.recall25) != (1.0, 1.0)}
    assert moved, "no grid point ranks any question differently from the shipped weights"
