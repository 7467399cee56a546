"""What the engine learns about a server once: the reply format it accepts and its
context window.

Reply formats, best first: `json_schema` (the prompt's schema, strict: the server's
sampler can only produce a valid reply), `json_object` (any JSON), `text` (JSON picked
out of the text). A server that refuses one with an HTTP 400 naming it gets the next;
the choice is remembered per server (endpoint + model) for the process and in the cache
dir, so later runs, and their cache keys, start from it. The file holds a hash of the
endpoint and model and the format's name: no endpoint, no key, no data.

The context window is read from the server where it says (llama.cpp's /props, vLLM's
/v1/models), once per server and process; other servers get `openai.context_tokens`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

FORMATS = ("json_schema", "json_object", "text")
FORMAT_SETTINGS = ("auto", *FORMATS)
FILENAME = "openai-servers.json"
PROBE_TIMEOUT = 5.0  # seconds for each context-window probe; a server that is slow here is slow anyway
_REFUSAL = re.compile(r"response_format|json_schema|json_object|structured output|schema", re.IGNORECASE)

_lock = threading.Lock()
_formats: dict[str, str] = {}  # server key -> the best format it accepts (this process)
_windows: dict[str, int | None] = {}  # server key -> context tokens it reported (None: it did not say)


def server_key(public_url: str, model: str) -> str:
    return hashlib.sha256(f"{public_url}\n{model}".encode()).hexdigest()[:32]


def refuses_format(status: int, message: str) -> bool:
    """An HTTP error that says the server does not take the requested reply format.

    llama-cpp-python's server answers an unknown response_format type with a 500 (its
    request validation error, naming the field); any other 500 is a server failure."""
    if status == 500:
        return "response_format" in message
    return status in (400, 422) and _REFUSAL.search(message) is not None


class ServerMemory:
    """The format and window of one server (endpoint + model), shared by every engine of
    the process that talks to it."""

    def __init__(self, public_url: str, model: str, cache_dir: Path | None) -> None:
        self.key = server_key(public_url, model)
        self._file = cache_dir / FILENAME if cache_dir is not None else None

    def reply_format(self) -> str:
        with _lock:
            known = _formats.get(self.key)
            if known is None:
                known = _formats[self.key] = self._read().get(self.key, FORMATS[0])
            return known

    def downgrade(self, refused: str) -> str | None:
        """The format after `refused` (remembered from now on), or None after the last."""
        at = FORMATS.index(refused)
        if at + 1 == len(FORMATS):
            return None
        following = FORMATS[at + 1]
        with _lock:
            if FORMATS.index(_formats.get(self.key, FORMATS[0])) < at + 1:
                _formats[self.key] = following
                self._write(following)
            return _formats[self.key]

    def window(self, probe: Callable[[], tuple[int | None, bool]]) -> int | None:
        """The server's context window, asked once per process (`probe()` asks it and
        says whether the server answered: one that was down is asked again next time)."""
        with _lock:
            if self.key in _windows:
                return _windows[self.key]
        found, answered = probe()
        if answered:
            with _lock:
                _windows[self.key] = found
        return found

    def _read(self) -> dict[str, str]:
        if self._file is None:
            return {}
        try:
            data = json.loads(self._file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # no file yet, or a damaged one: detect again
        if not isinstance(data, dict):
            return {}
        return {k: v for k, v in data.items() if isinstance(v, str) and v in FORMATS}

    def _write(self, chosen: str) -> None:
        if self._file is None:
            return
        data = {**self._read(), self.key: chosen}
        try:
            self._file.parent.mkdir(parents=True, exist_ok=True)
            scratch = self._file.with_name(f"{FILENAME}.{os.getpid()}.tmp")
            scratch.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
            scratch.replace(self._file)
        except OSError:
            pass  # a read-only cache dir: the process still remembers, the next run detects again


def probe_window(base_url: str, model: str, api_key: str | None, timeout: float) -> tuple[int | None, bool]:
    """The context window a server reports: llama.cpp's /props (n_ctx), or /v1/models
    (vLLM's max_model_len, others' context_length); None when it says nothing. And
    whether it answered at all."""
    import httpx  # lazy: a dependency of the openai package

    base = base_url.rstrip("/")
    root = base[: -len("/v1")] if base.endswith("/v1") else base
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    answered = False
    with httpx.Client(timeout=min(timeout, PROBE_TIMEOUT), headers=headers) as client:
        for url, read in ((f"{root}/props", _from_props), (f"{base}/models", _from_models)):
            try:
                response = client.get(url)
            except httpx.HTTPError:
                continue
            answered = True
            try:
                found = read(response.json(), model) if response.status_code == 200 else None
            except ValueError:
                found = None
            if found:
                return found, True
    return None, answered


def _from_props(data: Any, model: str) -> int | None:
    if not isinstance(data, Mapping):
        return None
    settings = data.get("default_generation_settings")
    nested = settings.get("n_ctx") if isinstance(settings, Mapping) else None
    return _positive(nested) or _positive(data.get("n_ctx"))


def _from_models(data: Any, model: str) -> int | None:
    """The entry of `model` (or the only entry: llama.cpp names it by its file)."""
    models = data.get("data") if isinstance(data, Mapping) else None
    if not isinstance(models, list):
        return None
    entries = [e for e in models if isinstance(e, Mapping)]
    mine = [e for e in entries if e.get("id") == model] or (entries if len(entries) == 1 else [])
    for entry in mine:
        meta = entry.get("meta")
        meta_ctx = meta.get("n_ctx") if isinstance(meta, Mapping) else None
        for value in (entry.get("max_model_len"), entry.get("context_length"), meta_ctx):
            if _positive(value):
                return _positive(value)
    return None


def _positive(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def forget_servers() -> None:
    """Clear what this process learned (tests start each server afresh)."""
    with _lock:
        _formats.clear()
        _windows.clear()
