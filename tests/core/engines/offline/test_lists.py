"""List questions through a real store: the items of every session are gathered, and a
narrower kind of an item ("baroque cello" beside "cello") is another item, not a repeat."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.engines.offline import lists

DIARY = """# Perpetua's diary

# 2024-02-03

Lunch with Caspar Wendell from the archive. Turns out Caspar plays cello in a string quartet.

# 2024-05-18

Went to hear the quartet in the chapel. Caspar bought the first round afterwards.
Later, over a pint, he admitted he started on baroque cello as a boy in Orlby. He sold his old cello last year.
I started on electric cello myself, and gave up.

# 2024-09-07

Caspar is playing his uncle's harmonium at the harvest supper.
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "perpetua-diary.md", DIARY, "Perpetua Lisle") as memory:
        yield memory


def test_a_narrower_kind_said_without_the_verb_is_another_item(mem: Memory, home: Path) -> None:
    # "started on baroque cello" says no "play", yet names a kind of cello; "his old cello" is one cello, no
    # kind; the writer's own "electric cello" is not Caspar's
    assert mem.ask("Which instruments does Caspar play?").text == "cello, baroque cello and harmonium"


def _diary(*days: str) -> str:
    return "# Perpetua's diary\n\n" + "\n\n".join(days) + "\n"


# (what is said before, the sentence naming a kind, the question, the answer): the kind is hated,
# watched, mentioned, someone else's or the writer's dislike, so it is none of the person's items
NOT_THEIRS = [
    ("Odile plays tennis.", "Odile hates table tennis.", "Which sports does Odile play?", "tennis"),
    ("Odile plays tennis.", "Odile thinks table tennis is boring.", "Which sports does Odile play?", "tennis"),
    ("Odile plays tennis.", "Odile doesn't like table tennis at all.", "Which sports does Odile play?",
     "tennis"),
    ("Odile plays tennis.", "Odile watched table tennis on TV all evening.",
     "Which sports does Odile play?", "tennis"),
    ("Odile plays guitar in a covers band.", "Odile can't stand electric guitar.",
     "Which instruments does Odile play?", "guitar"),
    ("Odile plays trombone in a covers band.", "Odile complained about loud trombone from the flat upstairs.",
     "Which instruments does Odile play?", "trombone"),
    ("Odile plays trombone in a covers band.", "Odile's brother is obsessed with bass trombone.",
     "Which instruments does Odile play?", "trombone"),
    ("Odile plays golf with Bertrand.", "Odile thinks mini golf is for children. Odile laughed at crazy golf.",
     "Which sports does Odile play?", "golf"),
    ("Odile speaks French and Dutch.", "Odile says legal French is impenetrable.",
     "Which languages does Odile speak?", "French and Dutch"),
    ("I play trombone in a pub band.",
     "Fenwick told me bass trombone is a nightmare to carry. Honestly, I can't stand jazz trombone.",
     "Which instruments do I play?", "trombone"),
    ("Odile plays trombone in a covers band.", "Odile never started on bass trombone.",
     "Which instruments does Odile play?", "trombone"),
    ("Odile plays trombone in a covers band.", "Odile switched from bass trombone to trombone at nineteen.",
     "Which instruments does Odile play?", "trombone"),
    ("Odile plays trombone in a covers band.", "Odile might take up bass trombone.", "Which instruments does Odile play?",
     "trombone"),
    ("Odile plays trombone in a covers band.", "Odile wants to learn bass trombone.", "Which instruments does Odile play?",
     "trombone"),
    # the take-up verb's own object takes it up: Tomasz, the writer's daughter
    ("Odile plays trombone in a covers band.", "Odile started Tomasz on bass trombone.",
     "Which instruments does Odile play?", "trombone"),
    ("I play trombone in a pub band.", "I started my daughter on baroque trombone.", "Which instruments do I play?", "trombone"),
    # taken up and given up in the same breath
    ("Odile plays tennis.", "Odile took up table tennis but quit after a week.", "Which sports does Odile play?",
     "tennis"),
    ("Odile plays trombone in a covers band.", "Odile started on bass trombone and gave it up in May.",
     "Which instruments does Odile play?", "trombone"),
]


def test_a_kind_follows_its_item_and_is_never_the_evidence(tmp_path_factory: pytest.TempPathFactory,
                                                           home: Path) -> None:
    # the kind is said first, yet the item leads and the item's sentence is what is cited
    diary = _diary("# 2024-01-03\n\nOdile took up table tennis at the leisure centre.",
                   "# 2024-03-10\n\nOdile plays tennis with Bertrand.")
    with written_memory(tmp_path_factory, "perpetua-first.md", diary, "Perpetua Lisle") as memory:
        reply = memory.ask("Which sports does Odile play?")
        assert reply.text == "tennis and table tennis"
        assert "Bertrand" in reply.support.items[0].cited.text


def test_a_kind_never_pushes_an_item_found_off_the_list() -> None:
    found = ["trombone", "accordion", "tin whistle", "banjo", "harp", "oboe"]
    assert lists.with_kinds(found, ["bass trombone"]) == found  # six items already: no room for a kind
    assert lists.with_kinds(["trombone", "accordion"], ["bass trombone"]) == ["trombone", "bass trombone", "accordion"]


