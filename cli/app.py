"""The memhop command line: parse, make one call on a memhop.open() memory, render.

Command modules import only typer and memhop's light top package at load time, so
`memhop --help` stays fast; the library and the renderers load inside each command.
"""

from __future__ import annotations

from typing import Annotated

import typer

import memhop
from memhop.cli import ask as ask_cmd
from memhop.cli import bench_cmd, edit_cmds, export_cmds, mcp_cmd, search_cmd, serve, sources_cmd
from memhop.cli.common import HELP_OPTIONS, DbOption, EngineOption, JobsOption, JsonOption, reports_errors

app = typer.Typer(
    name="memhop",
    help="A multi-hop memory for your diaries and chats, in one DuckDB file.",
    epilog=(
        "\b\nExample:\n"
        '  memhop ingest diary.md chat.txt --self "Maya Patel"\n'
        "  memhop ask \"What instrument does Alice's roommate play?\" --trace"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings=HELP_OPTIONS,
)


def _print_version(value: bool) -> None:
    if value:
        from memhop.cli.render.views import render_version

        render_version(memhop.__version__)
        raise typer.Exit()


@app.callback()
def options(
    version: Annotated[
        bool, typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Options that come before the command."""


@app.command()
@reports_errors
def ingest(
    paths: Annotated[list[str], typer.Argument(help="Export files, folders or .zip exports; - reads stdin.")],
    format: Annotated[
        str | None, typer.Option(
            "--format",
            "-f",
            help="Force a format instead of detecting it: chatgpt, whatsapp, telegram, telegram-html, dayone, "
            "daily, markdown, messenger, discord, signal, imessage, locomo, generic.",
        )
    ] = None,
    self_name: Annotated[
        str | None, typer.Option("--self", help="Who 'I' am in these files (the diarist); the store remembers it.")
    ] = None,
    day_first: Annotated[
        bool | None,
        typer.Option(
            "--dayfirst/--monthfirst",
            help="Read 3/4/24 as 3 April (--dayfirst) or March 4 (--monthfirst) when a file's dates cannot tell.",
            show_default=False,
        ),
    ] = None,
    tz: Annotated[
        str | None,
        typer.Option("--tz", help="Time zone for times exports give in UTC (ChatGPT); default: this machine's.",
                     show_default=False),
    ] = None,
    name: Annotated[
        str | None, typer.Option("--name", help="Name of a stdin (-) import, as `memhop sources` lists it.")
    ] = None,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Also list the files of an export that hold no conversation.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    plan: Annotated[
        bool, typer.Option("--plan", help="Only print the sessions, model calls and prompt tokens the import would "
                           "cost: no model is called, nothing is written.")
    ] = False,
    jobs: JobsOption = None,
    json: JsonOption = False,
    db: DbOption = None,
    engine: EngineOption = None,
) -> None:
    """Import diary and chat exports into the store.

    Each new session is then written as profiles and facts (by the configured engine).

    \b
    Example:
      memhop ingest ~/exports/WhatsApp-Alice.txt diary.md --self "Maya Patel"
      memhop ingest "WhatsApp Chat - Family.zip" ~/exports/ChatGPT/ --monthfirst
      memhop ingest ~/exports/ --plan --engine openai
    """
    from memhop.cli.progress import progress_for
    from memhop.cli.render.reports import render_ingest, render_plan

    if plan:
        with memhop.open(db, engine, read_only=True) as mem:
            planned = mem.plan_ingest(paths, format=format, self_name=self_name, day_first=day_first, tz=tz, name=name)
        render_plan(planned, as_json=json)
        if planned.failed:
            raise typer.Exit(code=1)
        return
    with memhop.open(db, engine) as mem, progress_for(quiet) as progress:
        report = mem.ingest(
            paths, format=format, self_name=self_name, progress=progress, day_first=day_first, tz=tz, name=name,
            jobs=jobs,
        )
    render_ingest(report, as_json=json, verbose=verbose)
    if report.failed or (report.write and (report.write.failures or report.write.quarantined)):
        raise typer.Exit(code=1)


@app.command()
@reports_errors
def rebuild(
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    jobs: JobsOption = None,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Ask the model again instead of reusing the replies kept from earlier runs.")
    ] = False,
    json: JsonOption = False,
    db: DbOption = None,
    engine: EngineOption = None,
) -> None:
    """Re-derive profiles and facts from the raw turns (after switching engine); resumable.

    \b
    Example:
      memhop rebuild --engine openai
    """
    from memhop.cli.progress import progress_for
    from memhop.cli.render.reports import render_write

    with memhop.open(db, engine, create=False) as mem, progress_for(quiet) as progress:
        report = mem.rebuild(progress=progress, jobs=jobs, fresh=fresh)
    render_write(report, as_json=json)
    if report.failures or report.quarantined:
        raise typer.Exit(code=1)


@app.command()
@reports_errors
def show(
    name: Annotated[
        str | None,
        typer.Argument(help="An entity: full name, alias, first name or surname (case and accents aside).", show_default=False),
    ] = None,
    turn: Annotated[
        int | None, typer.Option("--turn", help="Show this raw turn (an id from `search` or `ask --json`) with its neighbours.",
                                 show_default=False),
    ] = None,
    all: Annotated[bool, typer.Option("--all", help="Include superseded facts.")] = False,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """An entity's profile and its facts, each with the date and file it came from; or one
    raw turn with the two turns before and after it.

    \b
    Example:
      memhop show Bob --all
      memhop show --turn 42
    """
    from memhop.cli.render.views import render_entity, render_turn

    if (name is None) == (turn is None):
        raise typer.BadParameter("give an entity NAME or --turn ID (one of them)")
    with memhop.open(db, read_only=True) as mem:
        if turn is not None:
            render_turn(mem.turn(turn), as_json=json)
            return
        assert name is not None
        view = mem.show(name, include_superseded=all)
    render_entity(view, as_json=json)


@app.command()
@reports_errors
def stats(json: JsonOption = False, db: DbOption = None) -> None:
    """Counts of what the store holds.

    \b
    Example:
      memhop stats --json
    """
    from memhop.cli.render.views import render_stats

    with memhop.open(db, create=False) as mem:
        counts = mem.stats()
    render_stats({**counts, "db": str(mem.db)}, as_json=json)


@app.command()
@reports_errors
def config(json: JsonOption = False, db: DbOption = None, engine: EngineOption = None) -> None:
    """Where memhop keeps things and the active settings (secrets shown as set / not set).

    \b
    Example:
      memhop config --json
    """
    from memhop.cli.render.views import render_config

    with memhop.open(db, engine) as mem:
        data = mem.config()
    render_config(data, as_json=json)


# Commands that live in their own modules; they import only typer at module level.
app.command()(ask_cmd.ask)
app.command()(search_cmd.search)
app.command()(bench_cmd.bench)
app.command()(edit_cmds.forget)
app.command()(edit_cmds.edit)
app.add_typer(edit_cmds.fact_app, name="fact")
app.command()(edit_cmds.merge)
app.command()(edit_cmds.rename)
app.command()(edit_cmds.entities)
app.command()(export_cmds.export)
app.command()(export_cmds.restore)
app.command()(sources_cmd.sources)
app.command()(mcp_cmd.mcp)
app.command()(serve.serve)


def main() -> None:
    app()
