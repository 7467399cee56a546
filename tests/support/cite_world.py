"""A diary of raw turns only (no profiles or facts) for citations, refusals and windows:
the recital is announced on 2 March, happens "last night" in the turn of 15 March, and a
turn of 12 May mentions it again; a café spelt with accents; a Sunday of six short
paragraphs (six turns of one session)."""

from __future__ import annotations

from pathlib import Path

from memhop.core.embed import get_embedder
from memhop.core.ingest import ingest
from memhop.core.store import open_store

DIARY = """# Maya's diary

# 2024-03-02

Bob is nervous about his recital on the 14th. He practises every evening after work.

# 2024-03-15

Bob's recital was last night! A small hall, maybe forty people. I gave him the framed concert poster.

# 2024-04-07

Alice has named the plant I brought her. It is called Gerald.

# 2024-05-12

Bob says his piano is not even in tune since the recital.

# 2024-06-01

Coffee at Zoë’s Café with Dan after the gym.

# 2024-06-02

Woke up early.

Ran along the canal.

Made pancakes.

Read on the balcony.

Watered the plants.

Early night.
"""


def build_diary(root: Path) -> Path:
    """The diary ingested as raw turns (`self` Maya Patel); returns the store path."""
    root.mkdir(parents=True, exist_ok=True)
    diary = root / "maya-diary.md"
    diary.write_text(DIARY, encoding="utf-8")
    db = root / "cite.duckdb"
    with open_store(db, embedder="minilm") as store:
        ingest(store, [str(diary)], get_embedder("minilm"), self_name="Maya Patel")
    return db
