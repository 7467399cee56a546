"""A group's name and dates are read from its records only when they tell one story."""

from __future__ import annotations

from datetime import datetime

import pytest

from memhop.core.engines.offline.group_records import answer
from memhop.core.model import TurnView


def _turn(number: int, speaker: str, text: str) -> TurnView:
    return TurnView(number, speaker, text, datetime(2024, 4, number, 12, 0))


ONE_GROUP = [
    _turn(1, "Ilse Varn", 'Ilse Varn created group "Dawn Patrol"'),
    _turn(2, "Ilse Varn", 'Ilse Varn changed the group name from "Dawn Patrol" to "Night Owls"'),
    _turn(3, "Rune Okoro", 'Rune Okoro changed the group name from "Night Owls" to "Owls"'),
    _turn(4, "Mai Thet", "Mai Thet left"),
    _turn(5, "Joost Hale", "Joost Hale: Mai Thet left"),  # a member saying it: no record
]


@pytest.mark.parametrize(("question", "expected"), [
    ("What was the group called before?", "Night Owls"),
    ("What was the group first called?", "Dawn Patrol"),
    ("What's our chat called now?", "Owls"),
    ("When did Rune rename the group?", "3 April 2024"),
    ("When did Mai leave the group?", "4 April 2024"),
])
def test_one_history_answers(question: str, expected: str) -> None:
    found = answer(question, ONE_GROUP)
    assert found is not None and found[0] == expected


@pytest.mark.parametrize("question", [
    "What was the group called?",  # at which time is not said
    "When did Joost leave the group?",  # only said, never recorded
    "When did Ilse leave the group?",
])
def test_no_record_no_answer(question: str) -> None:
    assert answer(question, ONE_GROUP) is None


def test_two_groups_records_answer_for_neither() -> None:
    two = [
        _turn(1, "Ilse Varn", 'Ilse Varn created group "Dawn Patrol"'),
        _turn(2, "Rune Okoro", 'Rune Okoro created group "Chess Club"'),
        _turn(3, "Rune Okoro", 'Rune Okoro changed the group name from "Chess Club" to "Chess"'),
    ]
    assert answer("What was the group first called?", two) is None
    assert answer("When was the group created?", two) is None
    assert answer("When was the group renamed?", two) is None
