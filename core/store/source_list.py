"""What `memhop sources` shows: each import with what it brought in."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memhop.core.store.db import Store
from memhop.core.store.tables import rows


@dataclass(frozen=True)
class SourceSummary:
    id: int
    name: str  # the path as imported, "archive.zip:member", or a stdin import's name
    format: str
    sessions: int
    turns: int
    first: datetime | None  # earliest and latest turn time (local wall-clock)
    last: datetime | None
    imported_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "format": self.format,
            "sessions": self.sessions,
            "turns": self.turns,
            "first": self.first.isoformat() if self.first else None,
            "last": self.last.isoformat() if self.last else None,
            "imported_at": self.imported_at.isoformat(),
        }


def source_summaries(store: Store) -> list[SourceSummary]:
    """Every imported source in import order, counted from the raw layer."""
    found = rows(
        store,
        """
        SELECT s.id, s.path, s.format, s.imported_at,
               count(DISTINCT se.id), count(t.id), min(coalesce(t.ts, se.started_at)),
               max(coalesce(t.ts, se.started_at))
        FROM sources s
        LEFT JOIN sessions se ON se.source_id = s.id
        LEFT JOIN turns t ON t.session_id = se.id
        GROUP BY s.id, s.path, s.format, s.imported_at
        ORDER BY s.id
        """,
    )
    return [
        SourceSummary(
            id=int(r[0]), name=r[1], format=r[2], imported_at=r[3], sessions=int(r[4]), turns=int(r[5]),
            first=r[6], last=r[7],
        )
        for r in found
    ]
