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


def test_the_category_is_traced_and_a_question_without_one_is_untouched(diary: Memory) -> None:
    answer = diary.ask("What sports has Odile done?", evidence=3)
    assert any(stage.startswith("category members:") for stage in answer.context.trace.retrieval)
    plain = diary.ask("What did Odile cook for Brann?", evidence=3)
    assert not any(stage.startswith("category members:") for stage in plain.context.trace.retrieval)


def test_a_bigger_budget_keeps_the_smaller_budgets_turns_first(diary: Memory) -> None:
    small = evidence(diary, "Which sports does Odile play?", 4)
    assert evidence(diary, "Which sports does Odile play?", 12)[:4] == small


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


def test_fusion_lifts_a_member_within_the_default_rankings_head_and_keeps_the_rest_in_order() -> None:
    ranked = list(range(200))
    fused = category.fuse(ranked, [50, 150])
    assert fused[:3] == [0, 1, 2] and fused.index(50) < fused.index(20)  # the closest member climbs past the 20th
    assert fused[category.POOL] == 150  # a member the default ranks past its head follows that head
    assert fused[category.POOL + 1 :] == [r for r in ranked[category.POOL :] if r != 150]
    assert sorted(fused) == ranked
