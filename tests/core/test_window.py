"""--since / --until: the written forms a user types, the errors, and that a question or a
search inside a window reads only memories from it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from memhop.core.config import ReadSettings
from memhop.core.embed import get_embedder
from memhop.core.errors import InvalidDate
from memhop.core.read import read
from memhop.core.store import Store, open_store
from memhop.core.window import Window, parse_window
from support.read_world import build_world

TODAY = date(2024, 6, 20)


@pytest.mark.parametrize(
    ("since", "until", "window"),
    [
        ("2024-03-15", "2024-03-20", Window(date(2024, 3, 15), date(2024, 3, 20))),
        ("15 March 2024", "March 20, 2024", Window(date(2024, 3, 15), date(2024, 3, 20))),
        ("March 2024", "March 2024", Window(date(2024, 3, 1), date(2024, 3, 31))),
        ("2023", "2023", Window(date(2023, 1, 1), date(2023, 12, 31))),
        ("yesterday", None, Window(date(2024, 6, 19), None)),
        (None, "15/03/2024", Window(None, date(2024, 3, 15))),
        (date(2024, 1, 2), None, Window(date(2024, 1, 2), None)),
    ],
)
def test_written_forms_of_a_day(since: str | None, until: str | None, window: Window) -> None:
    assert parse_window(since, until, TODAY) == window


@pytest.mark.parametrize(("since", "until"), [("banana", None), (None, "next to the bakery"), ("May 2024", "April 2024")])
def test_what_is_not_a_window_is_a_usage_error(since: str | None, until: str | None) -> None:
    with pytest.raises(InvalidDate) as caught:
        parse_window(since, until, TODAY)
    assert caught.value.exit_code == 2 and "\n" not in str(caught.value)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with open_store(build_world(tmp_path_factory.mktemp("window")), read_only=True) as opened:
        yield opened


def test_a_question_inside_a_window_reads_only_its_turns_and_facts(store: Store) -> None:
    embedder, question = get_embedder("minilm"), "What does Bob do for work?"
    everything = read(store, question, embedder, ReadSettings())
    assert any(e.turn.timestamp and e.turn.timestamp.month == 2 for e in everything.evidence)
    april = read(store, question, embedder, ReadSettings(), Window(date(2024, 4, 1), None))
    assert april.evidence and all(e.turn.timestamp and e.turn.timestamp.date() >= date(2024, 4, 1) for e in april.evidence)
    bob = next(s for s in april.selected if s.name == "Bob Kowalski")
    assert bob.facts == ("Bob Kowalski works as a sound engineer at Northlight Studios.",)  # its source is 8 April
    february = read(store, question, embedder, ReadSettings(), Window(None, date(2024, 2, 28)))
    assert "Bob Kowalski plays the piano." in next(s for s in february.selected if s.name == "Bob Kowalski").facts
    assert all(e.turn.timestamp and e.turn.timestamp.month == 2 for e in february.evidence)
