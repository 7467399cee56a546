"""The list of imported sources."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.markup import escape
from rich.table import Table

from memhop.cli.common import err, out, print_json

if TYPE_CHECKING:
    from memhop.core.store.source_list import SourceSummary


def render_sources(found: list[SourceSummary], as_json: bool) -> None:
    if as_json:
        print_json([s.to_json() for s in found])
        return
    if not found:
        err.print("nothing imported yet (memhop ingest FILE)")
        return
    table = Table(box=None)
    for column in ("id", "name", "format", "sessions", "turns", "first", "last"):
        table.add_column(column, justify="right" if column in ("id", "sessions", "turns") else "left")
    for s in found:
        first = s.first.date().isoformat() if s.first else "-"
        last = s.last.date().isoformat() if s.last else "-"
        table.add_row(str(s.id), escape(s.name), s.format, str(s.sessions), str(s.turns), first, last)
    out.print(table)
