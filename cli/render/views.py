"""What memhop holds, looked at: one entity, the entity list, counts, settings, version."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape
from rich.table import Table

from memhop.cli.common import out, print_json
from memhop.cli.render.cite import day_text, where

if TYPE_CHECKING:
    from memhop.core.cite import Cited
    from memhop.core.export import EntitySummary
    from memhop.core.inspect import EntityView, TurnContext


def render_entity(view: EntityView, as_json: bool) -> None:
    if as_json:
        print_json(view.to_json())
        return
    entity = view.entity
    aliases = f" (also: {', '.join(entity.aliases)})" if entity.aliases else ""
    out.print(f"[bold]{escape(entity.name)}[/bold] \\[{entity.kind}]{escape(aliases)}", markup=True)
    out.print(view.profile or "(no profile yet)", markup=False)
    if view.residuals:
        table = Table("id", "fact", "category", "date", "sources", box=None)
        for r in view.residuals:
            text = r.text + (" (superseded)" if r.superseded_by is not None else "")
            sources = "; ".join(f"{day_text(c)} · {c.source}" for c in view.sources_of(r)) or "(forgotten)"
            table.add_row(str(r.id), text, r.category, r.date.isoformat() if r.date else "", sources)
        out.print(table)


def render_turn(context: TurnContext, as_json: bool) -> None:
    """The turn between its neighbours, marked with ▶, each headed by its date, speaker and file."""
    if as_json:
        print_json(context.to_json())
        return
    for cited in (*context.before, context.turn, *context.after):
        _turn(cited, here=cited is context.turn)


def _turn(cited: Cited, here: bool) -> None:
    mark = "▶ " if here else "  "
    out.print(f"{mark}{where(cited)}  [turn {cited.id}]", style="bold" if here else "dim", markup=False, highlight=False)
    for line in cited.text.splitlines() or [""]:
        out.print(f"  {line}", markup=False, highlight=False)


def render_entities(rows: list[EntitySummary], as_json: bool) -> None:
    if as_json:
        print_json([r.to_json() for r in rows])
        return
    table = Table("name", "kind", "aliases", "facts", "mentions", box=None)
    for r in rows:
        table.add_row(r.name, r.kind, ", ".join(r.aliases), str(r.facts), str(r.mentions))
    out.print(table)


def render_stats(data: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print_json(data)
        return
    table = Table(show_header=False, box=None)
    for key, value in data.items():
        if not isinstance(value, list):
            table.add_row(key, str(value))
    table.add_row("quarantined", str(len(data.get("quarantined", []))))
    out.print(table)
    for spent in data.get("engine_calls", []):
        model = f" (model {spent['model']})" if spent["model"] else ""
        out.print(
            f"{spent['engine']}{model}: {spent['calls']} calls, {spent['prompt_tokens']} prompt and "
            f"{spent['completion_tokens']} completion tokens, {spent['cached']} replies reused",
            markup=False,
        )
    for held in data.get("quarantined", []):
        out.print(
            f"quarantined: {held['entity']}'s update of session {held['session']} ({held['date']}, {held['source']}), "
            f"{held['attempts']} failed attempt(s): {held['reason']}",
            markup=False,
        )


def render_config(data: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print_json(data)
        return
    out.print(f"config file: {data['config_file']}" + ("" if data["config_file_exists"] else " (not created)"))
    out.print(f"data dir:    {data['data_dir']}")
    out.print(f"cache dir:   {data['cache_dir']}")
    for key, value in _flatten(data["settings"]):
        if key == "embedder" and value is None:
            from memhop.core.embed import DEFAULT_EMBEDDER

            value = f"the store's own ({DEFAULT_EMBEDDER} for a new store)"
        out.print(f"{key}: {value}")


def render_version(version: str) -> None:
    out.print(f"memhop {version}", markup=False, highlight=False)


def _flatten(data: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    rows: list[tuple[str, Any]] = []
    for key, value in data.items():
        if isinstance(value, dict):
            rows.extend(_flatten(value, f"{prefix}{key}."))
        else:
            rows.append((f"{prefix}{key}", value))
    return rows
