"""memhop forget, edit, fact, merge, rename, entities: parse, one call on the memory, render."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

import memhop
from memhop.cli.common import HELP_OPTIONS, DbOption, EngineOption, JsonOption, reports_errors
from memhop.core.model import CATEGORIES  # plain constants: cheap at `memhop --help`

NameArg = Annotated[str, typer.Argument(help="An entity: full name, alias, first name or surname (case and accents aside).")]
FactIdArg = Annotated[int, typer.Argument(help="The fact's id (see `memhop show`).")]

fact_app = typer.Typer(
    help="Add, correct or remove one fact of an entity.",
    epilog='\b\nExample:\n  memhop fact add Bob "Bob Kowalski plays the piano."\n  memhop fact rm 12',
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
)


@reports_errors
def forget(
    name: Annotated[
        str | None, typer.Argument(help="The entity to forget (name or alias).", show_default=False)
    ] = None,
    fact: Annotated[
        int | None, typer.Option("--fact", help="Forget one fact by its id (see `memhop show`).")
    ] = None,
    source: Annotated[
        str | None,
        typer.Option(
            "--source", help="Forget an import (its id or path from `memhop sources`, or the file; - reads stdin)."
        ),
    ] = None,
    drop_turns: Annotated[
        bool, typer.Option("--drop-turns", help="Delete the raw turns naming it instead of redacting them.")
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="List exactly what would change, and change nothing.")
    ] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    resume: Annotated[
        bool, typer.Option("--resume", help="Finish a forget that a crash or a full disk interrupted.")
    ] = False,
    json: JsonOption = False,
    db: DbOption = None,
    engine: EngineOption = None,
) -> None:
    """Remove an entity, a fact or a source everywhere, then prove it is gone.

    \b
    Example:
      memhop forget Carol --dry-run
      memhop forget --fact 12 --yes
      memhop forget --resume
    """
    from memhop.cli.render.forget import confirm_forget, render_forget, render_resumed
    from memhop.core.forget import one_target

    if resume:
        if name is not None or fact is not None or source is not None or dry_run:
            raise typer.BadParameter("--resume takes no NAME, --fact, --source or --dry-run", param_hint="--resume")
        with memhop.open(db, engine, create=False) as mem:
            render_resumed(mem.resume_forget(), as_json=json)
        return
    one_target(name, fact, source)
    with memhop.open(db, engine, read_only=dry_run, create=False) as mem:
        report = mem.forget(
            name,
            fact=fact,
            source=source,
            drop_turns=drop_turns,
            dry_run=dry_run,
            confirm=None if yes else confirm_forget,
        )
    render_forget(report, as_json=json)


@reports_errors
def edit(
    name: NameArg,
    set_text: Annotated[
        str | None, typer.Option("--set", help="The new profile text (- reads stdin) instead of $EDITOR.")
    ] = None,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Correct an entity's profile in $EDITOR, or set it with --set.

    \b
    Example:
      memhop edit Priya --set "Priya Shah is an editor at a publishing house."
    """
    import click

    from memhop.cli.render.reports import render_edit

    text = sys.stdin.read() if set_text == "-" else set_text
    with memhop.open(db, create=False) as mem:
        report = mem.edit(name, text, editor=None if text is not None else click.edit)
    render_edit(report, as_json=json)


@fact_app.command("add")
@reports_errors
def fact_add(
    name: NameArg,
    text: Annotated[str, typer.Argument(help="The fact, self-contained (it should name the entity).")],
    category: Annotated[
        str | None,
        typer.Option("--category", "-c", help=f"One of: {', '.join(CATEGORIES)} (default identity)."),
    ] = None,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Add a fact to an entity.

    \b
    Example:
      memhop fact add Priya "Priya is an editor at a publishing house." -c identity
    """
    from memhop.cli.render.reports import render_edit

    with memhop.open(db, create=False) as mem:
        report = mem.add_fact(name, text, category)
    render_edit(report, as_json=json)


@fact_app.command("edit")
@reports_errors
def fact_edit(
    fact_id: FactIdArg,
    text: Annotated[str, typer.Argument(help="The corrected fact.")],
    category: Annotated[str | None, typer.Option("--category", "-c", help="Change its category too.")] = None,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Correct a fact's text (and category).

    \b
    Example:
      memhop fact edit 12 "Priya is a senior editor." -c state_change
    """
    from memhop.cli.render.reports import render_edit

    with memhop.open(db, create=False) as mem:
        report = mem.edit_fact(fact_id, text, category)
    render_edit(report, as_json=json)


@fact_app.command("rm")
@reports_errors
def fact_rm(fact_id: FactIdArg, json: JsonOption = False, db: DbOption = None) -> None:
    """Remove a fact for good (the same as `memhop forget --fact ID --yes`).

    \b
    Example:
      memhop fact rm 12
    """
    from memhop.cli.render.forget import render_forget

    with memhop.open(db, create=False) as mem:
        report = mem.remove_fact(fact_id)
    render_forget(report, as_json=json)


DryRunOption = Annotated[bool, typer.Option("--dry-run", help="Show what would change, and change nothing.")]
YesOption = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]


@reports_errors
def merge(
    keep: Annotated[str, typer.Argument(help="The entity that stays.")],
    fold: Annotated[str, typer.Argument(help="The entity folded into it; its name becomes an alias.")],
    dry_run: DryRunOption = False,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Do not ask for confirmation (needed to fold the diarist into someone).")
    ] = False,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """One person under two names: fold B into A (every fact is kept).

    \b
    Example:
      memhop merge "Carol Kowalski" Caz --dry-run
      memhop merge "Carol Kowalski" Caz --yes
    """
    from memhop.cli.render.reports import confirm_edit, render_edit

    with memhop.open(db, read_only=dry_run, create=False) as mem:
        report = mem.merge(keep, fold, dry_run=dry_run, confirm=None if yes else confirm_edit, fold_self=yes)
    render_edit(report, as_json=json)


@reports_errors
def rename(
    old: NameArg,
    new: Annotated[str, typer.Argument(help="The new canonical name.")],
    no_alias: Annotated[bool, typer.Option("--no-alias", help="Do not keep the old name as an alias.")] = False,
    dry_run: DryRunOption = False,
    yes: YesOption = False,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Give an entity a new name, in every profile and fact too.

    \b
    Example:
      memhop rename Carol "Carol Kowalski" --yes
    """
    from memhop.cli.render.reports import confirm_edit, render_edit

    with memhop.open(db, read_only=dry_run, create=False) as mem:
        report = mem.rename(old, new, keep_alias=not no_alias, dry_run=dry_run, confirm=None if yes else confirm_edit)
    render_edit(report, as_json=json)


@reports_errors
def entities(json: JsonOption = False, db: DbOption = None) -> None:
    """Every entity memhop knows: kind, aliases, facts and mentions.

    \b
    Example:
      memhop entities --json
    """
    from memhop.cli.render.views import render_entities

    with memhop.open(db, read_only=True) as mem:
        rows = mem.entities()
    render_entities(rows, as_json=json)
