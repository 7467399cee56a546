"""A reply that names its listener only to address them ("Thanks, Tova!") is said to them,
not about them: it does not gain what naming the question's person gives a turn
(core/evidence.py `addressed`), while the person's own turns and turns about them do."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from memhop.core.config import ReadSettings
from memhop.core.embed import get_embedder
from memhop.core.evidence import Listener, backfill
from memhop.core.ingest import ingest
from memhop.core.read import read
from memhop.core.store import memory, open_store
from memhop.core.store.recall import TurnIndex

CHAT = [  # Bram and Tova, two evenings; the write path would record Bram's "Tova" as mentions
    ("2024-03-02T10:00:00", "Bram", "Hey Tova, how was your weekend with the kids?"),
    ("2024-03-02T10:01:00", "Tova", "Busy! We glazed a set of mugs at the pottery studio."),
    ("2024-03-02T10:02:00", "Bram", "Sounds like a lovely weekend with the kids, Tova!"),
    ("2024-03-02T10:03:00", "Tova", "It was. Next month we want to try the wheel."),
    ("2024-03-09T18:00:00", "Tova", "Hi Bram, how did the bike race go?"),
    ("2024-03-09T18:01:00", "Bram", "Third place! My legs are still sore."),
    ("2024-03-09T18:02:00", "Tova", "Well done! Rest up this weekend."),
    ("2024-03-09T18:03:00", "Bram", "Will do. The weather turned cold anyway."),
]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("address")
    lines = [json.dumps({"speaker": who, "text": text, "timestamp": ts}) for ts, who, text in CHAT]
    (root / "chat.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    path = root / "memhop.duckdb"
    embedder = get_embedder("minilm")
    with open_store(path) as store:
        ingest(store, [str(root / "chat.jsonl")], embedder)
        with store.transaction():
            tova = memory.add_entity(store, "Tova", "person")
            memory.put_profile(store, tova, "Tova is Bram's friend.", embedder.embed(["Tova is Bram's friend."])[0])
            named = [int(r[0]) for r in store.con.execute("SELECT id FROM turns WHERE text LIKE '%Tova%'").fetchall()]
            memory.add_mentions(store, tova, named)
    return path


def test_the_persons_own_answer_outranks_a_reply_that_only_addresses_them(db: Path) -> None:
    """Bram's "…with the kids, Tova!" echoes the question's words more closely than Tova's
    own answer; naming her only to speak to her, it no longer gains her name's weight."""
    with open_store(db, read_only=True) as store:
        context = read(store, "What did Tova do with her kids?", get_embedder("minilm"), ReadSettings(evidence=4))
    texts = [e.turn.text for e in context.evidence]
    answer = texts.index("Busy! We glazed a set of mugs at the pottery studio.")
    assert answer < texts.index("Sounds like a lovely weekend with the kids, Tova!")


def index(rows: list[tuple[int, str, str, float]]) -> TurnIndex:
    """Invented turns (session, speaker, text, cosine to the question e1)."""
    n = len(rows)
    vectors = np.asarray([[c, np.sqrt(1 - c * c), 0.0] for *_, c in rows], dtype=np.float32)
    speakers = sorted({who for _, who, _, _ in rows})
    return TurnIndex(
        ids=np.arange(1, n + 1, dtype=np.int64), sessions=np.asarray([s for s, *_ in rows], dtype=np.int64),
        positions=np.arange(n), speaker_codes=np.asarray([speakers.index(who) for _, who, _, _ in rows], dtype=np.int32),
        speakers=speakers, mentions={}, id_order=np.arange(n), id_rank=np.arange(n),
        timestamps=pa.array([None] * n, pa.timestamp("us")),
        columns=pa.table({"text": [text for _, _, text, _ in rows], "external_id": [None] * n,
                          "ts": pa.array([None] * n, pa.timestamp("us")), "session": [str(s) for s, *_ in rows]}),
        dense_matrix=vectors,
    )


QUESTION = np.asarray([1.0, 0.0, 0.0], dtype=np.float32)
TOVA = ("Tova Lindqvist", "Tova")


def order(turns: TurnIndex, focus: list[int], listening: bool = True) -> list[int]:
    rows = np.asarray(focus, dtype=np.int64)
    spoken = np.flatnonzero(np.asarray(turns.speakers)[turns.speaker_codes] == "Tova")
    listeners = (Listener(TOVA, spoken),) if listening else ()
    return [r for r, _, _ in backfill(turns, QUESTION, "", rows, len(turns.ids), set(), lend=False,
                                      named=(rows,), listeners=listeners)]


def test_a_turn_about_the_person_or_said_where_they_are_absent_keeps_their_names_weight() -> None:
    """Bram's turns in the evening Tova takes part in: one addresses her (row 1), one is
    about her (row 3). In an evening she is not part of (rows 4-5) a sentence that opens
    with her name cannot be said to her (row 4). The three score alike apart from that;
    only the address falls below the unnamed turn (row 5, a little closer)."""
    turns = index([
        (1, "Tova", "We glazed mugs.", 0.2),
        (1, "Bram", "Lovely, Tova!", 0.5),
        (1, "Tova", "Thanks!", 0.0),
        (1, "Bram", "I told Cai about Tova's mugs.", 0.5),
        (2, "Bram", "Tova, of all people, glazed mugs.", 0.5),
        (2, "Cai", "No way.", 0.52),
    ])
    focus = [0, 1, 2, 3, 4]
    got = order(turns, focus)
    assert got.index(3) < got.index(5) and got.index(4) < got.index(5)
    assert got.index(5) < got.index(1)
    before = order(turns, focus, listening=False)  # every naming turn gains alike
    assert before.index(1) < before.index(5)
