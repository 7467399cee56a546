"""memhop forget, edit, fact, merge, rename, entities: parse, call one core function, render."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from memhop.cli.common import (
    DbOption,
    EngineOption,
    JsonOption,
    err,
    opened_store,
    out,
    print_json,
    reports_errors,
    settings,
)

if TYPE_CHECKING:
    from memhop.core.edit import EditReport
    from memhop.core.forget import ForgetReport

NameArg = Annotated[str, typer.Argument(help="An entity: full name, first name or alias.")]
PREVIEW = 100  # characters of a rewritten value shown in a listing

fact_app = typer.Typer(help="Add, correct or remove one fact of an entity.", no_args_is_help=True)


@reports_errors
def forget(
    name: Annotated[
        Optional[str], typer.Argument(help="The entity to forget (name or alias).", show_default=False)
    ] = None,
    fact: Annotated[
        Optional[int], typer.Option("--fact", help="Forget one fact by its id (see `memhop show`).")
    ] = None,
    source: Annotated[
        Optional[str],
        typer.Option("--source", help="Forget an imported file and what came only from it; - reads stdin."),
    ] = None,
    drop_turns: Annotated[
        bool, typer.Option("--drop-turns", help="Delete the raw turns naming it instead of redacting them.")
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="List exactly what would change, and change nothing.")
    ] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    json: JsonOption = False,
    db: DbOption = None,
    engine: EngineOption = None,
) -> None:
    """Remove an entity, a fact or a source everywhere, then prove it is gone."""
    from memhop.core.embed import get_embedder
    from memhop.core.forget import forget as run_forget
    from memhop.core.forget import redactor_for

    conf = settings(db, engine)
    with opened_store(conf, read_only=dry_run) as store:
        report = run_forget(
            store,
            None if dry_run else get_embedder(conf.embedder),
            name=name,
            fact=fact,
            source=source,
            drop_turns=drop_turns,
            dry_run=dry_run,
            confirm=None if yes else _ask,
            redactor=redactor_for(conf) if name is not None else None,
        )
    render_forget(report, as_json=json)


def _interactive() -> bool:
    return sys.stdin.isatty()


def _ask(report: ForgetReport) -> bool:
    if not _interactive():
        err.print(
            "[red]Error:[/red] forget needs confirmation and there is no terminal to ask on; "
            "pass --yes to go ahead (or --dry-run to see the plan). Nothing was changed.",
            markup=True,
        )
        raise typer.Exit(code=2)
    _summary(report, err)
    return typer.confirm(f"Forget {report.target} {report.label!r}? This cannot be undone", default=False, err=True)


def render_forget(report: ForgetReport, as_json: bool) -> None:
    if as_json:
        print_json(report.to_json())
        return
    _summary(report, out)
    if report.dry_run:
        for change in report.changes:
            out.print(_describe(change), markup=False, highlight=False)
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


def _summary(report: ForgetReport, console: Any) -> None:
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


@reports_errors
def edit(
    name: NameArg,
    set_text: Annotated[
        Optional[str], typer.Option("--set", help="The new profile text (- reads stdin) instead of $EDITOR.")
    ] = None,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Correct an entity's profile in $EDITOR, or set it with --set."""
    import click

    from memhop.core.edit import edit_profile
    from memhop.core.embed import get_embedder

    text = sys.stdin.read() if set_text == "-" else set_text
    conf = settings(db)
    with opened_store(conf) as store:
        report = edit_profile(
            store, name, get_embedder(conf.embedder), text=text, editor=None if text is not None else click.edit
        )
    render_edit(report, as_json=json)


@fact_app.command("add")
@reports_errors
def fact_add(
    name: NameArg,
    text: Annotated[str, typer.Argument(help="The fact, self-contained (it should name the entity).")],
    category: Annotated[
        Optional[str], typer.Option("--category", "-c", help="One of the seven residual categories.")
    ] = None,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Add a fact to an entity."""
    from memhop.core.edit import add_fact

    _run_edit(lambda store, embedder: add_fact(store, name, text, embedder, category), db, json)


@fact_app.command("edit")
@reports_errors
def fact_edit(
    fact_id: Annotated[int, typer.Argument(help="The fact's id (see `memhop show`).")],
    text: Annotated[str, typer.Argument(help="The corrected fact.")],
    category: Annotated[Optional[str], typer.Option("--category", "-c", help="Change its category too.")] = None,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Correct a fact's text (and category)."""
    from memhop.core.edit import edit_fact

    _run_edit(lambda store, embedder: edit_fact(store, fact_id, text, embedder, category), db, json)


@fact_app.command("rm")
@reports_errors
def fact_rm(
    fact_id: Annotated[int, typer.Argument(help="The fact's id (see `memhop show`).")],
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Remove a fact for good (the same as `memhop forget --fact ID --yes`)."""
    from memhop.core.embed import get_embedder
    from memhop.core.forget import forget as run_forget

    conf = settings(db)
    with opened_store(conf) as store:
        report = run_forget(store, get_embedder(conf.embedder), fact=fact_id)
    render_forget(report, as_json=json)


@reports_errors
def merge(
    keep: Annotated[str, typer.Argument(help="The entity that stays.")],
    fold: Annotated[str, typer.Argument(help="The entity folded into it; its name becomes an alias.")],
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """One person under two names: fold B into A."""
    from memhop.core.edit import merge as run_merge

    _run_edit(lambda store, embedder: run_merge(store, keep, fold, embedder), db, json)


@reports_errors
def rename(
    old: NameArg,
    new: Annotated[str, typer.Argument(help="The new canonical name.")],
    no_alias: Annotated[bool, typer.Option("--no-alias", help="Do not keep the old name as an alias.")] = False,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Give an entity a new name, in every profile and fact too."""
    from memhop.core.edit import rename as run_rename

    _run_edit(lambda store, embedder: run_rename(store, old, new, embedder, keep_alias=not no_alias), db, json)


def _run_edit(call: Callable[[Any, Any], EditReport], db: Optional[Path], as_json: bool) -> None:
    from memhop.core.embed import get_embedder

    conf = settings(db)
    with opened_store(conf) as store:
        report = call(store, get_embedder(conf.embedder))
    render_edit(report, as_json=as_json)


def render_edit(report: EditReport, as_json: bool) -> None:
    if as_json:
        print_json(report.to_json())
        return
    if not report.changed:
        out.print(f"{report.op}: {report.entity}: nothing to change", markup=False)
        return
    details = ", ".join(f"{k}: {v}" for k, v in report.details.items())
    out.print(f"{report.op}: {report.entity}" + (f" ({details})" if details else ""), markup=False)


@reports_errors
def entities(json: JsonOption = False, db: DbOption = None) -> None:
    """Every entity memhop knows: kind, aliases, facts and mentions."""
    from rich.table import Table

    from memhop.core.export import list_entities

    with opened_store(settings(db), read_only=True) as store:
        rows = list_entities(store)
    if json:
        print_json([r.to_json() for r in rows])
        return
    table = Table("name", "kind", "aliases", "facts", "mentions", box=None)
    for r in rows:
        table.add_row(r.name, r.kind, ", ".join(r.aliases), str(r.facts), str(r.mentions))
    out.print(table)
