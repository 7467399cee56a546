"""The question router: each type read from the grammar, with the reason it gives."""

from __future__ import annotations

import pytest

from memhop.core.route import AGGREGATION, INFERENCE, SINGLE, TEMPORAL, classify


@pytest.mark.parametrize("question", [
    "When did Teodora move to Brackwood?",
    "How long has Brann been learning the oboe?",
    "What year did Teodora start climbing?",
])
def test_questions_asking_for_a_time_are_temporal(question: str) -> None:
    assert classify(question).kind == TEMPORAL


@pytest.mark.parametrize("question", [
    "Would Brann enjoy a night of jazz?",
    "What would Teodora's favourite season likely be?",
    "Is Brann likely to move abroad?",
    "Would Teodora be considered an early riser?",
    "What hobbies might Brann pick up next?",  # a plural object, but a guess first
])
def test_questions_asking_for_a_guess_are_inference(question: str) -> None:
    assert classify(question).kind == INFERENCE


@pytest.mark.parametrize(("question", "because"), [
    ("What board games has Teodora played?", "plural object"),
    ("Which cities has Brann visited?", "plural object"),
    ("What board games has Teodora bought?", "plural object"),  # the head noun, not the first word
    ("Where has Brann camped?", "present perfect"),
    ("What has Teodora baked?", "present perfect"),
    ("How many times has Brann been to the coast?", "counts occurrences"),
    ("What kinds of music does Teodora listen to?", "kinds of things"),
    ("How many cousins does Brann have?", "counts things"),
    ("Did Teodora and Brann both run the race?", "quantifier"),
])
def test_questions_asking_for_several_things_are_aggregation(question: str, because: str) -> None:
    route = classify(question)
    assert route.kind == AGGREGATION and because in route.why


@pytest.mark.parametrize("question", [
    "What did Teodora cook on Friday?",
    "What instrument does Brann's flatmate play?",
    "What makes Brann a good teacher?",  # "makes" is the verb, not a plural object
    "Where does Teodora work?",
    "Who is Brann's sister?",
])
def test_other_questions_are_a_single_fact(question: str) -> None:
    assert classify(question).kind == SINGLE


def test_an_inference_is_ranked_without_the_words_that_mark_a_guess() -> None:
    route = classify("Would Brann likely enjoy a night of jazz?")
    assert route.unframed("Would likely enjoy a night of jazz?") == "enjoy a night of jazz?"
    assert classify("What books has Brann read?").unframed("What books has read?") == "What books has read?"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which sports has Tomas played?", "sports"),
        ("What board games has Ines played with her cousins?", "board games"),
        ("What kinds of knots does Odile tie?", "knots"),
        ("What has Tomas built?", None),  # no category before the auxiliary
        ("Who is Tomas?", None),  # not an aggregation
        ("What makes Ines happy?", None),
    ],
)
def test_an_aggregation_names_its_category_by_the_words_before_the_auxiliary(question: str, expected: str | None) -> None:
    assert classify(question).category == expected
