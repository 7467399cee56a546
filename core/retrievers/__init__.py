"""Registry of evidence retrievers, loaded lazily (like core/engines/__init__.py).

A retriever ranks the raw turns for one question (core/retrievers/base.py); the read path
picks one by name (`ask --retriever`, `read.retriever` in the settings). Importing this
package loads none of them.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

from memhop.core.errors import ConfigError

if TYPE_CHECKING:
    from memhop.core.retrievers.base import Retriever

__all__ = ["DEFAULT", "available", "check_name", "get"]

# name -> "module:Class", modules relative to this package; the default first.
_REGISTRY: dict[str, str] = {
    "prograph": "prograph:ProGraphRetriever",
    "graph": "graph:GraphRetriever",
    "evograph": "evograph:EvoGraphRetriever",
    "fused": "fused:FusedRetriever",
    "hero": "hero:HeroRetriever",
}
DEFAULT = "prograph"


def available() -> list[str]:
    """Retriever names, the default first."""
    return list(_REGISTRY)


def check_name(name: str) -> None:
    """A ConfigError for a name the registry does not have; loads nothing."""
    if name not in _REGISTRY:
        raise ConfigError(f"unknown retriever {name!r} (expected one of {', '.join(_REGISTRY)})")


@cache
def get(name: str) -> Retriever:
    """The retriever registered as `name` (stateless, so one shared instance), imported on first use."""
    check_name(name)
    module_name, class_name = _REGISTRY[name].split(":")
    module = importlib.import_module(f"{__name__}.{module_name}")
    retriever: Retriever = getattr(module, class_name)()
    return retriever
