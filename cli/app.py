"""The memhop command line: parse, make one call on a memhop.open() memory, render.

Command modules import only typer and memhop's light top package at load time, so
`memhop --help` stays fast; the library and the renderers load inside each command.
"""

from __future__ import annotations

from typing import Annotated

import typer

import memhop
from memhop.cli import ask as ask_cmd
from memhop.cli import bench_cmd, edit_cmds, export_cmds, mcp_cmd
from memhop.cli.common import HELP_OPTIONS, DbOption, EngineOption, JsonOption, reports_errors

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
    paths: Annotated[list[str], typer.Argument(help="Export files or folders; - reads stdin.")],
    format: Annotated[
        str | None, typer.Option("--format", "-f", help="Force a format instead of detecting it.")
    ] = None,
    self_name: Annotated[
        str | None, typer.Option("--self", help="Who 'I' am in these files (the diarist).")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    json: JsonOption = False,
    db: DbOption = None,
    engine: EngineOption = None,
) -> None:
    """Import diary and chat exports into the store.

    Each new session is then written as profiles and facts (by the configured engine).

    \b
    Example:
      memhop ingest ~/exports/WhatsApp-Alice.txt diary.md --self "Maya Patel"
    """
    from memhop.cli.progress import progress_for
    from memhop.cli.render.reports import render_ingest

    with memhop.open(db, engine) as mem, progress_for(quiet) as progress:
        report = mem.ingest(paths, format=format, self_name=self_name, progress=progress)
    render_ingest(report, as_json=json)
    if report.failed or (report.write and report.write.failures):
        raise typer.Exit(code=1)


@app.command()
@reports_errors
def rebuild(
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
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

    with memhop.open(db, engine) as mem, progress_for(quiet) as progress:
        report = mem.rebuild(progress=progress)
    render_write(report, as_json=json)
    if report.failures:
        raise typer.Exit(code=1)


@app.command()
@reports_errors
def show(
    name: Annotated[str, typer.Argument(help="An entity: full name, alias, first name or surname (case and accents aside).")],
    all: Annotated[bool, typer.Option("--all", help="Include superseded facts.")] = False,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """An entity's profile and its facts, with their sources.

    \b
    Example:
      memhop show Bob --all
    """
    from memhop.cli.render.views import render_entity

    with memhop.open(db, read_only=True) as mem:
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

    with memhop.open(db) as mem:
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
app.command()(bench_cmd.bench)
app.command()(edit_cmds.forget)
app.command()(edit_cmds.edit)
app.add_typer(edit_cmds.fact_app, name="fact")
app.command()(edit_cmds.merge)
app.command()(edit_cmds.rename)
app.command()(edit_cmds.entities)
app.command()(export_cmds.export)
app.command()(export_cmds.restore)
app.command()(mcp_cmd.mcp)


def main() -> None:
    app()
