"""Kin and role words that bind names, kin words of other languages, and nicknames."""

from __future__ import annotations

import pytest

from memhop.core.language import relations
from memhop.core.language.kin import KIN_WORDS, kin_meaning


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Mum (Leena) phoned at teatime.", [("Leena", "Mum")]),
        ("Leena (Mum) phoned at teatime.", [("Leena", "Mum")]),
        ("I called my mum, Eluned, last night.", [("Eluned", "Mum")]),
        ("Yesterday my mum Eluned Jones came over.", [("Eluned Jones", "Mum")]),
        ("Leena is my mum.", [("Leena", "Mum")]),
        ("Oma (Greta) sent a card.", [("Greta", "Oma")]),
        ("Visited my babcia, Zofia, in Toruń.", [("Zofia", "Babcia")]),
        # a relation many people can hold: the name is a person's, with no alias
        ("Min-jae, my little brother, dialled in late.", [("Min-jae", "Min-jae")]),
        ("Then my little brother Min-jae sang.", [("Min-jae", "Min-jae")]),
        ("I met Min-jae, my brother.", [("Min-jae", "Min-jae")]),
        ("Órlaith's new boyfriend, Gethin Wenlock, came along.", [("Gethin Wenlock", "Gethin Wenlock")]),
        ("Min-jae's wife Soyeon stood behind him.", [("Soyeon", "Soyeon")]),
        ("On Friday my boss, Hilary Stanton, decided.", [("Hilary Stanton", "Hilary Stanton")]),
        # someone else's mum is not the diarist's "Mum"
        ("Alice's mum, Eluned, came.", [("Eluned", "Eluned")]),
    ],
)
def test_names_bound_by_a_kin_or_role_word(text: str, expected: list[tuple[str, str]]) -> None:
    assert relations.kin_aliases(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Nonna is Mum's mother, and Mum phones her every evening.", [("Mum", "Mum"), ("Nonna", "Nonna")]),
        ("Nonna, Mum's mum, is eighty-seven.", [("Mum", "Mum"), ("Nonna", "Nonna")]),
        ("my grandmother, Nonna, is eighty-seven.", [("Nonna", "Nonna")]),
        ("Halmeoni is Dad's mum.", [("Dad", "Dad"), ("Halmeoni", "Halmeoni")]),
        ("Taid is my grandfather.", [("Taid", "Taid")]),
        # bound to a real name in the same text: "Mum" is that person's alias, not a name
        ("Mum (Leena) says Nonna is Mum's mother.", [("Leena", "Mum"), ("Nonna", "Nonna")]),
    ],
)
def test_kin_words_used_as_names_where_a_relation_defines_them(text: str, expected: list) -> None:
    assert relations.kin_aliases(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Honestly, my mum is the best.",  # a word that starts a sentence is not a name
        "Anyway, my brother, who never calls, called.",
        "my mum, Dad and I went out.",  # Dad is not my mum's name
        "my grandmother, Dad, came",
        "Oma's dog, Fritz, barked.",  # pets are found by their own cues
        "my mum FaceTimed me.",
        "Monday is my mum's birthday.",
        "Called Mum; she still lives in Lisbon.",  # a kin word alone defines nobody
        "my mum says the Nonna is Italian.",
    ],
)
def test_no_binding(text: str) -> None:
    assert relations.kin_aliases(text) == []


BRIEF_KIN = {
    "nain": "f", "taid": "m", "oma": "f", "opa": "m", "nani": "f", "nana": "f", "dadi": "f", "babcia": "f",
    "dziadek": "m", "abuela": "f", "abuelo": "m", "halmeoni": "f", "harabeoji": "m", "nonna": "f", "nonno": "m",
    "mamie": "f", "papi": "m", "yiayia": "f", "obaa-chan": "f", "mum": "f", "dad": "m",
}  # fmt: skip


@pytest.mark.parametrize(("word", "gender"), sorted(BRIEF_KIN.items()))
def test_kin_words_of_many_languages_are_kin_aliases_with_a_gender(word: str, gender: str) -> None:
    assert word in relations.KIN_ALIASES and word in relations.RELATION_WORDS
    assert relations.gender_of(word) == gender
    assert relations.gender_of(word.capitalize()) == gender


def test_a_word_with_different_meanings_keeps_them_and_no_gender() -> None:
    assert KIN_WORDS["baba"].gender is None and kin_meaning("Baba") == "grandmother or father"
    assert kin_meaning("Nonna") == "grandmother" and kin_meaning("Eluned") is None


def test_relation_patterns_know_kin_words_of_other_languages() -> None:
    found = relations.find_relations("⟦1⟧ is ⟦0⟧'s oma, and ⟦2⟧ is ⟦0⟧'s dziadek")
    assert {(r.subject, r.word, r.owner) for r in found} == {(1, "oma", 0), (2, "dziadek", 0)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Robert Kowalski (Bob) is here.", [("Robert Kowalski", "Bob")]),
        ("The class was taught by Tatiana Monteiro, who everyone calls Tati.", [("Tatiana Monteiro", "Tati")]),
        ("Tatiana, who we all call Tati, shouted.", [("Tatiana", "Tati")]),
        ("Przemysław, who goes by Przemek, plays bass.", [("Przemysław", "Przemek")]),
        ("Olakunle, nicknamed Kunle, came.", [("Olakunle", "Kunle")]),
        # a pronoun: the nearest earlier name that looks like the new one
        ("I met Tatiana Monteiro and Dayo today. Everyone calls her Tati.", [("Tatiana Monteiro", "Tati")]),
        ("Przemek shares my desk. Hilary is our boss. His real name is Przemysław.", [("Przemek", "Przemysław")]),
        (
            "Kunle is forty! Her aunt switched to Igbo and said her full name, Olakunle Babatunde, twice.",
            [("Kunle", "Olakunle Babatunde")],
        ),
        ("Hilary came. Her full name is Hilary Stanton, and Dayo agrees.", [("Hilary", "Hilary Stanton")]),
    ],
)
def test_nicknames_and_full_names(text: str, expected: list[tuple[str, str]]) -> None:
    assert relations.nicknames(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "We flew to Busan (Korea).",  # one word before the brackets: not a full name
        "Derby (UK) was grey.",
        "His real name is Przemysław.",  # nobody earlier to give it to
        "Hilary and Dayo came. His real name is Przemysław.",  # nobody who looks like him
        "Her full name is a mouthful.",
    ],
)
def test_no_nickname(text: str) -> None:
    assert relations.nicknames(text) == []


