"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions protocol.

Tests point the real `openai` client at it. Replies come from a script (a queue of
`Reply`s: good JSON, broken JSON, cut off, HTTP errors, slow) or, when the queue is
empty, from a responder that builds the reply from the request, so a whole ingest can
run against it. Every request body and its headers are recorded, so tests count calls
on the server side and read the prompts that were actually sent.

    with FakeOpenAI() as server:
        server.script(good({"answer": "piano"}))
        engine = OpenAIEngine(OpenAISettings(base_url=server.base_url, ...))
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PATHS = ("/v1/chat/completions", "/chat/completions")


@dataclass
class Reply:
    content: str = ""
    status: int = 200
    finish_reason: str = "stop"
    delay: float = 0.0  # seconds before answering (beyond the client's timeout: a timeout)
    headers: dict[str, str] = field(default_factory=dict)
    error: str = "scripted failure"  # the error message of a status >= 400
    prompt_tokens: int = 100
    completion_tokens: int = 20
    body: str | None = None  # sent as the whole HTTP body instead of a completion (a hostile server)
    content_type: str = "application/json"


Responder = Callable[[dict[str, Any]], "Reply | Mapping[str, Any] | str"]


def good(obj: object) -> Reply:
    return Reply(content=json.dumps(obj))


def broken(text: str = '{"entities": [{"name": "Bob"') -> Reply:
    return Reply(content=text)


def truncated(obj: object) -> Reply:
    text = json.dumps(obj)
    return Reply(content=text[: len(text) // 2], finish_reason="length")


def raw_body(body: str, content_type: str = "application/json") -> Reply:
    """A 200 whose body is not a chat completion at all (an HTML error page, a proxy's text)."""
    return Reply(body=body, content_type=content_type)


def server_error(status: int = 500, message: str = "internal error") -> Reply:
    return Reply(status=status, error=message)


def rate_limited(retry_after: float = 0.0) -> Reply:
    return Reply(status=429, error="rate limited", headers={"Retry-After": f"{retry_after:g}"})


def slow(seconds: float, then: Reply | None = None) -> Reply:
    reply = then or good({})
    return Reply(**{**reply.__dict__, "delay": seconds})


class FakeOpenAI:
    """`latency` seconds per reply, at most `slots` replies being made at once (None: no
    limit), like a model server with that many parallel slots; a request waiting for a
    slot is not yet answered.

    `refuse`: response_format types answered with HTTP `refuse_status` (400, or 500 as
    llama-cpp-python's server answers a type its request model does not know), as a
    server that does not support them does (recorded, but no scripted reply is used up). `props` / `models`:
    the JSON of GET /props (llama.cpp) and GET /v1/models; None answers 404."""

    def __init__(
        self,
        responder: Responder | None = None,
        latency: float = 0.0,
        slots: int | None = None,
        *,
        refuse: tuple[str, ...] = (),
        refuse_status: int = 400,
        props: dict[str, Any] | None = None,
        models: dict[str, Any] | None = None,
    ) -> None:
        self.responder = responder
        self.latency = latency
        self.refuse, self.refuse_status = refuse, refuse_status
        self.props, self.models = props, models
        self.gets: list[str] = []  # paths of GET requests
        self._slots = threading.BoundedSemaphore(slots) if slots else None
        self.peak = 0  # most requests being answered at once (with a latency)
        self._active = 0
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "use FakeOpenAI as a context manager"
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def calls(self) -> int:
        return len(self.requests)

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._queue.extend(replies)

    def reset(self) -> None:
        with self._lock:
            self._queue.clear()
            self.requests.clear()
            self.headers.clear()
            self.gets.clear()
            self.peak = 0

    def messages(self, index: int = -1) -> tuple[str, str]:
        """(system, user) text of a recorded request."""
        by_role = {m["role"]: m["content"] for m in self.requests[index]["messages"]}
        return by_role.get("system", ""), by_role.get("user", "")

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            wanted = (body.get("response_format") or {}).get("type")
            if wanted in self.refuse:
                if self.refuse_status == 500:  # llama-cpp-python's pydantic error, as it words it
                    return Reply(status=500, error=f"1 validation error: {{'type': 'literal_error', 'loc': ('body', "
                                 f"'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", "
                                 f"'input': '{wanted}'}}")
                return Reply(status=400, error=f"response_format type '{wanted}' is not supported")
            if self._queue:
                return self._queue.popleft()
        if self.responder is None:
            return server_error(500, "FakeOpenAI: no scripted reply left")
        made = self.responder(body)
        if isinstance(made, Reply):
            return made
        return Reply(content=made if isinstance(made, str) else json.dumps(made))

    def _generate(self) -> bool:
        """Wait out the latency in a free slot; True when the server is stopping."""
        with self._lock:
            self._active += 1
            self.peak = max(self.peak, self._active)
        try:
            with self._slots or contextlib.nullcontext():
                return self._stop.wait(self.latency)
        finally:
            with self._lock:
                self._active -= 1

    def __enter__(self) -> FakeOpenAI:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()  # wakes any slow reply still waiting
        assert self._server is not None and self._thread is not None
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def _handler_for(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 - the http.server API
            with fake._lock:
                fake.gets.append(self.path)
            found = {"/props": fake.props, "/v1/models": fake.models}.get(self.path)
            if found is None:
                self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            else:
                self._send(200, found)

        def do_POST(self) -> None:  # noqa: N802 - the http.server API
            length = int(self.headers.get("Content-Length", 0))
            raw = self.rfile.read(length)
            if self.path not in PATHS:
                self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                return
            body = json.loads(raw)
            with fake._lock:
                fake.headers.append({k.lower(): v for k, v in self.headers.items()})
            reply = fake._next_reply(body)
            if fake.latency and fake._generate():
                return
            if reply.delay and fake._stop.wait(reply.delay):
                return
            if reply.status != 200:
                error = {"message": reply.error, "type": "server_error", "code": None}
                self._send(reply.status, {"error": error}, reply.headers)
                return
            if reply.body is not None:
                self._send(200, reply.body, reply.headers, reply.content_type)
                return
            self._send(200, _completion(body, reply), reply.headers)

        def _send(
            self, status: int, payload: object, headers: Mapping[str, str] = {}, content_type: str = "application/json"
        ) -> None:
            data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout); nothing to tell it

        def log_message(self, format: str, *args: object) -> None:
            return None

    return Handler


def _completion(body: Mapping[str, Any], reply: Reply) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-fake-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "fake"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.content},
                "finish_reason": reply.finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": reply.prompt_tokens,
            "completion_tokens": reply.completion_tokens,
            "total_tokens": reply.prompt_tokens + reply.completion_tokens,
        },
    }


