"""Hops to a partner or a boss as diaries state them: by being married or engaged ("Priya and
Osric got engaged"), with the partner's gender agreeing with the word asked, the latest boss
replacing the earlier one, and what is said of "her husband" said of the husband the chain
found. A hop the text does not support is refused, never guessed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk
from memhop.core.engines.offline.answer import explain
from memhop.core.model import AnswerRequest, EntitySlice

DIARY = """# Diary 2024

## 2024-01-06

Priya rang!! She and Osric got engaged on Friday. Osric is a stonemason which Priya says means the
house will be full of rocks.

## 2024-01-13

My boss Hendrik Vasz is decent but he books meetings at 8am. Hendrik's wife, Carys, teaches
pottery at the night school. Carys is a tutor at Brackwell College, small classes mostly.

## 2024-02-03

Lunch with Orla. She had to leave early because her husband is a paramedic and was on nights.

## 2024-02-10

Met Osric's friend at the pub. He's a florist, his name's Bertil, he's friends with Osric.

## 2024-02-17

Osric fixed our garden wall and he stayed for tea. Osric forgot his gloves.

## 2024-03-02

Ran into Mirela at the market. She's married now, to a pilot named Teodric, and lives by the docks.
Teodric works as a cargo pilot out of the old airfield.

## 2024-04-20

First week at the new job. My boss Ulla Brandt runs standup at nine sharp.

## 2024-05-03

Orla brought her husband, Dario, to the barbecue. Very tall, very quiet.

## 2024-05-11

Ulla brought her husband, Lorcan, to the summer party. Lorcan is a boatwright at the marina.

## 2024-06-01

Bumped into Sabine at the library. She's engaged now, to a carpenter named Fennick.

## 2024-06-08

Coffee with Ilse Marrow. Ilse married Gideon Pell's brother last spring. Gideon Pell is a locksmith.

## 2024-07-20

My landlord Piet came round to fix the boiler.

## 2024-09-14

Piet sold the building. Our new landlord is a guy called Radomir, seems alright.
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "wynn-diary.md", DIARY, "Wynn Abara") as memory:
        yield memory


def test_being_engaged_makes_a_partner(mem: Memory, home: Path) -> None:
    assert mem.ask("What does Priya's husband do for a living?").text == "stonemason"


def test_a_partner_the_text_calls_he_is_no_wife(mem: Memory, home: Path) -> None:
    assert is_idk(mem.ask("What does Priya's wife do?").text)


def test_married_to_a_job_named_person_makes_a_partner(mem: Memory, home: Path) -> None:
    assert mem.ask("What does Mirela's husband do?").text in ("pilot", "cargo pilot")


def test_a_role_before_a_name_is_that_names(mem: Memory, home: Path) -> None:
    # "engaged to a carpenter named Fennick": the carpenter is Fennick, not Sabine
    assert mem.ask("What does Sabine's fiancé do?").text == "carpenter"
    assert is_idk(mem.ask("What does Sabine do for a living?").text)


def test_a_wife_is_not_the_husband_asked_for(mem: Memory, home: Path) -> None:
    # the text names Hendrik's wife only: his husband is nobody known, not Carys
    assert is_idk(mem.ask("What does Hendrik's husband do?").text)
    assert "pottery" in mem.ask("What does Hendrik's wife do?").text


def test_marrying_someones_brother_is_no_marriage_to_them(mem: Memory, home: Path) -> None:
    # "Ilse married Gideon Pell's brother": the brother is unnamed, so her husband is unknown
    assert is_idk(mem.ask("What does Ilse's husband do?").text)


def test_a_role_at_a_place_says_where_someone_works(mem: Memory, home: Path) -> None:
    assert mem.ask("Where does Hendrik's wife work?").text == "Brackwell College"


def test_the_latest_boss_replaces_the_earlier_one(mem: Memory, home: Path) -> None:
    assert mem.ask("What does my boss's husband do?").text == "boatwright"
    assert "pottery" in mem.ask("What does my old boss's wife teach?").text


def test_a_new_landlord_named_after_a_description_replaces_the_old_one(mem: Memory, home: Path) -> None:
    assert mem.ask("Who is my landlord now?").text == "Radomir"


def test_what_is_said_of_her_husband_is_said_of_the_husband(mem: Memory, home: Path) -> None:
    reply = mem.ask("What does Orla's husband do?")
    assert reply.text == "paramedic"
    first = reply.support.items[0]
    assert "her husband is a paramedic" in first.quote and first.read  # cited as written, not as read


def test_his_name_is_says_who_he_is(mem: Memory, home: Path) -> None:
    # "He's a florist, his name's Bertil": Bertil, not Osric named the sentence before
    assert mem.ask("What does Bertil do?").text == "florist"
    assert mem.ask("What does Osric do?").text == "stonemason"


def test_a_rank_is_not_what_someone_is(mem: Memory, home: Path) -> None:
    # "Orla's husband is Dario" says who he is, not his rank
    assert is_idk(mem.ask("What rank is Dario?").text)


@pytest.mark.parametrize("said", ["Ossian plays fiddle in a band called The Quiet Hours.",
                                  "Ossian joined a choir called Tonic Sol."])
def test_a_group_called_something_is_no_role(said: str) -> None:
    # a role is read before a name only after "to", "with" or "by": these name a group Ossian is in
    request = AnswerRequest("What does Ossian do?", (EntitySlice("Ossian", "", (said,), "person"),), ())
    assert is_idk(explain(request).answer)


@pytest.mark.parametrize(("said", "role"), [
    ("Ossian got the job as vice principal at Northfield Middle, starting in the fall.", "vice principal"),
    ("Ossian works as head chef in a hotel in Leeds.", "head chef"),
])
def test_a_job_as_a_role_needs_no_article(said: str, role: str) -> None:
    request = AnswerRequest("What does Ossian do?", (EntitySlice("Ossian", "", (said,), "person"),), ())
    assert explain(request).answer == role
