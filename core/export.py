"""Leaving with your data: the registry at a glance, and everything as JSON or Markdown.

The JSON holds every row of the raw and memory layers and the operation log, minus the
embeddings (derived; `load_export` recomputes them), so a fresh store can be rebuilt
from it and compared with `memhop stats`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from memhop.core.embed import Embedder
from memhop.core.errors import MemhopError
from memhop.core.store import Store, cues, memory, tables
from memhop.core.store.bulk import bulk_insert
from memhop.core.store.schema import COLUMNS

FORMAT = "memhop-export"
VERSION = 1
FORMATS = ("json", "md")
_TABLES = ("sources", "sessions", "turns", "entities", "profiles", "residuals", "mentions", "oplog")
_COLUMNS = {t: tuple(name for name, _ in COLUMNS[t] if name != "embedding") for t in _TABLES}  # from the schema
_ORDER = {"mentions": "entity_id, turn_id", "profiles": "entity_id"}
_EMBEDDED = ("turns", "profiles", "residuals")


class ExportError(MemhopError):
    """An export file that cannot be loaded, or a store that is not empty to load it into."""


@dataclass(frozen=True)
class EntitySummary:
    id: int
    name: str
    kind: str
    aliases: list[str]
    facts: int  # current (not superseded)
    all_facts: int
    mentions: int
    has_profile: bool

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def list_entities(store: Store) -> list[EntitySummary]:
    """The registry: the diarist first, then by name."""
    return [
        EntitySummary(int(r[0]), r[1], r[2], list(r[3] or ()), int(r[4]), int(r[5]), int(r[6]), bool(r[7]))
        for r in memory.entity_summaries(store)
    ]


def _rows(store: Store, table: str) -> list[dict[str, Any]]:
    rows = tables.table_rows(store, table, _COLUMNS[table], _ORDER.get(table, "id"))
    return [{k: list(v) if isinstance(v, (list, tuple)) else v for k, v in row.items()} for row in rows]


def export_data(store: Store) -> dict[str, Any]:
    """Everything: sources > sessions > turns, entities with profile, facts and mentions, the log."""
    rows = {table: _rows(store, table) for table in _COLUMNS}
    turns_by_session: dict[int, list[dict[str, Any]]] = {}
    for t in rows["turns"]:
        turns_by_session.setdefault(t.pop("session_id"), []).append(t)
    sessions_by_source: dict[int, list[dict[str, Any]]] = {}
    for s in rows["sessions"]:
        s["turns"] = turns_by_session.get(s["id"], [])
        sessions_by_source.setdefault(s.pop("source_id"), []).append(s)
    profiles = {p.pop("entity_id"): p for p in rows["profiles"]}
    facts: dict[int, list[dict[str, Any]]] = {}
    for f in rows["residuals"]:
        facts.setdefault(f.pop("entity_id"), []).append(f)
    mentions: dict[int, list[int]] = {}
    for m in rows["mentions"]:
        mentions.setdefault(m["entity_id"], []).append(m["turn_id"])
    return {
        "format": FORMAT,
        "version": VERSION,
        "schema_version": store.schema_version(),
        "exported_at": datetime.now(),
        "counts": {**store.counts(), "mentions": len(rows["mentions"]), "oplog": len(rows["oplog"])},
        "entities": [
            {
                **e,
                "profile": profiles.get(e["id"]),
                "facts": facts.get(e["id"], []),
                "mentions": mentions.get(e["id"], []),
            }
            for e in rows["entities"]
        ],
        "sources": [{**s, "sessions": sessions_by_source.get(s["id"], [])} for s in rows["sources"]],
        "oplog": rows["oplog"],
    }


def export_text(store: Store, fmt: str = "json") -> str:
    if fmt not in FORMATS:
        raise ExportError(f"unknown export format {fmt!r} (choose from: {', '.join(FORMATS)})")
    data = export_data(store)
    if fmt == "md":
        return to_markdown(data)
    return json.dumps(data, ensure_ascii=False, indent=2, default=_iso) + "\n"


def save(path: Path, text: str) -> None:
    """An export file, whole or not at all: a full disk or a kill leaves the previous one as
    it was, and the new one is readable by its owner only. A device or a pipe
    (`-o /dev/stdout`) has no previous file to keep and is written in place; a symlink's
    target is replaced, not the link."""
    from memhop.core.cache import replace_file

    target = path.expanduser()
    try:
        if target.exists() and not target.is_file():
            with target.open("w", encoding="utf-8") as stream:
                stream.write(text)
        else:
            replace_file(target.resolve() if target.is_symlink() else target, text.encode("utf-8"))
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ExportError(f"cannot write {path}: {reason}; nothing was written there") from None


def _iso(value: Any) -> str:
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    raise TypeError(f"cannot export {type(value).__name__}")


def to_markdown(data: dict[str, Any]) -> str:
    """A document a person can read: who is who, what is known and where it was said."""
    turns = {t["id"]: (src["path"], t) for src in data["sources"] for s in src["sessions"] for t in s["turns"]}
    c = data["counts"]
    out = [
        "# memhop export",
        "",
        f"Exported {_iso(data['exported_at'])}: {c['entities']} entities, {c['residuals']} facts, "
        f"{c['turns']} turns from {c['sources']} sources.",
        "",
        "## Entities",
    ]
    for e in data["entities"]:
        out += ["", f"### {e['name']} ({e['kind']})"]
        if e["aliases"]:
            out.append(f"Also known as: {', '.join(e['aliases'])}")
        out += ["", (e["profile"] or {}).get("text") or "_(no profile)_"]
        if e["facts"]:
            out += ["", "Facts:"]
        for f in e["facts"]:
            when = f", {f['date']}" if f["date"] else ""
            retired = " (superseded)" if f["superseded_by"] is not None else ""
            out.append(f"- [{f['id']}] {f['text']} _({f['category']}{when})_{retired}")
            for turn_id in f["source_turns"]:
                if turn_id in turns:
                    path, t = turns[turn_id]
                    out.append(f"  > {t['speaker']}{_when(t['ts'])}: {_one_line(t['text'])} ({path})")
    out += ["", "## Sources"]
    for src in data["sources"]:
        out += ["", f"### {src['path']} ({src['format']}, imported {_iso(src['imported_at'])})"]
        for s in src["sessions"]:
            title = f" — {s['title']}" if s["title"] else ""
            out += ["", f"#### {s['external_id']}{title}{_when(s['started_at'])}", ""]
            out += [f"- **{t['speaker']}**{_when(t['ts'])}: {_one_line(t['text'])}" for t in s["turns"]]
    out += ["", "## Operation log", ""]
    out += [f"- {_iso(o['happened_at'])} {o['op']}: {o['detail']}" for o in data["oplog"]]
    return "\n".join(out) + "\n"


def _when(value: Any) -> str:
    return f" ({_iso(value)})" if value else ""


def _one_line(text: str) -> str:
    return " ".join(text.split())


def restore(store: Store, name: str, raw: bytes, embedder: Embedder) -> dict[str, int]:
    """`memhop restore`: a JSON export file back into a new store, all in one transaction,
    so a damaged file leaves the store empty rather than half-loaded."""
    try:
        data = json.loads(raw)
    except UnicodeDecodeError:
        raise ExportError(f"{name}: not a memhop export (not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        raise ExportError(f"{name}: not a memhop export (invalid JSON: {exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise ExportError(f"{name}: not a memhop export (a JSON {type(data).__name__}, not an object)")
    try:
        return load_export(store, data, embedder)
    except ExportError as exc:
        raise ExportError(f"{name}: {exc}") from None
    except (KeyError, TypeError, ValueError, pa.ArrowException, duckdb.Error) as exc:
        raise ExportError(f"{name}: a damaged memhop export ({type(exc).__name__}: {exc})") from None


def load_export(store: Store, data: dict[str, Any], embedder: Embedder) -> dict[str, int]:
    """Rebuild a fresh store from an export: same ids, embeddings recomputed."""
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ExportError("not a memhop export (or a newer version of one)")
    store.check_embedder(embedder)
    if any(store.counts().values()):
        raise ExportError(f"{store.path}: the store is not empty; load an export into a new one")
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in _COLUMNS}
    for src in data["sources"]:
        rows["sources"].append(src)
        for s in src["sessions"]:
            rows["sessions"].append({**s, "source_id": src["id"]})
            rows["turns"] += [{**t, "session_id": s["id"]} for t in s["turns"]]
    for e in data["entities"]:
        rows["entities"].append(e)
        if e["profile"] is not None:
            rows["profiles"].append({**e["profile"], "entity_id": e["id"]})
        rows["residuals"] += [{**f, "entity_id": e["id"]} for f in e["facts"]]
        rows["mentions"] += [{"entity_id": e["id"], "turn_id": t} for t in e["mentions"]]
    rows["oplog"] = list(data["oplog"])
    _check_references(rows)
    with store.transaction():
        for table, cols in _COLUMNS.items():
            _insert(store, table, cols, rows[table], embedder)
        cues.backfill(store.con)  # derived from the turns, so not in the file: filed anew
    return store.counts()


def _check_references(rows: dict[str, list[dict[str, Any]]]) -> None:
    """Every turn and fact an entity or a fact cites is in the file. A file that cites
    what it does not hold was edited or damaged: it is refused whole rather than restored
    with references to nothing (which `show` and `ask` would then trip over) or with the
    citations silently dropped (the user would never learn the backup was incomplete)."""
    turns = {t["id"] for t in rows["turns"]}
    facts = {f["id"] for f in rows["residuals"]}
    for m in rows["mentions"]:
        if m["turn_id"] not in turns:
            raise ExportError(f"entity {m['entity_id']} cites turn {m['turn_id']}, which is not in the file")
    for f in rows["residuals"]:
        missing = [t for t in f["source_turns"] if t not in turns]
        if missing:
            raise ExportError(f"fact {f['id']} cites turn {missing[0]}, which is not in the file")
        if f.get("superseded_by") is not None and f["superseded_by"] not in facts:
            raise ExportError(f"fact {f['id']} is superseded by fact {f['superseded_by']}, which is not in the file")


def _insert(store: Store, table: str, cols: tuple[str, ...], rows: list[dict[str, Any]], embedder: Embedder) -> None:
    if not rows:
        return
    columns: dict[str, Any] = {c: [_parse(c, r.get(c)) for r in rows] for c in cols}
    if table in _EMBEDDED:
        columns["embedding"] = embedder.embed([r["text"] for r in rows])
    bulk_insert(store, table, columns)


def _parse(column: str, value: Any) -> Any:
    if isinstance(value, str) and (column.endswith("_at") or column == "ts"):
        return datetime.fromisoformat(value)
    if isinstance(value, str) and column == "date":
        return date.fromisoformat(value)
    return value
