"""Prompts cut to the server's context window, against a real HTTP server on 127.0.0.1:
the window read from the server where it says (else openai.context_tokens, 2048), the
least relevant known entities and existing facts dropped first, the session's turns never."""

from __future__ import annotations

import uuid
from functools import partial
from pathlib import Path
from typing import Any

from memhop.core.config import OpenAISettings
from memhop.core.engines.openai.budget import estimate_tokens, message_tokens
from memhop.core.engines.openai.engine import OpenAIEngine
from memhop.core.engines.openai.server import ServerMemory
from memhop.core.model import AnswerRequest, EntitySlice, ExistingResidual, FoundEntity, KnownEntity

from support import openai_engine
from support.fake_openai import FakeOpenAI, block_lines, good
from support.openai_engine import diary_day

SESSION = diary_day(
    "Yesterday I went to the concert with Bob.",
    "He played the piano for two hours.",
    "Bob said the concert hall was cold.",
)
BOB = FoundEntity("Bob", "person", (), (10, 11, 12))
# 40 stored facts; the ones about the piano and concerts share words with the session.
EXISTING = [
    ExistingResidual(i, f"Bob mentioned the garden shed repairs number {i} with the neighbours across the road.",
                     "number", None, None)
    for i in range(1, 37)
] + [
    ExistingResidual(100 + i, f"Bob {what}.", "identity", None, None)
    for i, what in enumerate(("played the piano at a concert", "bought a piano", "likes concert halls",
                              "went to a concert in March"))
]
EXTRACTION = {"profile": "Bob plays the piano.", "residuals": [], "supersedes": []}


# Every reply here is good: a bad one fails at once instead of being retried.
make_engine = partial(openai_engine.make_engine, max_retries=0)


def fits(request: dict[str, Any], window: int) -> bool:
    return message_tokens(request["messages"]) + request["max_tokens"] <= window


def sent_facts(server: FakeOpenAI, index: int = -1) -> list[int]:
    return [line["fact_id"] for line in block_lines(server.requests[index], "residuals")]


def test_existing_facts_are_cut_to_the_default_window_least_relevant_first(fake: FakeOpenAI) -> None:
    fake.script(good(EXTRACTION))
    make_engine(fake).coextract(BOB, "Bob is Alice's friend.", EXISTING, SESSION)

    request = fake.requests[-1]
    kept = sent_facts(fake)
    assert 4 < len(kept) < len(EXISTING)
    assert {100, 101, 102, 103} <= set(kept)  # the facts this session's words are about stay
    assert kept == sorted(kept)  # in their stored order
    assert [t["id"] for t in block_lines(request, "turns")] == [10, 11, 12]
    assert fits(request, 2048) and request["max_tokens"] == 700


def test_the_window_the_server_reports_wins_and_is_asked_once() -> None:
    with FakeOpenAI(props={"default_generation_settings": {"n_ctx": 8192}}) as server:
        server.script(good(EXTRACTION), good(EXTRACTION))
        engine = make_engine(server)
        engine.coextract(BOB, None, EXISTING, SESSION)
        engine.coextract(BOB, None, EXISTING, SESSION)
        assert sent_facts(server) == [r.id for r in EXISTING]  # 8,192 tokens: nothing to cut
        assert server.gets == ["/props"]


def test_a_vllm_window_from_v1_models_is_read_for_the_model() -> None:
    models = {"data": [{"id": "other", "max_model_len": 32768}, {"id": "small", "max_model_len": 2000}]}
    with FakeOpenAI(models=models) as server:
        server.script(good(EXTRACTION))
        engine = make_engine(server, model="small", context_tokens=32768)
        engine.coextract(BOB, None, EXISTING, SESSION)
        assert server.gets == ["/props", "/v1/models"]
        assert engine.context_window() == 2000
        assert fits(server.requests[-1], 2000) and 0 < len(sent_facts(server)) < len(EXISTING)