# (what is said before, the sentence naming the thing, the question, the answer): the question's own
# verb said negated, hedged, hating, wanting or stopping, or a quality of one thing, names no item
NOT_DONE = [
    ("Odile plays trombone in a covers band.", "Odile hates playing bass trombone.", "Which instruments does Odile play?",
     "trombone"),
    ("Odile plays trombone in a covers band.", "Odile doesn't play the accordion anymore.",
     "Which instruments does Odile play?", "trombone"),
    ("Odile plays trombone in a covers band.", "Odile never plays the banjo at home.",
     "Which instruments does Odile play?", "trombone"),
    ("Odile plays trombone in a covers band.", "Odile no longer plays the cello.", "Which instruments does Odile play?",
     "trombone"),
    ("Odile plays trombone in a covers band.", "Odile wants to play the harp.", "Which instruments does Odile play?",
     "trombone"),
    ("Odile plays trombone in a covers band.", "Odile stopped playing the oboe.", "Which instruments does Odile play?",
     "trombone"),
    ("Odile plays trombone in a covers band.", "Odile plays a loud trombone at the pub.",
     "Which instruments does Odile play?", "trombone"),
    ("Odile plays trombone in a covers band.", "Odile played an awesome pop song at the party.",
     "Which instruments does Odile play?", "trombone"),  # a song played is no instrument
]


@pytest.mark.parametrize(("before", "said", "question", "answer"), NOT_THEIRS + NOT_DONE)
def test_a_thing_not_taken_up_denied_or_qualified_is_no_item(tmp_path_factory: pytest.TempPathFactory, home: Path,
                                                             before: str, said: str, question: str, answer: str) -> None:
    diary = _diary(f"# 2024-03-10\n\n{before}", f"# 2024-04-14\n\n{said}")
    with written_memory(tmp_path_factory, "perpetua-no-item.md", diary, "Perpetua Lisle") as memory:
        assert memory.ask(question).text == answer


def test_a_verb_said_with_fondness_or_taken_up_still_lists(tmp_path_factory: pytest.TempPathFactory,
                                                           home: Path) -> None:
    # a guard for the stricter reading above, not a regression test: it passed before it too
    diary = _diary("# 2024-03-10\n\nOdile plays trombone in a covers band.",
                   "# 2024-04-14\n\nOdile loves playing the ukulele. Odile started playing the mandolin in May.")
    with written_memory(tmp_path_factory, "perpetua-fond.md", diary, "Perpetua Lisle") as memory:
        assert memory.ask("Which instruments does Odile play?").text == "trombone, ukulele and mandolin"


# (what is said on two days, the question, the answer): the verb read in the question's own tense and
# modality, through a verb that says it happened, and a quality word kept unless it repeats an item
SAID_SO = [
    ("Verity will bring a lentil soup to the fair.", "Verity will also bring a plum tart to the fair.",
     "What dishes will Verity bring to the fair?", "lentil soup and plum tart"),
    ("Verity is going to bring a lentil soup to the fair.", "Verity is going to bring a plum tart as well.",
     "What dishes will Verity bring to the fair?", "lentil soup and plum tart"),
    ("Verity bought a teapot.", "Verity bought a hard drive and a slow cooker.", "What items did Verity buy?",
     "teapot, hard drive and slow cooker"),
    ("Verity bought a teapot.", "Verity bought: a soft toy, a light bulb and a doormat.",
     "What items did Verity buy?", "teapot, soft toy, light bulb and doormat"),
    ("Verity plays viola in a folk band.", "Verity managed to play the bagpipes at the ceilidh.",
     "Which instruments does Verity play?", "viola and bagpipes"),
    ("Verity plays viola in a folk band.", "Verity keeps playing the tuba at night.",
     "Which instruments does Verity play?", "viola and tuba"),
    ("Verity bought a teapot.", "Verity remembered to buy the birdseed.", "What items did Verity buy?",
     "teapot and birdseed"),
    ("Verity plays viola in a folk band.", "Verity used to play the euphonium.",
     "Which instruments has Verity played?", "viola and euphonium"),
    ("Verity plays viola in a folk band.", "Verity used to play the euphonium.",
     "Which instruments does Verity play?", "viola"),  # a past habit, not what she plays now (a guard: passed before)
    ("Verity plays viola in a folk band.", "Verity would love to play the harp.",
     "Which instruments does Verity play?", "viola"),  # a wish (a guard: passed before)
    ("Verity plays viola in a folk band.", "Verity is playing her gran's accordion on one song.",
     "Which instruments does Verity play?", "viola and accordion"),  # a song is no instrument played on (a guard)
]


@pytest.mark.parametrize(("before", "said", "question", "answer"), SAID_SO)
def test_a_thing_said_in_the_questions_own_terms_is_an_item(tmp_path_factory: pytest.TempPathFactory, home: Path,
                                                            before: str, said: str, question: str,
                                                            answer: str) -> None:
    diary = _diary(f"# 2024-03-10\n\n{before}", f"# 2024-04-14\n\n{said}")
    with written_memory(tmp_path_factory, "perpetua-said.md", diary, "Perpetua Lisle") as memory:
        assert memory.ask(question).text == answer
