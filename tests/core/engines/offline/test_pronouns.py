"""he/she resolved as a reader would: agreeing in gender, never to a place or an
organisation, and a subject pronoun continuing the previous sentence's subject."""

from __future__ import annotations

from datetime import datetime

from memhop.core.engines.offline.engine import OfflineEngine
from memhop.core.model import KnownEntity, SessionView, TurnView

DAY = datetime(2024, 5, 3)
KNOWN = [KnownEntity(1, "Ana Lima", "self"), KnownEntity(2, "Inês", "person"), KnownEntity(3, "Beth", "person")]


def facts_of(name: str, text: str) -> str:
    engine = OfflineEngine()
    session = SessionView(1, DAY, "Ana Lima", (TurnView(1, "Ana Lima", text, DAY),))
    entity = next(e for e in engine.identify(session, KNOWN) if e.name == name)
    extraction = engine.coextract(entity, None, [], session)
    return " ".join([extraction.profile, *(r.text for r in extraction.residuals)])


STORY = "Inês is my sister and Beth is my aunt. Inês rang Beth on Friday. She starts a new job at the bakery on Monday."


def test_a_subject_pronoun_continues_the_previous_subject() -> None:
    assert "bakery" in facts_of("Inês", STORY)
    assert "bakery" not in facts_of("Beth", STORY)


def test_a_possessive_pronoun_is_not_pulled_to_the_previous_subject() -> None:
    """Only a subject pronoun continues the previous subject; "her" before a noun goes to
    the person named last, as before."""
    text = "Inês is my sister and Beth is my aunt. Inês rang Beth on Friday. Her new job at the bakery starts on Monday."
    assert "bakery" in facts_of("Beth", text)
    assert "bakery" not in facts_of("Inês", text)
