"""The write path with the openai engine against a real HTTP server on 127.0.0.1: replies
are kept in the store before they are applied (an interrupted run resumes without asking
again), and calls run concurrently without changing what is stored."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memhop.core.config import OpenAISettings
from memhop.core.embed import Embedder, get_embedder
from memhop.core.engines.openai.engine import OpenAIEngine
from memhop.core.ingest import ingest
from memhop.core.model import AnswerRequest
from memhop.core.store import Store, memory, open_store, replies
from memhop.core.write import rebuild, write_pending

from support.fake_openai import FakeOpenAI, good, prompt_name, rate_limited, rule_responder
from support.paths import SAMPLES

DIARY = SAMPLES / "maya-diary.md"


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, pressed while the write path embeds a session's results."""


class InterruptingEmbedder:
    """The real embedder, until the write path embeds a text saying `word` (turns are
    embedded at import, before any model call): then it raises as Ctrl-C would."""

    def __init__(self, inner: Embedder, word: str) -> None:
        self.inner, self.word = inner, word
        self.dim = inner.dim
        self.name, self.model = inner.name, inner.model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if any(self.word in text for text in texts):
            raise Interrupted()
        return self.inner.embed(texts)


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(responder=rule_responder) as fake:
        yield fake


def engine_for(server: FakeOpenAI, jobs: int = 1) -> OpenAIEngine:
    return OpenAIEngine(
        OpenAISettings(base_url=server.base_url, model="test-model", max_retries=0, concurrency=jobs), sleep=lambda _: None
    )


def imported(path: Path) -> Store:
    store = open_store(path)
    ingest(store, [str(DIARY)], get_embedder(), self_name="Maya Patel")
    return store


def result(store: Store) -> tuple[Any, ...]:
    return memory.written(store)


def sent(server: FakeOpenAI) -> list[str]:
    return [str(body["messages"]) for body in server.requests]


@pytest.fixture(scope="module")
def sequential(tmp_path_factory: pytest.TempPathFactory) -> tuple[tuple[Any, ...], int]:
    """What one uninterrupted sequential run stores, and how many calls it makes."""
    with FakeOpenAI(responder=rule_responder) as fake, imported(tmp_path_factory.mktemp("seq") / "m.duckdb") as store:
        report = write_pending(store, engine_for(fake), get_embedder())
        assert not report.failures
        return result(store), fake.calls


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 4])
def test_an_interrupted_write_resumes_without_asking_the_model_again(
    tmp_path: Path, server: FakeOpenAI, sequential: tuple[tuple[Any, ...], int], jobs: int
) -> None:
    with imported(tmp_path / "m.duckdb") as store:
        with pytest.raises(Interrupted):
            # the diary's third session is the first whose facts say "St Mary's"
            write_pending(store, engine_for(server, jobs), InterruptingEmbedder(get_embedder(), "St Mary's"))
        first = sent(server)
        assert first and store.scalar("SELECT count(*) FROM sessions WHERE written_at IS NOT NULL") == 2
        assert replies.count(store) == len(set(first))  # every reply that came back is kept
        report = write_pending(store, engine_for(server, jobs), get_embedder())
        assert not report.failures and report.usage["cached"] > 0
        everything = sent(server)
        assert len(everything) == len(set(everything))  # no request was sent twice
        assert result(store) == sequential[0]
    if jobs == 1:  # sequential: the two runs together ask exactly what one run asks
        assert len(everything) == sequential[1]


@pytest.mark.slow
def test_concurrent_calls_store_what_sequential_calls_store(
    tmp_path: Path, sequential: tuple[tuple[Any, ...], int]
) -> None:
    with FakeOpenAI(responder=rule_responder, latency=0.05) as server, imported(tmp_path / "m.duckdb") as store:
        report = write_pending(store, engine_for(server, jobs=4), get_embedder())
        assert not report.failures
        assert result(store) == sequential[0]
        assert 1 < server.peak <= 4  # calls overlapped, never more than asked for
        requests = sent(server)
        assert len(requests) == len(set(requests))
        # guesses about upcoming sessions may cost a few calls, never a wrong identification
        assert [prompt_name(b) for b in server.requests].count("identify") == report.sessions


@pytest.mark.slow
def test_rebuild_reuses_kept_replies_unless_fresh(tmp_path: Path, server: FakeOpenAI) -> None:
    with imported(tmp_path / "m.duckdb") as store:
        write_pending(store, engine_for(server), get_embedder())
        written, calls = result(store), server.calls
        server.reset()
        reused = rebuild(store, engine_for(server), get_embedder())
        assert server.calls == 0 and reused.usage["cached"] == calls and reused.sessions > 0
        fresh = rebuild(store, engine_for(server), get_embedder(), fresh=True)
        assert server.calls == calls and fresh.usage["cached"] == 0
        assert replies.count(store) == calls  # asked again: each reply replaced, not added
        assert result(store) == written  # ids start afresh: the same rows as the first write


def test_a_rate_limit_pauses_every_worker(server: FakeOpenAI) -> None:
    slept: list[float] = []
    engine = OpenAIEngine(
        OpenAISettings(base_url=server.base_url, model="m", max_retries=1, concurrency=2), sleep=slept.append
    )
    server.script(rate_limited(4), good({"answer": "piano"}), good({"answer": "violin"}))
    assert engine.answer(AnswerRequest("What does Bob play?", (), ())) == "piano"
    assert slept == [4.0]  # the worker that was told to wait
    assert engine.answer(AnswerRequest("What does Carol play?", (), ())) == "violin"
    assert len(slept) == 2 and 3.0 < slept[1] <= 4.0  # another call waits out the same pause
