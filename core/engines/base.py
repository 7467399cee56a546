"""The contract between the write/read paths and an engine (offline rules or an LLM).

Engines see plain views of the data (core/model.py), never the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from memhop.core.model import (
    AnswerRequest,
    ExistingResidual,
    Extraction,
    FoundEntity,
    KnownEntity,
    Reply,
    SessionView,
)


@dataclass
class Usage:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cached: int = 0  # requests answered from replies an earlier run kept in the store, not the model


class Engine(Protocol):
    name: str
    usage: Usage

    def identify(self, session: SessionView, known: Sequence[KnownEntity]) -> list[FoundEntity]:
        """One call per session: the entities it is about, matched to the registry."""
        ...

    def coextract(
        self,
        entity: FoundEntity,
        profile: str | None,
        existing: Sequence[ExistingResidual],
        session: SessionView,
    ) -> Extraction:
        """One call per entity: the updated profile AND the residuals it would lose."""
        ...

    def answer(self, request: AnswerRequest) -> str | Reply:
        """One call per question; the raw evidence turns win over facts and profiles (a model's
        facts are checked against them, not taken as proof); "I don't know" if unsupported.
        A Reply when the engine knows the sentence it read the answer from."""
        ...
