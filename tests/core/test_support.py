"""What an answer is shown with: the facts and turns it was read from (date, speaker, file),
found whatever the answerer — the answers here come from small fakes as an engine's would
— and, for "I don't know" or an answer no memory states, the closest memories, flagged."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from memhop.core.config import ReadSettings
from memhop.core.embed import get_embedder
from memhop.core.engines.offline.answer import explain, reply_offline
from memhop.core.ingest import ingest
from memhop.core.model import AnswerRequest, Reply, ResidualDraft
from memhop.core.read import Answer, ask
from memhop.core.store import Store, memory, open_store
from memhop.core.support import is_refusal
from support.cite_world import build_diary
from support.read_world import build_world

ROOMMATE = "What instrument does Alice's roommate play?"
RECITAL = "When was Bob's recital?"


@pytest.fixture(scope="module")
def diary(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with open_store(build_diary(tmp_path_factory.mktemp("cite")), read_only=True) as store:
        yield store


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with open_store(build_world(tmp_path_factory.mktemp("world")), read_only=True) as store:
        yield store


def asked(
    store: Store, question: str, answer: str | Callable[[AnswerRequest], str | Reply], **options: object
) -> Answer:
    reply = answer if callable(answer) else (lambda _request: answer)
    return ask(store, question, get_embedder("minilm"), replace(ReadSettings(), **options), reply)


def test_a_date_answer_is_found_where_the_diary_says_last_night(diary: Store) -> None:
    result = asked(diary, RECITAL, "14 March 2024")
    first = result.support.items[0]
    assert result.answered and not first.closest
    assert (first.cited.kind, str(first.cited.day), first.cited.speaker, first.cited.source) == (
        "turn", "2024-03-15", "Maya Patel", "maya-diary.md")
    assert first.quote == "Bob's recital was last night!"
    assert first.span is not None and first.quote[slice(*first.span)] == "last night"
    source = result.context.trace.answer_from
    assert source is not None and (source.id, source.how, source.sentence) == (first.cited.id, "date", first.quote)


def test_the_same_date_written_another_way_is_support_too(diary: Store) -> None:
    items = asked(diary, RECITAL, "on March 14").support.items
    days = {str(i.cited.day) for i in items if not i.closest}
    assert {"2024-03-02", "2024-03-15"} <= days  # "on the 14th" said on 2 March, "last night" on 15 March
    assert "2024-05-12" not in days  # "since the recital" gives no date


def test_a_date_only_the_message_was_sent_on_is_weak_support(diary: Store) -> None:
    result = asked(diary, RECITAL, "12 May 2024")
    first = result.support.items[0]
    assert str(first.cited.day) == "2024-05-12" and first.how == "own date" and first.span is None
    assert result.context.trace.answer_from is not None and result.context.trace.answer_from.how == "own date"


def test_case_punctuation_and_accents_do_not_hide_the_answer(diary: Store) -> None:
    first = asked(diary, "Where did I have coffee with Dan?", "ZOE'S CAFE!").support.items[0]
    assert not first.closest and first.how == "words"
    assert first.quote[slice(*first.span or (0, 0))] == "Zoë’s Café"


def test_half_the_answers_words_in_another_order_still_support_it(diary: Store) -> None:
    first = asked(diary, "What did I give Bob?", "a poster of the concert, framed").support.items[0]
    assert not first.closest and first.how == "some words" and "framed concert poster" in first.quote


def test_facts_are_cited_with_the_date_speaker_and_file_of_their_source_turn(world: Store) -> None:
    result = asked(world, ROOMMATE, reply_offline)
    assert result.text == "piano" and result.answered
    fact = next(i for i in result.support.items if i.cited.kind == "fact")
    assert fact.cited.text == "Bob Kowalski plays the piano." and not fact.closest
    assert (str(fact.cited.day), fact.cited.speaker, fact.cited.source) == ("2024-02-03", "Maya Patel", "diary.md")
    assert all("piano" in i.quote.lower() for i in result.support.items)  # only what contains the answer


def test_a_refusal_comes_with_the_three_closest_memories(diary: Store) -> None:
    result = asked(diary, "What did Alice call the plant?", "I don't know")
    assert not result.answered and len(result.support.items) == 3
    assert all(i.closest for i in result.support.items)
    assert any("Gerald" in i.cited.text for i in result.support.items)
    assert result.context.trace.answer_from is None
    assert result.to_dict()["answered"] is False and result.to_dict()["support"][0]["closest"] is True


def test_an_answer_no_memory_states_is_not_shown_as_proven(diary: Store) -> None:
    result = asked(diary, RECITAL, "purple elephants")
    assert result.answered and len(result.support.items) == 3 and all(i.closest for i in result.support.items)
    assert result.context.trace.answer_from is None


def test_support_json_has_the_documented_keys(world: Store) -> None:
    data = asked(world, ROOMMATE, reply_offline).to_dict()
    assert data["answered"] is True and data["support"]
    for item in data["support"]:
        assert set(item) == {"kind", "id", "text", "date", "speaker", "source", "closest", "quote"}
        assert item["kind"] in ("fact", "turn") and item["date"] == "2024-02-03" and item["source"] == "diary.md"


@pytest.mark.parametrize("said", ["I don't know", "I don’t know.", "Unknown", "", "  "])
def test_every_way_of_refusing_is_a_refusal(said: str) -> None:
    assert is_refusal(said)


def test_an_answer_is_not_a_refusal() -> None:
    assert not is_refusal("piano") and not is_refusal("Knowles Street")


def test_the_same_fact_held_by_two_entities_is_cited_once(tmp_path: Path) -> None:
    db = build_world(tmp_path / "twice")
    embedder, text = get_embedder("minilm"), "Bob Kowalski plays the piano."
    with open_store(db) as store:
        alice = memory.entity_by_name(store, "Alice Nguyen")
        source = memory.residuals_of_many(store, [e.id for e in memory.registry(store)])
        turns = next(r.source_turns for rs in source.values() for r in rs if r.text == text)
        memory.insert_residuals(store, alice.id, [ResidualDraft(text, "identity", turns)], embedder.embed([text]))
        assert sum(text in s.facts for s in asked(store, ROOMMATE, "piano").context.selected) == 2
        items = asked(store, ROOMMATE, "piano").support.items
    assert [i.cited.text for i in items].count(text) == 1


def test_an_answer_read_from_a_profile_is_found_in_the_entitys_other_memories(world: Store) -> None:
    result = asked(world, "What is the name of Carol's dog?", "Pepper", evidence=0)  # no turns given
    assert not any("Pepper" in f for s in result.context.selected for f in s.facts)
    first = result.support.items[0]
    assert not first.closest and first.cited.kind == "turn" and "greyhound Pepper" in first.quote
    assert str(first.cited.day) == "2024-03-02"  # the turn Carol's fact came from


NUMBERS_DIARY = """# Tamsin's diary

