"""Counts written in words read as the number a reader would compare."""

from __future__ import annotations

import pytest

from memhop.core.language.numbers import as_digits


@pytest.mark.parametrize(
    ("words", "digits"),
    [
        ("forty", "40"),
        ("twenty-two", "22"),
        ("one hundred", "100"),
        ("a hundred and twelve", "112"),
        ("a dozen", "12"),
        ("a couple of", "2"),
        ("a few", "a few"),  # no exact number: left as said
        ("several", "several"),
    ],
)
def test_a_count_in_words_reads_as_its_number(words: str, digits: str) -> None:
    assert as_digits(words) == digits
