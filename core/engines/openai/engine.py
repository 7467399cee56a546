"""The openai engine: ProGraph's write and answer calls on any OpenAI-compatible endpoint
(OpenAI, Ollama, vLLM, llama.cpp's server, LM Studio) through the `openai` package.

Replies are JSON checked against the schema in the prompt file; a bad reply, a cut-off
reply, a 429/5xx, a timeout or a dropped connection is retried with exponential backoff
and then reported as one EngineError. Nothing half-parsed leaves this module, and no
message it builds ever contains the API key.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from memhop.core.config import OpenAISettings
from memhop.core.engines.base import Usage
from memhop.core.engines.openai.prompts import Prompt, ReplyError, load_prompt
from memhop.core.engines.openai.wire import (
    data_json,
    data_lines,
    day_text,
    decode_reply,
    iso_date,
    parse_extraction,
    read_completion,
    resolve_entities,
    turn_data,
)
from memhop.core.errors import EngineError, MemhopError
from memhop.core.language.names import find_names, name_forms
from memhop.core.model import AnswerRequest, ExistingResidual, Extraction, FoundEntity, KnownEntity, SessionView, TurnView
from memhop.core.name_mentions import NameMatcher

if TYPE_CHECKING:
    from openai import OpenAI

NO_KEY = "not-needed"  # local servers (Ollama, llama.cpp) ignore the key but the client wants one
RETRYABLE_STATUS = frozenset({408, 409, 429})
T = TypeVar("T")


class _RetryableError(MemhopError):
    """A failure worth another attempt (the retry loop turns the last one into EngineError)."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


