"""Count questions: "how many times" counts the days the event happened, "how many lengths"
counts lengths; a clock time, an age, a price, a house number, a year or a plan is never
the count, and no count at all is refused rather than guessed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk
from memhop.core.engines.offline import counts

DIARY = """# Tamsin's diary

# 2024-03-02

Swam at the lido with Oren this morning, forty lengths before breakfast.

# 2024-03-03

Oren keeps 4 ferrets and 6 Lego sets in his flat. Oren has 2 sisters in Hull.

# 2024-03-09

Oren and I swam at the lido again at 8, and he's 31 now so he moaned about his knees.

# 2024-03-16

Oren says we'll swim at the lido next Saturday if the weather holds.

# 2024-04-06

Had coffee with Oren at the Copper Pot, 14 Alder Row; £3 for a flat white.

# 2024-04-20

Had coffee with Oren at the Copper Pot again, in the window seat at half 4.

# 2024-05-04

Oren bought a new bike for £400.
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "tamsin-diary.md", DIARY, "Tamsin Hale") as memory:
        yield memory


def test_how_many_times_counts_days_not_the_clock_time_or_age_in_the_sentence(mem: Memory, home: Path) -> None:
    # "at 8" and "he's 31" stand in the best sentence; the plan for next Saturday did not happen yet
    assert mem.ask("How many times did I swim at the lido with Oren?").text == "2"


def test_a_house_number_or_a_price_is_not_a_count_of_visits(mem: Memory, home: Path) -> None:
    assert mem.ask("How many times did I have coffee with Oren?").text == "2"


def test_a_price_keeps_its_currency_sign(mem: Memory, home: Path) -> None:
    assert mem.ask("How much did Oren's bike cost?").text == "£400"


def test_a_number_word_counts_what_the_question_counts(mem: Memory, home: Path) -> None:
    assert mem.ask("How many lengths did I swim?").text == "40 lengths"


@pytest.mark.parametrize(
    ("text", "noun", "count"),
    [
        ("we leave from yours at 8, and walk the dog after lunch", "times", None),  # a clock time
        ("we met at 7pm and again at 9.30", None, None),
        ("Juno is 6 and still chases ducks", None, None),  # an age
        ("Juno (she's 6) came too", None, None),
        ("Tomas's 3 kids came too", "kids", "3 kids"),  # an owner's count, not an age
        ("a flat white was £3 and a bun 2 pounds", None, None),  # prices
        ("a ferry ticket was 40 francs", None, None),  # any currency numbers.py knows
        ("paid CHF 12 for a coffee", None, None),
        ("dinner at 14 Alder Row", None, None),  # a house number
        ("the 18th of May, in 2024", None, None),  # a date's parts, a year
        ("flat 3 was empty", None, None),  # a label
        ("about 40% of the class", None, None),
        ("we swam forty slow lengths", "lengths", "40 lengths"),  # a number word, read as its number
        ("we swam forty lengths", "laps", None),  # only what the question counts
        ("sang on two of his songs", "times", None),
        ("went to the lido twice that week", "times", "2"),
        ("walked the dog; she lay down twice", "times", None),  # twice, but not in the walking's clause
        ("we've been there 3 times now", "times", "3"),
        ("went bouldering once more; at once I knew", "times", None),  # "once more" is again, not one time
        ("she has one hundred cats", "cats", "100 cats"),  # the whole number, not its first word
        ("bought a dozen eggs", "eggs", "12 eggs"),
        ("we have a couple of kids now", "kids", "2 kids"),
    ],
)
def test_what_a_number_counts(text: str, noun: str | None, count: str | None) -> None:
    assert counts.stated(text, noun, 0) == count


def test_a_one_digit_count_is_not_a_repeat_of_the_question(mem: Memory, home: Path) -> None:
    assert mem.ask("How many ferrets does Oren keep?").text == "4 ferrets"


def test_a_count_counts_the_head_noun(mem: Memory, home: Path) -> None:
    assert counts.counted_noun("How many Lego sets does Oren have?") == "sets"
    assert mem.ask("How many Lego sets does Oren have?").text == "6 sets"


def test_a_worked_out_count_is_not_supported_first_by_a_sentence_sharing_only_the_name(mem: Memory, home: Path) -> None:
    # "Oren has 2 sisters" holds the number by coincidence: it says nothing of coffee
    answer = mem.ask("How many times did I have coffee with Oren?")
    assert answer.text == "2" and "coffee" in answer.support.items[0].quote


GYM_DIARY = """# Ysolde's diary

# 2024-01-06

Went to the gym with Dan after work.

# 2024-01-13

Went to the gym after work, then a Danish pastry on the way home.

# 2024-01-20

Went to the gym with Dan after work.

# 2024-01-27

Went to the gym after work, then a drink on Weston Road.

# 2024-02-03

Went to the gym with Wes after work.
"""


