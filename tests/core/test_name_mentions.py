"""A name is found where it names the entity: an ordinary word ("rose", "mark") is not a mention."""

from __future__ import annotations

import pytest

from memhop.core.name_mentions import NameMatcher, is_common_word


@pytest.mark.parametrize(
    ("forms", "text", "names"),
    [
        (["Rose Tyler", "Rose"], "Prices rose again this month.", False),
        (["Rose Tyler", "Rose"], "Rose again this month, prices did.", False),
        (["Rose Tyler", "Rose"], "Rose told me about it.", True),
        (["Rose Tyler", "Rose"], "I had lunch with Rose today.", True),
        (["Rose Tyler", "Rose"], "spoke to rose tyler about it", True),  # the full name is never a common word
        (["Mark Evans", "Mark"], "Please mark the calendar.", False),
        (["Mark Evans", "Mark"], "Mark the calendar for Friday.", False),
        (["Mark Evans", "Mark"], "Mark called me yesterday.", True),
        (["Will"], "Will you come tonight?", False),
        (["Will"], "I will go, I WILL.", False),
        (["Will"], "Will said hi.", True),
        (["Will"], "I saw Will today.", True),
        (["May"], "We met in May.", False),
        (["May"], "May 5th was sunny.", False),
        (["May"], "May I come in?", False),
        (["May"], "May is my sister.", True),
        (["Bill"], "Bill me later.", False),
        (["Bill"], "Bill is coming over.", True),
        (["Joy"], "What a joy it was.", False),
        (["Joy"], "Joy was there too.", True),
        (["Orlaith"], "Órlaith called twice.", True),
        (["Priya"], "told priya about it", True),  # not an ordinary word: any case, as before
    ],
)
def test_a_form_names_the_entity_only_where_it_is_a_name(forms: list[str], text: str, names: bool) -> None:
    assert NameMatcher(forms).search(text) is names


def test_labels_take_a_capitalised_form_anywhere_and_leave_a_lower_case_word() -> None:
    label = NameMatcher(["Rose Tyler", "Rose"], prose=False)
    assert not label.search("/home/maya/exports/rose.jsonl")
    assert label.search("Rose")
    assert label.sub("[forgotten]", "/exports/Rose-chat.jsonl") == "/exports/[forgotten]-chat.jsonl"


def test_replacement_keeps_the_rest_and_finds_accented_spellings() -> None:
    matcher = NameMatcher(["Orlaith Kelly", "Orlaith"])
    assert matcher.sub("[x]", "Órlaith Kelly and ORLAITH met; prices rose.") == "[x] and [x] met; prices rose."
    assert matcher.seen == {"Órlaith Kelly", "ORLAITH"}


def test_which_forms_are_ordinary_words() -> None:
    assert all(is_common_word(w) for w in ("Rose", "Mark", "Will", "May", "Bill", "Joy", "Monday"))
    assert not any(is_common_word(w) for w in ("Priya", "Órlaith", "Rose Tyler"))
