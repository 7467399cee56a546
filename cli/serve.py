"""`memhop serve`: keep the models and the store's matrices loaded, and answer `memhop ask`
from them; and the two halves of rendering an answer for a client's terminal."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from memhop.cli.common import DbOption, EngineOption, err, reports_errors

if TYPE_CHECKING:
    from rich.console import Console

    from memhop.core.read import Answer


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
    from memhop.core.serve import serve as serve_store
    from memhop.core.serve_socket import tcp_listen

    loopback = tcp_listen(tcp)  # a bad address or a missing token fails before anything loads

    def ready(store: Path, socket: Path) -> None:
        also = f" and on {loopback.host}:{loopback.port} (token required)" if loopback else ""
        err.print(f"memhop serve: answering `memhop ask` for {store} on {socket}{also} (Ctrl-C stops)", markup=False)

    def answered(seconds: float) -> None:
        if not quiet:  # never the question: this line may end up in a log file
            err.print(f"memhop serve: answered in {seconds * 1000:.0f} ms", markup=False)

    serve_store(db, engine, render_for_client, tcp=loopback, ready=ready, answered=answered)
    err.print("memhop serve: stopped", markup=False)


def render_for_client(result: Answer, how: dict[str, Any]) -> str:
    """What `memhop ask` prints for `result`, drawn for the client's stdout (`how`: its
    --json and --trace, `line` for `ask -`, and its screen as `screen_of` describes it)."""
    from memhop.cli.render.answer import render_answer, render_answer_line

    output = _Output(str(how.get("encoding") or "utf-8"))
    if how.get("line"):
        render_answer_line(result, output)
    else:
        render_answer(result, as_json=bool(how.get("json")), trace=bool(how.get("trace")),
                      console=console_like(how, output))
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
