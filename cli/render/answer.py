"""An answer as text with the memories it was read from (or, for "I don't know", the
closest ones), as JSON (one document, or one line per question from stdin), and the trace
tree: stage 1 scores, each hop, facts chosen and cut, the evidence turns, and the sentence
the answer came from."""

from __future__ import annotations

import json
import sys
from typing import IO, TYPE_CHECKING

from rich.console import Console
from rich.text import Text
from rich.tree import Tree

from memhop.cli.common import out, print_json
from memhop.cli.render.cite import cited_line, where

if TYPE_CHECKING:
    from memhop.core.read import Answer
    from memhop.core.trace import Trace

SUPPORT_SHOWN = 3  # memories printed under an answer
MATCHED = {
    "words": "the answer's words",
    "date": "the answer's date, as written here",
    "some words": "some of the answer's words",
    "own date": "only the turn's own date",
    "source": "the sentence the answer was worked out from",
}
TRACE_WIDTH = 80  # the tree is laid out for this many columns when stdout is not a terminal
SNIPPET_CHARS = 90
STAGE_STYLE = "bold"


def render_answer(result: Answer, as_json: bool, trace: bool, console: Console = out) -> None:
    """On stdout, or on `console` (`memhop serve` renders for a client's terminal)."""
    if as_json:
        print_json(result.to_dict(), console.file)
        return
    console.print(result.text, markup=False, highlight=False)
    items = result.support.items[:SUPPORT_SHOWN]
    if items and items[0].closest:
        console.print("Closest memories:" if not result.answered else "No memory states this answer; the closest:",
                      markup=False, highlight=False)
    for item in items:
        console.print(cited_line(item.cited, item.quote), markup=False, highlight=False)
    if trace:
        render_trace(result, console)


def render_answer_line(result: Answer, file: IO[str] | None = None) -> None:
    """One JSON object on one line, flushed: a caller reading answers as they come."""
    file = file or sys.stdout
    file.write(json.dumps(result.to_dict(), ensure_ascii=False, default=str) + "\n")
    file.flush()


def render_trace(result: Answer, console: Console = out) -> None:
    """The read path as a tree: stage 1 scores, each hop, facts chosen and cut, evidence."""
    trace = result.context.trace
    tree = Tree(_text(("Trace: ", STAGE_STYLE), trace.question))
    if trace.route is not None:
        tree.add(_text(("Question type: ", "dim"), trace.route.kind, (f" ({trace.route.why})", "dim")))
    if trace.period:
        tree.add(_text(("Period asked about: ", "dim"), trace.period))
    if trace.query != trace.question:
        tree.add(_text(("Facts and turns ranked by: ", "dim"), trace.query))
    _stage1(tree, trace)
    _stage2(tree, trace)
    _stage3(tree, trace)
    _evidence(tree, result)
    times = ", ".join(f"{k} {v:.0f} ms" for k, v in trace.timings_ms.items())
    tree.add(_text(("Timings: ", "dim"), (times, "dim")))
    _answer(tree, result)
    width = console.width if console.is_terminal else TRACE_WIDTH
    Console(
        file=console.file, width=width, highlight=False, force_terminal=console.is_terminal,
        color_system=console.color_system, no_color=console.no_color,  # type: ignore[arg-type]
    ).print(tree)


def _text(*parts: str | tuple[str, str]) -> Text:
    """Plain text (never markup): diary text may contain [brackets]."""
    return Text.assemble(*parts)


def _cut(text: str, limit: int = SNIPPET_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _mark(ok: bool) -> tuple[str, str]:
    return ("✓ ", "green") if ok else ("✗ ", "red")


def _stage1(tree: Tree, trace: Trace) -> None:
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


def _stage2(tree: Tree, trace: Trace) -> None:
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
            how = "  named in a profile" + (", joined by the chain" if link.joined else "")
            step = chain.add(_text(f"{link.source} → {link.target}", (how, "dim")))
            step.add(_text(("“" + _cut(link.matched) + "”", "italic")))


def _stage3(tree: Tree, trace: Trace) -> None:
    cap = trace.settings["facts_per_entity"]
    node = tree.add(_text((f"Stage 3 · verified facts (up to {cap} per entity)", STAGE_STYLE)))
    if not trace.settings["residuals"]:
        node.add(_text(("facts disabled (--no-facts)", "dim")))
        return
    for facts in trace.facts:
        branch = node.add(_text(facts.entity))
        for fact in facts.chosen:
            line = _text(_mark(True), (f"{fact.score:.2f} ", "cyan"), (f"#{fact.fact_id} ", "dim"))
            branch.add(line.append(_cut(fact.text)))
        for fact in facts.cut:
            line = _text(("cut ", "red"), (f"{fact.score:.2f} ", "cyan"), (f"#{fact.fact_id} ", "dim"))
            branch.add(line.append(_cut(fact.text), "dim"))
        if facts.cut_count > len(facts.cut):
            branch.add(_text((f"… {facts.cut_count - len(facts.cut)} more cut", "dim")))
        if facts.superseded:
            branch.add(_text((f"{facts.superseded} superseded (not considered)", "dim")))
        if not facts.chosen and not facts.cut_count:
            branch.add(_text(("no facts", "dim")))


def _evidence(tree: Tree, result: Answer) -> None:
    items = result.context.evidence
    trace = result.context.trace
    title = f"Evidence · {len(items)} raw turns, in the order given, ranked by {trace.retriever or 'prograph'}"
    node = tree.add(_text((title, STAGE_STYLE)))
    for stage in trace.retrieval:
        node.add(_text((stage, "dim")))
    for item in items:
        turn, pick = item.turn, item.pick
        day = turn.timestamp.strftime("%Y-%m-%d") if turn.timestamp else "undated"
        why = pick.reason + (f": {pick.via}" if pick.via else "")
        head = _text((f"{day} ", "cyan"), turn.speaker, (f"  {turn.external_id or turn.id} · {why}", "dim"))
        node.add(head).add(_text(_cut(turn.text)))


def _answer(tree: Tree, result: Answer) -> None:
    """The answer last, with the sentence it was read from and the answer in [brackets]."""
    node = tree.add(_text(("Answer: ", STAGE_STYLE), result.text))
    if result.context.trace.answered_by:
        node.add(_text(("answered by ", "dim"), result.context.trace.answered_by))
    source = result.context.trace.answer_from
    if source is None:
        why = "refused: no memory supports an answer" if not result.answered else "no memory contains this answer"
        node.add(_text((why, "yellow")))
        return
    head = next(i.cited for i in result.support.items if i.cited.kind == source.kind and i.cited.id == source.id)
    how = MATCHED.get(source.how, source.how)
    node.add(_text(("read from ", "dim"), f"{source.kind} {source.id} · {where(head)}", (f"  ({how})", "dim")))
    sentence = " ".join(source.sentence.split()) if source.span is None else source.sentence
    limit = 2 * SNIPPET_CHARS
    if source.span is not None:
        start, end = source.span
        sentence = f"{sentence[:start]}[{sentence[start:end]}]{sentence[end:]}"
        if len(sentence) > limit and start > limit // 2:  # keep the span in view
            sentence = "…" + sentence[start - limit // 2 :]
    node.add(_text(("“" + _cut(sentence, limit) + "”", "italic")))
