"""Turning core results into tables for people or JSON for scripts."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from rich.table import Table

from memhop.cli.common import err, out, print_json

if TYPE_CHECKING:
    from memhop.core.ingest import IngestReport
    from memhop.core.inspect import EntityView
    from memhop.core.write import WriteReport


def render_ingest(report: "IngestReport", as_json: bool) -> None:
    if as_json:
        print_json(
            {"files": [asdict(f) for f in report.files], "write": asdict(report.write) if report.write else None}
        )
        return
    for f in report.files:
        if f.status == "imported":
            out.print(f"{f.path}: imported {f.sessions} sessions, {f.turns} turns ({f.format}, {f.seconds:.1f}s)")
        elif f.status == "unchanged":
            out.print(f"{f.path}: unchanged (already imported)")
    for f in report.failed:
        err.print(f"[red]Error:[/red] {f.error}")
    if report.failed:
        done = len(report.files) - len(report.failed)
        err.print(f"{len(report.failed)} file(s) failed; {done} imported or unchanged.")
    if report.write is not None:
        render_write(report.write, as_json=False)


def render_write(report: "WriteReport", as_json: bool) -> None:
    if as_json:
        print_json(asdict(report))
        return
    usage = report.usage
    out.print(
        f"memories ({report.engine}): {report.sessions} sessions, {report.entities_added} new entities, "
        f"{report.residuals_added} facts (+{report.residuals_deduplicated} duplicates dropped, "
        f"{report.residuals_superseded} superseded); {int(usage.get('calls', 0))} engine calls, "
        f"{report.seconds:.1f}s"
    )
    for failure in report.failures:
        err.print(f"[red]Error:[/red] session {failure.session_id}: {failure.error}")
    if report.failures:
        err.print(f"{len(report.failures)} session(s) not written; run the same command again to resume.")


def render_entity(view: "EntityView", as_json: bool) -> None:
    if as_json:
        print_json(view.to_json())
        return
    entity = view.entity
    aliases = f" (also: {', '.join(entity.aliases)})" if entity.aliases else ""
    out.print(f"[bold]{entity.name}[/bold] [{entity.kind}]{aliases}", markup=True)
    out.print(view.profile or "(no profile yet)", markup=False)
    if view.residuals:
        table = Table("id", "fact", "category", "date", "sources", box=None)
        for r in view.residuals:
            text = r.text + (" (superseded)" if r.superseded_by is not None else "")
            table.add_row(str(r.id), text, r.category, r.date.isoformat() if r.date else "", ",".join(map(str, r.source_turns)))
        out.print(table)


def render_stats(data: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print_json(data)
        return
    table = Table(show_header=False, box=None)
    for key, value in data.items():
        table.add_row(key, str(value))
    out.print(table)


def render_config(data: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print_json(data)
        return
    out.print(f"config file: {data['config_file']}" + ("" if data["config_file_exists"] else " (not created)"))
    out.print(f"data dir:    {data['data_dir']}")
    out.print(f"cache dir:   {data['cache_dir']}")
    for key, value in _flatten(data["settings"]):
        out.print(f"{key}: {value}")


def _flatten(data: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    rows: list[tuple[str, Any]] = []
    for key, value in data.items():
        if isinstance(value, dict):
            rows.extend(_flatten(value, f"{prefix}{key}."))
        else:
            rows.append((f"{prefix}{key}", value))
    return rows
