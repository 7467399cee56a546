"""The openai engine: ProGraph's write and answer calls on any OpenAI-compatible endpoint
(OpenAI, Ollama, vLLM, llama.cpp's server, LM Studio) through the `openai` package.

Replies are asked for with the prompt's schema as `response_format` where the server
takes it (server.py finds out once per server) and checked against it again here, then
cleaned (clean.py). A reply that fails the checks is answered with a repair turn: the
reply itself and what was wrong with it, so the retry is not the same request again. A
cut-off reply, a 429/5xx, a timeout or a dropped connection is retried with exponential
backoff, and the last failure is reported as one EngineError. Every reply is capped at
the prompt's max_tokens and every prompt is cut to the server's context window
(budget.py). Nothing half-parsed leaves this module, and no message it builds ever
contains the API key.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from memhop.core.config import OpenAISettings, Paths
from memhop.core.engines.base import Usage
from memhop.core.engines.openai.budget import (
    BYTES_PER_TOKEN,
    SAFETY,
    estimate_tokens,
    fit,
    message_tokens,
    prompt_budget,
)
from memhop.core.engines.openai.messages import Fit, Messages, answer_messages, coextract_messages, identify_messages
from memhop.core.engines.openai.prompts import Prompt, ReplyError, load_prompt
from memhop.core.engines.openai.server import FORMATS, ServerMemory, probe_window, refuses_format
from memhop.core.engines.openai.wire import (
    data_json,
    decode_reply,
    parse_extraction,
    read_completion,
    resolve_entities,
)
from memhop.core.errors import ConfigError, EngineError, EngineUnreachable, MemhopError
from memhop.core.language.names import name_forms
from memhop.core.model import AnswerRequest, ExistingResidual, Extraction, FoundEntity, KnownEntity, SessionView, TurnView
from memhop.core.name_mentions import NameMatcher

if TYPE_CHECKING:
    from openai import OpenAI

    from memhop.core.store.replies import ReplyCache

NO_KEY = "not-needed"  # local servers (Ollama, llama.cpp) ignore the key but the client wants one
RETRYABLE_STATUS = frozenset({408, 409, 429})
UNREACHABLE_AFTER = 3  # connection failures in a row that mean no server is listening
T = TypeVar("T")
MIN_REPLY = 128  # tokens a reply gets even when the prompt leaves less (the server may refuse it)


class _RetryableError(MemhopError):
    """A failure worth another attempt (the retry loop turns the last one into EngineError)."""

    def __init__(
        self, reason: str, retry_after: float | None = None, *, rate_limited: bool = False, content: str | None = None
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after
        self.rate_limited = rate_limited
        self.content = content  # the text of a reply cut off at max_tokens


class _FormatRefused(MemhopError):
    """The server answered HTTP 400 to the reply format the request asked for."""


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
        cache_dir: Path | None = None,
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
        self.concurrency = max(1, settings.concurrency)  # the write path runs this many calls at once
        self._slots = threading.BoundedSemaphore(self.concurrency)
        self._usage_lock = threading.Lock()  # usage, the in-flight requests and the pause
        self._in_flight: dict[str, threading.Event] = {}
        self._paused_until = 0.0
        self._replies: ReplyCache | None = None
        self._seen: set[str] = set()  # requests this engine asked, or found kept, already
        self._refused = 0  # connection failures in a row
        self._base_url, self._key = settings.base_url, settings.api_key
        self._max_tokens, self._context_tokens = settings.max_tokens, settings.context_tokens
        if settings.response_format != "auto" and settings.response_format not in FORMATS:
            raise ConfigError(f"openai.response_format {settings.response_format!r} is not one of auto, {', '.join(FORMATS)}")
        forced = "text" if not json_mode else settings.response_format
        self._forced_format = None if forced == "auto" else forced
        self._server = ServerMemory(self._where, self._model, cache_dir if cache_dir is not None else Paths.from_env().cache_dir)

    def __repr__(self) -> str:
        return f"OpenAIEngine(base_url={self._where!r}, model={self._model!r})"

    @property
    def model(self) -> str:
        """The model setting (the write path counts calls and tokens per engine and model)."""
        return self._model

    def close(self) -> None:
        self._client.close()

    # -- the four calls ---------------------------------------------------------------

    def identify(self, session: SessionView, known: Sequence[KnownEntity]) -> list[FoundEntity]:
        prompt = load_prompt("identify")
        messages = identify_messages(prompt, session, known, self._fitter(prompt))
        return resolve_entities(self._call(prompt, messages, lambda reply: list(reply["entities"])), session, known)

    def identify_key(self, session: SessionView, known: Sequence[KnownEntity]) -> str:
        """What `identify` would ask, as a key: a prefetch guessed with another registry is
        still right when the key is the same (only the entities the turns name are sent)."""
        prompt = load_prompt("identify")
        messages = identify_messages(prompt, session, known, self._fitter(prompt))
        return request_key(self._model, prompt, self._request(prompt, messages, self._format()))

    def coextract(
        self,
        entity: FoundEntity,
        profile: str | None,
        existing: Sequence[ExistingResidual],
        session: SessionView,
    ) -> Extraction:
        prompt = load_prompt("coextract")
        turns = self._turns_about(entity, session)
        messages = coextract_messages(prompt, entity, profile, existing, turns, session, self._fitter(prompt))
        shown = {t.id: t for t in turns}
        known_ids = {r.id for r in existing}
        names = [entity.name, *entity.aliases]
        return self._call(
            prompt,
            messages,
            lambda reply: parse_extraction(reply, shown, known_ids, names=names, self_name=session.self_name),
        )

    def answer(self, request: AnswerRequest) -> str:
        prompt = load_prompt("answer")
        messages = answer_messages(prompt, request, self._fitter(prompt))
        return self._call(prompt, messages, lambda reply: str(reply["answer"]).strip())

    def planned_messages(
        self, session: SessionView, known: Sequence[KnownEntity], entity: FoundEntity | None = None
    ) -> Messages:
        """What `identify` (or, given an entity, `coextract` for an entity with no profile
        or facts yet) would send, uncut: `memhop ingest --plan` counts its tokens without
        calling or probing the server."""
        keep_all: Fit = lambda count, render: count  # noqa: E731 - the builders' fit, cutting nothing
        if entity is None:
            return identify_messages(load_prompt("identify"), session, known, keep_all)
        turns = self._turns_about(entity, session)
        return coextract_messages(load_prompt("coextract"), entity, None, (), turns, session, keep_all)

    def rewrite(self, text: str, name: str, aliases: Sequence[str] = ()) -> str:
        """Forgetting: the text without the entity; a reply that still names it is retried."""
        prompt = load_prompt("rewrite")
        messages = prompt.render(entity=data_json({"name": name, "aliases": list(aliases)}), text=data_json(text))

        def parse(reply: Mapping[str, Any]) -> str:
            rewritten = str(reply["text"]).strip()
            if NameMatcher(name_forms(name, aliases)).search(rewritten):  # by mention: "prices rose" is not Rose
                raise ReplyError("reply.text still names the entity")
            return rewritten

        return self._call(prompt, messages, parse)

    # -- budget and request -----------------------------------------------------------

    def max_tokens(self, prompt: Prompt) -> int:
        """The reply cap of `prompt`'s calls: openai.max_tokens, else the prompt file's."""
        caps = self._max_tokens
        if isinstance(caps, Mapping):
            return int(caps.get(prompt.name, prompt.max_tokens))
        return prompt.max_tokens if caps is None else int(caps)

    def context_window(self) -> int:
        """The server's context window where it says (asked once per server and process),
        else openai.context_tokens."""
        if self._base_url is None:  # api.openai.com says nothing; its windows are large
            return self._context_tokens
        base_url, model, key, timeout = self._base_url, self._model, self._key, self._timeout
        return self._server.window(lambda: probe_window(base_url, model, key, timeout)) or self._context_tokens

    def _fitter(self, prompt: Prompt) -> Fit:
        """How many of `count` optional items (the least relevant last) fit the window
        beside `prompt`'s max_tokens: the `fit` the message builders take."""
        budget = prompt_budget(self.context_window(), self.max_tokens(prompt))
        return lambda count, render: fit(count, lambda kept: message_tokens(render(kept)), budget)

    def _reply_cap(self, prompt: Prompt, messages: Messages) -> int:
        """The prompt's max_tokens, or what the window leaves beside a prompt that could not
        be cut enough (its session's turns alone are long), but never below MIN_REPLY."""
        left = self.context_window() - message_tokens(messages) - SAFETY
        return min(self.max_tokens(prompt), max(MIN_REPLY, left))

    def _format(self) -> str:
        return self._forced_format or self._server.reply_format()

    def _request(self, prompt: Prompt, messages: Messages, reply_format: str) -> dict[str, Any]:
        request: dict[str, Any] = {"model": self._model, "messages": messages, "max_tokens": self._reply_cap(prompt, messages)}
        if self._temperature is not None:
            request["temperature"] = self._temperature
        if reply_format == "json_schema":
            schema = {"name": prompt.name, "schema": prompt.wire_schema(), "strict": True}
            request["response_format"] = {"type": "json_schema", "json_schema": schema}
        elif reply_format == "json_object":
            request["response_format"] = {"type": "json_object"}
        return request

    def _repair(self, prompt: Prompt, messages: Messages, content: str, problem: str) -> Messages:
        """The turn after a reply that failed: the reply (cut to what the window leaves)
        and what was wrong with it."""
        note = {
            "role": "user",
            "content": f"Your reply is not usable: {problem}. Reply again with the whole corrected JSON "
            "only, every required field present, in exactly the shape the instructions give.",
        }
        room = prompt_budget(self.context_window(), self.max_tokens(prompt)) - message_tokens([*messages, note])
        room_bytes = (room - estimate_tokens("…") - 4) * BYTES_PER_TOKEN
        if estimate_tokens(content) > room:
            content = content.encode()[: max(0, room_bytes)].decode(errors="ignore") + "…"
        return [*messages, {"role": "assistant", "content": content}, note]

    # -- transport and retries --------------------------------------------------------

    def use_replies(self, replies: ReplyCache | None) -> None:
        """Keep every reply in `replies` and answer a request seen before from it (the write
        path attaches the store's cache for its run, then detaches it with None)."""
        self._replies = replies

    def _call(self, prompt: Prompt, messages: Messages, parse: Callable[[Any], T]) -> T:
        key = request_key(self._model, prompt, self._request(prompt, messages, self._format()))
        started = time.perf_counter()
        try:
            with self._claim(key):
                kept = self._kept(key, prompt, parse)
                return kept[0] if kept else self._ask(prompt, messages, parse)
        finally:
            with self._usage_lock:
                self.usage.seconds += time.perf_counter() - started

    @contextmanager
    def _claim(self, key: str) -> Iterator[None]:
        """One caller per request at a time: a second caller of the same request (a prefetch
        and the write path) waits for the first and then finds its reply kept."""
        while True:
            with self._usage_lock:
                busy = self._in_flight.get(key)
                if busy is None:
                    mine = self._in_flight[key] = threading.Event()
                    break
            busy.wait()
        try:
            yield
        finally:
            with self._usage_lock:
                del self._in_flight[key]
            mine.set()

    def _kept(self, key: str, prompt: Prompt, parse: Callable[[Any], T]) -> list[T]:
        """[the kept reply, parsed] or [] when none is kept (or it no longer parses)."""
        content = self._replies.get(key) if self._replies is not None else None
        if content is None:
            return []
        try:
            value = parse(decode_reply(content, prompt))
        except ReplyError:
            return []
        with self._usage_lock:
            if key not in self._seen:  # a reply kept by an earlier run, counted once
                self._seen.add(key)
                self.usage.cached += 1
        return [value]

    def _ask(self, prompt: Prompt, messages: Messages, parse: Callable[[Any], T]) -> T:
        """Attempts until a reply parses. After a reply that does not, the next attempt
        carries a repair turn; a refused reply format is replaced by the next one without
        spending an attempt. The reply is kept under the key of the request as it would be
        sent now (the format it ended with, no repair turn)."""
        attempts = self._max_retries + 1
        reason, retry_after = "", None
        reply_format = self._format()
        sent = messages
        attempt = 0
        while attempt < attempts:
            self._check_reachable()
            if attempt:
                self._sleep(self._delay(attempt, retry_after))
                self._check_reachable()
            try:
                content = self._complete(self._request(prompt, sent, reply_format), waited=attempt > 0)
            except _FormatRefused as exc:
                reply_format = self._next_format(reply_format, str(exc))
                continue
            except _RetryableError as exc:
                reason, retry_after = exc.reason, exc.retry_after
                if exc.content is not None:  # cut off: the model is told to be shorter
                    sent = self._repair(prompt, messages, exc.content, exc.reason)
                attempt += 1
                continue
            except ReplyError as exc:  # the body is no completion: nothing to repair
                reason, retry_after = f"invalid reply: {exc}", None
                attempt += 1
                continue
            try:
                value = parse(decode_reply(content, prompt))
            except ReplyError as exc:
                reason, retry_after = f"invalid reply: {exc}", None
                sent = self._repair(prompt, messages, content, str(exc))
                attempt += 1
                continue
            if self._replies is not None:  # kept before the caller applies it
                key = request_key(self._model, prompt, self._request(prompt, messages, reply_format))
                self._replies.put(key, self._model, prompt.name, prompt.version, content)
                with self._usage_lock:
                    self._seen.add(key)
            return value
        tries = f"{attempts} attempt{'s' if attempts > 1 else ''}"
        message = f"openai engine: {prompt.name} failed after {tries} at {self._where}: {reason}"
        raise EngineError(self._scrub(message))

    def _next_format(self, refused: str, message: str) -> str:
        """The reply format after one the server refused (remembered for the server)."""
        following = None if self._forced_format else self._server.downgrade(refused)
        if following is None or following == refused:
            where = f"{self._where} (model {self._model})"
            hint = "; set openai.response_format to auto" if self._forced_format else ""
            raise EngineError(self._scrub(f"openai engine: HTTP 400 from {where}: {message}{hint}"))
        return following

    def _check_reachable(self) -> None:
        """After UNREACHABLE_AFTER connection failures in a row (any call, any worker) no
        server is there: one clear error instead of every session's retry schedule."""
        with self._usage_lock:
            refused = self._refused
        if refused >= UNREACHABLE_AFTER:
            raise EngineUnreachable(self._scrub(
                f"openai engine: cannot connect to {self._where} ({refused} attempts in a row); "
                "stopped writing: is the server running? The next run resumes where this one stopped."
            ))

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        return min(self._max_delay, max(self._backoff * 2.0 ** (attempt - 1), retry_after or 0.0))

    def _complete(self, request: dict[str, Any], waited: bool = False) -> str:
        """One HTTP request, at most `concurrency` at a time; the reply's text, or
        _RetryableError / EngineError. A rate limit pauses every worker, not just the one
        it hit (that one has `waited` out its own backoff already)."""
        with self._slots:
            if not waited:
                self._wait_out_pause()
            with self._usage_lock:
                self.usage.calls += 1
            try:
                return self._send(request)
            except _RetryableError as exc:
                if exc.rate_limited:
                    self._pause(exc.retry_after if exc.retry_after is not None else self._backoff)
                raise

    def _pause(self, seconds: float) -> None:
        with self._usage_lock:
            self._paused_until = max(self._paused_until, time.monotonic() + min(seconds, self._max_delay))

    def _wait_out_pause(self) -> None:
        with self._usage_lock:
            remaining = self._paused_until - time.monotonic()
        if remaining > 0:
            self._sleep(remaining)

    def _send(self, request: dict[str, Any]) -> str:
        openai = self._openai
        try:
            raw = self._client.chat.completions.with_raw_response.create(**request)
            body = raw.content  # read here: the body is checked by us, not parsed by the client
        except openai.APITimeoutError:
            raise _RetryableError(f"no reply within {self._timeout:g} s") from None
        except openai.APIConnectionError:
            with self._usage_lock:
                self._refused += 1
            raise _RetryableError("cannot connect") from None
        except openai.APIStatusError as exc:
            status = exc.status_code
            said = _server_message(exc.body)
            if refuses_format(status, said) and "response_format" in request:
                raise _FormatRefused(f"{request['response_format']['type']} refused{said}") from None
            if status in RETRYABLE_STATUS or status >= 500:
                kind = "rate limited" if status == 429 else "server error" if status >= 500 else "busy"
                raise _RetryableError(
                    f"HTTP {status} ({kind})", _retry_after(exc.response.headers), rate_limited=status == 429
                ) from None
            where = f"{self._where} (model {self._model})"
            message = f"openai engine: HTTP {status} from {where}{said}"
            raise EngineError(self._scrub(message)) from None
        except openai.APIError:
            raise _RetryableError("unreadable reply") from None
        completion = read_completion(body)
        with self._usage_lock:
            self._refused = 0
            self.usage.prompt_tokens += completion.prompt_tokens
            self.usage.completion_tokens += completion.completion_tokens
        if completion.finish_reason == "length":
            cap = request.get("max_tokens")
            raise _RetryableError(f"reply cut off at max_tokens {cap} (finish_reason length); reply shorter",
                                  content=completion.content)
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


def request_key(model: str, prompt: Prompt, request: Mapping[str, Any]) -> str:
    """What a kept reply is found by: the model, the prompt's name and version, and every
    field of the request (messages, temperature, reply format); no endpoint, no key."""
    payload = {"model": model, "prompt": prompt.name, "version": prompt.version, "request": request}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


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
