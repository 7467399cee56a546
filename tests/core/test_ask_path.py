"""The sentence the offline answerer read its answer from reaches the answer's support
through the real path a user takes — `Memory.ask` with the offline engine, and with the
offline answerer standing in for a failed model (`fallback=True`) — not only through
`read.ask` called by hand. A count is stated by no sentence word for word, so only that
sentence, carried from the engine, puts the swims it counted first."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from support.fake_openai import FakeOpenAI, broken
from support.written_memory import written_store

import memhop
from memhop.core.api import Memory
from memhop.core.config import OpenAISettings, load_settings
from memhop.core.engines.offline.answer import explain
from memhop.core.read import Answer

DIARY = """# Odile's diary

# 2024-01-06

Brann came over for soup. His sister Fenna brought a loaf she had baked.

# 2024-02-10

Went swimming with Brann at the lido. The water was freezing.

# 2024-03-16

Swimming again with Brann at the lido; the sauna was shut.

# 2024-05-04

Brann and I went swimming at the lido once more, and Brann beat me in the last race.
"""
COUNT = "How many times did I go swimming with Brann?"


@pytest.fixture(scope="module")
def swims(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return written_store(tmp_path_factory.mktemp("swims"), DIARY, "swims")


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(responder=lambda _body: broken("not json at all")) as fake:  # every answer call fails for good
        yield fake


def assert_cites_the_sentence_it_counted(result: Answer) -> None:
    read = explain(result.context.request()).sentence
    source = result.context.trace.answer_from
    first = result.support.items[0]
    assert result.text == "3" and read is not None and "swimming" in read
    assert source is not None and (source.how, source.sentence) == ("source", read)
    assert (first.quote, first.how, first.read, first.closest) == (read, "source", True, False)
    data = json.loads(json.dumps(result.to_dict()))  # what `ask --json` prints
    assert data["trace"]["answer_from"]["how"] == "source" and data["support"][0]["quote"] == read


def test_memory_ask_with_the_offline_engine_cites_the_sentence_a_count_was_read_from(swims: Path, home: Path) -> None:
    with memhop.open(swims, engine="offline", read_only=True) as mem:
        result = mem.ask(COUNT)
    assert result.context.trace.answered_by == "offline"
    assert_cites_the_sentence_it_counted(result)


def test_the_offline_fallback_cites_the_sentence_a_count_was_read_from(
    swims: Path, home: Path, server: FakeOpenAI
) -> None:
    model = OpenAISettings(base_url=server.base_url, model="test-model", api_key="sk-test", max_retries=0, timeout=10)
    with Memory(replace(load_settings(db=swims, engine="openai"), openai=model), read_only=True) as mem:
        result = mem.ask(COUNT, fallback=True)
    assert server.requests  # the model was asked, and failed
    assert result.context.trace.answered_by.startswith("offline (fallback: openai (model test-model) failed:")
    assert_cites_the_sentence_it_counted(result)
