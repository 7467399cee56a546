"""The openai engine's tests run against a real HTTP server on 127.0.0.1 of their own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.fake_openai import FakeOpenAI


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    """A scripted server for this test alone (no responder: an unscripted request gets HTTP 500)."""
    with FakeOpenAI() as server:
        yield server
