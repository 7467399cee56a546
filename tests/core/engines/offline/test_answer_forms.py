"""What a cut answer must carry to be one: the subject the question is asked of (a sentence about
someone else, however well its verb matches, answers nothing), a thing rather than "this one",
a time like 58:12 whole, every name when names are asked for, the name of the thing asked
(not of a horse) and an age said in words, read at its place in the sentence."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.written_memory import written_memory

from memhop.core.api import Memory
from memhop.core.bench.metrics import is_idk

DIARY = """# Journal

## 2025-01-04

New year, new planner. Oskar gave me this one for Christmas, it has a heron on the cover.

## 2025-02-01

Wendell broke his ankle skating on Lake Vesi. He is in a boot for a month.

## 2025-03-08

Muffin knocked the good teapot off the dresser. Three pieces.

## 2025-04-12

Drove up to see my cousin Leopold. His girls are named Ottilie and Brann and they run everywhere now.

## 2025-06-21

Oskar and I ran the Harbour 10K. My time was 58:12, his was 51:40, and he will not stop bringing it up.

## 2025-07-05

Races with Oskar. I put $20 on a horse called Velvet Thunder and it came ninth.

## 2025-08-09

My cousin Leopold came for lunch with his son Caspar, who is eleven now and mad about trains.

## 2025-08-16

Beat Oskar at darts again. That's 3 in a row. Caspar played a Chopin nocturne at his recital.

## 2025-09-07

First Father's Day since Grandad died. Mum pretended to be fine.

## 2025-09-20

Big news: Leopold starts at Fenwick Dental on Monday, days only. The party starts at 8.

## 2025-10-04

Dinner at Oskar's. His dog Bolo stole a whole baguette off the counter.

## 2025-10-11

Took Bolo to the vet for Oskar. 4.1 kg, which the vet called perfect.

## 2025-10-18

Oskar plays bass in a new band called Tin Lanterns now.

## 2025-11-29

Wendell plays badminton every Tuesday at the leisure centre.

## 2025-12-06

Took the train down to Port Ellery for the conference. Three days of rain. Ate far too much at a noodle bar called Little Ember.

## 2025-12-13

Wendell found a shop called Thimbleweed that only sells buttons.

## 2025-12-20

Helped Leopold move into his new flat in Tallow Bay, a loft above a bakery in Saltmarsh.

## 2026-01-03

Oskar's new puppy came home today. He is calling her Biscuit for now.

## 2026-02-14

Update on the puppy: Biscuit is now Nutmeg. Oskar says she looked like a Nutmeg all along.

## 2026-02-21

Wendell got a new bike!!

## 2026-03-07

Money is tight for Wendell, so he is taking a shot at running a food stall.

## 2026-03-14

