"""`memhop ask`: one question (or one per stdin line), its answer and, on request, the trace."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

import memhop
from memhop.cli.common import DbOption, EngineOption, JsonOption, SinceOption, UntilOption, reports_errors

if TYPE_CHECKING:
    from memhop.core.api import Memory
    from memhop.core.serve_client import WarmServer

QuestionArg = Annotated[str, typer.Argument(help='The question; "-" reads one question per line from stdin.')]


@reports_errors
def ask(
    question: QuestionArg,
    top: Annotated[int | None, typer.Option("--top", min=1, help="Profiles kept by stage 1 (M).")] = None,
    hops: Annotated[int | None, typer.Option("--hops", min=0, help="Expansion rounds at most (H).")] = None,
    gate: Annotated[float | None, typer.Option("--gate", help="Score a named entity needs to join.")] = None,
    no_expand: Annotated[bool, typer.Option("--no-expand", help="Skip stage 2: no hops.")] = False,
    no_facts: Annotated[bool, typer.Option("--no-facts", help="Leave out the verified facts.")] = False,
    evidence: Annotated[int | None, typer.Option("--evidence", min=0, help="Raw turns given (K).")] = None,
    retriever: Annotated[
        str | None,
        typer.Option("--retriever", help="How raw turns are ranked: prograph (default), graph, evograph, fused or hero."),
    ] = None,
    since: SinceOption = None,
    until: UntilOption = None,
    trace: Annotated[bool, typer.Option("--trace", help="Show every decision of the read path.")] = False,
    fallback: Annotated[
        bool, typer.Option("--fallback", help="If the model server fails, answer with the offline answerer.")
    ] = False,
    json: JsonOption = False,
    db: DbOption = None,
    engine: EngineOption = None,
) -> None:
    """Answer a question from memory, hopping from profile to profile.

    The answer comes with the memories it was read from (date · speaker · file); "I don't
    know" comes with the closest memories found. Both exit 0; --json says `answered`.
    While `memhop serve` runs for this store, the answer comes from it, the same but sooner.

    \b
    Example:
      memhop ask "What instrument does Alice's roommate play?" --trace
      memhop ask "Where did Bob work?" --until "March 2024"
      memhop ask - < questions.txt
    """
    # A question is a few small matrix products: BLAS threads only spin against each other
    # (10x slower on a busy 2-core machine). Must be set before numpy loads; a user's own
    # setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from memhop.cli.common import out
    from memhop.cli.serve import screen_of
    from memhop.core.serve_client import WarmServer

    options: dict[str, Any] = {
        "since": since, "until": until, "fallback": fallback, "top": top, "hops": hops, "gate": gate,
        "evidence": evidence, "expand": False if no_expand else None, "facts": False if no_facts else None,
        "retriever": retriever,
    }
    with memhop.open(db, engine, read_only=True) as mem:  # opens nothing until asked
        server = WarmServer.find(mem.settings)  # `memhop serve` for this store, if one runs
        if question == "-":
            _answer_lines(mem, server, options)
            return
        served = server.ask(question, options, {"json": json, "trace": trace, **screen_of(out)}) if server else None
        result = mem.ask(question, **options) if served is None else None
    if result is None:
        sys.stdout.write(served or "")  # the server's answer, drawn for this stdout
        return
    from memhop.cli.render.answer import render_answer

    render_answer(result, as_json=json, trace=trace)


def _answer_lines(mem: Memory, server: WarmServer | None, options: dict[str, Any]) -> None:
    """One JSON line per question on stdin, each printed as soon as it is answered; by the
    server while it answers, then here."""
    from memhop.cli.render.answer import render_answer_line

    for line in sys.stdin:
        if not line.strip():
            continue
        served = server.ask(line.strip(), options, {"line": True}) if server else None
        if served is None:
            server = None  # gone, or never there
            render_answer_line(mem.ask(line.strip(), **options))
        else:
            sys.stdout.write(served)
            sys.stdout.flush()