# 2024-05-02

Met Oriel for coffee at 9:40 before work. Oriel's birthday party is on Saturday.

# 2024-05-04

Oriel is forty! Oriel's birthday party went on until two. Oriel's nephew took forty-six selfies.

# 2024-05-05

Oriel's niece weighed 4.2 kg as a newborn, Oriel told us at the birthday party.

# 2024-06-10

Pell's concert was last night! What a concert: Pell played the whole concert standing up.

# 2024-07-01

The programme of Pell's concert of 9 June 2024 is framed on my wall now.
"""


def _diary_store(root: Path, text: str, self_name: str, written: bool = False) -> Iterator[Store]:
    """A store of one markdown diary, read-only; `written`: the offline write path has run too."""
    (root / "diary.md").write_text(text, encoding="utf-8")
    with open_store(root / "diary.duckdb") as store:
        ingest(store, [str(root / "diary.md")], get_embedder("minilm"), self_name=self_name)
        if written:
            from memhop.core.engines.offline.engine import OfflineEngine
            from memhop.core.write import write_pending

            write_pending(store, OfflineEngine(), get_embedder("minilm"), 0.9)
    with open_store(root / "diary.duckdb", read_only=True) as store:
        yield store


@pytest.fixture(scope="module")
def numbers_diary(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from _diary_store(tmp_path_factory.mktemp("numbers"), NUMBERS_DIARY, "Tamsin Hale")


def test_a_number_is_found_spelt_out_and_not_inside_a_time(numbers_diary: Store) -> None:
    items = asked(numbers_diary, "How old did Oriel turn at her birthday party?", "40").support.items
    proven = [i for i in items if not i.closest]
    assert proven and proven[0].quote == "Oriel is forty!" and proven[0].how == "words"
    assert not any("9:40" in i.quote or "forty-six" in i.quote for i in proven)


def test_an_amount_is_not_supported_by_its_unit_alone(numbers_diary: Store) -> None:
    items = asked(numbers_diary, "How much did Oriel's niece weigh as a newborn?", "2.9 kg").support.items
    assert all(i.closest for i in items)  # "4.2 kg" is another amount


def test_a_sentence_stating_the_date_comes_before_one_whose_date_is_worked_out(numbers_diary: Store) -> None:
    items = asked(numbers_diary, "When was Pell's concert?", "9 June 2024").support.items
    assert [i.how for i in items[:2]] == ["words", "date"]
    assert "9 June 2024" in items[0].quote and items[1].quote == "Pell's concert was last night!"


def test_a_sentence_stating_the_answer_whole_is_looked_for_beyond_one_holding_some_of_its_words(world: Store) -> None:
    # Of what the answerer saw, "Bob Kowalski works as a sound engineer…" holds half the
    # answer's words; the turn that states it whole is among the memories of Bob's facts.
    result = asked(world, "What does Alice's roommate do?", "new job as a sound engineer", facts_per_entity=1, evidence=0)
    first = result.support.items[0]
    assert not first.closest and first.how == "words" and "new job as a sound engineer" in first.quote
    assert first.cited.kind == "turn" and str(first.cited.day) == "2024-04-08"


BAND_DIARY = """# Noor's diary

