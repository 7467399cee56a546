"""The raw-turn layer (the default `prograph` retriever): the turns the verified facts came
from and the turns they answer or that answer them, then backfill over every turn, within
the budget; the fact turns lead and take a quarter of it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from memhop.core.config import ReadSettings
from memhop.core.embed import get_embedder
from memhop.core.evidence import SESSION_BEST, WEIGHTS, backfill, name_weight
from memhop.core.ingest import ingest
from memhop.core.language.turns import replies
from memhop.core.model import ResidualDraft
from memhop.core.read import Context, evidence_query, read
from memhop.core.store import Store, memory, open_store
from memhop.core.store.recall import TurnIndex

DIARY = """# 2024-01-05

We planned the trip to Anglesey over tea.

The ferry to Dublin leaves from Holyhead at nine.

Bought oat milk on the way home.

# 2024-01-07

Quiet day. Read a novel about lighthouses.

Cooked a big pot of chilli for the week.
"""
CHAT = [  # Jo and Sam, the evening after the climbing wall
    ("Jo", "How did it go at the climbing wall after work?"),
    ("Sam", "I finally sent the orange route, first try."),
    ("Sam", "My forearms are done for the week."),
]
FACT = "Sam climbed the orange route at the climbing wall."


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("evidence")
    (root / "diary.md").write_text(DIARY, encoding="utf-8")
    lines = [json.dumps({"speaker": who, "text": text, "timestamp": f"2024-01-06T19:0{i}:00"})
             for i, (who, text) in enumerate(CHAT)]
    (root / "chat.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    path = root / "memhop.duckdb"
    embedder = get_embedder("minilm")
    with open_store(path) as store:
        ingest(store, [str(root / "diary.md"), str(root / "chat.jsonl")], embedder, self_name="Jo")
        source = store.scalar("SELECT id FROM turns WHERE text LIKE 'I finally sent%'")
        with store.transaction():
            sam = memory.add_entity(store, "Sam", "person")
            profile = "Sam is Jo's climbing partner."
            memory.put_profile(store, sam, profile, embedder.embed([profile])[0])
            memory.insert_residuals(store, sam, [ResidualDraft(FACT, "cross_entity", (int(source),))], embedder.embed([FACT]))
    return path


@pytest.fixture
def store(db: Path) -> Iterator[Store]:
    with open_store(db, read_only=True) as opened:
        yield opened


def run(store: Store, question: str, **options: object) -> Context:
    return read(store, question, get_embedder("minilm"), replace(ReadSettings(), **options))


def test_fact_sources_come_first_then_the_turn_they_answer(store: Store) -> None:
    """Sam's turn is a reply to Jo's question (a neighbour); Sam's own next turn is not."""
    context = run(store, "What did Sam climb?", evidence=6)
    picks = context.trace.evidence
    texts = [e.turn.text for e in context.evidence]
    assert picks[0].reason == "fact source" and texts[0].startswith("I finally sent")
    assert picks[1].reason == "neighbour" and texts[1].startswith("How did it go at the climbing wall")
    assert picks[1].via == f"turn {picks[0].turn_id}"
    assert not any(p.reason == "neighbour" and t.startswith("My forearms") for p, t in zip(picks, texts))
    assert len(texts) == 6 and len(set(texts)) == 6


def test_the_budget_is_the_number_of_turns_given(store: Store) -> None:
    assert len(run(store, "What did Sam climb?", evidence=2).evidence) == 2
    assert run(store, "What did Sam climb?", evidence=0).evidence == ()
    assert len(run(store, "What did Sam climb?", evidence=50).evidence) == 8  # every turn, once


def test_backfill_finds_the_turn_by_its_words(store: Store) -> None:
    context = run(store, "Where does the ferry to Dublin leave from?", evidence=1, residuals=False)
    (only,) = context.evidence
    assert "Holyhead" in only.turn.text and only.pick.reason == "dense"


def test_evidence_rows_carry_their_provenance(store: Store) -> None:
    (first, *_) = run(store, "Where does the ferry to Dublin leave from?", evidence=3).evidence
    assert first.turn.session == "2024-01-05" and first.turn.speaker == "Jo"
    assert first.turn.timestamp is not None and first.turn.timestamp.date().isoformat() == "2024-01-05"
    assert first.turn.external_id == first.pick.external_id


