"""`search` on a small real store: turns and facts ranked together, each cited with date,
speaker and file, restricted to a person (by any name `show` takes) or a time window."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from memhop.core.embed import get_embedder
from memhop.core.errors import EntityNotFound
from memhop.core.search import SearchResult, search
from memhop.core.store import Store, open_store
from memhop.core.window import Window
from support.read_world import build_world


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with open_store(build_world(tmp_path_factory.mktemp("search")), read_only=True) as opened:
        yield opened


def find(store: Store, query: str, **options: object) -> SearchResult:
    return search(store, get_embedder("minilm"), query, **options)  # type: ignore[arg-type]


def test_turns_and_facts_come_ranked_together_with_their_citation(store: Store) -> None:
    hits = find(store, "greyhound").hits
    assert {h.cited.kind for h in hits} == {"turn", "fact"}
    assert "greyhound" in hits[0].cited.text
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    turn = next(h.cited for h in hits if h.cited.kind == "turn" and "greyhound" in h.cited.text)
    assert (str(turn.day), turn.speaker, turn.source) == ("2024-03-02", "Maya Patel", "diary.md")
    fact = next(h.cited for h in hits if h.cited.kind == "fact")
    assert fact.day is not None and fact.source == "diary.md"  # from its source turn


def test_a_person_by_first_name_keeps_their_turns_and_their_own_facts(store: Store) -> None:
    result = find(store, "music instrument", person="bob")
    assert result.person == "Bob Kowalski" and result.hits
    for hit in result.hits:
        assert "Bob" in hit.cited.text, hit.cited.text
    assert not any("drums" in h.cited.text for h in result.hits)  # Dan's, although it is about music


def test_an_unknown_person_is_an_error_not_an_empty_list(store: Store) -> None:
    with pytest.raises(EntityNotFound, match="Zebedee"):
        find(store, "piano", person="Zebedee")


def test_a_window_keeps_only_what_was_said_inside_it(store: Store) -> None:
    result = find(store, "job work", window=Window(date(2024, 4, 1), date(2024, 4, 30)), limit=20)
    assert result.hits
    assert all(h.cited.day is not None and date(2024, 4, 1) <= h.cited.day <= date(2024, 4, 30) for h in result.hits)
    assert result.to_dict()["since"] == "2024-04-01" and result.to_dict()["until"] == "2024-04-30"


def test_limit_and_json_shape(store: Store) -> None:
    data = find(store, "piano", limit=2).to_dict()
    assert set(data) == {"query", "person", "since", "until", "results"} and len(data["results"]) == 2
    assert set(data["results"][0]) == {"kind", "id", "text", "date", "speaker", "source", "score"}