def test_as_someones_role_in_a_first_person_sentence_is_the_speakers_relation() -> None:
    found = relations.find_relations("Two years as ⟦1⟧'s flatmate and ⟦0⟧ always lose the debate", 0)
    assert relations.Relation(0, "flatmate", 1) in found
    assert relations.find_relations("Two years as ⟦1⟧'s flatmate") == []  # nobody says who


def test_a_coach_is_a_relation_the_text_can_bind() -> None:
    assert ("Tati", "Tati") in relations.kin_aliases("Tati, my coach, who rarely swears, swore.")


@pytest.mark.parametrize(
    "marked, owner, expected",
    [
        # a relative clause states the relation of the name it follows
        ("⟦1⟧, who shares a desk with ⟦0⟧ and is ⟦0⟧'s colleague, laughed", 0, relations.Relation(1, "colleague", 0)),
        ("⟦1⟧, who is ⟦2⟧'s cousin, came too", None, relations.Relation(1, "cousin", 2)),
        # a mutual relation nobody owns is the speaker's in a first-person sentence
        ("⟦1⟧, who shares a desk with ⟦0⟧ and is the only colleague who brought cake, took ⟦0⟧ out", 0,
         relations.Relation(1, "colleague", 0)),
        ("⟦1⟧ is a neighbour of ours and ⟦0⟧ like him", 0, None),  # "of" names another owner
        ("⟦1⟧ is a friend from school, ⟦0⟧ think", 0, relations.Relation(1, "friend", 0)),
        # next door is next to the home the sentence is in
        ("⟦2⟧ from next door saw ⟦1⟧'s dog digging", 0, relations.Relation(2, "neighbour", 1)),
        ("⟦2⟧ from next door fixed ⟦0⟧'s fence", 0, relations.Relation(2, "neighbour", 0)),
    ],
)
def test_relations_stated_in_relative_clauses_and_by_place(marked: str, owner: int | None, expected: relations.Relation | None) -> None:
    found = relations.find_relations(marked, owner)
    if expected is None:
        assert [r for r in found if r.word in ("neighbour", "neighbor")] == []
    else:
        assert expected in found


def test_an_unowned_relation_outside_a_first_person_sentence_is_nobodys() -> None:
    assert relations.find_relations("⟦1⟧ is the only colleague who brought cake") == []


@pytest.mark.parametrize(
    "marked, expected",
    [
        ("⟦0⟧'s new manager is a guy called ⟦1⟧, seems alright", [relations.Relation(1, "new manager", 0)]),
        ("⟦0⟧'s husband is a chef named ⟦1⟧", [relations.Relation(1, "husband", 0)]),
        ("⟦0⟧'s sister is a big fan of a band called ⟦1⟧", []),  # the band is no sister
    ],
)
def test_a_relative_described_then_named_is_that_relative(marked: str, expected: list[relations.Relation]) -> None:
    assert relations.find_relations(marked) == expected


def test_a_line_with_no_subject_marries_the_writer() -> None:
    assert relations.find_relations("Fourteen years married to ⟦1⟧ today.", speaker=0) == [
        relations.Relation(1, "spouse", 0)
    ]
    assert relations.find_relations("Engaged to ⟦1⟧!", speaker=0) == [relations.Relation(1, "partner", 0)]
    assert relations.find_relations("Fourteen years married to ⟦1⟧ today.") == []  # nobody's line: nobody's
    assert relations.find_relations("⟦2⟧ was married to ⟦1⟧.", speaker=0) == []  # a line with its own subject


@pytest.mark.parametrize(
    "marked, expected",
    [
        ("⟦0⟧ and ⟦1⟧ got engaged on Friday", [relations.Relation(0, "partner", 1)]),
        ("⟦0⟧ and ⟦1⟧ got married in June at the town hall", [relations.Relation(0, "spouse", 1)]),
        ("⟦0⟧'s married now, to a pilot named ⟦1⟧, and lives by the docks", [relations.Relation(0, "spouse", 1)]),
        ("⟦2⟧ is engaged to ⟦3⟧", [relations.Relation(2, "partner", 3)]),
        ("⟦2⟧ finally married ⟦3⟧", [relations.Relation(2, "spouse", 3)]),
        # not married, or no longer: nobody's partner
        ("⟦0⟧ and ⟦1⟧ are not married", []),
        ("⟦0⟧ was married to ⟦1⟧ for ten years", []),
        ("⟦0⟧ and ⟦1⟧ were engaged in a long argument", []),
        # the partner is the one whose name is not an owner's
        ("⟦0⟧ married ⟦1⟧'s brother last spring", []),
        ("⟦0⟧ is engaged to ⟦1⟧’s cousin", []),
    ],
)
def test_being_married_or_engaged_is_a_partner(marked: str, expected: list[relations.Relation]) -> None:
    assert relations.find_relations(marked) == expected