def index(rows: list[tuple[int, str, float]]) -> TurnIndex:
    """An in-memory turn index of invented turns (session, speaker, cosine to the question
    e1): each turn's vector has exactly that cosine, and no word the question has."""
    n = len(rows)
    vectors = np.asarray([[c, np.sqrt(1 - c * c), 0.0] for _, _, c in rows], dtype=np.float32)
    speakers = sorted({who for _, who, _ in rows})
    ids = np.arange(1, n + 1, dtype=np.int64)
    return TurnIndex(
        ids=ids, sessions=np.asarray([s for s, _, _ in rows], dtype=np.int64), positions=np.arange(n),
        speaker_codes=np.asarray([speakers.index(who) for _, who, _ in rows], dtype=np.int32), speakers=speakers,
        mentions={}, id_order=np.arange(n), id_rank=np.arange(n), timestamps=pa.array([None] * n, pa.timestamp("us")),
        columns=pa.table({"text": [f"turn {i}" for i in range(n)], "external_id": [None] * n,
                          "ts": pa.array([None] * n, pa.timestamp("us")), "session": [str(s) for s, _, _ in rows]}),
        dense_matrix=vectors,
    )


QUESTION = np.asarray([1.0, 0.0, 0.0], dtype=np.float32)
NOBODY = np.zeros(0, dtype=np.int64)


def ranked(turns: TurnIndex, room: int) -> dict[int, tuple[float, int]]:
    return {row: (score, origin) for row, score, origin in backfill(turns, QUESTION, "", NOBODY, room, set())}


def test_a_reply_inherits_part_of_the_score_of_the_turn_it_answers() -> None:
    turns = index([(1, "Ana", 0.9), (1, "Ben", 0.0), (1, "Ana", 0.0)])
    got = ranked(turns, 3)
    assert got[1][1] == 0 and got[1][0] >= WEIGHTS.neighbour_share * got[0][0] - 1e-6  # Ben answers Ana
    mixed = ranked(index([(1, "Ben", 0.0), (1, "Ana", 0.9), (1, "Ana", 0.0)]), 3)
    assert mixed[2][1] == 2  # Ana's second turn follows her own first one: it answers nobody, inherits nothing


def test_a_writers_next_sentence_inherits_nothing() -> None:
    """A diary: one writer, so no turn answers another; each ranks by its own score."""
    turns = index([(1, "Ana", 0.9), (1, "Ana", 0.0), (1, "Ana", 0.3)])
    got = ranked(turns, 3)
    assert all(origin == row for row, (_, origin) in got.items())
    assert list(got) == [0, 2, 1]


def test_a_turn_in_a_session_about_the_question_outranks_an_equal_one_elsewhere() -> None:
    """Row 2 scores a little below row 3 on its own; its session holds the two best turns."""
    turns = index([(1, "Ana", 0.9), (1, "Ana", 0.85), (1, "Ana", 0.5), (2, "Ana", 0.52), (2, "Ana", 0.1)])
    order = list(ranked(turns, 5))
    assert order.index(2) < order.index(3)
    plain = [r for r, _, _ in backfill(turns, QUESTION, "", NOBODY, 5, set(), weights=replace(WEIGHTS, session=0))]
    assert plain.index(3) < plain.index(2)  # by their own scores alone, the other way round


def test_one_lucky_turn_does_not_make_its_session_about_the_question() -> None:
    """A session's score is the mean of its SESSION_BEST best turns: row 3's session has one
    very close turn among unrelated ones, row 7's several fairly close ones."""
    turns = index([(1, "Ana", 0.95), (1, "Ana", 0.0), (1, "Ana", 0.0), (1, "Ana", 0.5),
                   (2, "Ana", 0.6), (2, "Ana", 0.6), (2, "Ana", 0.6), (2, "Ana", 0.5)])
    order = list(ranked(turns, 8))
    assert order.index(7) < order.index(3)


def test_search_ranks_turns_by_their_own_score_only() -> None:
    turns = index([(1, "Ana", 0.9), (1, "Ana", 0.85), (1, "Ana", 0.5), (2, "Ben", 0.52), (2, "Ana", 0.1)])
    rows = [r for r, _, _ in backfill(turns, QUESTION, "", NOBODY, 5, set(), lend=False)]
    assert rows == [0, 1, 3, 2, 4]


def test_a_period_the_question_names_lifts_the_turns_said_in_it(store: Store) -> None:
    """Two meals, on two days: the day the question names decides which comes first."""
    for day, meal in (("5 January 2024", "oat milk"), ("7 January 2024", "chilli")):
        top = run(store, f"What food did I get on {day}?", evidence=1).evidence[0]
        assert meal in top.turn.text, (day, top.turn.text)


def named_first(turns: TurnIndex, named: np.ndarray) -> list[int]:
    """Backfill's order when the question names one entity, whose turns are `named`."""
    return [r for r, _, _ in backfill(turns, QUESTION, "", named, len(turns.ids), set(), named=(named,))]


