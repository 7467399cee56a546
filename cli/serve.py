"""`memhop serve`: keep the models and the store's matrices loaded, and answer `memhop ask`
from them; and the two halves of rendering an answer for a client's terminal."""

from __future__ import annotations

import io
import os
import time
from typing import TYPE_CHECKING, Annotated, Any

import typer

from memhop.cli.common import DbOption, EngineOption, err, reports_errors

if TYPE_CHECKING:
    from rich.console import Console

    from memhop.core.mcp.service import MemoryService

ASK_OPTIONS = frozenset({"since", "until", "fallback", "top", "hops", "gate", "evidence", "expand", "facts", "retriever"})
WARM_UP = "What do I remember?"  # asked once at start, so the first client finds the models loaded


@reports_errors
def serve(
    tcp: Annotated[
        str | None,
        typer.Option("--tcp", metavar="[127.0.0.1:]PORT", show_default=False,
                     help="Also listen on this loopback port; requests there carry $MEMHOP_SERVE_TOKEN."),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No line on stderr per answer.")] = False,
    db: DbOption = None,
    engine: EngineOption = None,
) -> None:
    """Keep memhop warm for scripts and assistants: `memhop ask` answers through this server
    while it runs, in a fraction of the time, exactly as it would without it.

    It listens on a Unix socket beside the store (STORE.sock, yours only) and holds the store
    only while it answers, so ingest, forget and edits go on as usual and the next answer
    reads what they wrote. `ask` uses it when its settings (config file, environment,
    --db, --engine) are the server's; otherwise, or with no server, it answers by itself.
    Stop it with Ctrl-C or SIGTERM.

    \b
    Example:
      memhop serve --quiet
      memhop ask "What instrument does Alice's roommate play?"   (in another shell)
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as `ask` sets it, before numpy loads: the same sums
    import memhop
    from memhop.core.config import Paths, load_settings
    from memhop.core.errors import StoreNotFound
    from memhop.core.mcp.service import MemoryService
    from memhop.core.serve import serve as serve_socket
    from memhop.core.serve import tcp_listen
    from memhop.core.serve_protocol import code_stamp, fingerprint, socket_path

    listen = tcp_listen(tcp)  # a bad address or a missing token fails before anything loads
    code = code_stamp()  # of the code this process loads now: an edit later makes it stale
    mem = memhop.open(db, engine, read_only=True)  # opens nothing yet
    if not mem.db.exists():
        raise StoreNotFound(mem.db)  # before the socket's lock file is made beside it
    path = socket_path(mem.db)
    service = MemoryService(db=db, engine=engine, read_only=True)

    def warm_up() -> None:
        with mem:  # a foreign store fails here, before anything listens
            if mem.settings.engine == "offline":
                mem.ask(WARM_UP)  # loads the embedder, spaCy and the matrices
            else:
                mem.read(WARM_UP)  # the same without a model call nobody asked for

    def current() -> str:
        return fingerprint(load_settings(Paths.from_env(), db=db, engine=engine), code)

    def ready() -> None:
        also = f" and on {listen.host}:{listen.port} (token required)" if listen else ""
        err.print(f"memhop serve: answering `memhop ask` for {mem.db} on {path}{also} (Ctrl-C stops)", markup=False)

    def answer(question: str, options: dict[str, Any], render: dict[str, Any]) -> str:
        started = time.perf_counter()
        output = respond(service, question, options, render)
        if not quiet:  # never the question: this line may end up in a log file
            err.print(f"memhop serve: answered in {(time.perf_counter() - started) * 1000:.0f} ms", markup=False)
        return output

    serve_socket(path, answer, current, warm_up, ready, listen)
    err.print("memhop serve: stopped", markup=False)


def respond(service: MemoryService, question: str, options: dict[str, Any], render: dict[str, Any]) -> str:
    """What `memhop ask` prints for `question` with these options, on the client's screen."""
    from memhop.cli.render.answer import render_answer, render_answer_line
    from memhop.core.errors import UsageError

    unknown = sorted(set(options) - ASK_OPTIONS)
    if unknown:
        raise UsageError(f"unknown option(s) {', '.join(unknown)}; ask takes {', '.join(sorted(ASK_OPTIONS))}")
    result = service.answer(question, **options)
    output = _Output(str(render.get("encoding") or "utf-8"))
    if render.get("line"):
        render_answer_line(result, output)
    else:
        render_answer(result, as_json=bool(render.get("json")), trace=bool(render.get("trace")),
                      console=console_like(render, output))
    return output.getvalue()


def screen_of(console: Console) -> dict[str, Any]:
    """What rendering depends on in `console` (the client's stdout), for `console_like`."""
    return {"terminal": console.is_terminal, "width": console.width, "height": console.height,
            "color_system": console.color_system, "no_color": console.no_color, "encoding": console.encoding}


def console_like(screen: dict[str, Any], file: io.StringIO) -> Console:
    """A console writing to `file` as the client's stdout console (cli.common.out) would write."""
    from rich.console import Console

    return Console(
        file=file, force_terminal=bool(screen.get("terminal")), width=int(screen.get("width") or 80),
        height=int(screen.get("height") or 25), color_system=screen.get("color_system"),
        no_color=bool(screen.get("no_color")), highlight=False, soft_wrap=True,  # as `out`
    )


class _Output(io.StringIO):
    """Text for a client whose stdout has this encoding (rich draws ASCII for a non-UTF one)."""

    def __init__(self, encoding: str) -> None:
        super().__init__()
        self._encoding = encoding

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding
