"""`memhop ask`: one question (or one per stdin line), its answer and, on request, the trace."""

from __future__ import annotations

import json as json_lib
import os
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from memhop.cli.common import DbOption, EngineOption, JsonOption, opened_store, out, print_json
from memhop.cli.common import reports_errors, settings

if TYPE_CHECKING:
    from rich.text import Text
    from rich.tree import Tree

    from memhop.core.read import Answer
    from memhop.core.trace import Trace

TRACE_WIDTH = 80  # the tree is laid out for this many columns when stdout is not a terminal
SNIPPET_CHARS = 90
STAGE_STYLE = "bold"

QuestionArg = Annotated[str, typer.Argument(help='The question; "-" reads one question per line from stdin.')]


@reports_errors
def ask(
    question: QuestionArg,
    top: Annotated[Optional[int], typer.Option("--top", min=1, help="Profiles kept by stage 1 (M).")] = None,
    hops: Annotated[Optional[int], typer.Option("--hops", min=0, help="Expansion rounds at most (H).")] = None,
    gate: Annotated[Optional[float], typer.Option("--gate", help="Score a named entity needs to join.")] = None,
    no_expand: Annotated[bool, typer.Option("--no-expand", help="Skip stage 2: no hops.")] = False,
    no_residuals: Annotated[bool, typer.Option("--no-residuals", help="No verified facts.")] = False,
    evidence: Annotated[Optional[int], typer.Option("--evidence", min=0, help="Raw turns given (K).")] = None,
    trace: Annotated[bool, typer.Option("--trace", help="Show every decision of the read path.")] = False,
    json: JsonOption = False,
    db: DbOption = None,
    engine: EngineOption = None,
) -> None:
    """Answer a question from memory, hopping from profile to profile."""
    # A question is a few small matrix products: BLAS threads only spin against each other
    # (10x slower on a busy 2-core machine). Must be set before numpy loads; a user's own
    # setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from memhop.core.embed import get_embedder
    from memhop.core.read import answerer
    from memhop.core.read import ask as run_ask

    conf = settings(db, engine)
    flags = {"top": top, "hops": hops, "gate": gate, "evidence": evidence}
    options = replace(conf.read, **{k: v for k, v in flags.items() if v is not None})
    if no_expand:
        options = replace(options, expand=False)
    if no_residuals:
        options = replace(options, residuals=False)
    with opened_store(conf, read_only=True) as store:
        embedder = get_embedder(conf.embedder)
        answer = answerer(conf)
        if question == "-":
            for line in sys.stdin:
                if line.strip():
                    result = run_ask(store, line.strip(), embedder, options, answer)
                    sys.stdout.write(json_lib.dumps(result.to_dict(), ensure_ascii=False, default=str) + "\n")
                    sys.stdout.flush()
            return
        result = run_ask(store, question, embedder, options, answer)
    if json:
        print_json(result.to_dict())
        return
    out.print(result.text, markup=False, highlight=False)
    if trace:
        render_trace(result)


def render_trace(result: "Answer") -> None:
    """The read path as a tree: stage 1 scores, each hop, facts chosen and cut, evidence."""
    from rich.console import Console
    from rich.tree import Tree

    trace = result.context.trace
    tree = Tree(_text(("Trace: ", STAGE_STYLE), trace.question))
    if trace.query != trace.question:
        tree.add(_text(("Facts and turns ranked by: ", "dim"), trace.query))
    _stage1(tree, trace)
    _stage2(tree, trace)
    _stage3(tree, trace)
    _evidence(tree, result)
    times = ", ".join(f"{k} {v:.0f} ms" for k, v in trace.timings_ms.items())
    tree.add(_text(("Timings: ", "dim"), (times, "dim")))
    width = out.width if out.is_terminal else TRACE_WIDTH
    Console(file=sys.stdout, width=width, highlight=False, force_terminal=out.is_terminal).print(tree)


def _text(*parts: "str | tuple[str, str]") -> "Text":
    """Plain text (never markup): diary text may contain [brackets]."""
    from rich.text import Text

    return Text.assemble(*parts)