Leopold took a photo of the harbour at dawn.
"""


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with written_memory(tmp_path_factory, "journal.md", DIARY, "Ines Varga") as memory:
        yield memory


def test_a_sentence_about_someone_else_does_not_answer_for_an_unknown_name(mem: Memory, home: Path) -> None:
    # Muffin is no entity (only ever the first word of a line): "Wendell broke his ankle" is not hers
    assert is_idk(mem.ask("What did Muffin break?").text)
    assert "ankle" in mem.ask("What did Wendell break?").text


def test_this_one_is_no_thing(mem: Memory, home: Path) -> None:
    assert is_idk(mem.ask("What did Oskar give me for Christmas?").text)


def test_a_time_of_minutes_and_seconds_is_read_whole(mem: Memory, home: Path) -> None:
    # the time is said in the sentence after the one naming the race: the turn sets it there
    assert mem.ask("What was my time in the Harbour 10K?").text == "58:12"


def test_names_asked_for_are_all_given(mem: Memory, home: Path) -> None:
    assert mem.ask("What are the names of my cousin's girls?").text == "Ottilie and Brann"


def test_a_name_answers_only_for_the_thing_it_names(mem: Memory, home: Path) -> None:
    # "a horse called Velvet Thunder" names a horse, not the quiz team
    assert is_idk(mem.ask("What is my team called?").text)
    assert mem.ask("What was the horse called?").text == "Velvet Thunder"


def test_an_age_in_words_is_read_where_it_is_said(mem: Memory, home: Path) -> None:
    assert mem.ask("How old is Caspar?").text == "11"


def test_a_repeated_my_opening_a_sentence_stays_a_sentence_start(mem: Memory, home: Path) -> None:
    # "Oskar and I ran the Harbour 10K. My time was 58:12": the fact's second sentence opens "Their"
    facts = [r.text for r in mem.show("Oskar").residuals]
    assert any("10K. Their time was 58:12" in f for f in facts), facts


def test_a_things_count_is_no_ones_age(mem: Memory, home: Path) -> None:
    assert is_idk(mem.ask("How old is Oskar?").text)  # "That's 3 in a row"


def test_a_piece_of_music_is_no_instrument(mem: Memory, home: Path) -> None:
    assert is_idk(mem.ask("Which instrument does Caspar play?").text)  # "played a Chopin nocturne"


def test_a_holiday_is_no_ones_name(mem: Memory, home: Path) -> None:
    assert is_idk(mem.ask("What was my grandad's first name?").text)  # "First Father's Day since Grandad died"


def test_starting_at_a_named_place_is_working_there(mem: Memory, home: Path) -> None:
    assert mem.ask("Where does Leopold work?").text == "Fenwick Dental"


def test_dog_is_no_breed(mem: Memory, home: Path) -> None:
    assert is_idk(mem.ask("What breed is Bolo?").text)  # "His dog Bolo" says what Bolo is, not the breed


def test_a_weight_written_without_a_verb_answers_what_something_weighs(mem: Memory, home: Path) -> None:
    assert mem.ask("How much does Bolo weigh?").text == "4.1 kg"  # "4.1 kg, which the vet called perfect"


def test_an_owners_band_is_named_whatever_the_sentence_calls_it(mem: Memory, home: Path) -> None:
    # the question's "Oskar's band" puts no word before "band" for the sentence's "new band" to differ from
    assert mem.ask("What's the name of Oskar's band?").text == "Tin Lanterns"


def test_a_game_is_no_instrument(mem: Memory, home: Path) -> None:
    assert is_idk(mem.ask("What instrument does Wendell play?").text)  # "plays badminton every Tuesday"


def test_what_someone_did_is_no_description_of_them(mem: Memory, home: Path) -> None:
    assert is_idk(mem.ask("What did Oskar do before?").text)  # no verb to match: not "the first thing said of him"


def test_a_place_the_question_sets_its_answer_in_is_not_whom_it_asks_about(mem: Memory, home: Path) -> None:
    # "in Port Ellery" says where; "I ate" says whom: the noodle bar is the writer's, in a
    # turn that names the town a sentence before
    assert mem.ask("What is the name of the noodle bar I ate at in Port Ellery?").text == "Little Ember"


def test_the_name_asked_for_is_of_the_head_noun(mem: Memory, home: Path) -> None:
    # "the noodle bar": a bar, with "noodle" the kind; "a wine bar called ..." would be another bar
    assert mem.ask("What is the name of the noodle bar?").text == "Little Ember"
    assert is_idk(mem.ask("What is the name of the wine bar?").text)
    # "a shop called Thimbleweed" names the button shop: "button" is the kind, "shop" the thing
    assert mem.ask("What is the name of the button shop Wendell found?").text == "Thimbleweed"


def test_a_place_the_question_names_is_the_frame_not_the_answer(mem: Memory, home: Path) -> None:
    # "which part of Tallow Bay": the town is asked within, the district answers
    assert mem.ask("Which part of Tallow Bay does Leopold live in?").text == "Saltmarsh"


def test_a_renamed_thing_is_called_by_its_new_name(mem: Memory, home: Path) -> None:
    answer = mem.ask("What is Biscuit called now?")
    assert answer.text == "Nutmeg"
    assert "Biscuit is now Nutmeg" in answer.support.items[0].quote  # cited where it was read


def test_a_plain_modifier_on_the_questions_own_noun_is_no_kind(mem: Memory, home: Path) -> None:
    # "got a new bike" says that Wendell got one, not which kind
    assert is_idk(mem.ask("What kind of bike did Wendell get?").text)


def test_one_act_of_a_light_verb_is_no_thing_taken(mem: Memory, home: Path) -> None:
    # "taking a shot at running a food stall" takes no "shot": the clause says what he does;
    # "took a photo" does take a photo
    assert "food stall" in mem.ask("What temporary job did Wendell take?").text
    assert "photo" in mem.ask("What did Leopold take at dawn?").text
