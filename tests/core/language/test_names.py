"""Finding registered names in text and matching a newly seen name to the registry."""

from __future__ import annotations

import pytest

from memhop.core.language.name_index import NameIndex
from memhop.core.language.names import find_names, fold, match_registry, mentions, name_forms, name_key

PEOPLE = [
    ("Órlaith Rooney", ()),
    ("Przemek Wilk", ("Przemysław",)),
    ("Min-jae", ()),
    ("Tromsø", ()),
    ("Ann", ()),
    ("Leeds", ()),
]


def found(text: str, entities=PEOPLE) -> list[tuple[str, str]]:
    return [(m.entity, m.text) for m in find_names(text, entities)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Pancakes at Órlaith's on Sunday.", [("Órlaith Rooney", "Órlaith")]),
        ("orlaith delete this", [("Órlaith Rooney", "orlaith")]),
        ("ÓRLAITH ROONEY got the job", [("Órlaith Rooney", "ÓRLAITH ROONEY")]),
        ("His real name is Przemysław.", [("Przemek Wilk", "Przemysław")]),
        ("Przemyslaw, said without the stroke", [("Przemek Wilk", "Przemyslaw")]),
        ("Min-jae's wife Soyeon", [("Min-jae", "Min-jae")]),
        ("Flew to Tromsø, then Tromso again.", [("Tromsø", "Tromsø"), ("Tromsø", "Tromso")]),
    ],
)
def test_names_match_as_whole_words_whatever_the_case_and_accents(text: str, expected: list) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Mary-Ann came round",  # Ann is part of a hyphenated name
        "Ann-Marie came round",
        "Órlaithx is not a word",
        "Tromsøya is an island",
        "Do-hyunie",
        "Leedsish",
    ],
)
def test_a_name_inside_a_longer_word_is_not_a_mention(text: str) -> None:
    assert found(text) == []


def test_a_hyphen_to_a_lower_case_word_still_mentions_the_name() -> None:
    assert found("a Leeds-based band, my ex-Ann phase") == [("Leeds", "Leeds"), ("Ann", "Ann")]


def test_offsets_point_into_the_original_text() -> None:
    text = "Ça va? Órlaith and Przemysław arrived."
    for m in find_names(text, PEOPLE):
        assert text[m.start : m.end] == m.text


def test_the_index_finds_exactly_what_find_names_finds() -> None:
    index = NameIndex(PEOPLE)
    for text in ("orlaith and PRZEMYSLAW", "Mary-Ann in Tromso", "Min-jae's wife", "nobody at all"):
        assert index.find(text) == find_names(text, PEOPLE)


def test_mentions_ignores_accents_and_case() -> None:
    assert mentions("we saw orlaith", "Órlaith Rooney")
    assert not mentions("we saw Órlaithna", "Órlaith Rooney")


def test_fold_keeps_one_character_for_one() -> None:
    text = "Przemysław, Órlaith, Tromsø, Toruń, Nguyễn, O’Brien"
    assert fold(text) == "Przemyslaw, Orlaith, Tromso, Torun, Nguyen, O'Brien"
    assert len(fold(text)) == len(text)
    assert name_key("  Órlaith   ROONEY ") == "orlaith rooney"


def test_name_forms_keep_a_hyphenated_first_name_whole() -> None:
    assert name_forms("Min-jae Park") == ["Min-jae Park", "Min-jae"]


REGISTRY = [("Bob Kowalski", ()), ("Órlaith Rooney", ()), ("Tatiana Monteiro", ("Tati",)), ("Kunle", ())]


@pytest.mark.parametrize(
    ("seen", "canonical"),
    [
        ("Bob", "Bob Kowalski"),  # a first name
        ("bob kowalski", "Bob Kowalski"),
        ("Orlaith Rooney", "Órlaith Rooney"),  # accents aside
        ("ORLAITH", "Órlaith Rooney"),
        ("tati", "Tatiana Monteiro"),  # an alias
        ("Olakunle Babatunde", "Kunle"),  # Kunle ends Olakunle, and nobody else fits
        ("Bob Marley", None),  # another surname: another person
        ("Eluned", None),
    ],
)
def test_match_registry(seen: str, canonical: str | None) -> None:
    assert match_registry(seen, REGISTRY) == canonical


def test_a_first_name_seen_first_still_takes_the_full_name() -> None:
    """write.py's fuller_name relies on "Bob Kowalski" matching a registered "Bob"."""
    assert match_registry("Bob Kowalski", [("Bob", ())]) == "Bob"
    assert match_registry("Kunle Babatunde", [("Kunle", ())]) == "Kunle"


@pytest.mark.parametrize(
    ("seen", "known", "canonical"),
    [
        ("Kunle", [("Olakunle Babatunde", ())], "Olakunle Babatunde"),
        ("Ros", [("Rosalind", ())], "Rosalind"),
        ("Tati", [("Tatiana Monteiro", ())], "Tatiana Monteiro"),
        ("Tatiana", [("Tati", ())], "Tati"),
        ("Kunle Okafor", [("Olakunle Babatunde", ())], None),  # different surname
        ("Julia", [("Juliana", ())], None),  # a five-letter prefix is a name of its own
        ("Anna", [("Joanna", ())], None),  # too short an ending
        ("Ros", [("Rosalind", ()), ("Rosamund", ())], None),  # two people fit
        ("Mum", [("Mumtaz", ())], None),  # a kin word is nobody's nickname
        ("Mamo", [("Mamoud", ())], None),  # nor is one written without its accent (Irish mamó)
    ],
)
def test_nicknames_match_when_exactly_one_person_fits(seen: str, known: list, canonical: str | None) -> None:
    assert match_registry(seen, known) == canonical
