"""A name as a user types it: which entities it can mean, and what it was probably meant to be."""

from __future__ import annotations

import pytest

from memhop.core.language.name_lookup import lookup, suggest

KNOWN = [
    ("Jun Park", ()),
    ("Bob Kowalski", ()),
    ("Siobhán Keane", ()),
    ("Bartek Nowicki", ("Bartłomiej",)),
    ("Rhys Evans", ()),
    ("Rhys Mallory", ()),
    ("Leena", ("Mum",)),
    ("Hyde Park", ()),
    ("Crumb & Co", ()),
]
PEOPLE = {name for name, _ in KNOWN} - {"Hyde Park", "Crumb & Co"}


@pytest.mark.parametrize(
    ("typed", "entity", "level"),
    [
        ("Bob Kowalski", "Bob Kowalski", 0),
        ("bob kowalski", "Bob Kowalski", 1),
        ("siobhan keane", "Siobhán Keane", 1),
        ("mum", "Leena", 2),  # an alias
        ("BARTLOMIEJ", "Bartek Nowicki", 2),
        ("siobhan", "Siobhán Keane", 3),  # a first name
        ("Bartek", "Bartek Nowicki", 3),
        ("Kowalski", "Bob Kowalski", 3),  # a surname nobody else has
        ("keane", "Siobhán Keane", 3),
        ("Park", "Jun Park", 3),  # Hyde Park is a place: "Park" is not its surname
        ("Leena Jones", "Leena", 3),  # a fuller name than the one registered
    ],
)
def test_one_entity_found(typed: str, entity: str, level: int) -> None:
    found = lookup(typed, KNOWN, PEOPLE)
    assert found.matches == (entity,) and found.level == level


def test_two_entities_that_fit_equally_are_both_returned() -> None:
    assert lookup("rhys", KNOWN, PEOPLE).matches == ("Rhys Evans", "Rhys Mallory")


def test_without_kinds_every_last_word_counts_as_a_surname() -> None:
    assert lookup("Park", KNOWN).matches == ("Jun Park", "Hyde Park")


def test_the_most_exact_level_decides_but_every_fit_is_reported() -> None:
    known = [("Rhys", ()), ("Rhys Mallory", ())]
    found = lookup("rhys", known)
    assert found.matches == ("Rhys",) and found.fits == ("Rhys", "Rhys Mallory")


@pytest.mark.parametrize("typed", ["Nobody", "Kowal", "Co", "the", ""])
def test_nothing_found(typed: str) -> None:
    assert lookup(typed, KNOWN, PEOPLE).matches == ()


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [
        ("Siobahn", ["Siobhán Keane"]),
        ("Kowalsky", ["Bob Kowalski"]),
        ("bob kowalsky", ["Bob Kowalski"]),
        ("Bartlomej", ["Bartek Nowicki"]),  # close to an alias
        ("Rys", ["Rhys Evans", "Rhys Mallory"]),
        ("Zed", []),  # nothing close
        ("Nobody Here", []),
    ],
)
def test_suggestions_are_the_closest_names(typed: str, suggested: list[str]) -> None:
    assert suggest(typed, KNOWN) == suggested


def test_at_most_three_suggestions() -> None:
    known = [(f"Alex {surname}", ()) for surname in ("Abbot", "Baker", "Carter", "Dunn")]
    assert len(suggest("Alx", known)) == 3
