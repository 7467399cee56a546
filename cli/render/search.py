"""Search results: one memory per line, or the JSON document."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memhop.cli.common import err, out, print_json
from memhop.cli.render.cite import cited_line

if TYPE_CHECKING:
    from memhop.core.search import SearchResult


def render_search(result: SearchResult, as_json: bool) -> None:
    if as_json:
        print_json(result.to_dict())
        return
    if not result.hits:
        err.print("no memories match (widen --since/--until, or drop --person)", markup=False, highlight=False)
        return
    for hit in result.hits:
        out.print(f"{cited_line(hit.cited)}  [{hit.cited.kind} {hit.cited.id}]", markup=False, highlight=False)
