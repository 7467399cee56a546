"""The memhop command line: parse, call one core function, render. Nothing else lives here."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from memhop.cli import ask as ask_cmd
from memhop.cli import bench_cmd, edit_cmds, export_cmds
from memhop.cli.common import DbOption, EngineOption, JsonOption, opened_store
from memhop.cli.common import reports_errors, settings

app = typer.Typer(
    name="memhop",
    help="A multi-hop memory for your diaries and chats, in one DuckDB file.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@app.command()
@reports_errors
def ingest(
    paths: Annotated[list[str], typer.Argument(help="Export files or folders; - reads stdin.")],
    format: Annotated[
        Optional[str], typer.Option("--format", "-f", help="Force a format instead of detecting it.")
    ] = None,
    self_name: Annotated[
        Optional[str], typer.Option("--self", help="Who 'I' am in these files (the diarist).")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    json: JsonOption = False,
    db: DbOption = None,
    engine: EngineOption = None,
) -> None:
    """Import diary and chat exports into the store."""
    from memhop.cli.progress import progress_for
    from memhop.cli.render import render_ingest
    from memhop.core.embed import get_embedder
    from memhop.core.engines import build_engine
    from memhop.core.ingest import ingest as run_ingest

    conf = settings(db, engine)
    with opened_store(conf) as store, progress_for(quiet) as progress:
        report = run_ingest(
            store,
            paths,
            get_embedder(conf.embedder),
            format=format,
            self_name=self_name,
            progress=progress,
            engine=build_engine(conf),
            dedup_threshold=conf.dedup_threshold,
        )
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
    """Re-derive profiles and facts from the raw turns (after switching engine); resumable."""
    from memhop.cli.progress import progress_for
    from memhop.cli.render import render_write
    from memhop.core.embed import get_embedder
    from memhop.core.engines import build_engine
    from memhop.core.write import rebuild as run_rebuild

    conf = settings(db, engine)
    with opened_store(conf) as store, progress_for(quiet) as progress:
        report = run_rebuild(
            store, build_engine(conf), get_embedder(conf.embedder), conf.dedup_threshold, progress
        )
    render_write(report, as_json=json)
    if report.failures:
        raise typer.Exit(code=1)


@app.command()
@reports_errors
def show(
    name: Annotated[str, typer.Argument(help="An entity: full name, first name or alias.")],
    all: Annotated[bool, typer.Option("--all", help="Include superseded facts.")] = False,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """An entity's profile and its facts, with their sources."""
    from memhop.cli.render import render_entity
    from memhop.core.inspect import describe_entity

    with opened_store(settings(db), read_only=True) as store:
        view = describe_entity(store, name, include_superseded=all)
    render_entity(view, as_json=json)


@app.command()
@reports_errors
def stats(json: JsonOption = False, db: DbOption = None) -> None:
    """Counts of what the store holds."""
    from memhop.cli.render import render_stats

    conf = settings(db)
    with opened_store(conf) as store:
        counts = store.counts()
    render_stats({**counts, "db": str(conf.db)}, as_json=json)


@app.command()
@reports_errors
def config(json: JsonOption = False, db: DbOption = None, engine: EngineOption = None) -> None:
    """Where memhop keeps things and the active settings (secrets shown as set / not set)."""
    from memhop.cli.render import render_config
    from memhop.core.config import Paths

    paths = Paths.from_env()
    conf = settings(db, engine)
    data = {
        "config_file": str(paths.config_file),
        "config_file_exists": paths.config_file.exists(),
        "data_dir": str(paths.data_dir),
        "cache_dir": str(paths.cache_dir),
        "settings": conf.redacted(),
    }
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


def main() -> None:
    app()
