"""Structured replies against a real HTTP server on 127.0.0.1: the prompt's schema as
`response_format` and the fallback when a server refuses it, repair turns after a bad
reply, max_tokens, and the cleaning of replies beyond the schema."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from memhop.core.config import OpenAISettings, Paths, load_settings
from memhop.core.engines.openai.clean import third_person
from memhop.core.engines.openai.prompts import load_prompt
from memhop.core.engines.openai.server import FILENAME, forget_servers
from memhop.core.errors import ConfigError, EngineError
from memhop.core.model import ExistingResidual, FoundEntity, KnownEntity, SessionView
from memhop.core.store.db import open_store
from memhop.core.store.replies import ReplyCache

from support.fake_openai import FakeOpenAI, Reply, block_lines, good, server_error, truncated
from support.openai_engine import MAY_8, SECRET, diary_day, make_engine

SESSION = diary_day(
    "Yesterday I went to the concert with Bob.",
    "He played the piano for two hours.",
    "My sister Carol called in the evening.",
)
BOB = FoundEntity("Bob", "person", (), (10, 11))
ALICE = FoundEntity("Alice", "self", (), (10, 11, 12))
GOOD_EXTRACTION: dict[str, Any] = {
    "profile": "Bob went to a concert with Alice and played the piano.",
    "residuals": [{"text": "Bob played the piano for two hours.", "category": "number",
                   "source_turns": [11], "date": None, "slot": None}],
    "supersedes": [],
}
IDENTIFIED = {"entities": [{"name": "Bob", "kind": "person", "aliases": []}]}


def formats(server: FakeOpenAI) -> list[str]:
    return [(r.get("response_format") or {}).get("type", "text") for r in server.requests]


# -- response_format: the schema, and the fallback ---------------------------------------


def test_the_prompts_schema_is_sent_strict_with_max_tokens(fake: FakeOpenAI) -> None:
    fake.script(good(IDENTIFIED), good(GOOD_EXTRACTION))
    engine = make_engine(fake)
    engine.identify(SESSION, [])
    engine.coextract(BOB, None, (), SESSION)

    identify, coextract = fake.requests
    sent = identify["response_format"]
    assert sent["type"] == "json_schema" and sent["json_schema"]["name"] == "identify"
    assert sent["json_schema"]["strict"] is True
    item = sent["json_schema"]["schema"]["properties"]["entities"]["items"]
    assert item["additionalProperties"] is False and set(item["required"]) == {"name", "kind", "aliases"}
    residual = coextract["response_format"]["json_schema"]["schema"]["properties"]["residuals"]["items"]
    assert "source_turns" in residual["required"] and "minLength" not in json.dumps(residual)
    assert (identify["max_tokens"], coextract["max_tokens"]) == (400, 700)


def test_max_tokens_is_configurable_per_prompt_or_for_all(fake: FakeOpenAI) -> None:
    fake.script(good(IDENTIFIED), good(GOOD_EXTRACTION), good(IDENTIFIED))
    per_prompt = make_engine(fake, max_tokens={"coextract": 300})
    per_prompt.identify(SESSION, [])
    per_prompt.coextract(BOB, None, (), SESSION)
    make_engine(fake, max_tokens=150).identify(SESSION, [])
    assert [r["max_tokens"] for r in fake.requests] == [400, 300, 150]


def test_a_server_refusing_json_schema_gets_json_object_and_it_is_remembered(tmp_path: Path) -> None:
    with FakeOpenAI(refuse=("json_schema",)) as server:
        server.script(good(IDENTIFIED), good(IDENTIFIED), good(IDENTIFIED), good(IDENTIFIED))
        engine = make_engine(server, cache_dir=tmp_path)
        assert [e.name for e in engine.identify(SESSION, [])] == ["Alice", "Bob"]
        engine.identify(SESSION, [])
        assert formats(server) == ["json_schema", "json_object", "json_object"]
        assert engine.usage.calls == 3

        again = make_engine(server, cache_dir=tmp_path, model=engine._model)
        again.identify(SESSION, [])  # another engine of the process: no new refusal
        forget_servers()  # a new process: the cache dir remembers
        make_engine(server, cache_dir=tmp_path, model=engine._model).identify(SESSION, [])
        assert formats(server)[3:] == ["json_object", "json_object"]
    kept = (tmp_path / FILENAME).read_text()
    assert list(json.loads(kept).values()) == ["json_object"]
    assert SECRET not in kept and "127.0.0.1" not in kept and engine._model not in kept


def test_a_server_answering_json_schema_with_a_500_naming_response_format_gets_json_object(tmp_path: Path) -> None:
    """llama-cpp-python's server answers an unknown response_format type with HTTP 500 (its
    request validation error); that is a refusal of the format, not a server failure."""
    with FakeOpenAI(refuse=("json_schema",), refuse_status=500) as server:
        server.script(good(IDENTIFIED), good(IDENTIFIED))
        engine = make_engine(server, cache_dir=tmp_path)
        assert [e.name for e in engine.identify(SESSION, [])] == ["Alice", "Bob"]
        engine.identify(SESSION, [])
        assert formats(server) == ["json_schema", "json_object", "json_object"]


def test_a_plain_server_error_is_not_taken_for_a_format_refusal(tmp_path: Path) -> None:
    with FakeOpenAI() as server:
        server.script(*[server_error(500, "CUDA out of memory while sampling") for _ in range(4)])
        with pytest.raises(EngineError):
            make_engine(server, cache_dir=tmp_path, max_retries=0).identify(SESSION, [])
        assert formats(server) == ["json_schema"]


def test_a_server_refusing_both_json_modes_gets_plain_text(tmp_path: Path) -> None:
    with FakeOpenAI(refuse=("json_schema", "json_object")) as server:
        server.script(Reply(content="Here you are:\n```json\n" + json.dumps(IDENTIFIED) + "\n```"))
        found = make_engine(server, cache_dir=tmp_path).identify(SESSION, [])
        assert formats(server) == ["json_schema", "json_object", "text"]
        assert "response_format" not in server.requests[-1]
    assert [e.name for e in found] == ["Alice", "Bob"]


def test_a_forced_format_is_used_and_its_refusal_is_one_clear_error(tmp_path: Path) -> None:
    with FakeOpenAI(refuse=("json_schema",)) as server:
        server.script(good(IDENTIFIED))
        make_engine(server, cache_dir=tmp_path, response_format="json_object").identify(SESSION, [])
        with pytest.raises(EngineError, match="json_schema refused.*set openai.response_format to auto"):
            make_engine(server, cache_dir=tmp_path, response_format="json_schema").identify(SESSION, [])
        assert formats(server) == ["json_object", "json_schema"]


def test_a_kept_reply_is_found_under_the_request_actually_sent(tmp_path: Path) -> None:
    """The cache key holds the reply format and max_tokens: the reply kept after a refused
    json_schema is found again; a request with another max_tokens is asked anew."""
    store = open_store(tmp_path / "m.duckdb")
    try:
        replies = ReplyCache(store)
        with FakeOpenAI(refuse=("json_schema",)) as server:
            server.script(good(IDENTIFIED), good(IDENTIFIED))
            model = f"test-{uuid.uuid4().hex[:8]}"
            for max_tokens in (None, None, 99):
                engine = make_engine(server, cache_dir=tmp_path, model=model, max_tokens=max_tokens)
                engine.use_replies(replies)
                engine.identify(SESSION, [])
            assert formats(server) == ["json_schema", "json_object", "json_object"]
            assert [r["max_tokens"] for r in server.requests] == [400, 400, 99]
        replies.close()
    finally:
        store.close()


# -- repair turns -------------------------------------------------------------------------


def test_a_reply_failing_the_schema_is_answered_with_a_repair_turn(fake: FakeOpenAI) -> None:
    copied = {**GOOD_EXTRACTION, "residuals": [{"text": "Bob plays the violin.", "category": "identity"}]}
    fake.script(good(copied), good(GOOD_EXTRACTION))
    out = make_engine(fake).coextract(BOB, None, (), SESSION)

    assert out.profile.startswith("Bob went")
    first, second = fake.requests
    assert len(first["messages"]) == 2
    assert second["messages"][:2] == first["messages"]
    assistant, repair = second["messages"][2:]
    assert assistant == {"role": "assistant", "content": json.dumps(copied)}
    assert repair["role"] == "user" and "reply.residuals[0]: missing field 'source_turns'" in repair["content"]
    assert second["response_format"] == first["response_format"]


def test_a_cut_off_reply_is_answered_with_a_repair_turn(fake: FakeOpenAI) -> None:
    fake.script(truncated(GOOD_EXTRACTION), good(GOOD_EXTRACTION))
    make_engine(fake).coextract(BOB, None, (), SESSION)
    repair = fake.requests[1]["messages"][-1]["content"]
    assert "cut off at max_tokens 700" in repair and "shorter" in repair


def test_repairs_that_never_succeed_end_in_one_engine_error(fake: FakeOpenAI) -> None:
    fake.script(*[good({"residuals": []})] * 3)
    with pytest.raises(EngineError, match="coextract failed after 3 attempts.*missing field 'profile'"):
        make_engine(fake).coextract(BOB, None, (), SESSION)
    assert [len(r["messages"]) for r in fake.requests] == [2, 4, 4]  # one repair turn, not a growing pile


# -- cleaning beyond the schema -------------------------------------------------------------


def test_tags_are_stripped_and_first_person_facts_rewritten(fake: FakeOpenAI) -> None:
    fake.script(good({
        "profile": "<profile>\nAlice lives with her sister Carol.\n</profile>",
        "residuals": [
            {"text": "<residual>I went to the concert with Bob on 2023-05-07.</residual>", "category": "date",
             "source_turns": [10], "date": "2023-05-07", "slot": None},
            {"text": "My sister Carol called in the evening.", "category": "cross_entity",
             "source_turns": [12], "date": None, "slot": None},
            {"text": "I love the piano.", "category": "identity", "source_turns": [11], "date": None, "slot": None},
        ],
        "supersedes": [],
    }))
    out = make_engine(fake).coextract(ALICE, None, (), SESSION)
    assert out.profile == "Alice lives with her sister Carol."
    assert [r.text for r in out.residuals] == [
        "Alice went to the concert with Bob on 2023-05-07.",
        "Alice's sister Carol called in the evening.",
        "Alice loves the piano.",
    ]


def test_first_person_facts_are_dropped_when_the_diarist_has_no_name(fake: FakeOpenAI) -> None:
    fact = {"category": "cross_entity", "source_turns": [10], "date": None, "slot": None}
    fake.script(good({**GOOD_EXTRACTION, "residuals": [
        {**fact, "text": "I went to the concert with Bob."}, {**fact, "text": "Bob went to the concert."}]}))
    nameless = SessionView(1, MAY_8, None, SESSION.turns)
    out = make_engine(fake).coextract(BOB, None, (), nameless)
    assert [r.text for r in out.residuals] == ["Bob went to the concert."]


def test_a_first_person_profile_with_no_name_to_use_is_repaired(fake: FakeOpenAI) -> None:
    first_person = {**GOOD_EXTRACTION, "profile": "I like Bob a lot."}
    fake.script(good(first_person), good(GOOD_EXTRACTION))
    make_engine(fake).coextract(BOB, None, (), SessionView(1, MAY_8, None, SESSION.turns))
    assert "reply.profile: written in the first person" in fake.requests[1]["messages"][-1]["content"]


def test_facts_must_be_grounded_in_their_source_turns(fake: FakeOpenAI) -> None:
    fact = {"category": "cross_entity", "date": None, "slot": None}
    fake.script(good({**GOOD_EXTRACTION, "residuals": [
        {**fact, "text": "Bob Kowalski went to the concert with Alice.", "source_turns": [10]},  # a name never said
        {**fact, "text": "Bob played the piano for 3 hours.", "source_turns": [11]},  # a number never said
        {**fact, "text": "Bob played the piano with Carol.", "source_turns": [11]},  # said, but in turn 12
        {**fact, "text": "Bob played the piano for 2 hours.", "source_turns": [11]},  # "two" says 2
        {**fact, "text": "Bob went to a concert on 7 May 2023.", "source_turns": [10], "date": "2023-05-07"},
        {**fact, "text": "Bob played the piano.", "source_turns": [11, 99]},  # 99: no turn of this session
        {**fact, "text": "Bob went to a concert on 2023-05-07.", "source_turns": [10]},  # "yesterday", resolved
        {**fact, "text": "Bob went to a concert in 2019.", "source_turns": [10]},  # a year no turn is near
    ]}))
    out = make_engine(fake).coextract(BOB, None, (), SESSION)
    assert [(r.text, r.source_turns) for r in out.residuals] == [
        ("Bob played the piano for 2 hours.", (11,)),
        ("Bob went to a concert on 7 May 2023.", (10,)),
        ("Bob played the piano.", (11,)),
        ("Bob went to a concert on 2023-05-07.", (10,)),
    ]


def test_a_family_name_the_turns_never_write_is_not_stored(fake: FakeOpenAI) -> None:
    """A small model copied the prompt's example "Bob Kowalski" for every "Bob"."""
    fake.script(good({"entities": [{"name": "Bob Kowalski", "kind": "person", "aliases": []},
                                   {"name": "<name>Carol</name>", "kind": "person", "aliases": []}]}))
    found = make_engine(fake).identify(SESSION, [])
    assert [e.name for e in found] == ["Alice", "Bob", "Carol"]
    fake.script(good({"entities": [{"name": "Bob Kowalski", "kind": "person", "aliases": []}]}))
    known = [KnownEntity(1, "Alice", "self"), KnownEntity(2, "Bob Smith", "person")]
    assert [e.name for e in make_engine(fake).identify(SESSION, known)] == ["Alice", "Bob Smith"]


