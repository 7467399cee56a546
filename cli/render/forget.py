"""A forget: the plan (every row a dry run would change), the question asked before
anything changes, and the proof afterwards that nothing of it is left."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console

from memhop.cli.common import err, out, print_json

if TYPE_CHECKING:
    from memhop.core.forget import ForgetReport
    from memhop.core.store.intent import Resumed

PREVIEW = 100  # characters of a rewritten value shown in a listing


def render_forget(report: ForgetReport, as_json: bool) -> None:
    if as_json:
        print_json(report.to_json())
        return
    _summary(report, out)
    if report.dry_run:
        for change in report.changes:
            out.print(_describe(change), markup=False, highlight=False)
        for found in report.sentences:
            out.print(f"redact in {found['table']} {found['key']}: {found['sentence']!r}", markup=False, highlight=False)
        out.print("dry run: nothing was changed.")
        return
    residue = report.residue or {}
    where = "every text column" if report.target == "entity" else f"what referred to the {report.target}"
    files = ", ".join(map(str, residue.get("files_scanned", [])))
    out.print(
        f"re-embedded {report.reembedded} rows; file compacted; residue scan: 0 matches in {where} "
        f"and in {residue.get('bytes_scanned', 0)} bytes of {files}",
        markup=False,
    )


def render_resumed(done: Resumed | None, as_json: bool) -> None:
    if as_json:
        print_json(None if done is None else done.to_json())
    elif done is None:
        out.print("no interrupted forget: nothing to resume.")
    elif not done.committed:
        out.print(f"the interrupted forget ({done.kind}) had changed nothing; run it again.", markup=False)
    else:
        residue = done.residue
        out.print(
            f"finished the interrupted forget ({done.kind}): file compacted; residue scan: 0 matches in every "
            f"text column and in {residue.get('bytes_scanned', 0)} bytes of {', '.join(residue.get('files_scanned', []))}",
            markup=False,
        )


def interactive() -> bool:
    return sys.stdin.isatty()


def confirm_forget(report: ForgetReport) -> bool:
    """The plan on stderr, then yes or no; without a terminal to ask on, exit 2 unchanged."""
    if not interactive():
        err.print(
            "[red]Error:[/red] forget needs confirmation and there is no terminal to ask on; "
            "pass --yes to go ahead (or --dry-run to see the plan). Nothing was changed.",
            markup=True,
        )
        raise typer.Exit(code=2)
    _summary(report, err)
    return typer.confirm(f"Forget {report.target} {report.label!r}? This cannot be undone", default=False, err=True)


def _summary(report: ForgetReport, console: Console) -> None:
    verb = "Would forget" if report.dry_run else "Forgot" if report.residue is not None else "Forgetting"
    console.print(f"{verb} {report.target} {report.label!r} ({report.redactor} redaction):", markup=False)
    for key, count in report.summary.items():
        console.print(f"  {key}: {count}", markup=False)
    if report.skipped_forms:
        console.print(f"  left alone (also names another entity): {', '.join(report.skipped_forms)}", markup=False)
    if report.note:
        console.print(f"  note: {report.note}", markup=False)


def _describe(change: dict[str, Any]) -> str:
    if change["action"] == "delete":
        return f"delete {change['table']} where {change['where']} in {change['values']}"
    sets = "; ".join(f"{col} -> {_preview(val)}" for col, val in change["set"].items())
    return f"update {change['table']} {change['key']}: {sets}"


def _preview(value: Any) -> str:
    text = " ".join(str(value).split())
    return repr(text if len(text) <= PREVIEW else text[:PREVIEW] + "…")
