"""Counting occasions over a period: "how many times did we win between August and
October 2024?" counts the wins the diary or chat asserts inside the whole range, one per
dated event (a race told of twice, or recalled the next day, counts once), and never a
"nearly won", a "didn't win", a "did we win?" or an "if you win"."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from support.written_memory import written_memory, written_store
from typer.testing import CliRunner

from memhop.cli.app import app
from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk
from memhop.core.engines.offline import counts
from memhop.core.engines.offline.answer import DONT_KNOW, answer_offline
from memhop.core.model import AnswerRequest, EntitySlice, TurnView

DIARY = """# Sorcha's diary

# 2024-08-17

Ran the Quarry Lane 10k with the Larkfield Harriers. We won the team prize!

# 2024-09-14

The Larkfield Harriers ran the Bellrock relay today and we won it.

# 2024-09-15

Still buzzing that we won the Bellrock relay yesterday.

# 2024-10-05

The Harriers ran the Tarnside cross-country. We nearly won, second by a few seconds.

# 2024-11-09

Ran the Weir Bridge 5k with the Harriers. Did we win? Nobody knows yet.

# 2024-11-10

Results are in: we won the Weir Bridge 5k on Saturday.

# 2024-12-07

The Harriers ran the Gorse Mile. We didn't win, fourth place.

# 2025-01-11

We won the Frostbite relay this morning.
"""

CHAT = """14/09/2024, 10:02 - Sorcha Penhale: we won the Bellrock relay!!
14/09/2024, 10:05 - Ilse Marrow: amazing, well done
14/09/2024, 10:06 - Sorcha Penhale: honestly we won it by a mile
05/10/2024, 12:10 - Ilse Marrow: did you win the Tarnside?
05/10/2024, 12:15 - Sorcha Penhale: we nearly won, so close
10/11/2024, 09:00 - Sorcha Penhale: we won the Weir Bridge 5k yesterday
12/11/2024, 19:30 - Ilse Marrow: if you win the Gorse Mile I'll buy the cake
"""

SORCHA = EntitySlice("Sorcha Penhale", "Sorcha Penhale keeps this diary. She runs with the Larkfield Harriers.", ())


@pytest.fixture(scope="module")
def diary(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "sorcha-diary.md", DIARY, "Sorcha Penhale") as memory:
        yield memory


@pytest.fixture(scope="module")
def chat(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "whatsapp-ilse.txt", CHAT, "Sorcha Penhale") as memory:
        yield memory


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("How many times did we win?", "4"),  # not the "nearly", the "didn't", the "did we?"; 14 Sept once
        ("How many times did we win in 2024?", "3"),
        ("How many times did we win between August and October 2024?", "2"),  # the whole range; 14 Sept once
        ("How many times did we win since October 2024?", "2"),  # 9 November (told on the 10th) and January
        ("How many times did we win from September 2024 to January 2025?", "3"),
    ],
)
def test_a_diary_counts_the_wins_it_asserts_in_the_period(diary: Memory, home: Path, question: str, count: str) -> None:
    assert diary.ask(question).text == count


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("How many times did we win?", "2"),  # two messages on 14 September are one race
        ("How many times did we win in 2024?", "2"),
        ("How many times did we win since October 2024?", "1"),  # "yesterday", said on 10 November
        ("How many times did we win from August to September 2024?", "1"),
    ],
)
def test_a_chat_counts_each_race_once_and_no_hope_or_question(chat: Memory, home: Path, question: str, count: str) -> None:
    assert chat.ask(question).text == count


TOTALS = """# Sorcha's diary

# 2024-12-30

What a season: the Harriers won 3 races in 2024.

# 2025-03-08

We won the Frostbite relay this morning.
"""


@pytest.fixture(scope="module")
def totals(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "sorcha-totals.md", TOTALS, "Sorcha Penhale") as memory:
        yield memory


def test_a_stated_count_answers_only_for_the_period_it_names(totals: Memory, home: Path) -> None:
    assert is_idk(totals.ask("How many races did the Harriers win in 2025?").text)  # 2024's total is not 2025's
    assert totals.ask("How many races did the Harriers win in 2024?").text == "3 races"


def test_a_month_without_a_year_is_refused_not_counted_over_all_time(diary: Memory, home: Path) -> None:
    assert is_idk(diary.ask("How many times did we win in September?").text)


def turn(i: int, text: str, day: str) -> TurnView:
    return TurnView(i, "Sorcha Penhale", text, datetime.fromisoformat(day), f"{day}#{i}")


def test_an_event_with_no_day_of_its_own_makes_the_count_unknown() -> None:
    """"a while back" may be any of the other wins or another: the wins cannot be told apart."""
    said = (turn(1, "We won the Bellrock relay.", "2024-09-14"), turn(2, "We won the Weir Bridge 5k a while back.", "2024-11-20"))
    request = AnswerRequest("How many times did we win?", (SORCHA,), said, ("Sorcha Penhale",))
    assert answer_offline(request) == DONT_KNOW
    request = AnswerRequest("How many times did we win?", (SORCHA,), said[:1], ("Sorcha Penhale",))
    assert answer_offline(request) == "1"


def test_the_trace_shows_the_period_read(diary: Memory, home: Path) -> None:
    trace = diary.ask("How many times did we win between August and October 2024?").context.trace
    assert trace.period == "1 August 2024 – 31 October 2024 (between August and October 2024)"
    assert diary.ask("How many times did we win?").context.trace.period == ""


def test_ask_trace_draws_the_period_read(tmp_path: Path, home: Path, runner: CliRunner) -> None:
    db = written_store(tmp_path, DIARY, "races", "Sorcha Penhale")
    result = runner.invoke(app, ["ask", "How many times did we win from May to September 2024?", "--trace", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "2"
    assert "Period asked about: 1 May 2024 – 30 September 2024" in result.stdout


@pytest.mark.parametrize(
    ("text", "verb", "happened"),
    [
        ("We won the Frostbite relay.", "win", True),
        ("Ran the relay today and we won it.", "win", True),
        ("Still buzzing that we won the relay yesterday.", "win", True),
        ("Went swimming with Pell at the lido.", "swim", True),
        ("We nearly won, second by a few seconds.", "win", False),
        ("We didn't win, fourth place.", "win", False),
        ("I hope we win.", "win", False),
        ("We wanted to win the relay.", "win", False),
        ("If we won, we'd celebrate.", "win", False),
        ("Nobody knows whether we won.", "win", False),
        ("I didn't go swimming.", "swim", False),
        ("Did we win?", "win", False),
    ],
)
def test_only_an_asserted_event_counts(text: str, verb: str, happened: bool) -> None:
    assert (counts.asserted(text, verb, 0) is not None) is happened


# Someone else's wins: "did" the parser may make the root of the question, "win" its object.
OTHERS_WINS = """# Diary

## 3 May 2024

Chess club tonight. Kit Vane won the blitz round.

## 10 May 2024

Kit Vane won again at chess, against Ivo this time.

## 17 May 2024

Kit Vane lost to Ivo at chess.

## 20 May 2024

Kit Vane won the blitz round; Ivo did not.

## 24 May 2024

Kit Vane won the final game of the month.

## 7 June 2024

Kit Vane won at chess once more.
"""


def test_a_win_beside_another_did_is_counted(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The question's verb is "win", not the "did" the parser rooted it on: "Ivo did not"
    denies Ivo's win, not Kit's (3, 10, 20 and 24 May)."""
    with written_memory(tmp_path_factory, "chess.md", OTHERS_WINS, "Juno Pell") as memory:
        assert memory.ask("How many times did Kit Vane win in May 2024?").text == "4"
