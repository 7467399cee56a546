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

CHESS = """9/2/24, 8:00 PM - Juno Pell created group "Board Mondays"
9/2/24, 8:01 PM - Juno Pell added Cass Orrin, Ravi Temple
9/2/24, 8:05 PM - Ravi Temple: first chess night is tomorrow at the Crown
9/3/24, 10:15 PM - Cass Orrin: the chess was brutal tonight
9/10/24, 10:20 PM - Juno Pell: we won the chess match by two boards
10/1/24, 9:00 AM - Juno Pell changed the group name from "Board Mondays" to "Slow Knights 🐢"
10/8/24, 10:30 PM - Ravi Temple: we lost at chess tonight, third place
"""
FOOTBALL = """3/2/24, 9:00 AM - Oskar Vell created group "Sunday Strikers"
3/2/24, 9:01 AM - Oskar Vell added Tamsin Roe, Ilan Brook
3/3/24, 9:02 AM - Tamsin Roe: football at ten, bring boots
3/3/24, 1:00 PM - Ilan Brook: good football today, we won 3-1
3/17/24, 9:00 AM - Oskar Vell: football is off, pitch flooded
"""
PUZZLES = """5/6/24, 7:00 PM - Wren Hale created group "Endgames"
5/16/24, 7:01 PM - Wren Hale added Bo Linden, Pim Ash
5/17/24, 9:00 PM - Bo Linden: the chess was slow tonight
5/24/24, 9:05 PM - Pim Ash: that chess night had a blitz round from hell
"""
POOL = """3/1/24, 7:00 PM - Juno Pell created group "Knights"
3/1/24, 7:01 PM - Juno Pell added Tess Marr, Hal Ives
3/15/24, 10:00 PM - Tess Marr: see you at the pool
4/10/24, 9:00 AM - Juno Pell changed the group name from "Knights" to "Pool Knights"
"""
# Two relatives each say "chess" once, on one evening; the chess club is the diary's.
FAMILY = """6/2/24, 6:00 PM - Mae Pell: are you doing the chess this week?
6/2/24, 6:05 PM - Rob Pell: the chess at the church hall was fun
6/15/24, 12:00 PM - Mae Pell: we won the raffle at the fete!!
6/20/24, 12:00 PM - Juno Pell: lovely
"""
DIARY = """# Diary

## 4 June 2024

Chess night at the Crown. Our chess club won!

## 11 June 2024

Chess club won again at the Crown.
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
def chess(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    yield from _memory(tmp_path_factory, {"Slow Knights": CHESS})


@pytest.fixture(scope="module")
def chess_and_football(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    yield from _memory(tmp_path_factory, {"Slow Knights": CHESS, "Sunday Strikers": FOOTBALL})


@pytest.mark.parametrize("question", [
    "What is the group called now?",  # the only group chat
    "What is our group chat called?",
    "What is Board Mondays called now?",  # a former name: the new one, not the old
    "What is the club that used to be called Board Mondays called now?",  # the former name, described
    "What's the name of my chess club?",  # "chess" said by three members on three days, in this chat only
    "What is our chess club called now?",
])
def test_the_group_is_called_by_its_last_name_citing_the_rename(chess: Memory, question: str) -> None:
    answer = chess.ask(question)
    assert answer.text == "Slow Knights"  # no trailing emoji, never "Board Mondays"
    assert 'changed the group name from "Board Mondays"' in answer.support.items[0].cited.text


def test_the_name_before_is_the_one_the_last_renaming_replaced(chess: Memory) -> None:
    answer = chess.ask("What was the group called before?")
    assert answer.text == "Board Mondays"  # not the raw "created group" record
    assert 'changed the group name from "Board Mondays"' in answer.support.items[0].cited.text


def test_a_lone_group_never_renamed_has_no_name_before_and_is_no_book_club(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    for memory in _memory(tmp_path_factory, {"Sunday Strikers": FOOTBALL}):
        assert memory.ask("What was the group called before?").text == "I don't know"  # not the "created group" record
        assert memory.ask("What is our book club called now?").text == "I don't know"  # the one chat is about football


def test_a_description_answers_only_for_the_one_group_it_fits(chess_and_football: Memory) -> None:
    assert chess_and_football.ask("What is our chess club called now?").text == "Slow Knights"
    assert chess_and_football.ask("What's the name of our football team?").text == "Sunday Strikers"
    assert chess_and_football.ask("What is our book club called now?").text == "I don't know"  # nobody talks of books
    assert chess_and_football.ask("What is the group called now?").text == "I don't know"  # two groups
    # someone else's club is no chat of the writer's, whatever its words
    assert chess_and_football.ask("What is my brother's chess club called now?").text == "I don't know"


def test_a_description_two_chats_fit_is_refused(tmp_path_factory: pytest.TempPathFactory) -> None:
    for memory in _memory(tmp_path_factory, {"Slow Knights": CHESS, "Endgames": PUZZLES}):
        assert memory.ask("What is Endgames called now?").text == "Endgames"
        assert memory.ask("What is our chess club called now?").text == "I don't know"


def test_a_team_the_diary_talks_of_is_not_a_chat_where_it_is_mentioned(tmp_path_factory: pytest.TempPathFactory) -> None:
    for memory in _memory(tmp_path_factory, {"Pell Family": FAMILY}, DIARY):
        assert memory.ask("What is our chess club called now?").text == "I don't know"
        assert memory.ask("What is the name of my chess club?").text == "I don't know"


def test_a_name_inside_a_longer_name_is_not_said(tmp_path_factory: pytest.TempPathFactory) -> None:
    for memory in _memory(tmp_path_factory, {"Slow Knights": CHESS, "Knights": POOL}):
        assert memory.ask("What is Slow Knights called now?").text == "Slow Knights"
        assert memory.ask("What is Knights called now?").text == "Pool Knights"


def test_a_chat_ingested_later_is_seen(tmp_path: Path) -> None:
    """The store's group chats are read once per store generation: a later ingest is seen."""
    football, chess = tmp_path / "WhatsApp Chat with Sunday Strikers.txt", tmp_path / "WhatsApp Chat with Slow Knights.txt"
    football.write_text(FOOTBALL, encoding="utf-8")
    chess.write_text(CHESS, encoding="utf-8")
    with memhop.open(tmp_path / "teams.duckdb", engine="offline") as memory:
        memory.ingest(football, self_name="Juno Pell")
        assert memory.ask("What is the group called now?").text == "Sunday Strikers"
        memory.ingest(chess, self_name="Juno Pell")
        assert memory.ask("What is Board Mondays called now?").text == "Slow Knights"
        assert memory.ask("What is the group called now?").text == "I don't know"  # two groups now


def test_the_cli_answers_the_name_now(tmp_path: Path, home: Path, runner: CliRunner) -> None:
    (tmp_path / "WhatsApp Chat with Slow Knights.txt").write_text(CHESS, encoding="utf-8")
    db = tmp_path / "chess.duckdb"
    with memhop.open(db, engine="offline") as memory:
        memory.ingest(tmp_path / "WhatsApp Chat with Slow Knights.txt", self_name="Juno Pell")
    result = runner.invoke(app, ["ask", "What is our chess club called now?", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "Slow Knights"