# -- configuration ----------------------------------------------------------------------------


def test_the_new_settings_load_and_bad_values_are_refused(tmp_path: Path) -> None:
    paths = Paths(tmp_path, tmp_path, tmp_path / "cache")

    def load(text: str) -> OpenAISettings:
        paths.config_file.write_text(text)
        return load_settings(paths, env={}).openai

    loaded = load("openai:\n  max_tokens: {coextract: 500}\n  context_tokens: 8192\n  response_format: text\n")
    assert (loaded.max_tokens, loaded.context_tokens, loaded.response_format) == ({"coextract": 500}, 8192, "text")
    assert load("openai:\n  max_tokens: 300\n").max_tokens == 300
    assert load("{}\n").context_tokens == 2048
    for bad in ("max_tokens: -1", "max_tokens: {coextract: many}", "context_tokens: 10", "response_format: xml"):
        with pytest.raises(ConfigError, match=bad.split(":")[0]):
            load(f"openai:\n  {bad}\n")


def test_data_in_a_prompt_never_has_the_replys_shape_without_its_required_fields(fake: FakeOpenAI) -> None:
    """A model copied the existing facts shown to it, which had no source_turns, into its
    reply: existing facts are shown in a shape of their own, known entities complete."""
    fake.script(good(IDENTIFIED), good(GOOD_EXTRACTION))
    engine = make_engine(fake)
    engine.identify(SESSION, [KnownEntity(2, "Bob", "person", ("Bobby",))])
    engine.coextract(BOB, None, [ExistingResidual(7, "Bob plays the violin.", "identity", "instrument", None)], SESSION)

    entity_keys = set(load_prompt("identify").reply_schema["properties"]["entities"]["items"]["required"])
    known = block_lines(fake.requests[0], "known_entities")
    assert known and all(entity_keys <= set(line) for line in known)
    residual_keys = set(load_prompt("coextract").reply_schema["properties"]["residuals"]["items"]["properties"])
    existing = block_lines(fake.requests[1], "residuals")
    assert existing == [{"fact_id": 7, "fact": "Bob plays the violin.", "slot": "instrument", "date": None}]
    assert not residual_keys & set(existing[0]) - {"slot", "date"}


