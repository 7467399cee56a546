"""The sample diaries as a store, for the forget / edit / export tests.

Raw turns come from `ingest` (real importers, real MiniLM embeddings). The memory layers
are derived without the write path, which is far too slow to run per test module: an
honest extractive stand-in (each entity's profile and facts are the diary sentences that
name it). The store is built once per test process and copied for each test.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

import duckdb
import numpy as np

from memhop.core.embed import MODEL, get_embedder
from memhop.core.model import ResidualDraft
from memhop.core.ingest import ingest
from memhop.core.language.names import mentions
from memhop.core.redact import sentences_of
from memhop.core.store import memory, open_store

from support.paths import SAMPLES

SELF = "Maya Patel"
SELF_PROFILE = (
    "Maya Patel keeps this diary and plays the violin. "
    "Her closest friends are Alice Nguyen and Alice's roommate Bob Kowalski. "
    "She works at Brightwave with Dan Okafor."
)
# name, kind, aliases
ENTITIES = [
    (SELF, "self", ()),
    ("Alice Nguyen", "person", ()),
    ("Bob Kowalski", "person", ()),
    ("Dan Okafor", "person", ()),
    ("Priya", "person", ()),
    ("Carol", "person", ()),
    ("Pepper", "pet", ()),
    ("Crumb & Co", "org", ()),
    ("Northlight Studios", "org", ("Northlight",)),
]
PROFILE_SENTENCES = 4
FACTS_PER_ENTITY = 6

_TEMPLATE: dict[str, Path] = {}


class CachingEmbedder:
    """The real MiniLM, remembering what it embedded: tests forget the same person in
    several fresh copies of the store, and the vectors are the same every time."""

    name = "minilm"
    model = MODEL
    dim = 384

    def __init__(self) -> None:
        self._inner = get_embedder("minilm")
        self._seen: dict[str, np.ndarray] = {}

    def embed(self, texts: Any) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._seen]
        if missing:
            self._seen.update(zip(missing, self._inner.embed(missing)))
        return np.stack([self._seen[t] for t in texts]) if texts else np.zeros((0, self.dim), np.float32)


EMBEDDER = CachingEmbedder()
# Questions whose answers the world holds, each through another person's facts.
QUESTIONS = ("What instrument does Bob play?", "Where does Alice live?", "Who has a greyhound?")


def template(root: Path) -> Path:
    """The built store (once per process; `root` is used only the first time)."""
    if "path" not in _TEMPLATE:
        _TEMPLATE["path"] = build(root / "purge-world.duckdb")
    return _TEMPLATE["path"]


def install(template_path: Path, home: Path) -> Path:
    """A private copy of the store where MEMHOP_HOME expects it."""
    home.mkdir(parents=True, exist_ok=True)
    db = home / "memhop.duckdb"
    shutil.copyfile(template_path, db)
    db.chmod(0o600)
    return db


def install_twice(template_path: Path, root: Path, first: str, second: str) -> tuple[Path, Path]:
    """The same store in two homes under `root`: for tests that read one copy one way (exact
    search, a small store) and the other another (derived vectors, a large store)."""
    one = install(template_path, root / first)
    two = root / second / one.name
    two.parent.mkdir()
    shutil.copy(one, two)
    return one, two


def build(path: Path) -> Path:
    embedder = EMBEDDER
    for stale in (path, path.with_name(path.name + ".wal")):
        stale.unlink(missing_ok=True)
    store = open_store(path, embedder=EMBEDDER.name)
    try:
        ingest(store, [str(SAMPLES)], embedder, self_name=SELF)
        turns = store.con.execute("SELECT id, speaker, text FROM turns ORDER BY id").fetchall()
        derived = [_derive(name, aliases, turns) for name, _, aliases in ENTITIES]
        texts = [d["profile"] for d in derived] + [f.text for d in derived for f in d["facts"]]
        vectors = embedder.embed(texts)
        profile_vectors, fact_vectors = vectors[: len(derived)], vectors[len(derived) :]
        with store.transaction():
            offset = 0
            for (name, kind, aliases), d, vector in zip(ENTITIES, derived, profile_vectors):
                entity_id = memory.add_entity(store, name, kind, aliases)
                memory.put_profile(store, entity_id, d["profile"], vector)
                memory.add_mentions(store, entity_id, d["mentions"])
                n = len(d["facts"])
                memory.insert_residuals(store, entity_id, d["facts"], fact_vectors[offset : offset + n])
                offset += n
            store.con.execute("UPDATE sessions SET written_at = now()")
            store.log("write", f"{len(ENTITIES)} entities derived")
        store.con.execute("CHECKPOINT")
    finally:
        store.close()
    return path


def _derive(name: str, aliases: tuple[str, ...], turns: list[tuple[Any, ...]]) -> dict[str, Any]:
    others = [(n, a) for n, _, a in ENTITIES if n != name]
    named: list[tuple[int, str]] = []
    turn_ids = []
    for turn_id, speaker, text in turns:
        spoken = mentions(speaker, name, aliases)
        if spoken or mentions(text, name, aliases):
            turn_ids.append(turn_id)
        for sentence in sentences_of(text):
            if mentions(sentence, name, aliases) and len(sentence) > 12:
                named.append((turn_id, sentence.strip()))
    seen: set[str] = set()
    unique = [(t, s) for t, s in named if not (s.lower() in seen or seen.add(s.lower()))]  # type: ignore[func-returns-value]
    profile = SELF_PROFILE if name == SELF else " ".join(s for _, s in unique[:PROFILE_SENTENCES])
    facts = [
        ResidualDraft(
            text=s,
            category="cross_entity" if any(mentions(s, n, a) for n, a in others) else "identity",
            source_turns=(t,),
        )
        for t, s in unique[PROFILE_SENTENCES : PROFILE_SENTENCES + FACTS_PER_ENTITY]
    ]
    return {"profile": profile, "facts": facts, "mentions": turn_ids}


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, embeddings included: "exactly as before" made comparable."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        tables = [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables() ORDER BY 1").fetchall()]
        return {t: con.execute(f'SELECT * FROM "{t}" ORDER BY ALL').fetchall() for t in tables}
    finally:
        con.close()
