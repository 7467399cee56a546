"""A chat's group as a group: its name now is read from all of its naming records (not an
old name a retrieved turn holds), the group is known by a name it had, by "the group" when
it is the only one, or by a description its members' own words fit; and a member's "we" in
its chat is the group, so what the group did is counted from what they say."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import memhop
from memhop.cli.app import app
from memhop.core.api import Memory
from memhop.core.engines.offline import grammar

# Tuesdays: 3 and 10 September, 8 October, 12 November, 3 December 2024, 7 January 2025; 14 September is a Saturday.
QUIZ = """9/2/24, 8:00 PM - Juno Pell created group "Trivia Tuesdays"
9/2/24, 8:01 PM - Juno Pell added Cass Orrin, Ravi Temple
9/2/24, 8:05 PM - Ravi Temple: first quiz is tomorrow at the Lamplighter
9/3/24, 10:15 PM - Cass Orrin: WE WON!! 🏆
9/3/24, 10:16 PM - Ravi Temple: brilliant quiz tonight
9/10/24, 10:20 PM - Juno Pell: we won the quiz by two points
9/10/24, 10:22 PM - Ravi Temple: we won!!
9/14/24, 11:00 PM - Cass Orrin: we won the saturday special quiz too
10/1/24, 9:00 AM - Juno Pell changed the group name from "Trivia Tuesdays" to "Brainy Otters 🦦"
10/8/24, 10:30 PM - Ravi Temple: we lost the quiz tonight, third place
10/15/24, 10:30 PM - Juno Pell: we nearly won the quiz
11/5/24, 10:30 PM - Cass Orrin: next week we win for sure
11/12/24, 10:40 PM - Ravi Temple: We won the quiz again
12/3/24, 10:40 PM - Juno Pell: I won the raffle at the quiz
1/7/25, 10:40 PM - Cass Orrin: we won the quiz
"""
FOOTBALL = """3/2/24, 9:00 AM - Oskar Vell created group "Sunday Strikers"
3/2/24, 9:01 AM - Oskar Vell added Tamsin Roe, Ilan Brook
3/3/24, 9:02 AM - Tamsin Roe: football at ten, bring boots
3/3/24, 1:00 PM - Ilan Brook: good football today, we won 3-1
3/17/24, 9:00 AM - Oskar Vell: football is off, pitch flooded
"""
PUZZLES = """5/6/24, 7:00 PM - Wren Hale created group "Question Marks"
5/16/24, 7:01 PM - Wren Hale added Bo Linden, Pim Ash
5/17/24, 9:00 PM - Bo Linden: the quiz was hard tonight
5/17/24, 9:05 PM - Pim Ash: that quiz had a music round from hell
"""


def _memory(tmp_path_factory: pytest.TempPathFactory, chats: dict[str, str]) -> Iterator[Memory]:
    folder = tmp_path_factory.mktemp("chats")
    for name, text in chats.items():
        (folder / f"WhatsApp Chat with {name}.txt").write_text(text, encoding="utf-8")
    with memhop.open(folder / "store.duckdb", engine="offline") as opened:
        opened.ingest(sorted(folder.glob("*.txt")), self_name="Juno Pell")
        yield opened


@pytest.fixture(scope="module")
def quiz(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    yield from _memory(tmp_path_factory, {"Brainy Otters": QUIZ})


@pytest.fixture(scope="module")
def quiz_and_football(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    yield from _memory(tmp_path_factory, {"Brainy Otters": QUIZ, "Sunday Strikers": FOOTBALL})


@pytest.fixture(scope="module")
def two_quizzes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    yield from _memory(tmp_path_factory, {"Brainy Otters": QUIZ, "Question Marks": PUZZLES})


@pytest.mark.parametrize("question", [
    "What is the group called now?",  # the only group chat
    "What is our group chat called?",
    "What is Trivia Tuesdays called now?",  # a former name: the new one, not the old
    "What's the name of my quiz team?",  # "quiz" said by two members, in this group only
    "What is our quiz team called now?",
])
def test_the_group_is_called_by_its_last_name_citing_the_rename(quiz: Memory, question: str) -> None:
    answer = quiz.ask(question)
    assert answer.text == "Brainy Otters"  # no trailing emoji, never "Trivia Tuesdays"
    assert 'changed the group name from "Trivia Tuesdays"' in answer.support.items[0].cited.text


def test_a_description_answers_only_for_the_one_group_it_fits(quiz_and_football: Memory) -> None:
    assert quiz_and_football.ask("What is our quiz team called now?").text == "Brainy Otters"
    assert quiz_and_football.ask("What's the name of our football team?").text == "Sunday Strikers"
    assert quiz_and_football.ask("What is our book club called now?").text == "I don't know"  # nobody talks of books
    assert quiz_and_football.ask("What is the group called now?").text == "I don't know"  # two groups


def test_two_groups_about_quizzes_leave_the_quiz_team_unknown(two_quizzes: Memory) -> None:
    assert two_quizzes.ask("What is Question Marks called now?").text == "Question Marks"
    assert two_quizzes.ask("What is our quiz team called now?").text == "I don't know"


@pytest.mark.parametrize(("question", "count"), [
    # 3 and 10 Sep (two messages, one night), 14 Sep, 12 Nov; not the loss, the "nearly", the plan, "I won the raffle"
    ("How many quiz nights did Brainy Otters win between September and December 2024?", "4"),
    ("How many times did our quiz team win between September and December 2024?", "4"),
    ("How many Tuesday quiz nights did Brainy Otters win between September and December 2024?", "3"),
    ("How many times did Trivia Tuesdays win in 2025?", "1"),
])
def test_a_members_we_is_the_group_in_a_count(quiz: Memory, question: str, count: str) -> None:
    assert quiz.ask(question).text == count


def test_the_cli_counts_the_groups_wins(tmp_path: Path, home: Path, runner: CliRunner) -> None:
    (tmp_path / "WhatsApp Chat with Brainy Otters.txt").write_text(QUIZ, encoding="utf-8")
    db = tmp_path / "quiz.duckdb"
    with memhop.open(db, engine="offline") as memory:
        memory.ingest(tmp_path / "WhatsApp Chat with Brainy Otters.txt", self_name="Juno Pell")
    asked = "How many Tuesday quiz nights did our quiz team win between September and December 2024?"
    result = runner.invoke(app, ["ask", asked, "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "3"


@pytest.mark.parametrize("text", ["WE WON!!", "WE WON TONIGHT!!"])
def test_a_sentence_in_capitals_is_parsed_as_words(text: str) -> None:
    """Tagged as written, "WON" is a name and "WE" part of it: the verb and its subject are lost."""
    doc = grammar.parsed(text)
    verb = next(t for t in doc if t.dep_ == "ROOT")
    assert verb.tag_ == "VBD" and [c.idx for c in verb.children if c.dep_ == "nsubj"] == [0]
