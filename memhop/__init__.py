"""memhop: a multi-hop personal memory in one DuckDB file.

    import memhop

    with memhop.open() as mem:
        mem.ingest(["diary.md"], self_name="Maya Patel")
        print(mem.ask("What instrument does Alice's roommate play?").text)

Importing this package loads nothing heavy; `open` imports the library on first call.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memhop.core.api import Memory

__version__ = "0.1.0"
__all__ = ["__version__", "open"]


def open(
    db: str | Path | None = None, engine: str | None = None, *, read_only: bool = False, create: bool = True
) -> Memory:
    """Open your memhop memory: a `Memory` to ingest into, ask and edit; use it in `with`.

    db: the store file (default: from the settings, `MEMHOP_DB` or `MEMHOP_HOME`); it is
        created on first use unless `read_only`.
    engine: "offline" (default) or "openai" (configured in config.yaml or MEMHOP_OPENAI_*).
    read_only: for reading only (ask, read, show, entities, stats, export); a missing
        store is then an error instead of being created.
    create: False to use an existing store read-write (rename, edit, rebuild) without ever
        creating one: a missing store is then an error (StoreNotFound).

    Only the settings are loaded here: the store, the embedding model and the engine are
    opened on first use. Errors are memhop.core.errors.MemhopError subclasses.

    Example:
        with memhop.open("memory.duckdb") as mem:
            mem.ingest(["diary.md"], self_name="Maya Patel")
            answer = mem.ask("What instrument does Alice's roommate play?")
            print(answer.text, mem.stats()["facts"])
    """
    from memhop.core.api import open_memory

    return open_memory(db, engine, read_only=read_only, create=create)
