"""Where the answerer splits a text into sentences: at a full stop even before a lower-case
word (text written without capitals), never inside an abbreviation, an ellipsis or a number,
and not at "!!" inside a sentence."""

from __future__ import annotations

from datetime import datetime

import pytest

from memhop.core.language.sentences import gather, split_sentences
from memhop.core.model import AnswerRequest, EntitySlice, TurnView


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("joined the chess club. the president is Callum.", ["joined the chess club.", "the president is Callum."]),
        ("It weighs 12.7 kg. Lovely.", ["It weighs 12.7 kg.", "Lovely."]),
        ("we met at 3 p.m. and left", ["we met at 3 p.m. and left"]),
        ("bring cheese, e.g. cheddar", ["bring cheese, e.g. cheddar"]),
        ("so... anyway it was fine", ["so... anyway it was fine"]),
        ("Tadhg got engaged!! to a vet called Nessa.", ["Tadhg got engaged!! to a vet called Nessa."]),
        ("submitted at 11:58pm. never again", ["submitted at 11:58pm.", "never again"]),
    ],
)
def test_a_text_splits_where_a_reader_ends_a_sentence(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences


def _carried(text: str, names: tuple[str, ...]) -> list[str | None]:
    request = AnswerRequest(
        question="Where does Maren work?",
        slices=tuple(EntitySlice(name, "", (), "person") for name in names),
        evidence=(TurnView(1, "Derek Lindqvist", text, datetime(2024, 11, 22)),),
    )
    return [s.carry for s in gather(request) if s.origin == "evidence"]


def test_a_possessive_name_carries_when_what_it_owns_is_no_one() -> None:
    # "Maren's last shift …": "She starts at …" is Maren's doing
    said = "Maren's last shift in the ER was last night. She starts at Fenwick Dental on Monday."
    assert _carried(said, ("Maren",)) == [None, "Maren"]
    # "Wendell's sister came round": "She" may be the sister, so Wendell is not carried
    said = "Wendell's sister came round. She is a tree surgeon."
    assert _carried(said, ("Wendell",)) == [None, None]
