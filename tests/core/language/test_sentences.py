"""Where the answerer splits a text into sentences: at a full stop even before a lower-case
word (text written without capitals), never inside an abbreviation, an ellipsis or a number,
and not at "!!" inside a sentence."""

from __future__ import annotations

import pytest

from memhop.core.language.sentences import split_sentences


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("joined the chess club. the president is Callum.", ["joined the chess club.", "the president is Callum."]),
        ("It weighs 16.4 kg. Lovely.", ["It weighs 16.4 kg.", "Lovely."]),
        ("we met at 3 p.m. and left", ["we met at 3 p.m. and left"]),
        ("bring cheese, e.g. cheddar", ["bring cheese, e.g. cheddar"]),
        ("so... anyway it was fine", ["so... anyway it was fine"]),
        ("Tadhg got engaged!! to a vet called Nessa.", ["Tadhg got engaged!! to a vet called Nessa."]),
        ("submitted at 11:58pm. never again", ["submitted at 11:58pm.", "never again"]),
    ],
)
def test_a_text_splits_where_a_reader_ends_a_sentence(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences
