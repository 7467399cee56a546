"""An aggregation question naming a category ("what sports has Odile done?") gets the
person's turns closest to the category fused into its evidence (core/category.py): a
member of the category that shares no word with the question ("went bouldering at the old
quarry") reaches a budget it missed."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pyarrow as pa
import pytest
from support.written_memory import written_memory

from memhop.core import category
from memhop.core.api import Memory
from memhop.core.store.recall import TurnIndex

DAYS = (
    "Made a big pot of lentil soup and froze half of it for the week.",
    "Fenna came over and we talked about her new job at the print shop.",
    "Went bouldering at the old quarry with Brann; my forearms are done.",
    "The landlord finally fixed the leaking tap in the kitchen.",
    "Read two chapters of the novel Brann lent me before bed.",
    "Rain all day, so I sorted the tax papers and paid the gas bill.",
    "Baked rye bread with caraway; the crust came out too dark.",
    "Fenna and I had a long phone call about her move to the coast.",
    "Played badminton at the community hall, lost every game to Fenna.",
    "Repotted the fig tree and moved it closer to the window.",
    "Watched an old film about a lighthouse keeper, a bit slow.",
    "Bought new curtains for the bedroom at the market.",
    "Cleaned out the shed and found my grandfather's tools.",
    "Cooked dinner for Brann and his sister, a mushroom risotto.",
    "Wrote a long letter to my aunt in the north.",
    "Spent the evening fixing the wobbly chair in the hallway.",
    "Rowed a single scull on the river at dawn with the club.",
    "Went to the dentist; one small filling, nothing serious.",
    "Tried a new recipe for plum jam, too sweet.",
    "The neighbours' dog barked all night again.",
)
DIARY = "# Odile's diary\n\n" + "".join(f"# 2024-{1 + i // 28:02d}-{1 + i % 28:02d}\n\n{day}\n\n" for i, day in enumerate(DAYS))


@pytest.fixture(scope="module")
def diary(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "diary.md", DIARY, "Odile Marsh") as memory:
        yield memory


def evidence(memory: Memory, question: str, budget: int) -> list[str]:
    return [e.turn.text for e in memory.ask(question, evidence=budget).context.evidence]


def test_a_member_of_the_asked_category_reaches_the_evidence(diary: Memory) -> None:
    got = evidence(diary, "What sports has Odile done?", 3)
    assert any("bouldering" in text for text in got), got
    assert any("badminton" in text for text in got) and any("scull" in text for text in got)


def _members_line(memory: Memory, question: str, budget: int) -> str:
    answer = memory.ask(question, evidence=budget)
    return next(stage for stage in answer.context.trace.retrieval if stage.startswith("category members:"))


def test_the_trace_names_the_turns_the_fusion_brought_in_and_a_question_without_a_category_is_untouched(
    diary: Memory,
) -> None:
    answer = diary.ask("What sports has Odile done?", evidence=3)
    line = next(stage for stage in answer.context.trace.retrieval if stage.startswith("category members:"))
    brought = [e for e in answer.context.evidence if e.pick.reason.startswith("category")]
    assert [e.turn.text for e in brought if "bouldering" in e.turn.text], answer.context.evidence  # only there by it
    assert line.startswith(f"category members: {len(brought)} brought into the budget") and len(brought) > 0
    assert "the person's 20 turns closest" in line  # every day of the diary is hers
    plain = diary.ask("What did Odile cook for Brann?", evidence=3)
    assert not any(stage.startswith("category members:") for stage in plain.context.trace.retrieval)
    assert not any(e.pick.reason.startswith("category") for e in plain.context.evidence)


YEARS = "# Odile's diary\n\n" + "".join(
    f"# {2023 + i // 10}-{1 + i % 10:02d}-11\n\n{day}\n\n" for i, day in enumerate(DAYS)
)  # the first ten days in 2023, the rest in 2024


@pytest.fixture(scope="module")
def years(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "years.md", YEARS, "Odile Marsh") as memory:
        yield memory


def test_a_period_the_question_names_limits_the_members_to_it(years: Memory) -> None:
    assert "the person's 10 turns closest" in _members_line(years, "Which sports did Odile do in 2023?", 3)
    assert "the person's 20 turns closest" in _members_line(years, "Which sports did Odile do?", 3)
    # a period she said nothing in: the period may be when it happened, told later; every turn votes
    assert "the person's 20 turns closest" in _members_line(years, "Which sports did Odile do in 2019?", 3)


PREFIXES = ("In the morning", "After work", "On Sunday", "Late at night", "Before lunch", "At dusk", "Once again")
LONG = "# Odile's diary\n\n" + "".join(
    f"# {2020 + i // 336}-{1 + i // 28 % 12:02d}-{1 + i % 28:02d}\n\n{PREFIXES[i // 20 % 7]}: {DAYS[i % 20][0].lower()}"
    f"{DAYS[i % 20][1:]}\n\n" for i in range(140)
)  # 140 days, more than the fusion's pool of the default ranking


@pytest.fixture(scope="module")
def long_diary(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "long.md", LONG, "Odile Marsh") as memory:
        yield memory


@pytest.mark.slow
def test_a_budget_past_the_pool_keeps_a_small_budgets_turns_first(long_diary: Memory) -> None:
    """Below the pool the ranking is built at the pool's length; above it at the budget, its
    rest following the fused head: the small budget's turns must still come first."""
    question = "Which sports does Odile play?"
    small = evidence(long_diary, question, 10)
    assert evidence(long_diary, question, 130)[:10] == small
    assert evidence(long_diary, question, 4) == small[:4]