def test_a_session_longer_than_the_window_keeps_every_turn(fake: FakeOpenAI) -> None:
    session = diary_day(*(f"Bob and I talked about chapter {i} of the long novel for an hour." for i in range(60)),
                        session_id=2, first_turn=20)
    long_turns = session.turns
    fake.script(good(EXTRACTION))
    make_engine(fake).coextract(FoundEntity("Bob", "person", (), ()), None, EXISTING, session)

    request = fake.requests[-1]
    assert [t["id"] for t in block_lines(request, "turns")] == [t.id for t in long_turns]
    assert sent_facts(fake) == []
    assert request["max_tokens"] == 128  # what is left, never below the floor


def test_identify_drops_the_least_mentioned_known_entities_never_the_turns(fake: FakeOpenAI) -> None:
    names = [f"Person{chr(65 + i)}{chr(65 + j)}" for i in range(3) for j in range(10)]
    known = [KnownEntity(i, name, "person", (f"{name}y", f"{name}ie")) for i, name in enumerate(names)]
    session = diary_day(f"Bob met {names[0]} and {names[0]} again.", *(f"Then {name} came by." for name in names),
                        session_id=3, first_turn=1)
    turns = session.turns
    fake.script(good({"entities": []}))
    make_engine(fake, context_tokens=2600).identify(session, known)

    request = fake.requests[-1]
    sent = [k["name"] for k in block_lines(request, "known_entities")]
    assert 0 < len(sent) < len(names) and names[0] in sent  # named twice: the most relevant
    assert all(set(k) == {"name", "kind", "aliases"} for k in block_lines(request, "known_entities"))
    assert len(block_lines(request, "turns")) == len(turns)
    assert fits(request, 2600)


def test_the_answer_prompt_drops_facts_before_evidence(fake: FakeOpenAI) -> None:
    facts = tuple(f"Bob fact number {i} about the weather in the small town by the river." for i in range(60))
    evidence = diary_day(*(f"Evidence line {i}: Bob talked about rain." for i in range(20)), first_turn=0).turns
    request = AnswerRequest("What did Bob say?", (EntitySlice("Alice", "A.", facts), EntitySlice("Bob", "B.", facts)),
                            evidence, ("Alice", "Bob"))
    fake.script(good({"answer": "rain"}))
    make_engine(fake).answer(request)

    sent = fake.requests[-1]
    entities = block_lines(sent, "entities")
    kept = [len(e["facts"]) for e in entities]
    assert 0 < sum(kept) < 2 * len(facts) and abs(kept[0] - kept[1]) <= 1  # cut evenly, the first-ranked kept
    assert kept[1] >= kept[0]  # the last hop keeps its facts longest
    assert entities[1]["facts"][0] == facts[0]
    assert len(block_lines(sent, "evidence")) == len(evidence)
    assert fits(sent, 2048)


def test_the_estimate_errs_high_on_data_and_other_scripts() -> None:
    assert estimate_tokens("2023-05-08 14:00") >= 14  # digits one by one, as Qwen and Llama 3 split them
    assert estimate_tokens("你好世界，今天很好") >= 9
    assert estimate_tokens('{"id": 12, "speaker": "Alice"}') >= 14


def test_a_server_that_did_not_answer_the_probe_is_asked_again(tmp_path: Path) -> None:
    memory = ServerMemory(f"http://127.0.0.1:1/{uuid.uuid4().hex}", "m", tmp_path)
    answers = iter([(None, False), (4096, True)])
    asked: list[int] = []

    def probe() -> tuple[int | None, bool]:
        asked.append(1)
        return next(answers)

    assert memory.window(probe) is None  # down: not remembered
    assert memory.window(probe) == 4096
    assert memory.window(probe) == 4096 and len(asked) == 2


def test_the_window_falls_back_to_the_setting_while_the_server_is_down() -> None:
    with FakeOpenAI() as server:
        url = server.base_url
    engine = OpenAIEngine(OpenAISettings(base_url=url, model=f"m-{uuid.uuid4().hex[:8]}", context_tokens=4000))
    assert engine.context_window() == 4000
