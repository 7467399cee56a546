"""A name as a user types it: which entities it can mean, and what it was probably meant to be."""

from __future__ import annotations

import pytest

from memhop.core.language.name_lookup import lookup, suggest

KNOWN = [
    ("Ada Heath", ()),
    ("Bob Kowalski", ()),
    ("Órlaith Rooney", ()),
    ("Przemek Wilk", ("Przemysław",)),
    ("Gethin Aldous", ()),
    ("Gethin Wenlock", ()),
    ("Leena", ("Mum",)),
    ("Marlow Heath", ()),
    ("Crumb & Co", ()),
]
PEOPLE = {name for name, _ in KNOWN} - {"Marlow Heath", "Crumb & Co"}


@pytest.mark.parametrize(
    ("typed", "entity", "level"),
    [
        ("Bob Kowalski", "Bob Kowalski", 0),
        ("bob kowalski", "Bob Kowalski", 1),
        ("orlaith rooney", "Órlaith Rooney", 1),
        ("mum", "Leena", 2),  # an alias
        ("PRZEMYSLAW", "Przemek Wilk", 2),
        ("orlaith", "Órlaith Rooney", 3),  # a first name
        ("Przemek", "Przemek Wilk", 3),
        ("Kowalski", "Bob Kowalski", 3),  # a surname nobody else has
        ("rooney", "Órlaith Rooney", 3),
        ("Heath", "Ada Heath", 3),  # Marlow Heath is a place: "Heath" is not its surname
        ("Leena Jones", "Leena", 3),  # a fuller name than the one registered
    ],
)
def test_one_entity_found(typed: str, entity: str, level: int) -> None:
    found = lookup(typed, KNOWN, PEOPLE)
    assert found.matches == (entity,) and found.level == level


def test_two_entities_that_fit_equally_are_both_returned() -> None:
    assert lookup("gethin", KNOWN, PEOPLE).matches == ("Gethin Aldous", "Gethin Wenlock")


def test_without_kinds_every_last_word_counts_as_a_surname() -> None:
    assert lookup("Heath", KNOWN).matches == ("Ada Heath", "Marlow Heath")


def test_the_most_exact_level_decides_but_every_fit_is_reported() -> None:
    known = [("Gethin", ()), ("Gethin Wenlock", ())]
    found = lookup("gethin", known)
    assert found.matches == ("Gethin",) and found.fits == ("Gethin", "Gethin Wenlock")


@pytest.mark.parametrize("typed", ["Nobody", "Kowal", "Co", "the", ""])
def test_nothing_found(typed: str) -> None:
    assert lookup(typed, KNOWN, PEOPLE).matches == ()


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [
        ("Orlaiht", ["Órlaith Rooney"]),
        ("Kowalsky", ["Bob Kowalski"]),
        ("bob kowalsky", ["Bob Kowalski"]),
        ("Przemyslw", ["Przemek Wilk"]),  # close to an alias
        ("Getin", ["Gethin Aldous", "Gethin Wenlock"]),
        ("Zed", []),  # nothing close
        ("Nobody Here", []),
    ],
)
def test_suggestions_are_the_closest_names(typed: str, suggested: list[str]) -> None:
    assert suggest(typed, KNOWN) == suggested


def test_at_most_three_suggestions() -> None:
    known = [(f"Alex {surname}", ()) for surname in ("Abbot", "Baker", "Carter", "Dunn")]
    assert len(suggest("Alx", known)) == 3