def _cut(text: str, limit: int = SNIPPET_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _mark(ok: bool) -> tuple[str, str]:
    return ("✓ ", "green") if ok else ("✗ ", "red")


def _stage1(tree: "Tree", trace: "Trace") -> None:
    s = trace.settings
    node = tree.add(_text((f"Stage 1 · profiles (top {s['top']}, name boost +{s['name_boost']:.2f})", STAGE_STYLE)))
    if not trace.stage1:
        node.add(_text(("no profiles yet (run `memhop ingest`)", "dim")))
    for row in trace.stage1:
        line = _text(_mark(row.selected), (f"{row.score:.2f} ", "cyan"), row.entity)
        if row.boost:
            line.append(f"  = {row.cosine:.2f} + {row.boost:.2f} named \"{row.named_as}\"", "yellow")
        node.add(line)
    if trace.stage1_unshown:
        node.add(_text((f"… {trace.stage1_unshown} more below", "dim")))


def _stage2(tree: "Tree", trace: "Trace") -> None:
    s = trace.settings
    node = tree.add(_text((f"Stage 2 · expansion (gate {s['gate']:.2f}, up to {s['hops']} hops)", STAGE_STYLE)))
    for hop in trace.hops:
        branch = node.add(_text((f"hop {hop.round}", STAGE_STYLE), f" → added: {', '.join(hop.added) or 'none'}"))
        for cand in hop.candidates:
            score = "no profile" if cand.score is None else f"{cand.score:.2f}"
            line = _text(_mark(cand.passed), (f"{score} ", "cyan"), cand.entity, (f"  named by {cand.named_by}", "dim"))
            branch.add(line).add(_text(("“" + _cut(cand.matched) + "”", "italic")))
    node.add(_text(("stopped: ", "dim"), trace.stopped or "—"))
    if trace.chain:
        chain = tree.add(_text(("Chain: ", STAGE_STYLE), " → ".join(trace.chain)))
        for link in trace.links:
            step = chain.add(_text(f"{link.source} → {link.target}", ("  named in a profile", "dim")))
            step.add(_text(("“" + _cut(link.matched) + "”", "italic")))


def _stage3(tree: "Tree", trace: "Trace") -> None:
    cap = trace.settings["facts_per_entity"]
    node = tree.add(_text((f"Stage 3 · verified facts (up to {cap} per entity)", STAGE_STYLE)))
    if not trace.settings["residuals"]:
        node.add(_text(("facts disabled (--no-residuals)", "dim")))
        return
    for facts in trace.facts:
        branch = node.add(_text(facts.entity))
        for fact in facts.chosen:
            line = _text(_mark(True), (f"{fact.score:.2f} ", "cyan"), (f"#{fact.residual_id} ", "dim"))
            branch.add(line.append(_cut(fact.text)))
        for fact in facts.cut:
            line = _text(("cut ", "red"), (f"{fact.score:.2f} ", "cyan"), (f"#{fact.residual_id} ", "dim"))
            branch.add(line.append(_cut(fact.text), "dim"))
        if facts.cut_count > len(facts.cut):
            branch.add(_text((f"… {facts.cut_count - len(facts.cut)} more cut", "dim")))
        if facts.superseded:
            branch.add(_text((f"{facts.superseded} superseded (not considered)", "dim")))
        if not facts.chosen and not facts.cut_count:
            branch.add(_text(("no facts", "dim")))


def _evidence(tree: "Tree", result: "Answer") -> None:
    items = result.context.evidence
    node = tree.add(_text((f"Evidence · {len(items)} raw turns, in the order given", STAGE_STYLE)))
    for item in items:
        turn, pick = item.turn, item.pick
        day = turn.timestamp.strftime("%Y-%m-%d") if turn.timestamp else "undated"
        why = pick.reason + (f": {pick.via}" if pick.via else "")
        head = _text((f"{day} ", "cyan"), turn.speaker, (f"  {turn.external_id or turn.id} · {why}", "dim"))
        node.add(head).add(_text(_cut(turn.text)))
