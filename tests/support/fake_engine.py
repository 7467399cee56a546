"""The tests' one fake Engine: it replies what the test scripts and counts every call.

Each call is answered by a function the test passes in (or a fixed reply); unscripted calls
do the least an engine can: nobody found, the profile kept and no facts, "I don't know",
the text handed back unchanged. The fake adds no rules of its own, so what a test checks
comes from its script and from the code under test. Every call counts in `usage.calls`
(as an API engine counts requests) and is named in `calls`, in order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NoReturn

from memhop.core.engines.base import Usage
from memhop.core.model import AnswerRequest, ExistingResidual, Extraction, FoundEntity, KnownEntity, SessionView

Identify = Callable[[SessionView, Sequence[KnownEntity]], list[FoundEntity]]
Coextract = Callable[[FoundEntity, "str | None", Sequence[ExistingResidual], SessionView], Extraction]
Answer = Callable[[AnswerRequest], str]
Rewrite = Callable[[str, str, Sequence[str]], str]


def raises(error: Exception) -> Callable[..., NoReturn]:
    """A scripted call that fails, e.g. `FakeEngine(rewrite=raises(EngineError("retries exhausted")))`."""

    def fail(*_: object) -> NoReturn:
        raise error

    return fail


class FakeEngine:
    """Satisfies the Engine protocol (core/engines/base.py) and has the openai engine's `rewrite`."""

    def __init__(
        self,
        identify: Identify | None = None,
        coextract: Coextract | None = None,
        answer: Answer | str = "I don't know",
        rewrite: Rewrite | str | None = None,
        name: str = "fake",
    ) -> None:
        self.name = name
        self.usage = Usage()
        self.calls: list[str] = []  # "identify", "coextract <entity>", "answer", "rewrite"
        self._identify, self._coextract, self._answer, self._rewrite = identify, coextract, answer, rewrite

    def _count(self, call: str) -> None:
        self.usage.calls += 1
        self.calls.append(call)

    def identify(self, session: SessionView, known: Sequence[KnownEntity]) -> list[FoundEntity]:
        self._count("identify")
        return self._identify(session, known) if self._identify else []

    def coextract(
        self, entity: FoundEntity, profile: str | None, existing: Sequence[ExistingResidual], session: SessionView
    ) -> Extraction:
        self._count(f"coextract {entity.name}")
        if self._coextract is None:
            return Extraction(profile=profile or "", residuals=())
        return self._coextract(entity, profile, existing, session)

    def answer(self, request: AnswerRequest) -> str:
        self._count("answer")
        return self._answer if isinstance(self._answer, str) else self._answer(request)

    def rewrite(self, text: str, name: str, aliases: Sequence[str] = ()) -> str:
        self._count("rewrite")
        if self._rewrite is None:
            return text
        return self._rewrite if isinstance(self._rewrite, str) else self._rewrite(text, name, aliases)
