"""memhop export and restore: your memory out to a file, and back into a new store."""

from __future__ import annotations

from typing import Annotated

import typer

import memhop
from memhop.cli.common import DbOption, JsonOption, reports_errors


@reports_errors
def export(
    format: Annotated[
        str, typer.Option("--format", "-f", help="json (complete, reloadable) or md (readable).")
    ] = "json",
    output: Annotated[str, typer.Option("--output", "-o", help="File to write; - (the default) is stdout.")] = "-",
    db: DbOption = None,
) -> None:
    """Everything memhop holds (profiles, facts with their sources, raw turns), to take away.

    \b
    Example:
      memhop export --format json -o my-memory.json
    """
    from memhop.cli.render.reports import render_export

    with memhop.open(db, read_only=True) as mem:
        text = mem.export(format, None if output == "-" else output)
    render_export(text, output)


@reports_errors
def restore(
    path: Annotated[str, typer.Argument(help="A file written by `memhop export --format json`; - reads stdin.")],
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Load a JSON export into a new, empty store: a backup brought back, or your memory
    moved to another machine. Embeddings are recomputed; nothing else changes.

    \b
    Example:
      memhop restore my-memory.json --db ~/new-machine.duckdb
    """
    from memhop.cli.render.views import render_stats

    with memhop.open(db) as mem:
        counts = mem.restore(path)
    render_stats({**counts, "db": str(mem.db)}, as_json=json)
