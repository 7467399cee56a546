"""`memhop serve`: a process that keeps the models and the store's matrices loaded and
answers `memhop ask` from them (the socket side is core/serve_socket.py).

The store itself is opened per request (MemoryService, as `memhop mcp` does), so between
requests nothing holds it: `memhop ingest` or `forget` never waits for the server longer
than one answer, and the next request reads what they wrote (the read path's cache checks
the store's stamp on every open). What stays loaded is what costs a cold `ask` its time:
the Python modules, the embedding model, spaCy, and the matrices of the last state read.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memhop.core.errors import StoreNotFound, UsageError
from memhop.core.serve_socket import Tcp, listen

if TYPE_CHECKING:
    from memhop.core.read import Answer

# what `ask` passes to Memory.ask, and so all a request's "options" may hold
ASK_OPTIONS = frozenset({"since", "until", "fallback", "top", "hops", "gate", "evidence", "expand", "facts", "retriever"})
WARM_UP = "What do I remember?"  # asked once at start, so the first client finds the models loaded

# (the answer, the request's "render") -> what `ask` would print for it
Render = Callable[["Answer", dict[str, Any]], str]


def serve(
    db: Path | None,
    engine: str | None,
    render: Render,
    *,
    tcp: Tcp | None = None,
    ready: Callable[[Path, Path], None] = lambda store, socket: None,
    answered: Callable[[float], None] = lambda seconds: None,
) -> None:
    """Serve the store `db` (the settings' default if None) until SIGTERM or SIGINT:
    `ready(store, socket)` once it listens, `answered(seconds)` after each answer.
    StoreNotFound (nothing listens) for a store that does not exist."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as `ask` sets it, before numpy loads: the same sums
    from memhop.core.api import open_memory
    from memhop.core.config import Paths, load_settings
    from memhop.core.mcp.service import MemoryService
    from memhop.core.serve_protocol import code_stamp, fingerprint, socket_path

    code = code_stamp()  # of the code this process loads now: an edit later makes it stale
    mem = open_memory(db, engine, read_only=True)  # opens nothing yet
    if not mem.db.exists():
        raise StoreNotFound(mem.db)  # before the socket's lock file is made beside it
    path = socket_path(mem.db)
    service = MemoryService(db=db, engine=engine, read_only=True)

    def warm_up() -> None:
        with mem:  # a foreign store fails here, before anything listens
            if mem.settings.engine == "offline":
                from memhop.core.engines.offline.nlp import load_nlp

                mem.ask(WARM_UP)  # loads the embedder and the matrices
                load_nlp()  # and spaCy, which a plain question no longer loads: the kept process should have it
            else:
                mem.read(WARM_UP)  # the same without a model call nobody asked for

    def current() -> str:
        return fingerprint(load_settings(Paths.from_env(), db=db, engine=engine), code)

    def respond(question: str, options: dict[str, Any], how: dict[str, Any]) -> str:
        unknown = sorted(set(options) - ASK_OPTIONS)
        if unknown:
            raise UsageError(f"unknown option(s) {', '.join(unknown)}; ask takes {', '.join(sorted(ASK_OPTIONS))}")
        started = time.perf_counter()
        output = render(service.answer(question, **options), how)
        answered(time.perf_counter() - started)
        return output

    listen(path, respond, current, warm_up, lambda: ready(mem.db, path), tcp)
