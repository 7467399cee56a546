"""Looking at what memhop remembers: one entity whole, or the registry at a glance."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memhop.core.errors import EntityNotFound
from memhop.core.language.names import match_registry
from memhop.core.model import KnownEntity
from memhop.core.store import Store, memory


@dataclass(frozen=True)
class EntityView:
    entity: KnownEntity
    profile: str | None
    residuals: list[memory.StoredResidual]

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
                }
                for r in self.residuals
            ],
        }


def resolve_entity(store: Store, name: str) -> KnownEntity:
    """A name as a user types it: canonical, alias, or first name alone."""
    exact = memory.entity_by_name(store, name)
    if exact is not None:
        return exact
    registry = memory.registry(store)
    canonical = match_registry(name, [(e.name, e.aliases) for e in registry])
    for entity in registry:
        if entity.name == canonical:
            return entity
    raise EntityNotFound(name)


def describe_entity(store: Store, name: str, include_superseded: bool = False) -> EntityView:
    entity = resolve_entity(store, name)
    return EntityView(
        entity=entity,
        profile=memory.profile_of(store, entity.id),
        residuals=memory.residuals_of(store, entity.id, include_superseded=include_superseded),
    )
