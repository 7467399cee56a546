"""Regular expressions compiled when first used rather than when their module is imported.

The rule modules build large alternations (every relation word, every animal) for the write
path; the read path imports the same modules for their word lists and never runs those
patterns. Compiling them on first use spares every fresh `memhop ask` ~35 ms of CPU.
"""

from __future__ import annotations

import re
from collections.abc import Iterator


class LazyPattern:
    """A compiled pattern's `finditer`, compiled on the first call (a race compiles twice,
    harmlessly)."""

    __slots__ = ("source", "flags", "_compiled")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        if self._compiled is None:
            self._compiled = re.compile(self.source, self.flags)
        return self._compiled.finditer(text)
