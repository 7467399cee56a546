"""he/she resolved as a reader would: agreeing in gender, never to a place or an
organisation, and a subject pronoun continuing the previous sentence's subject."""

from __future__ import annotations

from datetime import datetime

from memhop.core.engines.offline.engine import OfflineEngine
from memhop.core.model import KnownEntity, SessionView, TurnView

DAY = datetime(2024, 5, 3)
KNOWN = [KnownEntity(1, "Ana Lima", "self"), KnownEntity(2, "Inês", "person"), KnownEntity(3, "Beth", "person")]


def facts_of(name: str, text: str) -> str:
    """The entity's profile and facts after one diary day; a blank line starts a new turn."""
    engine = OfflineEngine()
    turns = tuple(TurnView(i, "Ana Lima", part, DAY) for i, part in enumerate(text.split("\n\n"), 1))
    session = SessionView(1, DAY, "Ana Lima", turns)
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


def test_a_pronoun_that_speaks_is_not_the_pet_and_follows_its_own_sentences_subject() -> None:
    """A cat "on her lap" may take "she", but a "she" who started a job and "says" things is
    a person: here the subject of the pronoun's own sentence, named just before it."""
    text = ("Granny Mair turned eighty on Sunday. Her cat, Pebble, dozed through the whole party on her "
            "lap.\n\nShe's sleeping well now.\n\n"
            "Olu sent a selfie from the surgery: she started on Wednesday and says the nurses are kind.")
    assert "started on Wednesday" in facts_of("Olu", text)
    assert "started on Wednesday" not in facts_of("Pebble", text)
    assert "started on Wednesday" not in facts_of("Granny Mair", text)


def test_a_reflexive_pronoun_gives_its_subject_a_gender_for_the_next_sentence() -> None:
    """"Dai Morgan took himself off to the shop": Dai Morgan (the subject, though named in two words) is a
    "he", so the next sentence's "He" is Dai Morgan."""
    text = ("Gran's bin was still out on Thursday. Dai Morgan from the flat below dragged it in and took himself "
            "off to the shop for milk. He left a pint on her step.")
    assert "left" in facts_of("Dai Morgan", text)


def test_a_pronoun_after_someone_named_in_its_own_sentence_is_not_the_previous_subject() -> None:
    """"Called Mum; she still lives in Lisbon": Mum (a kin word as a name is as female as one
    as an alias), named in the pronoun's own sentence, not the parrot that was the subject of
    the sentence before."""
    known = [*KNOWN, KnownEntity(4, "Pippin", "pet"), KnownEntity(5, "Mum", "person")]
    text = "Pippin would not let go of the rope knot, her favourite toy. Called Mum; she still lives in Lisbon."
    engine = OfflineEngine()
    session = SessionView(1, DAY, "Ana Lima", (TurnView(1, "Ana Lima", text, DAY),))
    pippin = next(e for e in engine.identify(session, known) if e.name == "Pippin")
    extraction = engine.coextract(pippin, None, [], session)
    assert "Lisbon" not in " ".join([extraction.profile, *(r.text for r in extraction.residuals)])
