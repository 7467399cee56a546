"""Exceptions raised by memhop's core. Only the CLI turns them into messages and exit codes."""

from __future__ import annotations


class MemhopError(Exception):
    """Base of every error memhop reports to a user; str() is the one-line message."""

    exit_code = 1


class ConfigError(MemhopError):
    """The settings file or an environment override is invalid."""

    exit_code = 2


class ImportFormatError(MemhopError):
    """An input file is corrupt, truncated or in no supported format."""

    def __init__(self, source: str, reason: str) -> None:
        self.source = source
        self.reason = reason
        super().__init__(f"{source}: {reason}")


class StoreError(MemhopError):
    """The DuckDB store cannot be opened or is in an unexpected state."""


class EntityNotFound(MemhopError):
    """A command named an entity that the registry does not know."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"no entity named {name!r} (see `memhop entities`)")


class EngineError(MemhopError):
    """An engine failed for good: retries exhausted, invalid replies, misconfiguration."""
