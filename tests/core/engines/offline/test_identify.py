"""Who a session names, as the write path's identify step sees it: one entity per person,
whatever order their names come in."""

from __future__ import annotations

from datetime import datetime

from memhop.core.engines.offline.engine import OfflineEngine
from memhop.core.model import KnownEntity, SessionView, TurnView

DAY = datetime(2024, 11, 24)
ME = KnownEntity(1, "Ana Lima", "self")


def found(text: str, known: list[KnownEntity]) -> dict[str, tuple[str, tuple[str, ...]]]:
    session = SessionView(1, DAY, "Ana Lima", (TurnView(1, "Ana Lima", text, DAY),))
    return {e.name: (e.kind, e.aliases) for e in OfflineEngine().identify(session, known)}


def test_a_name_written_family_name_first_and_its_given_name_are_one_person() -> None:
    people = found("My brother's baby, Lima Sora, arrived on Friday. We all love the name Sora. I held Sora for an hour.", [ME])
    assert "Sora" not in people
    assert "Sora" in people["Lima Sora"][1]


def test_the_full_name_joins_the_given_name_met_earlier_even_if_first_taken_for_a_place() -> None:
    people = found("Lima Sora slept soundly all night, my brother says.", [ME, KnownEntity(2, "Sora", "place")])
    assert "Lima Sora" not in people
    assert "Lima Sora" in people["Sora"][1]


def test_a_surname_alone_is_not_taken_for_a_person_of_that_surname() -> None:
    people = found("Tom Evans fixed the boiler. Later we drove to Evans to see the lake.", [ME])
    assert "Evans" not in people.get("Tom Evans", ("", ()))[1]


def test_a_name_before_a_verb_the_tagger_took_for_a_noun_is_still_a_name() -> None:
    people = found("Noodle swallowed a glove. Apparently Oakfield Vets charges £140 for a night-time X-ray.", [ME])
    assert people.get("Oakfield Vets", ("",))[0] == "org"



def test_a_name_given_to_a_he_or_she_is_a_persons() -> None:
    assert found("The baby arrived at dawn. He's called Tiago.", [ME])["Tiago"][0] == "person"