# 2024-03-01

Ines's boyfriend is Cal Rees. Kit plays keys in a band called Tin Owls, which he insists is not a jazz band.

# 2024-06-30

Tin Owls at the Crescent last night. Funny thing: the drummer in Tin Owls is Cal Rees.

# 2024-11-05

Ines's dog Rufus weighed in at the vet today: 18.2KG, down from 19.9!
"""


@pytest.fixture(scope="module")
def band_diary(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from _diary_store(tmp_path_factory.mktemp("band"), BAND_DIARY, "Noor Haddad", written=True)


def test_of_two_sentences_stating_the_answer_the_one_about_the_chains_end_comes_first(band_diary: Store) -> None:
    """Both sentences say "Tin Owls"; the answer to "Ines's boyfriend" was read from the one
    naming Cal Rees, so that one is cited first."""
    result = asked(band_diary, "Which band does Ines's boyfriend play in?", "Tin Owls")
    assert result.context.chain[-1] == "Cal Rees"
    assert "Cal Rees" in result.support.items[0].quote


def test_a_unit_written_onto_its_number_supports_the_amount(band_diary: Store) -> None:
    items = asked(band_diary, "How much did Ines's dog weigh at the vet?", "18.2 kg").support.items
    assert items and not items[0].closest and "18.2KG" in items[0].quote


def test_the_engines_own_sentence_comes_first_among_those_stating_the_answer(band_diary: Store) -> None:
    """Both sentences say "Tin Owls"; the engine says which one it read, and that one is
    cited first, whatever the chain's end would suggest."""
    said = "Kit plays keys in a band called Tin Owls, which he insists is not a jazz band."
    result = asked(band_diary, "Which band does Ines's boyfriend play in?", lambda _r: Reply("Tin Owls", said))
    first = result.support.items[0]
    assert (first.quote, first.how, first.read) == (said, "words", True)
    assert first.span is not None and first.quote[slice(*first.span)] == "Tin Owls"
    assert result.text == "Tin Owls" and type(result.text) is str


