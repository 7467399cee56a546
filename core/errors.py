"""Exceptions raised by memhop's core. Only the CLI turns them into messages and exit codes."""

from __future__ import annotations

from collections.abc import Sequence


class MemhopError(Exception):
    """Base of every error memhop reports to a user; str() is the one-line message."""

    exit_code = 1


class ConfigError(MemhopError):
    """The settings file or an environment override is invalid."""

    exit_code = 2


class UsageError(MemhopError):
    """A command called wrongly (a bad option value, arguments that exclude each other);
    nothing was done. Exit code 2, as for the parser's own usage errors."""

    exit_code = 2


class ImportFormatError(MemhopError):
    """An input file is corrupt, truncated or in no supported format."""

    def __init__(self, source: str, reason: str) -> None:
        self.source = source
        self.reason = reason
        super().__init__(f"{source}: {reason}")


class UnknownFormat(ImportFormatError):
    """A file in no format memhop knows (inside a folder or archive it is skipped, not failed)."""


class StoreError(MemhopError):
    """The DuckDB store cannot be opened or is in an unexpected state."""


class StoreNotFound(StoreError):
    """A command that only uses a store was pointed at a path that holds none (same exit
    code as every other store error)."""

    def __init__(self, path: object) -> None:
        super().__init__(f"no memhop store at {path} (check --db, or run `memhop ingest` to create one)")


def _either(names: Sequence[str]) -> str:
    """"A", "A or B", "A, B or C"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


class EntityNotFound(MemhopError):
    """A command named an entity that the registry does not know; `suggestions` are the
    closest names it does know (possibly none)."""

    def __init__(self, name: str, suggestions: Sequence[str] = ()) -> None:
        self.name = name
        self.suggestions = tuple(suggestions)
        hint = f"did you mean {_either(self.suggestions)}?" if self.suggestions else "see `memhop entities`"
        super().__init__(f"no entity named {name!r} ({hint})")


class AmbiguousName(MemhopError):
    """A name that fits several entities; nothing is guessed, the candidates are listed."""

    def __init__(self, name: str, candidates: Sequence[str]) -> None:
        self.name = name
        self.candidates = tuple(candidates)
        super().__init__(f"{name!r} could be {_either(self.candidates)}; give the full name")


class SecondDiarist(MemhopError):
    """--self names someone other than the diarist the store already has: memhop never makes
    a second `self` silently."""

    exit_code = 2

    def __init__(self, given: str, diarist: str) -> None:
        super().__init__(
            f"this store's diarist is {diarist!r}; --self {given!r} would make a second one "
            f"(pass --self {diarist!r} or one of its aliases, or use another --db); nothing was imported"
        )


class EngineError(MemhopError):
    """An engine failed for good: retries exhausted, invalid replies, misconfiguration."""


class EngineUnreachable(EngineError):
    """The engine's server cannot be reached at all: a write run stops at once rather than
    spend every pending session's retries on it."""


class InvalidDate(MemhopError):
    """A --since / --until value that is not a date, or a window that ends before it starts."""

    exit_code = 2


class TurnNotFound(MemhopError):
    """`show --turn` named a turn id the store does not hold (never imported, or forgotten)."""

    def __init__(self, turn_id: int) -> None:
        self.turn_id = turn_id
        super().__init__(f"no turn {turn_id} (turn ids are in `memhop search --json` and `ask --json`)")
