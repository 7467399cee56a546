"""A memory as it is cited to a user: what was said or stated, when, by whom, in which file.

Facts have no date or speaker of their own; they take those of the first of their source
turns that still exists (a fact whose turns were all forgotten is cited without them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import PurePath
from typing import Any

from memhop.core.store.turns import StoredTurn


@dataclass(frozen=True)
class Cited:
    kind: str  # "fact" | "turn"
    id: int  # the fact id (`memhop show`) or the turn id (`memhop show --turn`)
    text: str
    timestamp: datetime | None
    speaker: str | None
    source: str | None  # the imported file's name

    @property
    def day(self) -> date | None:
        return self.timestamp.date() if self.timestamp else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "id": self.id,
            "text": self.text,
            "date": self.day.isoformat() if self.day else None,
            "speaker": self.speaker,
            "source": self.source,
        }


def source_name(path: str) -> str:
    """The file name a user recognises, not the path it was imported from."""
    return "stdin" if path == "-" else PurePath(path).name or path


def cite_turn(turn: StoredTurn) -> Cited:
    return Cited("turn", turn.id, turn.text, turn.timestamp, turn.speaker, source_name(turn.path))


def cite_fact(fact_id: int, text: str, source_turns: Sequence[int], turns: Mapping[int, StoredTurn]) -> Cited:
    origin = next((turns[t] for t in source_turns if t in turns), None)
    if origin is None:
        return Cited("fact", fact_id, text, None, None, None)
    return Cited("fact", fact_id, text, origin.timestamp, origin.speaker, source_name(origin.path))
