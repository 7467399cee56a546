"""memhop sources: what has been imported, one line per source."""

from __future__ import annotations

import memhop
from memhop.cli.common import DbOption, JsonOption, reports_errors


@reports_errors
def sources(json: JsonOption = False, db: DbOption = None) -> None:
    """Every import: id, name, format, sessions, turns, first and last date.

    \b
    Example:
      memhop sources --json
    """
    from memhop.cli.render.sources import render_sources

    with memhop.open(db, read_only=True) as mem:
        found = mem.sources()
    render_sources(found, as_json=json)
