"""What a command that changed something did: ingest, rebuild, an edit, an export."""

from __future__ import annotations

import sys
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape

from memhop.cli.common import err, out, print_json

if TYPE_CHECKING:
    from memhop.core.edit import EditReport
    from memhop.core.ingest import IngestReport
    from memhop.core.plan import IngestPlan
    from memhop.core.write import WriteReport

def write_json(report: WriteReport) -> dict[str, Any]:
    from memhop.core.model import for_users

    return {for_users(key): value for key, value in asdict(report).items()}


def render_ingest(report: IngestReport, as_json: bool, verbose: bool = False) -> None:
    if as_json:
        write = write_json(report.write) if report.write else None
        print_json({"files": [asdict(f) for f in report.files], "write": write})
        return
    for f in report.files:
        if f.status == "imported":
            out.print(f"{f.path}: imported {f.sessions} sessions, {f.turns} turns ({f.format}, {f.seconds:.1f}s)")
        elif f.status == "unchanged":
            out.print(f"{f.path}: unchanged (already imported)")
        elif f.status == "ignored" and verbose:
            err.print(f"{f.path}: ignored ({f.reason})")
    skipped = report.with_status("skipped")
    if skipped:
        listed = "; ".join(f"{f.path} ({f.reason})" for f in skipped)
        err.print(f"skipped {len(skipped)} file(s) in no format memhop knows: {listed}")
    for f in report.failed:
        err.print(f"[red]Error:[/red] {f.error}")
    if report.failed:
        done = len(report.files) - len(report.failed)
        err.print(f"{len(report.failed)} file(s) failed; {done} imported or unchanged.")
    if report.write is not None:
        render_write(report.write, as_json=False)


def render_plan(plan: IngestPlan, as_json: bool) -> None:
    """The plan on stdout; a file that cannot be read on stderr, as ingest reports it."""
    if as_json:
        print_json({**asdict(plan), "calls": plan.calls})
        return
    for f in plan.files:
        if f.status == "new":
            out.print(f"{f.path}: {f.sessions} new sessions, {f.turns} turns ({f.format})", markup=False)
        elif f.status == "unchanged":
            out.print(f"{f.path}: unchanged (already imported)", markup=False)
        elif f.status == "skipped":
            err.print(f"{f.path}: skipped ({f.reason})", markup=False)
    for f in plan.failed:
        err.print(f"[red]Error:[/red] {escape(f.error or '')}")
    pending = f" (incl. {plan.pending} left pending by an earlier run)" if plan.pending else ""
    held = f", {plan.held} held entity updates to retry" if plan.held else ""
    out.print(f"sessions to write: {plan.sessions}{pending}{held}", markup=False)
    out.print(
        f"engine calls ({plan.engine}): {plan.identify_calls} identify (one a session) + "
        f"≈ {plan.coextract_calls} co-extract = ≈ {plan.calls}   [{plan.calls_note}]",
        markup=False,
    )
    if plan.prompt_tokens is not None:
        out.print(f"prompt tokens: ≈ {plan.prompt_tokens:,}   [{plan.tokens_note}]", markup=False)
    else:
        out.print(f"prompt tokens: none (the {plan.engine} engine calls no model)", markup=False)
    out.print("plan only: no model was called and nothing was written.", markup=False)


def render_write(report: WriteReport, as_json: bool) -> None:
    if as_json:
        print_json(write_json(report))
        return
    usage = report.usage
    out.print(
        f"memories ({report.engine}): {report.sessions} sessions, {report.entities_added} new entities, "
        f"{report.residuals_added} facts (+{report.residuals_deduplicated} duplicates dropped, "
        f"{report.residuals_superseded} superseded); {int(usage.get('calls', 0))} engine calls, "
        + (f"{int(usage['cached'])} replies reused, " if usage.get("cached") else "")
        + (f"{report.released} held updates applied, " if report.released else "")
        + f"{report.seconds:.1f}s"
    )
    for warning in report.warnings:
        err.print(f"[yellow]Warning:[/yellow] {escape(warning)}")
    for held in report.quarantined:
        err.print(f"[yellow]Quarantined:[/yellow] {escape(held.entity)}'s update of session {held.session_id}: "
                  f"{escape(held.reason)}")
    if report.quarantined:
        err.print(f"{len(report.quarantined)} entity update(s) held back (listed by `memhop stats`); "
                  "the next ingest or rebuild retries them, in session order.")
    for failure in report.failures:
        err.print(f"[red]Error:[/red] session {failure.session_id}: {failure.error}")
    if report.failures:
        err.print(f"{len(report.failures)} session(s) not written; run the same command again to resume.")


def render_edit(report: EditReport, as_json: bool) -> None:
    if as_json:
        print_json(report.to_json())
        return
    if not report.changed:
        out.print(f"{report.op}: {report.entity}: nothing to change", markup=False)
        return
    out.print(("would " if report.dry_run else "") + _edit_line(report), markup=False)
    if report.dry_run:
        out.print("dry run: nothing was changed.")


def _edit_line(report: EditReport) -> str:
    details = ", ".join(f"{k}: {v}" for k, v in report.details.items())
    return f"{report.op}: {report.entity}" + (f" ({details})" if details else "")


def confirm_edit(report: EditReport) -> bool:
    """A merge or rename: the plan on stderr, then yes or no; without a terminal, exit 2."""
    from memhop.cli.render import forget as forget_render  # one place decides "is there a terminal"

    if not forget_render.interactive():
        err.print(
            f"[red]Error:[/red] {report.op} needs confirmation and there is no terminal to ask on; "
            "pass --yes to go ahead (or --dry-run to see the plan). Nothing was changed.",
            markup=True,
        )
        raise typer.Exit(code=2)
    err.print("about to " + _edit_line(report), markup=False)
    return typer.confirm(f"{report.op.capitalize()} now?", default=False, err=True)


def render_export(text: str, output: str) -> None:
    """The export itself on stdout, or one line on stderr saying where it went."""
    if output == "-":
        sys.stdout.write(text)
        return
    err.print(f"exported to {output}", markup=False)