def test_a_name_found_in_few_turns_lifts_them_like_a_rare_word() -> None:
    """A diary of twenty entries, one naming the pet the question asks about (row 7): it
    outranks an entry closer to the question's other words (row 3). Without the name's
    weight, the entity bonus alone leaves it second."""
    turns = index([(s, "Ana", 0.45 if s == 3 else 0.3 if s == 7 else 0.0) for s in range(20)])
    pet = np.asarray([7])
    assert named_first(turns, pet)[0] == 7
    bonus_only = [r for r, _, _ in backfill(turns, QUESTION, "", pet, 20, set())]
    assert bonus_only[0] == 3


def test_a_turn_naming_two_of_the_questions_entities_gains_both_weights() -> None:
    """Two entities named, each in two turns; row 9 names both and outranks turns closer
    to the question's other words that name one (rows 7, 12) or none (row 3)."""
    turns = index([(s, "Ana", {3: 0.45, 7: 0.3, 9: 0.25, 12: 0.3}.get(s, 0.0)) for s in range(20)])
    first, second = np.asarray([7, 9]), np.asarray([9, 12])
    order = [r for r, _, _ in backfill(turns, QUESTION, "", np.asarray([7, 9, 12]), 20, set(), named=(first, second))]
    assert order[:4] == [9, 7, 12, 3]


def test_a_speaker_of_most_turns_gains_next_to_nothing_from_being_named() -> None:
    """Ana says eighteen of twenty turns: naming her tells little, so her turn (row 7) stays
    below Ben's closer one (row 19), and her weight is a sliver of a one-turn name's."""
    turns = index([(s, "Ben" if s >= 18 else "Ana", 0.45 if s == 19 else 0.3 if s == 7 else 0.0) for s in range(20)])
    order = named_first(turns, np.arange(18))
    assert order.index(19) < order.index(7)
    assert name_weight(18, 20) < name_weight(1, 20) / 10 and name_weight(1, 20) == WEIGHTS.lexical


def test_the_query_carries_each_named_persons_turns(store: Store) -> None:
    """Two people named: each one's turns apart (the name weights), their union the focus."""
    query = evidence_query(store, "What did Jo and Sam talk about at the climbing wall?", get_embedder("minilm"),
                           ReadSettings())
    assert [p.name for p in query.people] == ["Jo", "Sam"]
    jo, sam = (set(rows.tolist()) for rows in query.named)
    texts = query.snap.turns.texts(sorted(sam))
    assert all(t in {text for who, text in CHAT if who == "Sam"} for t in texts) and len(texts) == 2
    assert jo and not jo & sam and jo | sam == set(query.focus.tolist())


def test_a_nickname_two_named_people_could_share_gives_neither_of_them_its_turns(tmp_path: Path) -> None:
    """"Rob" could be Robert Lane or Robert Moss: the focus counts him as neither, and so
    must each one's name weight (matched against one name alone, he was both)."""
    chat = [("Robert Lane", "The boat needs a new sail before the regatta."),
            ("Robert Moss", "I can sew the sail if you bring the canvas."),
            ("Rob", "The boat leaks at the stern, I saw it on Sunday.")]
    (tmp_path / "chat.jsonl").write_text("".join(
        json.dumps({"speaker": who, "text": text, "timestamp": f"2024-03-02T10:0{i}:00"}) + "\n"
        for i, (who, text) in enumerate(chat)), encoding="utf-8")
    embedder = get_embedder("minilm")
    with open_store(tmp_path / "memhop.duckdb") as opened:
        ingest(opened, [str(tmp_path / "chat.jsonl")], embedder)
    with open_store(tmp_path / "memhop.duckdb", read_only=True) as opened:
        query = evidence_query(opened, "What did Robert Lane and Robert Moss say about the boat?", embedder,
                               ReadSettings())
        turns = query.snap.turns
        bob = {r for r in range(len(turns.ids)) if turns.speakers[turns.speaker_codes[r]] == "Rob"}
        assert [p.name for p in query.people] == ["Robert Lane", "Robert Moss"] and bob
        lane, moss = (set(rows.tolist()) for rows in query.named)
        assert not bob & set(query.focus.tolist())
        assert not bob & lane and not bob & moss and lane and moss
        assert lane | moss == set(query.focus.tolist())


def test_a_turn_of_an_unknown_session_is_no_reply() -> None:
    """Two speakers' adjacent turns pair only within one known session: None says nothing."""
    assert replies("Orla", 3, "Kasim", 3)
    assert not replies("Orla", 3, "Orla", 3) and not replies("Orla", 3, "Kasim", 4)
    assert not replies("Orla", None, "Kasim", None) and not replies("Orla", 3, "Kasim", None)
