"""The questions a new user asked about sample_diaries/ (ingested with `--self "Maya Patel"`,
offline engine), with the answers the files give. Most must be right, and none may be a
confident wrong answer: refusing is allowed, guessing is not."""

from __future__ import annotations

from pathlib import Path

import pytest

import memhop
from memhop.core.bench.metrics import is_idk
from memhop.core.bench.natural import answer_contains
from support.paths import SAMPLES

QUESTIONS = (
    ("What does my best friend's roommate do for a living?", "sound engineer"),
    ("What instrument does Alice's roommate play?", "piano"),
    ("What does Bob's sister do for work?", "vet"),
    ("What is the name of Bob's sister's dog?", "Pepper"),
    ("What breed is the dog owned by my best friend's roommate's sister?", "greyhound"),
    ("Where does Alice work?", "St Mary's"),
    ("What is the name of the band my colleague Dan plays in?", "The Late Replies"),
    ("What does Dan's partner do?", "publishing"),
    ("When was Bob's piano recital?", "14 March 2024"),
    ("What did I give Bob for his recital?", "framed concert poster"),
    ("What did Alice name the plant I brought?", "Gerald"),
    ("What instrument do I play?", "violin"),
    ("Who is recording a demo with Bob at Northlight?", "Late Replies"),  # the band, "The" or not
    ("Where did Bob work before Northlight?", "Crumb & Co"),
)
MIN_RIGHT = 12
MAX_WORDS = 10


@pytest.mark.slow
def test_the_sample_questions_are_answered_or_refused_never_guessed(home: Path, tmp_path: Path) -> None:
    with memhop.open(tmp_path / "samples.duckdb", engine="offline") as mem:
        mem.ingest([SAMPLES], self_name="Maya Patel")
        answers = {question: mem.ask(question).text for question, _ in QUESTIONS}
        # the diary walks to the market once; "we leave from yours at 8" is a time, not a count
        market = mem.ask("How many times did I walk to the market with Alice?").text
    right = [q for q, gold in QUESTIONS if answer_contains(answers[q], gold) and len(answers[q].split()) <= MAX_WORDS]
    wrong = {q: answers[q] for q, gold in QUESTIONS if not answer_contains(answers[q], gold) and not is_idk(answers[q])}
    assert not wrong, f"confident wrong answers: {wrong}"
    assert market == "1"
    assert len(right) >= MIN_RIGHT, {q: answers[q] for q, _ in QUESTIONS if q not in right}
