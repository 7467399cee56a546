"""Looking at what memhop remembers: one entity whole, or the registry at a glance."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memhop.core.errors import AmbiguousName, EntityNotFound
from memhop.core.language.name_lookup import CANONICAL, lookup, suggest
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
    return EntityView(
        entity=entity,
        profile=memory.profile_of(store, entity.id),
        residuals=memory.residuals_of(store, entity.id, include_superseded=include_superseded),
    )