@pytest.fixture(scope="module")
def gym(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "ysolde-diary.md", GYM_DIARY, "Ysolde") as memory:
        yield memory


@pytest.mark.parametrize(("who", "days"), [("Dan", "2"), ("Wes", "1")])
def test_a_word_starting_like_the_name_is_not_the_person(gym: Memory, home: Path, who: str, days: str) -> None:
    # "a Danish pastry" and "Weston Road" are days at the gym, but not with Dan or Wes
    assert gym.ask(f"How many times did I go to the gym with {who}?").text == days


@pytest.mark.parametrize(("question", "amount"), [
    ("How much was a flat white at the Copper Pot?", "£3"),
    ("How much are Oren's Lego sets worth?", None),  # "6 Lego sets" counts things: no price is said
    ("How much did Oren pay for his ferrets?", None),
])
def test_how_much_takes_a_price_or_measure_never_a_count_of_things(mem: Memory, home: Path, question: str,
                                                                   amount: str | None) -> None:
    said = mem.ask(question).text
    assert said == amount if amount else is_idk(said)


AMOUNTS_DIARY = """# Wren's diary

# 2024-07-01

The trip to Bergen cost us nothing, we stayed 5 days.

# 2024-07-02

Ilse paid for the van she has had for 2 years.

# 2024-07-03

Bram paid for 2 pints at the Lamb.

# 2024-07-04

Noor booked a 4 day trip to Tromso.

# 2024-07-05

Tove bought 2 second-hand bikes.

# 2024-07-06

The rent on my flat is 900 EUR a month.

# 2024-07-07

Casimir drank 3 litres of water on the hike.
"""


@pytest.fixture(scope="module")
def amounts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "wren-diary.md", AMOUNTS_DIARY, "Wren Tally") as memory:
        yield memory


@pytest.mark.parametrize(("question", "amount"), [
    ("How much did the trip to Bergen cost?", None),  # 5 days is no price
    ("How much did Ilse pay for the van?", None),  # nor 2 years
    ("How much did Bram pay at the Lamb?", None),  # 2 pints is what he paid for
    ("How much was Noor's trip to Tromso?", None),  # a 4 day trip
    ("How much did Tove pay for the bikes?", None),  # "second-hand" is no "2 second"
    ("How much is the rent on my flat?", "900 EUR"),  # a currency code is money
    ("How much water did Casimir drink on the hike?", "3 litres"),  # a quantity takes a measure
])
def test_a_cost_question_takes_only_money(amounts: Memory, home: Path, question: str, amount: str | None) -> None:
    said = amounts.ask(question).text
    assert said == amount if amount else is_idk(said)


MONEY_DIARY = """# Perpetua's diary

# 2024-08-12

In Tokyo, Odile paid 3000 yen for the museum ticket. Odile paid 40 francs for the ferry to Montreux.

# 2024-08-19

Odile found 12 pennies under the sofa cushions.
"""


@pytest.fixture(scope="module")
def money(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "perpetua-money.md", MONEY_DIARY, "Perpetua Lisle") as memory:
        yield memory


@pytest.mark.parametrize(("question", "amount"), [
    ("How many yen did Odile pay for the museum ticket?", "3000 yen"),  # the currency is what is counted
    ("How many francs did Odile pay for the ferry?", "40 francs"),
    ("How many pennies did Odile find?", "12 pennies"),  # coins found are counted too
])
def test_a_question_counting_a_currency_takes_the_price(money: Memory, home: Path, question: str, amount: str) -> None:
    assert money.ask(question).text == amount


@pytest.mark.parametrize(("text", "noun", "count"), [
    ("paid 3000 yen for the ticket", "yen", "3000 yen"),
    ("the ferry was 40 francs", "francs", "40 francs"),
    ("the ferry was 40 francs", "tickets", None),  # a price still counts no other thing
])
def test_a_price_counts_only_its_currency(text: str, noun: str, count: str | None) -> None:
    assert counts.stated(text, noun, 0) == count


def test_of_two_counts_of_one_noun_the_clause_saying_the_question_s_verb_answers(
    tmp_path_factory: pytest.TempPathFactory, home: Path
) -> None:
    diary = "# 2024-06-01\n\nAbout sixty walkers set off from the green, and only nine walkers reached the summit cairn.\n"
    with written_memory(tmp_path_factory, "ridge-walk.md", diary, "Tamsin Hale") as memory:
        assert memory.ask("How many walkers reached the summit?").text == "9 walkers"
        assert memory.ask("How many walkers set off from the green?").text == "60 walkers"
