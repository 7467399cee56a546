"""A question that names the type of its answer ("what pet", "which cuisine", "her favourite
toy") is answered by a thing of that type the grammar finds, or not at all: the words that
happen to follow the matched word are no pet."""

from __future__ import annotations

from datetime import datetime

from memhop.core.engines.offline import forms
from memhop.core.engines.offline.answer import DONT_KNOW, answer_offline
from memhop.core.language.question import parse
from memhop.core.model import AnswerRequest, EntitySlice, TurnView

INES = EntitySlice("Ines", "Ines is Noor's flatmate.", ())
NOOR = EntitySlice("Noor Haddad", "Noor Haddad keeps this diary. Her flatmate is Ines.", ())


def ask(question: str, *said: tuple[str, str]) -> str:
    day = datetime(2024, 5, 23)
    evidence = tuple(TurnView(i, speaker, text, day, f"2024-05-23#{i}") for i, (speaker, text) in enumerate(said))
    return answer_offline(AnswerRequest(question, (NOOR, INES), evidence, ("Ines",), asker="Noor Haddad"))


def test_the_words_after_the_type_noun_are_no_thing_of_that_type() -> None:
    # "Pets" is the subject here: what follows says what pets do, and names no pet of Ines's
    assert ask("What pet does Ines have?", ("Ines", "Pets sure do bring so much joy to us!")) == DONT_KNOW
    assert ask("What are Ines's plans for the summer?", ("Ines", "Let's plan something special!")) == DONT_KNOW


def test_the_type_noun_as_subject_of_be_is_answered_by_what_it_is() -> None:
    said = ("Noor Haddad", "Ines's favourite toy as a kid is a knitted owl.")
    assert ask("What is Ines's favourite toy?", said) == "knitted owl"
    assert ask("What is Ines's favourite toy?", ("Noor Haddad", "Ines's favourite toy is not a doll.")) == DONT_KNOW
    # without a word that picks one out, the complement says what the thing is like, not which it is
    assert ask("What car does Ines drive?", ("Noor Haddad", "Ines's car is a nightmare in the snow.")) == DONT_KNOW


def test_a_preposition_left_before_the_date_asks_for_its_object() -> None:
    said = ("Ines", "I just got accepted for a pottery residency!")
    assert ask("What did Ines get accepted for on 23 May 2024?", said) == "pottery residency"



def test_a_job_tried_is_taken_only_once_the_trying_is_under_way() -> None:
    # "is taking a shot at running a food stall" takes no "shot", but a stall; "gonna take a
    # shot at starting a bakery" is a plan: no job taken yet
    doing = ("Ines", "Money is tight, so I'm taking a shot at running a food stall.")
    assert "food stall" in ask("What temporary job did Ines take?", doing)
    planned = ("Noor Haddad", "Ines lost her job as a banker, so she's gonna take a shot at starting a bakery.")
    assert ask("What temporary job did Ines take?", planned) == DONT_KNOW


def test_how_someone_feels_is_answered_only_by_a_feeling() -> None:
    # "the opening night is tomorrow" says when, not how Ines feels about it
    when = ("Ines", "The official opening night is tomorrow. I'm working hard to get it right.")
    assert ask("How does Ines feel about the opening night?", when) == DONT_KNOW
    felt = ("Ines", "The opening night was amazing.")
    assert "amazing" in ask("How did Ines feel about the opening night?", felt)


def test_the_name_of_what_someone_owns_is_a_name_said_of_it() -> None:
    # "a dog named Pippa" answers "what is Ines's dog's name?" with the name, not "named Pippa";
    # "another cat named Bailey too" names no pets of hers but a cat
    assert ask("What is Ines's dog's name?", ("Noor Haddad", "Ines got a dog named Pippa last week.")) == "Pippa"
    too = ("Ines", "They're good- we got another cat named Bailey too.")
    assert ask("What are Ines's pets' names?", too) == DONT_KNOW


def test_a_name_heading_a_gathering_is_no_place() -> None:
    # "the Pride fest" is an event; "the Glastonbury festival" is at a place the gazetteer knows
    fest = ("Ines", "We had a blast last year at the Pride fest.")
    assert ask("Where did Ines have a blast last year?", fest) == DONT_KNOW
    known = ("Ines", "We had a blast last year at the Glastonbury festival.")
    assert ask("Where did Ines have a blast last year?", known) == "Glastonbury"


def test_what_is_asked_about_a_thing_is_read_only_where_the_thing_is_said() -> None:
    # a book Ines loved is nothing she loves about camping
    loved = ("Noor Haddad", 'Ines loved "Becoming Nicole" by Amy Ellis Nutt.')
    assert ask("What does Ines love most about camping with her family?", loved) == DONT_KNOW
    camping = ("Ines", "Camping is great, I love the campfires.")
    assert ask("What does Ines love most about camping?", camping) == "campfires"


def test_a_word_restating_the_type_is_no_part_of_the_answer() -> None:
    # "which cuisine?": "Georgian", not "Georgian cooking"; a one-word thing stays whole
    said = ("Noor Haddad", "Ines swears by Georgian cooking; it's her favourite cuisine.")
    assert ask("What is Ines's favourite cuisine?", said) == "Georgian"
    said = ("Noor Haddad", "Ines got a cortado at the kiosk; it's her favourite drink.")
    assert ask("What is Ines's favourite drink?", said) == "cortado"


def test_an_activity_is_answered_without_the_questions_frame() -> None:
    # "used to go sea kayaking": the "to" is the question's "used to", "go kayaking" the kayaking
    said = ("Ines", "I used to go sea kayaking with my dad in the summers.")
    assert ask("What activity did Ines used to do with her dad?", said) == "sea kayaking"
    # a question naming no activity keeps the cut as it is: "to go to the lido" is no activity's name
    asked = parse("What did Ines used to do with her dad?", ["Ines"])
    assert forms.activity("to go to the lido", asked) == "to go to the lido"
    assert forms.activity("to go to the lido", parse("What activity did Ines do?", ["Ines"])) == "go to the lido"
