"""Registry of engines, loaded lazily.

Importing this package loads no engine (and so neither spaCy nor the openai client):
`memhop --help` and commands that never call an engine stay fast. Unlike the importers'
registry, `get` hands back the class, not a shared instance: an engine counts its own
usage and caches per-run state, so each caller builds its own with `build_engine`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from memhop.core.errors import ConfigError

if TYPE_CHECKING:
    from memhop.core.config import Settings
    from memhop.core.engines.base import Engine

__all__ = ["available", "build_engine", "check_name", "get"]

# name -> "module:Class", modules relative to this package; the default first.
_REGISTRY: dict[str, str] = {
    "offline": "offline.engine:OfflineEngine",
    "openai": "openai.engine:OpenAIEngine",
}


def available() -> list[str]:
    """Engine names, the default first."""
    return list(_REGISTRY)


def check_name(name: str) -> None:
    """A ConfigError for a name the registry does not have; loads nothing."""
    if name not in _REGISTRY:
        raise ConfigError(f"unknown engine {name!r} (expected {' or '.join(_REGISTRY)})")


def get(name: str) -> Callable[..., Engine]:
    """The engine class registered as `name`, imported on first use."""
    check_name(name)
    return _load(name)


@cache
def _load(name: str) -> Callable[..., Engine]:
    module_name, class_name = _REGISTRY[name].split(":")
    module = importlib.import_module(f"{__name__}.{module_name}")
    cls: Callable[..., Engine] = getattr(module, class_name)
    return cls


def build_engine(settings: Settings) -> Engine:
    """A new engine of the kind `settings.engine` names, configured from `settings`."""
    check_name(settings.engine)
    if settings.engine == "openai":
        if not settings.openai.base_url and not settings.openai.api_key:
            # Without either, the client would send diary text to api.openai.com unauthenticated.
            raise ConfigError("openai engine needs openai.base_url or an API key")
        return get("openai")(settings.openai)
    return get(settings.engine)()