@pytest.mark.parametrize(("written", "stored"), [
    ("I really like jazz.", "Maya really likes jazz."),
    ("I never eat meat; I also went vegan.", "Maya never eats meat; Maya also went vegan."),
    ("I'm a vet and I watch films with my sister.", "Maya is a vet and Maya watches films with Maya's sister."),
    ("I don't drive.", "Maya doesn't drive."),
    ("She told me so.", "She told Maya so."),
    ("Bob plays the piano.", "Bob plays the piano."),
])
def test_first_person_is_rewritten_in_the_third_person(written: str, stored: str) -> None:
    assert third_person(written, "Maya") == stored


def test_a_category_outside_the_seven_is_read_as_its_nearest_not_a_failed_reply(fake: FakeOpenAI) -> None:
    """A small model at temperature 0 wrote 'location' through every repair turn: the fact is
    kept, labelled with the category the word describes, and no call is repeated."""
    fact = {"source_turns": [10], "date": None, "slot": None}
    fake.script(good({**GOOD_EXTRACTION, "residuals": [
        {**fact, "text": "Bob went to the concert.", "category": "location"},
        {**fact, "text": "Bob went to the concert with Alice.", "category": "Relationship"},
        {**fact, "text": "Bob is a pianist.", "category": "hobby"},
        {**fact, "text": "Bob went to the concert on 7 May.", "category": "date"}]}))
    out = make_engine(fake).coextract(BOB, None, (), SESSION)
    assert [r.category for r in out.residuals] == ["name", "cross_entity", "identity", "date"]
    assert fake.calls == 1
