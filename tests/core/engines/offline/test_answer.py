"""The offline answerer on hand-made contexts: it follows the chain the question describes,
answers from the entity where the chain ends, and says "I don't know" rather than guess."""

from __future__ import annotations

from datetime import datetime

import pytest

from memhop.core.model import AnswerRequest, EntitySlice, TurnView
from memhop.core.engines.offline.answer import DONT_KNOW, answer_offline, explain

MAYA = EntitySlice(
    "Maya Patel",
    "Maya Patel keeps this diary. She plays the violin in an orchestra. Her best friend is Alice Nguyen.",
    ("Maya Patel has played the violin since she was nine.",),
)
ALICE = EntitySlice(
    "Alice Nguyen",
    "Alice Nguyen is a nurse at St Mary's. Alice lives with her roommate Bob on Elm Street.",
    ("Alice Nguyen works as a nurse at St Mary's.",),
)
BOB = EntitySlice(
    "Bob",
    "Bob is Alice's roommate and a gifted musician. His older sister is Carol.",
    ("Bob plays the piano.", "Bob works as a sound engineer at Northlight Studios."),
)
CAROL = EntitySlice("Carol", "Carol is Bob's older sister. She works as a vet in Leeds.", ("Carol owns a greyhound called Pepper.",))
DAN = EntitySlice(
    "Dan Okafor", "Dan Okafor is Maya's colleague.", ("Dan Okafor plays the drums in a covers band called The Late Replies.",)
)
WORLD = (ALICE, MAYA, BOB, CAROL, DAN)


def turn(i: int, text: str, day: str, speaker: str = "Maya Patel") -> TurnView:
    return TurnView(i, speaker, text, datetime.fromisoformat(day), f"{day}#{i}")


def answer(question: str, slices=WORLD, evidence=(), chain=()) -> str:
    # the read path starts a question that says "I" at the writer, who is its asker
    return answer_offline(AnswerRequest(question, tuple(slices), tuple(evidence), tuple(chain), asker=next(iter(chain), None)))


def test_follows_the_roommate_to_his_instrument_past_distractors() -> None:
    assert answer("What instrument does Alice's roommate play?", chain=("Alice Nguyen", "Bob")) == "piano"
    steps = explain(AnswerRequest("What instrument does Alice's roommate play?", WORLD, ()))
    assert steps.chain == ("Alice Nguyen", "Bob")


def test_walks_a_three_entity_chain() -> None:
    assert answer("What does Alice's roommate's sister do?") == "vet"
    assert answer("Who is the sister of Alice's roommate?") == "Carol"


def test_first_person_starts_from_the_read_paths_self_anchor() -> None:
    assert answer("What instrument do I play?", chain=("Maya Patel",)) == "violin"
    assert answer("What does my best friend's roommate play?", chain=("Maya Patel",)) == "piano"


def test_who_question_returns_the_end_of_the_chain() -> None:
    assert answer("Who is Alice's roommate?") == "Bob"
    assert answer("Who plays the drums?") == "Dan Okafor"


def test_unrelated_question_gets_i_dont_know() -> None:
    assert answer("What is the capital of Peru?") == DONT_KNOW


def test_a_relative_nobody_mentions_breaks_the_chain() -> None:
    assert answer("What does Alice's brother do?") == DONT_KNOW
    assert answer("What instrument does Carol's husband's boss play?") == DONT_KNOW


def test_nothing_to_read_means_i_dont_know() -> None:
    assert answer("Who is Alice?", slices=()) == DONT_KNOW
    assert answer("What instrument does Alice's roommate play?", slices=()) == DONT_KNOW


def test_a_number_question_without_a_number_is_not_guessed() -> None:
    assert answer("How old is Pepper?") == DONT_KNOW
    dog = (turn(1, "Carol brought her greyhound Pepper, who is six and very gentle.", "2024-03-02"),)
    assert answer("How old is Pepper?", evidence=dog) == "6"  # counts in digits, as a reader compares them


def test_when_resolves_a_relative_date_against_the_entry() -> None:
    news = turn(7, "Bob started his new job at Northlight Studios last Tuesday.", "2024-04-08")
    assert answer("When did Bob start his new job?", evidence=(news,)) == "2 April 2024"


def test_where_prefers_the_newer_statement() -> None:
    old = turn(1, "Bob brought croissants home from Crumb & Co, the bakery where he works.", "2024-02-03")
    new = turn(2, "Bob works at Northlight Studios now, he left the bakery.", "2024-04-08")
    bob = EntitySlice("Bob", "Bob is Alice's roommate.", ())
    assert answer("Where does Bob work?", slices=(bob,), evidence=(old, new)) == "Northlight Studios"