class OpenAIEngine:
    """identify / coextract / answer / rewrite, one chat completion each (plus retries)."""

    name = "openai"

    def __init__(
        self,
        settings: OpenAISettings,
        *,
        backoff: float = 1.0,
        max_delay: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
        temperature: float | None = 0.0,
        json_mode: bool = True,
        context_turns: int = 1,
    ) -> None:
        import openai  # lazy: the package takes most of a second to import

        self._openai = openai
        self._client: OpenAI = openai.OpenAI(
            base_url=settings.base_url,
            api_key=settings.api_key or NO_KEY,
            timeout=settings.timeout,
            max_retries=0,  # retries are ours: they also cover invalid and cut-off replies
        )
        self._secret = settings.api_key
        self._model = settings.model
        self._timeout = settings.timeout
        self._max_retries = max(0, settings.max_retries)
        self._where = _public_url(settings.base_url)
        self._backoff, self._max_delay, self._sleep = backoff, max_delay, sleep
        self._temperature, self._json_mode, self._context = temperature, json_mode, context_turns
        self.usage = Usage()

    def __repr__(self) -> str:
        return f"OpenAIEngine(base_url={self._where!r}, model={self._model!r})"

    def close(self) -> None:
        self._client.close()

    # -- the four calls ---------------------------------------------------------------

    def identify(self, session: SessionView, known: Sequence[KnownEntity]) -> list[FoundEntity]:
        text = "\n".join(f"{t.speaker}: {t.text}" for t in session.turns)
        named = {m.entity for m in find_names(text, [(k.name, k.aliases) for k in known])}
        values = {
            "session_date": day_text(session.started_at),
            "self_name": data_json(session.self_name),
            "known": data_lines(
                {"name": k.name, "aliases": list(k.aliases)} for k in known if k.name in named
            ),
            "turns": data_lines(turn_data(t, session) for t in session.turns),
        }
        raw = self._call(load_prompt("identify"), values, lambda reply: list(reply["entities"]))
        return resolve_entities(raw, session, known)

    def coextract(
        self,
        entity: FoundEntity,
        profile: str | None,
        existing: Sequence[ExistingResidual],
        session: SessionView,
    ) -> Extraction:
        turns = self._turns_about(entity, session)
        values = {
            "session_date": day_text(session.started_at),
            "self_name": data_json(session.self_name),
            "entity": data_json(
                {"name": entity.name, "kind": entity.kind, "aliases": list(entity.aliases)}
            ),
            "profile": data_json(profile),
            "residuals": data_lines(
                {"id": r.id, "text": r.text, "category": r.category, "slot": r.slot, "date": iso_date(r.date)}
                for r in existing
            ),
            "turns": data_lines(turn_data(t, session) for t in turns),
        }
        shown = {t.id for t in turns}
        known_ids = {r.id for r in existing}
        return self._call(
            load_prompt("coextract"), values, lambda reply: parse_extraction(reply, shown, known_ids)
        )

    def answer(self, request: AnswerRequest) -> str:
        values = {
            "question": data_json(request.question),
            "chain": data_json(list(request.chain)),
            "entities": data_lines(
                {"name": s.name, "profile": s.profile, "verified_facts": list(s.facts)}
                for s in request.slices
            ),
            "evidence": data_lines(turn_data(t) for t in request.evidence),
        }
        return self._call(load_prompt("answer"), values, lambda reply: str(reply["answer"]).strip())

    def rewrite(self, text: str, name: str, aliases: Sequence[str] = ()) -> str:
        """Forgetting: the text without the entity; a reply that still names it is retried."""
        values = {"entity": data_json({"name": name, "aliases": list(aliases)}), "text": data_json(text)}

        def parse(reply: Mapping[str, Any]) -> str:
            rewritten = str(reply["text"]).strip()
            if NameMatcher(name_forms(name, aliases)).search(rewritten):  # by mention: "prices rose" is not Rose
                raise ReplyError("reply.text still names the entity")
            return rewritten

        return self._call(load_prompt("rewrite"), values, parse)

    # -- transport and retries --------------------------------------------------------

    def _call(self, prompt: Prompt, values: Mapping[str, str], parse: Callable[[Any], T]) -> T:
        messages = prompt.render(**values)
        attempts = self._max_retries + 1
        reason, retry_after = "", None
        started = time.perf_counter()
        try:
            for attempt in range(attempts):
                if attempt:
                    self._sleep(self._delay(attempt, retry_after))
                try:
                    return parse(decode_reply(self._complete(messages), prompt))
                except _RetryableError as exc:
                    reason, retry_after = exc.reason, exc.retry_after
                except ReplyError as exc:
                    reason, retry_after = f"invalid reply: {exc}", None
        finally:
            self.usage.seconds += time.perf_counter() - started
        tries = f"{attempts} attempt{'s' if attempts > 1 else ''}"
        message = f"openai engine: {prompt.name} failed after {tries} at {self._where}: {reason}"
        raise EngineError(self._scrub(message))

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        return min(self._max_delay, max(self._backoff * 2.0 ** (attempt - 1), retry_after or 0.0))

    def _complete(self, messages: list[dict[str, str]]) -> str:
        """One HTTP request; the reply's text, or _RetryableError / EngineError."""
        openai = self._openai
        kwargs: dict[str, Any] = {"model": self._model, "messages": messages}
        if self._temperature is not None:
            kwargs["temperature"] = self._temperature
        if self._json_mode:
            kwargs["response_format"] = {"type": "json_object"}
        self.usage.calls += 1
        try:
            raw = self._client.chat.completions.with_raw_response.create(**kwargs)
            body = raw.content  # read here: the body is checked by us, not parsed by the client
        except openai.APITimeoutError:
            raise _RetryableError(f"no reply within {self._timeout:g} s") from None
        except openai.APIConnectionError:
            raise _RetryableError("cannot connect") from None
        except openai.APIStatusError as exc:
            status = exc.status_code
            if status in RETRYABLE_STATUS or status >= 500:
                kind = "rate limited" if status == 429 else "server error" if status >= 500 else "busy"
                raise _RetryableError(f"HTTP {status} ({kind})", _retry_after(exc.response.headers)) from None
            where = f"{self._where} (model {self._model})"
            message = f"openai engine: HTTP {status} from {where}{_server_message(exc.body)}"
            raise EngineError(self._scrub(message)) from None
        except openai.APIError:
            raise _RetryableError("unreadable reply") from None
        completion = read_completion(body)
        self.usage.prompt_tokens += completion.prompt_tokens
        self.usage.completion_tokens += completion.completion_tokens
        if completion.finish_reason == "length":
            raise _RetryableError("reply cut off (finish_reason length)")
        return completion.content

    def _scrub(self, message: str) -> str:
        return message.replace(self._secret, "***") if self._secret else message

    def _turns_about(self, entity: FoundEntity, session: SessionView) -> list[TurnView]:
        """The entity's turns and their neighbours (pronouns point back); all if none known."""
        turns = session.turns
        if not entity.turn_ids:
            return list(turns)
        wanted = set(entity.turn_ids)
        keep: set[int] = set()
        for i, turn in enumerate(turns):
            if turn.id in wanted:
                keep.update(range(max(0, i - self._context), min(len(turns), i + self._context + 1)))
        return [turns[i] for i in sorted(keep)]


def _retry_after(headers: Mapping[str, str]) -> float | None:
    for header, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            return float(headers[header]) * scale
        except (KeyError, ValueError):
            continue
    return None


def _server_message(body: object) -> str:
    found = body.get("error", body) if isinstance(body, dict) else body
    if isinstance(found, dict):
        found = found.get("message")
    if not isinstance(found, str) or not found.strip():
        return ""
    return ": " + " ".join(found.split())[:160]


def _public_url(base_url: str | None) -> str:
    """The endpoint as shown in messages: no user:password@ part, no query (keys hide there)."""
    if not base_url:
        return "api.openai.com"
    parts = urlsplit(base_url)
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host
    netloc = host + (f":{parts.port}" if parts.port else "")
    return parts._replace(netloc=netloc, query="", fragment="").geturl()
