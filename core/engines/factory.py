"""The engine the settings ask for. Engines import lazily: `memhop --help` loads neither."""

from __future__ import annotations

from memhop.core.config import Settings
from memhop.core.engines.base import Engine
from memhop.core.errors import ConfigError


def build_engine(settings: Settings) -> Engine:
    if settings.engine == "offline":
        from memhop.core.engines.offline.engine import OfflineEngine

        return OfflineEngine()
    if settings.engine == "openai":
        if not settings.openai.base_url and not settings.openai.api_key:
            # Without either, the client would send diary text to api.openai.com unauthenticated.
            raise ConfigError("openai engine needs openai.base_url or an API key")
        from memhop.core.engines.openai.engine import OpenAIEngine

        return OpenAIEngine(settings.openai)
    raise ConfigError(f"unknown engine {settings.engine!r} (expected offline or openai)")
