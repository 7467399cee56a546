"""A module-scoped memory holding one invented file, ingested with the offline engine:
the set-up of the answer tests that ask many questions of one diary or chat."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import memhop
from memhop.core.api import Memory


@contextmanager
def written_memory(tmp_path_factory: pytest.TempPathFactory, name: str, text: str, self_name: str) -> Iterator[Memory]:
    folder = tmp_path_factory.mktemp(name.split(".")[0])
    (folder / name).write_text(text, encoding="utf-8")
    with memhop.open(folder / "store.duckdb", engine="offline") as memory:
        memory.ingest([folder / name], self_name=self_name)
        yield memory


def written_store(root: Path, text: str, name: str, self_name: str = "Odile Marsh") -> Path:
    """The same, closed: `text` ingested into `root/<name>.duckdb` under its own MEMHOP home,
    for tests that reopen the store (read-only, or from the CLI) as a user would."""
    (root / "diary.md").write_text(text, encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEMHOP_HOME", str(root / "home"))
        with memhop.open(root / f"{name}.duckdb", engine="offline") as memory:
            memory.ingest(root / "diary.md", self_name=self_name)
    return root / f"{name}.duckdb"
