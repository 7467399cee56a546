"""memhop export and restore: your memory out to a file, and back into a new store."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from memhop.cli.common import DbOption, JsonOption, err, opened_store, reports_errors, settings

@reports_errors
def export(
    format: Annotated[
        str, typer.Option("--format", "-f", help="json (complete, reloadable) or md (readable).")
    ] = "json",
    output: Annotated[str, typer.Option("--output", "-o", help="File to write; - (the default) is stdout.")] = "-",
    db: DbOption = None,
) -> None:
    """Everything memhop holds (profiles, facts with their sources, raw turns), to take away."""
    from memhop.core.export import export_text

    with opened_store(settings(db), read_only=True) as store:
        text = export_text(store, format)
    if output == "-":
        sys.stdout.write(text)
        return
    try:
        fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # it is private data
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        err.print(f"[red]Error:[/red] cannot write {output}: {exc.strerror}", markup=True)
        raise typer.Exit(code=1) from None
    err.print(f"exported to {output}", markup=False)


@reports_errors
def restore(
    path: Annotated[str, typer.Argument(help="A file written by `memhop export --format json`; - reads stdin.")],
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Load a JSON export into a new, empty store: a backup brought back, or your memory
    moved to another machine. Embeddings are recomputed; nothing else changes."""
    from memhop.cli.render import render_stats
    from memhop.core.embed import get_embedder
    from memhop.core.export import restore as restore_export
    from memhop.core.ingest import read_input

    conf = settings(db)
    source = read_input(path)
    with opened_store(conf) as store:
        counts = restore_export(store, source.name, source.data, get_embedder(conf.embedder))
    render_stats({**counts, "db": str(conf.db)}, as_json=json)
