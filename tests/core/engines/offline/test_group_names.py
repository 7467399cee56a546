"""A chat group's name now is read from all of its naming records (not an old name a
retrieved turn holds). The group is known by a whole name it had, by "the group" when it is
the only one, or by a description one chat's members talk of and no other source does;
anything else is refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import memhop
from memhop.cli.app import app
from memhop.core.api import Memory

QUIZ = """9/2/24, 8:00 PM - Juno Pell created group "Trivia Tuesdays"
9/2/24, 8:01 PM - Juno Pell added Cass Orrin, Ravi Temple
9/2/24, 8:05 PM - Ravi Temple: first quiz is tomorrow at the Lamplighter
9/3/24, 10:15 PM - Cass Orrin: the quiz was tough tonight
9/10/24, 10:20 PM - Juno Pell: we won the quiz by two points
10/1/24, 9:00 AM - Juno Pell changed the group name from "Trivia Tuesdays" to "Brainy Otters 🦦"
10/8/24, 10:30 PM - Ravi Temple: we lost the quiz tonight, third place
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
5/24/24, 9:05 PM - Pim Ash: that quiz had a music round from hell
"""
OTTERS = """3/1/24, 7:00 PM - Juno Pell created group "Otters"
3/1/24, 7:01 PM - Juno Pell added Tess Marr, Hal Ives
3/15/24, 10:00 PM - Tess Marr: see you at the pool
4/10/24, 9:00 AM - Juno Pell changed the group name from "Otters" to "Pool Otters"
"""
# Two relatives each say "quiz" once, on one evening; the quiz team is the diary's.
FAMILY = """6/2/24, 6:00 PM - Mae Pell: are you doing the quiz this week?
6/2/24, 6:05 PM - Rob Pell: the quiz at the church hall was fun
6/15/24, 12:00 PM - Mae Pell: we won the raffle at the fete!!
6/20/24, 12:00 PM - Juno Pell: lovely
"""
DIARY = """# Diary

## 4 June 2024

Quiz night at the Lamp. Our quiz team won!

## 11 June 2024

Quiz team won again at the Lamp.
"""


def _memory(tmp_path_factory: pytest.TempPathFactory, chats: dict[str, str], diary: str = "") -> Iterator[Memory]:
    folder = tmp_path_factory.mktemp("chats")
    for name, text in chats.items():
        (folder / f"WhatsApp Chat with {name}.txt").write_text(text, encoding="utf-8")
    if diary:
        (folder / "diary.md").write_text(diary, encoding="utf-8")
    with memhop.open(folder / "store.duckdb", engine="offline") as opened:
        opened.ingest(sorted([*folder.glob("*.txt"), *folder.glob("*.md")]), self_name="Juno Pell")
        yield opened


@pytest.fixture(scope="module")
def quiz(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    yield from _memory(tmp_path_factory, {"Brainy Otters": QUIZ})


@pytest.fixture(scope="module")
def quiz_and_football(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    yield from _memory(tmp_path_factory, {"Brainy Otters": QUIZ, "Sunday Strikers": FOOTBALL})


@pytest.mark.parametrize("question", [
    "What is the group called now?",  # the only group chat
    "What is our group chat called?",
    "What is Trivia Tuesdays called now?",  # a former name: the new one, not the old
    "What's the name of my quiz team?",  # "quiz" said by three members on three days, in this chat only
    "What is our quiz team called now?",
])
def test_the_group_is_called_by_its_last_name_citing_the_rename(quiz: Memory, question: str) -> None:
    answer = quiz.ask(question)
    assert answer.text == "Brainy Otters"  # no trailing emoji, never "Trivia Tuesdays"
    assert 'changed the group name from "Trivia Tuesdays"' in answer.support.items[0].cited.text


def test_the_name_before_is_the_one_the_last_renaming_replaced(quiz: Memory) -> None:
    answer = quiz.ask("What was the group called before?")
    assert answer.text == "Trivia Tuesdays"  # not the raw "created group" record
    assert 'changed the group name from "Trivia Tuesdays"' in answer.support.items[0].cited.text


def test_a_lone_group_never_renamed_has_no_name_before_and_is_no_book_club(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    for memory in _memory(tmp_path_factory, {"Sunday Strikers": FOOTBALL}):
        assert memory.ask("What was the group called before?").text == "I don't know"  # not the "created group" record
        assert memory.ask("What is our book club called now?").text == "I don't know"  # the one chat is about football


def test_a_description_answers_only_for_the_one_group_it_fits(quiz_and_football: Memory) -> None:
    assert quiz_and_football.ask("What is our quiz team called now?").text == "Brainy Otters"
    assert quiz_and_football.ask("What's the name of our football team?").text == "Sunday Strikers"
    assert quiz_and_football.ask("What is our book club called now?").text == "I don't know"  # nobody talks of books
    assert quiz_and_football.ask("What is the group called now?").text == "I don't know"  # two groups
    # someone else's team is no chat of the writer's, whatever its words
    assert quiz_and_football.ask("What is my brother's quiz team called now?").text == "I don't know"


def test_a_description_two_chats_fit_is_refused(tmp_path_factory: pytest.TempPathFactory) -> None:
    for memory in _memory(tmp_path_factory, {"Brainy Otters": QUIZ, "Question Marks": PUZZLES}):
        assert memory.ask("What is Question Marks called now?").text == "Question Marks"
        assert memory.ask("What is our quiz team called now?").text == "I don't know"


def test_a_team_the_diary_talks_of_is_not_a_chat_where_it_is_mentioned(tmp_path_factory: pytest.TempPathFactory) -> None:
    for memory in _memory(tmp_path_factory, {"Pell Family": FAMILY}, DIARY):
        assert memory.ask("What is our quiz team called now?").text == "I don't know"
        assert memory.ask("What is the name of my quiz team?").text == "I don't know"


def test_a_name_inside_a_longer_name_is_not_said(tmp_path_factory: pytest.TempPathFactory) -> None:
    for memory in _memory(tmp_path_factory, {"Brainy Otters": QUIZ, "Otters": OTTERS}):
        assert memory.ask("What is Brainy Otters called now?").text == "Brainy Otters"
        assert memory.ask("What is Otters called now?").text == "Pool Otters"


def test_a_chat_ingested_later_is_seen(tmp_path: Path) -> None:
    """The store's group chats are read once per store generation: a later ingest is seen."""
    football, quiz = tmp_path / "WhatsApp Chat with Sunday Strikers.txt", tmp_path / "WhatsApp Chat with Brainy Otters.txt"
    football.write_text(FOOTBALL, encoding="utf-8")
    quiz.write_text(QUIZ, encoding="utf-8")
    with memhop.open(tmp_path / "teams.duckdb", engine="offline") as memory:
        memory.ingest(football, self_name="Juno Pell")
        assert memory.ask("What is the group called now?").text == "Sunday Strikers"
        memory.ingest(quiz, self_name="Juno Pell")
        assert memory.ask("What is Trivia Tuesdays called now?").text == "Brainy Otters"
        assert memory.ask("What is the group called now?").text == "I don't know"  # two groups now


def test_the_cli_answers_the_name_now(tmp_path: Path, home: Path, runner: CliRunner) -> None:
    (tmp_path / "WhatsApp Chat with Brainy Otters.txt").write_text(QUIZ, encoding="utf-8")
    db = tmp_path / "quiz.duckdb"
    with memhop.open(db, engine="offline") as memory:
        memory.ingest(tmp_path / "WhatsApp Chat with Brainy Otters.txt", self_name="Juno Pell")
    result = runner.invoke(app, ["ask", "What is our quiz team called now?", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "Brainy Otters"
