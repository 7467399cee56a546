"""A turn that mostly asks matches a question by its form ("What did you …?"), not by what
it tells: in backfill its reply inherits its whole score and it keeps a neighbour's share."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from memhop.core.evidence import WEIGHTS, backfill
from memhop.core.language.turns import asks
from memhop.core.store.recall import TurnIndex

QUESTION = np.asarray([1.0, 0.0, 0.0], dtype=np.float32)
NOBODY = np.zeros(0, dtype=np.int64)


def index(rows: list[tuple[int, str, float, str]]) -> TurnIndex:
    """Invented turns (session, speaker, cosine to the question e1, text)."""
    n = len(rows)
    vectors = np.asarray([[c, np.sqrt(1 - c * c), 0.0] for _, _, c, _ in rows], dtype=np.float32)
    speakers = sorted({who for _, who, _, _ in rows})
    return TurnIndex(
        ids=np.arange(1, n + 1, dtype=np.int64), sessions=np.asarray([s for s, _, _, _ in rows], dtype=np.int64),
        positions=np.arange(n), speaker_codes=np.asarray([speakers.index(w) for _, w, _, _ in rows], dtype=np.int32),
        speakers=speakers, mentions={}, id_order=np.arange(n), id_rank=np.arange(n),
        timestamps=pa.array([None] * n, pa.timestamp("us")),
        columns=pa.table({"text": [t for _, _, _, t in rows], "external_id": [None] * n,
                          "ts": pa.array([None] * n, pa.timestamp("us")), "session": [str(s) for s, _, _, _ in rows]}),
        dense_matrix=vectors,
    )


def ranked(turns: TurnIndex, lend: bool = True) -> list[tuple[int, float, int]]:
    return backfill(turns, QUESTION, "", NOBODY, len(turns.ids), set(), lend=lend)


def test_a_turn_asks_when_most_of_its_words_are_in_questions() -> None:
    assert asks("Oh nice! What got you into glassblowing?")
    assert asks("Did you finish the quilt for Odile?")
    assert not asks("I started glassblowing last spring at the studio on Venn Street. You?")
    assert not asks("Did you like it? I carved it from one piece of walnut for my aunt Perpetua's birthday.")
    assert not asks("We went kayaking on the lake near Brask.")
    assert asks("What do you think of this one? [a photo of a long blue scarf with tassels at both ends]")


def test_the_reply_to_a_question_that_matches_inherits_its_whole_score() -> None:
    """Ines asks about the very thing; Tobiah's reply says it in other words; an Ines turn in
    another session matches less well. The reply, not the question, comes first."""
    turns = index([
        (1, "Ines", 0.9, "What kind of boat did you build over the winter?"),
        (1, "Tobiah", 0.0, "A little cedar canoe, took me four months."),
        (2, "Ines", 0.75, "My neighbour keeps a rowing boat by the shed."),
    ])
    got = ranked(turns)
    assert [row for row, _, _ in got] == [1, 2, 0]
    reply = got[0]
    assert reply[2] == 0 and abs(reply[1] - got[-1][1] / WEIGHTS.neighbour_share) < 1e-6  # its score is the question's


def test_a_question_without_a_reply_ranks_below_a_turn_that_tells() -> None:
    """Last turn of its session, nobody answers it: it keeps a neighbour's share of its score."""
    turns = index([
        (1, "Ines", 0.6, "We repainted the hull of the canoe in green."),
        (2, "Tobiah", 0.1, "The weather at the marina was grim all week."),
        (2, "Ines", 0.7, "Which paint did you use on the canoe?"),
    ])
    order = [row for row, _, _ in ranked(turns)]
    assert order.index(0) < order.index(2)


def test_search_still_ranks_a_question_by_its_own_words() -> None:
    turns = index([
        (1, "Ines", 0.9, "What kind of boat did you build over the winter?"),
        (1, "Tobiah", 0.0, "A little cedar canoe, took me four months."),
        (2, "Ines", 0.75, "My neighbour keeps a rowing boat by the shed."),
    ])
    assert [row for row, _, _ in ranked(turns, lend=False)] == [0, 2, 1]