def test_verified_facts_override_the_profile() -> None:
    bob = EntitySlice("Bob", "Bob works at Crumb & Co.", ("Bob works at Northlight Studios.",))
    assert answer("Where does Bob work?", slices=(bob,)) == "Northlight Studios"


def test_evidence_turns_are_read_with_their_speaker() -> None:
    chat = (
        turn(1, "How's the new flat?", "2024-05-01", speaker="Maya Patel"),
        turn(2, "I moved to Glasgow last month and I love it.", "2024-05-01", speaker="Alice Nguyen"),
    )
    assert answer("Where did Alice move to?", slices=(ALICE,), evidence=chat) == "Glasgow"


def test_the_answer_span_follows_the_question_word() -> None:
    assert answer("What band is Dan in?") == "The Late Replies"
    assert answer("Where does Carol work?") == "Leeds"
    assert answer("What is the name of Carol's dog?") == "Pepper"


@pytest.mark.parametrize("question", ["What instrument does Alice's roommate play?", "Where does Bob work?"])
def test_deterministic(question: str) -> None:
    assert answer(question) == answer(question)


def test_a_relative_clause_names_who_the_relative_is_and_their_doings_are_told_apart() -> None:
    # Only Maya is a known entity; Ottilie is named in passing, and someone else plays too.
    diary = (
        turn(1, "Ottilie, who parks beside me every morning and is the colleague who fixes the printer, came to lunch. "
                "Turns out Ottilie plays cello in a quartet called The Slow Ferns.", "2024-04-02"),
        turn(2, "I am playing my uncle's banjo at the quartet's party, Ferdie says.", "2024-05-09", speaker="Ferdie"),
    )
    request = AnswerRequest("In her quartet, what does my colleague play?", (MAYA,), diary, ("Maya Patel",),
                            asker="Maya Patel")
    steps = explain(request)
    assert steps.chain == ("Maya Patel", "Ottilie")
    assert steps.answer == "cello"
    seen = (turn(3, "I saw Ottilie at the fair with the boyfriend, Rufus.", "2024-06-01"),)
    assert explain(AnswerRequest("Who is my boyfriend?", (MAYA,), seen, ("Maya Patel",), asker="Maya Patel")).answer == DONT_KNOW


def test_a_sister_in_law_is_the_partners_sibling_the_text_calls_a_sister() -> None:
    """"Greta's younger sister Marta" makes Greta Marta's sibling; she is Ilse's sister-in-law
    only where the text also calls her a sister (else Greta may be Marta's brother)."""
    ilse = EntitySlice("Ilse Varga", "", ("Ilse Varga's wife, Marta, teaches yoga.",))
    marta = EntitySlice("Marta", "", ("Greta's younger sister Marta moved in with Ilse Varga.",))
    greta = EntitySlice("Greta", "", ("Greta works as a ranger at Hollin Moss.",))
    unknown = explain(AnswerRequest("What does Ilse's sister-in-law do?", (ilse, marta, greta), ()))
    assert unknown.answer == DONT_KNOW
    called = EntitySlice("Greta", "", ("Greta works as a ranger at Hollin Moss.", "Dorka's sister Greta came too."))
    dorka = EntitySlice("Dorka", "", ())
    steps = explain(AnswerRequest("What does Ilse's sister-in-law do?", (ilse, marta, called, dorka), ()))
    assert steps.chain == ("Ilse Varga", "Greta") and steps.answer == "ranger"


def test_a_brother_in_law_can_be_a_sisters_husband() -> None:
    nell = EntitySlice("Nell", "", ("Nell's sister Pia lives in Tarn.",))
    pia = EntitySlice("Pia", "", ("Pia's husband, Odo, repairs clocks.",))
    odo = EntitySlice("Odo", "", ("Odo repairs clocks for a living.",))
    steps = explain(AnswerRequest("Who is Nell's brother-in-law?", (nell, pia, odo), ()))
    assert steps.answer == "Odo"


def test_a_daughter_in_law_is_a_sons_partner_not_a_partners_daughter() -> None:
    wen = EntitySlice("Wen", "", ("Wen's husband, Arlo, is a baker.", "Arlo's daughter Suki visits on Sundays.",
                                  "Wen's son Jory married Pilar last spring.", "Jory's wife, Pilar, is a pilot."))
    steps = explain(AnswerRequest("Who is Wen's daughter-in-law?", (wen,), ()))
    assert steps.answer == "Pilar"
