"""What `memhop serve` and `memhop ask` agree on: where the socket is, how a request and its
reply look on the wire, and when a server may answer for a client.

Light on purpose: `memhop ask` imports this before it knows whether a server runs, so
nothing here loads the store, numpy or a model.

The wire is JSON, one object a line. The client sends a request; the server replies at
once with `{"accepted": true}` (or false with a reason: then the client answers by itself),
then with one of `{"output": TEXT}` (what `ask` prints), `{"error": MESSAGE, "exit_code": N}`
(a memhop error, reported as `ask` reports it) or `{"failed": WHY}` (the server could not
answer; the client answers by itself).

A server answers only a client whose fingerprint equals its own: the same store, settings
(config file, environment, flags), code and the environment variables that change results.
Anything else would make an answer differ from the one `ask` gives without a server. A
request with no fingerprint (a script's) is answered with the server's own settings.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import replace
from io import BufferedIOBase
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memhop.core.config import Settings

PROTOCOL = 1
SOCKET_SUFFIX = ".sock"
MAX_SOCKET_PATH = 107  # bytes: sockaddr_un.sun_path on Linux, less its terminating NUL
# Variables read outside the settings that can change an answer: the day "last week" is
# counted from, and thread counts that change the order floating-point sums are taken in.
RESULT_ENV = ("TZ", "OPENBLAS_NUM_THREADS", "MEMHOP_EMBED_THREADS")


def socket_path(db: Path) -> Path:
    """The server's socket, beside the store it serves: `memhop.duckdb.sock`."""
    db = db.expanduser().resolve()
    return db.with_name(db.name + SOCKET_SUFFIX)


def fits(path: Path) -> bool:
    """Whether a Unix socket can be bound at `path` (the kernel limits its length)."""
    return len(os.fsencode(path)) <= MAX_SOCKET_PATH


def code_stamp() -> str:
    """The installed memhop's files (count and newest change): a server started before an
    upgrade or an edit runs other code than a fresh `ask` would, and must not answer."""
    import memhop

    root = Path(memhop.__file__).parent
    count, newest = 0, 0
    for folder, dirs, files in os.walk(root, followlinks=True):  # cli/, core/, prompts/ may be symlinks
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            try:
                changed = os.stat(os.path.join(folder, name)).st_mtime_ns
            except OSError:  # gone since the folder was listed (an editor's temporary file)
                continue
            count += 1
            newest = max(newest, changed)
    return f"{memhop.__version__}:{root.resolve()}:{count}:{newest}"


def fingerprint(settings: Settings, code: str, environ: Mapping[str, str] | None = None) -> str:
    """One string for everything an answer depends on besides the store's contents."""
    environ = os.environ if environ is None else environ
    pinned = replace(settings, db=settings.db.expanduser().resolve())
    parts = [repr(pinned), settings.openai.api_key or "", code, *(f"{k}={environ.get(k, '')}" for k in RESULT_ENV)]
    digest = hashlib.sha256()
    for part in parts:  # the api key is not in repr(); it is hashed, never sent
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return digest.hexdigest()


def send(stream: BufferedIOBase, message: Mapping[str, Any]) -> None:
    stream.write(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")
    stream.flush()


def receive(stream: BufferedIOBase, limit: int = -1) -> dict[str, Any] | None:
    """The next message, or None at the end of the stream, for a line that is no message
    or one longer than `limit` bytes."""
    line = stream.readline(limit)
    if not line.endswith(b"\n"):
        return None
    try:
        message = json.loads(line)
    except ValueError:  # also a line that is not UTF-8
        return None
    return message if isinstance(message, dict) else None