def index(vectors: list[list[float]]) -> TurnIndex:
    n = len(vectors)
    return TurnIndex(
        ids=np.arange(1, n + 1, dtype=np.int64), sessions=np.arange(n, dtype=np.int64), positions=np.arange(n),
        speaker_codes=np.zeros(n, dtype=np.int32), speakers=["Odile"], mentions={}, id_order=np.arange(n),
        id_rank=np.arange(n), timestamps=pa.array([None] * n, pa.timestamp("us")), columns=None,
        dense_matrix=np.asarray(vectors, dtype=np.float32),
    )


def test_members_are_the_persons_turns_closest_to_the_category_inside_the_window() -> None:
    turns = index([[0.0, 1.0], [1.0, 0.0], [0.8, 0.6], [0.6, 0.8]])
    focus = np.array([0, 2, 3])  # row 1 is closest, but not the person's
    rows, cosines = category.members(turns, np.array([1.0, 0.0], dtype=np.float32), focus, None)
    assert rows.tolist() == [2, 3, 0] and cosines[0] == pytest.approx(0.8)
    allowed = np.array([True, True, False, True])
    assert category.members(turns, np.array([1.0, 0.0], dtype=np.float32), focus, allowed)[0].tolist() == [3, 0]
    said_then = np.array([True, False, True, False])  # the period the question names
    assert category.members(turns, np.array([1.0, 0.0], dtype=np.float32), focus, None, said_then)[0].tolist() == [2, 0]
    assert category.members(turns, np.array([1.0, 0.0], dtype=np.float32), focus, allowed, said_then)[0].tolist() == [0]


def test_fusion_lifts_a_member_within_the_default_rankings_head_and_keeps_the_rest_in_order() -> None:
    ranked = list(range(200))
    fused = category.fuse(ranked, [50, 150])
    assert fused[:3] == [0, 1, 2] and fused.index(50) < fused.index(20)  # the closest member climbs past the 20th
    assert fused[category.POOL] == 150  # a member the default ranks past its head follows that head
    assert fused[category.POOL + 1 :] == [r for r in ranked[category.POOL :] if r != 150]
    assert sorted(fused) == ranked
