"""The refusal rules one by one: a cut opening mid-clause, a lone pronoun or a placeholder
names nothing; a photo caption's stray bracket and the write path's dating note are no part
of an answer; a bare time answers no question that asks no time; a question in the chat
states nothing. A name or a title that looks like one of these still answers."""

from __future__ import annotations

import pytest

from memhop.core.engines.offline import refusals
from memhop.core.engines.offline.rewrite import unquoted
from memhop.core.language.question import parse
from memhop.core.language.sentences import Sentence


@pytest.mark.parametrize(
    ("cut", "question", "answers"),
    [
        ("and getting myself ready", "What was Ilse doing?", False),  # opens mid-clause
        ("is awesome", "What is Ilse's café like?", False),
        ("yours", "Whose bike did Ilse borrow?", False),  # only a pronoun
        ("something", "What did Ilse bake?", False),  # a placeholder
        ("cool stuff", "What did Ilse buy?", False),
        ("something special", "What did Ilse plan?", False),  # a placeholder with its adjective
        ("Will Garnett", "Who did Ilse meet?", True),  # the name Will, not the modal
        ("Stranger Things", "What show does Ilse watch?", True),  # a title, not "things"
        ("a lemon drizzle", "What did Ilse bake?", True),
        ("a few years ago", "What does Ilse's tattoo mean?", False),  # a time for a what-question
        ("a few years ago", "When did Ilse get the tattoo?", True),
    ],
)
def test_a_cut_answers_only_if_it_names_something_of_the_kind_asked(cut: str, question: str, answers: bool) -> None:
    assert refusals.well_formed(cut, parse(question, ["Ilse"])) is answers


def test_a_photo_captions_stray_bracket_is_cut_away() -> None:
    baked = parse("What did Ilse bake?", ["Ilse"])
    assert refusals.uncaptioned("made a lemon drizzle [shares a photo", baked) == "made a lemon drizzle"


def test_the_write_paths_dating_note_is_no_part_of_what_a_fact_says() -> None:
    assert refusals.STORE_DATE_NOTE.sub("", "Ilse adopted a greyhound (before 25 May 2023)") == "Ilse adopted a greyhound"


@pytest.mark.parametrize(
    ("cut", "question", "repeats"),
    [
        ("her favourite drink", "What is Ilse's favourite drink?", True),
        ("4 ferrets", "How many ferrets does Ilse keep?", False),  # a number the question lacks is news
        ("40 ferrets", "How many ferrets does Ilse keep?", False),
    ],
)
def test_only_a_cut_adding_nothing_repeats_the_question(cut: str, question: str, repeats: bool) -> None:
    assert refusals.repeats(cut, parse(question, ["Ilse"])) is repeats


def _said_by(speaker: str | None, text: str) -> Sentence:
    return Sentence(text, "evidence" if speaker else "fact", None, speaker, None, None, None, (), True)


@pytest.mark.parametrize(
    ("cut", "speaker", "unplaced"),
    [
        ("my own stubbornness", "Mira Solberg", True),  # whose stubbornness? Mira's, but the cut says "my"
        ("make you want to dance", "Mira Solberg", True),  # "you": a listener nobody named
        ("our own pots", None, True),  # a fact still in someone's first person
        ("my nephew Sindre", "Tove Lind", False),  # the asker's own "my" is the asker's
        ("the US embassy", "Mira Solberg", False),  # the country, not "us"
        ("a lemon drizzle", "Mira Solberg", False),
        ("It's a proper treasure.", "Mira Solberg", True),  # what is? the clause does not say
        ("They keep Mira going all winter.", "Mira Solberg", True),
        ("that", "Tove Lind", False),  # one word: the other rules' business
    ],
)
def test_a_cut_in_someones_own_person_names_nobody_known(cut: str, speaker: str | None, unplaced: bool) -> None:
    assert refusals.unplaced_person(cut, _said_by(speaker, cut), asker="Tove Lind") is unplaced


def test_the_write_paths_quote_frame_is_no_answer_and_comes_off() -> None:
    asked = parse("Who is Tobin?", ["Tobin"])
    assert not refusals.well_formed("Nia Holt said", asked)
    framed = 'Nia Holt said: "Ines told us Tobin got the job as vice principal." (as of 22 March 2025).'
    assert unquoted(framed) == "Ines told us Tobin got the job as vice principal."
    assert unquoted("Tobin teaches shop.") == "Tobin teaches shop."
