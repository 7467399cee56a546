"""Names NER does not know, found by the tagger: the people who matter most often have them."""

from __future__ import annotations

from datetime import datetime

import pytest

from memhop.core.engines.offline.engine import OfflineEngine
from memhop.core.engines.offline.nlp import parse
from memhop.core.engines.offline.propn import proper_noun_runs
from memhop.core.model import KnownEntity, SessionView, TurnView


def runs(text: str) -> list[str]:
    return [text[a:b] for a, b in proper_noun_runs(parse([text])[0])]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("My flatmate Tomasz made pierogi again.", "Tomasz"),
        ("Min-jae, my little brother, called from Busan.", "Min-jae"),
        ("Had coffee with Olakunle after work.", "Olakunle"),
        ("We walked Noodle round the park with Órlaith.", "Órlaith"),
        ("The invoice went to Ashdown & Crane on Friday.", "Ashdown & Crane"),
    ],
)
def test_proper_noun_runs_find_unfamiliar_names(text: str, name: str) -> None:
    assert name in runs(text)


def test_english_hyphenated_words_are_not_names() -> None:
    assert not any("-" in r for r in runs("Check-in was slow. Self-care matters, she said."))


def test_a_name_no_ner_knows_becomes_an_entity() -> None:
    turns = (TurnView(1, "Ada Heath", "My flatmate Przemysław burned the toast again.", datetime(2024, 5, 1)),
             TurnView(2, "Ada Heath", "Later Przemysław said sorry.", datetime(2024, 5, 1)))
    session = SessionView(1, datetime(2024, 5, 1), "Ada Heath", turns)
    found = OfflineEngine().identify(session, [KnownEntity(1, "Ada Heath", "self")])
    assert ("Przemysław", "person") in [(e.name, e.kind) for e in found]
