"""A name said to someone (a vocative) against a name said about them (core/language/address.py)."""

from __future__ import annotations

import pytest

from memhop.core.language.address import only_addressed

FORMS = ("Tova Lindqvist", "Tova", "Tovi")


@pytest.mark.parametrize("text", [
    "Hey Tova, how was the kiln?",
    "Thanks, Tova! That glaze is lovely.",
    "That's wonderful, Tovi. Send me a photo!",
    "Tova, you have to show me the bowls.",
    "Wow. Hi Tova! Long time.",
    "Thank you Tova, truly.",
    "Hey Tova! Thanks, Tovi!",  # every mention an address
    "Good luck with the stall, Tova",
])
def test_a_name_set_off_to_address_the_listener_is_a_vocative(text: str) -> None:
    assert only_addressed(text, FORMS)


@pytest.mark.parametrize("text", [
    "Tova's bowls sold out at the market.",
    "I met Tova at the pottery stall.",
    "Tova and I fired the kiln twice.",
    "Thanks, Tova! I told Tova about the stall.",  # one address, one mention about her
    "We talked about Tova.",  # set off after, but said about her
    "A new glaze for the kiln.",  # not named at all
    "Tovalina sent the bowls.",  # another word that starts like the name
    "Tova, the potter, slept through the firing.",  # an aside after the comma
    "Tova, who lives next door, said hi.",
    "Tova, Sam and I went to the market.",  # a list
    "Sam, Tova, and I went to the market.",
    "Tova; she is great with glazes.",  # a semicolon does not set off an address
])
def test_a_name_said_about_the_person_is_not_a_vocative(text: str) -> None:
    assert not only_addressed(text, FORMS)


def test_no_forms_nothing_is_addressed() -> None:
    assert not only_addressed("Hey Tova!", ())
    assert not only_addressed("Hey Tova!", ("",))


@pytest.mark.parametrize("text", [
    "Thanks, Tova! That glaze is lovely.",  # the first name of a full name
    "Thanks, TOVA! That glaze is lovely.",  # any case
    "Thanks, Tóva! That glaze is lovely.",  # with or without an accent
])
def test_a_listener_is_addressed_by_first_name_in_any_case_or_accent(text: str) -> None:
    assert only_addressed(text, ("Tova Lindqvist",))


def test_a_first_name_that_is_also_a_word_is_the_name_only_with_its_capital() -> None:
    assert not only_addressed("Ok, will!", ("Will Archer",))  # "I will", not said to Will
    assert only_addressed("Sure, will do. Will, you coming?", ("Will Archer",))
    assert not only_addressed("My, what a day.", ("Tova Lindqvist", "my coach"))  # a role's "my" is no name
