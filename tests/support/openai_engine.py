"""The openai engine pointed at the fake OpenAI-compatible server (tests/support/fake_openai.py,
a real HTTP server on 127.0.0.1), and the diary day its tests send it. Each test says only
what differs: the model name, retries, timeout, reply caps, the turns."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from memhop.core.config import OpenAISettings
from memhop.core.engines.openai.engine import OpenAIEngine
from memhop.core.model import SessionView, TurnView

from support.fake_openai import FakeOpenAI

SECRET = "sk-test-SECRET"
MAY_8 = datetime(2023, 5, 8, 14, 0)
_ENGINE_OPTIONS = ("backoff", "max_delay", "sleep", "cache_dir")  # OpenAIEngine's own; the rest are OpenAISettings


def make_engine(server: FakeOpenAI, **overrides: Any) -> OpenAIEngine:
    """An engine against `server`: the key SECRET, a 5 s timeout, 2 retries, 1 ms backoff,
    and a model name of its own, so what one test's server taught the process (a refused
    reply format, a context window) never reaches another test's server on a reused port.
    `overrides`: OpenAISettings fields (model, max_retries, timeout, max_tokens, ...) and the
    engine's backoff, max_delay, sleep and cache_dir."""
    options = {"backoff": 0.001, **{k: overrides.pop(k) for k in _ENGINE_OPTIONS if k in overrides}}
    settings = {"base_url": server.base_url, "model": f"test-{uuid.uuid4().hex[:8]}", "api_key": SECRET,
                "timeout": 5.0, "max_retries": 2, **overrides}
    return OpenAIEngine(OpenAISettings(**settings), **options)


def diary_day(*texts: str, session_id: int = 1, first_turn: int = 10, diarist: str = "Alice") -> SessionView:
    """One session of `diarist`'s diary on MAY_8: a turn a text, ids from `first_turn`."""
    turns = tuple(TurnView(first_turn + i, diarist, text, MAY_8) for i, text in enumerate(texts))
    return SessionView(session_id, MAY_8, diarist, turns)
