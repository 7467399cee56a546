"""The one tense reader (tense.py): a perfect is past whatever the apostrophe or the form of
"have" ("I’ve moved", "I'd gone"), and a participle's own auxiliary, not its head's, makes it
perfect ("I think she has left": the leaving is past though the thinking is not)."""

from __future__ import annotations

import pytest

from memhop.core.engines.offline import grammar, tense


@pytest.mark.parametrize("text", ["I’ve moved to Hexworth.", "She’d gone by noon.", "I'd gone home by then.",
                                  "Odile has left the choir."])
def test_a_perfect_is_past_in_any_spelling(text: str) -> None:
    assert tense.of_text(text) == tense.PAST


@pytest.mark.parametrize(("text", "expected"), [
    ("Odile’ll sing on Friday.", tense.FUTURE_TENSE),
    ("She’s singing tonight.", tense.PRESENT),
    ("They’re singing tonight.", tense.PRESENT),
    ("Odile sings in a choir.", tense.PRESENT),
    ("Odile sang in a choir.", tense.PAST),
])
def test_the_sentence_takes_its_main_verbs_tense(text: str, expected: str) -> None:
    assert tense.of_text(text) == expected


def test_a_participle_is_past_by_its_own_auxiliary() -> None:
    doc = grammar.parsed("I think she has left.")
    left = next(t for t in doc if t.lower_ == "left")
    assert tense.past_form(left)  # the sentence "past" mark at ingest reads each verb so
    assert tense.of_text("I think she has left.") == tense.PRESENT  # the main verb is "think"
    had = grammar.parsed("She had a cold.")
    assert not tense.perfect(next(t for t in had if t.lower_ == "had"))  # "had" alone is no perfect