# -- reading memhop's prompts (for responders) ------------------------------------------

_TASK_TAGS = (
    ("known_entities", "identify"),
    ("entity", "coextract"),
    ("question", "answer"),
    ("forget", "rewrite"),
)


def user_text(body: Mapping[str, Any]) -> str:
    return str(next(m["content"] for m in body["messages"] if m["role"] == "user"))


def prompt_name(body: Mapping[str, Any]) -> str:
    """Which memhop prompt a request carries: identify, coextract, answer or rewrite."""
    text = user_text(body)
    return next(name for tag, name in _TASK_TAGS if f"<{tag}>" in text)


def block(body: Mapping[str, Any], tag: str) -> str:
    match = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", user_text(body), re.DOTALL)
    assert match is not None, f"no <{tag}> block in the prompt"
    return match.group(1)


def block_lines(body: Mapping[str, Any], tag: str) -> list[Any]:
    text = block(body, tag)
    return [] if text == "(none)" else [json.loads(line) for line in text.splitlines()]


# -- a responder good enough to run a whole ingest ---------------------------------------

_NOT_NAMES = frozenset(
    "I The A An My We He She They It This That Then But And So Today Yesterday Tomorrow Monday Tuesday "
    "Wednesday Thursday Friday Saturday Sunday January February March April May June July August "
    "September October November December Hi Hey Hello Thanks Yes No Oh Ok Okay Also Just What How Why "
    "Dear Mum Dad".split()
)
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+\b")


def names_in(text: str) -> list[str]:
    """Runs of capitalised words, minus common words and words that start a sentence."""
    names: list[str] = []
    last_end = -2
    for m in _CAPITALISED.finditer(text):
        sentence_start = not text[: m.start()].strip() or text[: m.start()].rstrip()[-1] in ".!?"
        if m.group(0) in _NOT_NAMES or sentence_start:
            continue
        if names and m.start() == last_end + 1 and text[last_end] == " ":
            names[-1] += " " + m.group(0)
        else:
            names.append(m.group(0))
        last_end = m.end()
    return list(dict.fromkeys(names))


def rule_responder(body: dict[str, Any]) -> dict[str, Any]:
    """identify: capitalised names; coextract: a profile naming the co-mentioned names and
    one cross_entity residual per turn naming the entity; answer: the first fact of the last
    entity the prompt gives facts for, or "I don't know"; rewrite: the name replaced by "someone"."""
    task = prompt_name(body)
    if task == "identify":
        names = [n for t in block_lines(body, "turns") for n in names_in(t["text"])]
        return {"entities": [{"name": n, "kind": "person", "aliases": []} for n in dict.fromkeys(names)]}
    if task == "coextract":
        entity = json.loads(block(body, "entity"))["name"]
        first = entity.split()[0].lower()
        about = [t for t in block_lines(body, "turns") if first in f"{t['speaker']} {t['text']}".lower()]
        others = [n for t in about for n in names_in(t["text"]) if n.split()[0].lower() != first]
        company = ", ".join(dict.fromkeys(others)) or "nobody named"
        profile = f"{entity} is mentioned with {company}."
        residuals = [
            {"text": t["text"], "category": "cross_entity", "source_turns": [t["id"]], "date": None}
            for t in about
        ]
        return {"profile": profile, "residuals": residuals, "supersedes": []}
    if task == "answer":
        facts = [e["facts"] for e in block_lines(body, "entities") if e["facts"]]
        return {"answer": facts[-1][0] if facts else "I don't know"}
    entity = json.loads(block(body, "forget"))["name"]
    text = json.loads(block(body, "text"))
    return {"text": re.sub(re.escape(entity.split()[0]), "someone", text, flags=re.IGNORECASE)}