def test_a_sentence_stating_the_answer_stays_before_a_source_that_works_it_out(numbers_diary: Store) -> None:
    result = asked(numbers_diary, "When was Pell's concert?", lambda _r: Reply("9 June 2024", "Pell's concert was last night!"))
    items = result.support.items
    assert "9 June 2024" in items[0].quote and items[0].how == "words"
    assert (items[1].quote, items[1].how, items[1].read) == ("Pell's concert was last night!", "date", True)
    source = result.context.trace.answer_from  # the trace still says where it was read from
    assert source is not None and (source.sentence, source.how) == ("Pell's concert was last night!", "date")


CLIMBING_DIARY = """# Wren's diary

# 2024-02-03

Dinner at Ilka's flat tonight. Her roommate Joss played the harp for us after we ate.

# 2024-03-09

Went bouldering with Ilka at the Vault. My forearms are gone.

# 2024-04-13

Bouldering again with Ilka at the Vault, and I finally topped the green overhang.

# 2024-06-22

Ilka and I went bouldering at the Vault once more; Ilka flashed the purple slab.
"""


@pytest.fixture(scope="module")
def climbing_diary(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from _diary_store(tmp_path_factory.mktemp("climbing"), CLIMBING_DIARY, "Wren Calloway", written=True)


def test_the_offline_answers_sentence_is_cited_first(climbing_diary: Store) -> None:
    """Three facts and turns say "the Vault"; the one the offline answerer cut it from is first."""
    result = asked(climbing_diary, "Where did I go bouldering with Ilka?", reply_offline)
    read = explain(result.context.request()).sentence
    first = result.support.items[0]
    assert result.text.endswith("Vault") and read is not None
    assert first.quote == read and read in first.cited.text and first.read
    assert result.context.trace.answer_from is not None and result.context.trace.answer_from.sentence == read


def test_a_count_cites_a_sentence_it_counted_not_a_date_holding_its_number(climbing_diary: Store) -> None:
    result = asked(climbing_diary, "How many times did I go bouldering with Ilka?", reply_offline)
    proven = [i for i in result.support.items if not i.closest]
    assert result.text == "3" and proven
    assert "bouldering" in proven[0].quote.lower() and proven[0].how == "source"
    assert not any("3 February" in i.quote for i in proven)  # the day of a date is not the count


LIDO_DIARY = """# Pim's diary

# 2024-02-03

Swam laps at the lido with Odile this morning. The water was cold.

# 2024-03-09

Quen asked if I would sing on two of his new songs.

# 2024-04-13

Odile and I swam at the lido again, and the sun came out.

# 2024-05-06

On 3 March we adopted 3 kittens from the shelter on Hobb Lane.
"""


@pytest.fixture(scope="module")
def lido_diary(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from _diary_store(tmp_path_factory.mktemp("lido"), LIDO_DIARY, "Pim Varga", written=True)


def test_a_count_is_cited_from_what_it_counted_not_a_sentence_holding_its_number_by_chance(lido_diary: Store) -> None:
    """"two of his new songs" says the count word for word but shares no word with the
    question; the sentence the count was read from comes first, as the trace says."""
    result = asked(lido_diary, "How many times did I swim at the lido with Odile?", reply_offline)
    first = result.support.items[0]
    assert result.text == "2" and first.read and "lido" in first.quote
    source = result.context.trace.answer_from
    assert source is not None and source.sentence == first.quote
    assert any("two of his new songs" in i.quote for i in result.support.items[1:])


def test_a_number_is_found_after_a_date_holding_the_same_digits(lido_diary: Store) -> None:
    items = asked(lido_diary, "How many kittens did we adopt from the shelter?", "3").support.items
    assert items and not items[0].closest and items[0].how == "words"
    assert items[0].span is not None and items[0].quote[slice(*items[0].span)] == "3"
    assert "3 kittens" in items[0].quote[items[0].span[0]:]
