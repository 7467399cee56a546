"""`memhop search`: the raw turns and facts closest to a query, with date, speaker and file."""

from __future__ import annotations

from typing import Annotated

import typer

import memhop
from memhop.cli.common import DbOption, JsonOption, SinceOption, UntilOption, reports_errors


@reports_errors
def search(
    query: Annotated[str, typer.Argument(help="Words or a phrase to look for.")],
    person: Annotated[
        str | None,
        typer.Option("--person", help="Only what this entity said or is named in, and its facts (any name `show` takes).",
                     show_default=False),
    ] = None,
    since: SinceOption = None,
    until: UntilOption = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="Results at most.")] = 10,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Search your memories: raw turns and facts, best first, each with date, speaker and file.

    \b
    Example:
      memhop search recital --person Bob --since "March 2024"
    """
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as for ask: a few small matrix products
    from memhop.cli.render.search import render_search

    with memhop.open(db, read_only=True) as mem:
        result = mem.search(query, person=person, since=since, until=until, limit=limit)
    render_search(result, as_json=json)
