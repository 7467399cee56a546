"""Which entity a name typed by a user means (show, forget, edit, rename, merge, fact add)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memhop.core.errors import AmbiguousName, EntityNotFound
from memhop.core.inspect import resolve_entity
from memhop.core.store import Store, memory, open_store

ENTITIES = [
    ("Ada Heath", "self", ()),
    ("Bob Kowalski", "person", ()),
    ("Órlaith Rooney", "person", ()),
    ("Przemek Wilk", "person", ("Przemysław",)),
    ("Gethin Aldous", "person", ()),
    ("Gethin Wenlock", "person", ()),
    ("Leena", "person", ("Mum",)),
    ("Nonna", "person", ()),
    ("Marlow Heath", "place", ()),
    ("Carol", "person", ("Caz",)),
    ("Caz Smith", "person", ()),
]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(tmp_path / "names.duckdb") as st:
        with st.transaction():
            for name, kind, aliases in ENTITIES:
                memory.add_entity(st, name, kind, aliases)
        yield st


@pytest.mark.parametrize(
    ("typed", "entity"),
    [
        ("Bob Kowalski", "Bob Kowalski"),
        ("bob kowalski", "Bob Kowalski"),
        ("Bob", "Bob Kowalski"),  # a first name
        ("Kowalski", "Bob Kowalski"),  # a surname nobody else has
        ("orlaith", "Órlaith Rooney"),  # accents and case aside
        ("ÓRLAITH ROONEY", "Órlaith Rooney"),
        ("PRZEMEK", "Przemek Wilk"),
        ("przemyslaw", "Przemek Wilk"),  # an alias, without its accent
        ("mum", "Leena"),
        ("Nonna", "Nonna"),
        ("Heath", "Ada Heath"),  # Marlow Heath is a place, not a Mr Heath
        ("Carol", "Carol"),
    ],
)
def test_a_name_finds_its_entity(store: Store, typed: str, entity: str) -> None:
    assert resolve_entity(store, typed).name == entity
    assert resolve_entity(store, typed, strict=True).name == entity  # nobody else fits it at all


def test_a_name_two_entities_fit_lists_both(store: Store) -> None:
    with pytest.raises(AmbiguousName) as caught:
        resolve_entity(store, "gethin")
    assert caught.value.candidates == ("Gethin Aldous", "Gethin Wenlock")
    assert str(caught.value) == "'gethin' could be Gethin Aldous or Gethin Wenlock; give the full name"


def test_an_unknown_name_suggests_the_closest(store: Store) -> None:
    with pytest.raises(EntityNotFound) as caught:
        resolve_entity(store, "Orlaiht")
    assert caught.value.suggestions == ("Órlaith Rooney",)
    assert str(caught.value) == "no entity named 'Orlaiht' (did you mean Órlaith Rooney?)"
    with pytest.raises(EntityNotFound, match=r"did you mean Gethin Aldous or Gethin Wenlock\?"):
        resolve_entity(store, "Getin")


def test_an_unknown_name_far_from_every_name_suggests_nothing(store: Store) -> None:
    with pytest.raises(EntityNotFound) as caught:
        resolve_entity(store, "Zebedee")
    assert caught.value.suggestions == ()
    assert str(caught.value) == "no entity named 'Zebedee' (see `memhop entities`)"


def test_strict_refuses_a_loose_name_that_could_be_someone_else(store: Store) -> None:
    """"Caz" is Carol's alias and Caz Smith's first name: show picks the alias, but forget
    and the edits must not guess."""
    assert resolve_entity(store, "Caz").name == "Carol"
    with pytest.raises(AmbiguousName, match="could be Carol or Caz Smith"):
        resolve_entity(store, "Caz", strict=True)
    assert resolve_entity(store, "Caz Smith", strict=True).name == "Caz Smith"
