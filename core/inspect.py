"""Looking at what memhop remembers: one entity whole, or the registry at a glance."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memhop.core.cite import Cited, cite_turn
from memhop.core.errors import AmbiguousName, EntityNotFound, TurnNotFound
from memhop.core.language.name_lookup import CANONICAL, lookup, suggest
from memhop.core.model import KnownEntity
from memhop.core.store import Store, memory
from memhop.core.store.turns import turn_with_neighbours, turns_by_id

NEIGHBOURS = 2  # turns shown before and after one turn


@dataclass(frozen=True)
class EntityView:
    entity: KnownEntity
    profile: str | None
    residuals: list[memory.StoredResidual]
    turns: dict[int, Cited] = field(default_factory=dict)  # the facts' source turns that still exist

    def sources_of(self, residual: memory.StoredResidual) -> list[Cited]:
        """Where a fact came from: its source turns, as date, speaker and file."""
        return [self.turns[t] for t in residual.source_turns if t in self.turns]

    def to_json(self) -> dict[str, Any]:
        return {
            "entity": self.entity.name,
            "kind": self.entity.kind,
            "aliases": list(self.entity.aliases),
            "profile": self.profile,
            "facts": [
                {
                    "id": r.id,
                    "text": r.text,
                    "category": r.category,
                    "date": r.date.isoformat() if r.date else None,
                    "superseded": r.superseded_by is not None,
                    "sources": list(r.source_turns),
                    "from": [
                        {"turn_id": c.id, "date": c.day.isoformat() if c.day else None, "speaker": c.speaker,
                         "source": c.source}
                        for c in self.sources_of(r)
                    ],
                }
                for r in self.residuals
            ],
        }


def resolve_entity(store: Store, name: str, strict: bool = False) -> KnownEntity:
    """A name as a user types it: the canonical name, an alias, a first name or a surname,
    case and accents aside ("zoe" is Zoë Byrne).

    A name two entities fit is refused with both listed; an unknown one with the closest
    names. `strict` (for what cannot be undone) also refuses a name that is not an
    entity's canonical name when it fits another entity at any level.
    """
    registry = memory.registry(store)
    known = [(e.name, e.aliases) for e in registry]
    found = lookup(name, known, people={e.name for e in registry if e.kind in ("person", "self")})
    if not found.matches:
        raise EntityNotFound(name, suggest(name, known))
    if len(found.matches) > 1:
        raise AmbiguousName(name, sorted(found.matches))
    if strict and found.level > CANONICAL and len(found.fits) > 1:
        raise AmbiguousName(name, sorted(found.fits))
    return next(e for e in registry if e.name == found.matches[0])


def describe_entity(store: Store, name: str, include_superseded: bool = False) -> EntityView:
    entity = resolve_entity(store, name)
    residuals = memory.residuals_of(store, entity.id, include_superseded=include_superseded)
    stored = turns_by_id(store, [t for r in residuals for t in r.source_turns])
    return EntityView(
        entity=entity,
        profile=memory.profile_of(store, entity.id),
        residuals=residuals,
        turns={t: cite_turn(turn) for t, turn in stored.items()},
    )


@dataclass(frozen=True)
class TurnContext:
    """One turn with the turns around it in its session (`show --turn`)."""

    turn: Cited
    before: tuple[Cited, ...]
    after: tuple[Cited, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn.to_dict(),
            "before": [c.to_dict() for c in self.before],
            "after": [c.to_dict() for c in self.after],
        }


def describe_turn(store: Store, turn_id: int, around: int = NEIGHBOURS) -> TurnContext:
    found = turn_with_neighbours(store, turn_id, around, around)
    at = next((i for i, t in enumerate(found) if t.id == turn_id), None)
    if at is None:
        raise TurnNotFound(turn_id)
    cited = [cite_turn(t) for t in found]
    return TurnContext(cited[at], tuple(cited[:at]), tuple(cited[at + 1 :]))
