"""Numbered schema migrations, and the columns they leave each data table with.

Migrations are append only: a released migration is never edited.
"""

from __future__ import annotations

from memhop.core.embed import DIM

VECTOR = f"FLOAT[{DIM}]"  # an embedding column; the store's meta record names the embedder

# No secondary indexes: after a kill -9, DuckDB 1.5.5 replays the WAL into an ART index
# on turns(session_id) that then answers `WHERE session_id = ?` with no rows while the
# rows are there (seen in tests/cli/test_ingest_crash.py). Zone maps on columns written
# in order make those scans fast enough without one.

MIGRATIONS: list[tuple[int, str, str]] = [
    (
        1,
        "raw layer: sources, sessions, turns, operation log",
        f"""
        CREATE TABLE sources (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL,
            sha256 TEXT NOT NULL UNIQUE,
            format TEXT NOT NULL,
            owner TEXT,
            imported_at TIMESTAMP NOT NULL
        );
        CREATE TABLE sessions (
            id INTEGER PRIMARY KEY,
            source_id INTEGER NOT NULL,
            external_id TEXT NOT NULL,
            title TEXT,
            started_at TIMESTAMP,
            self_name TEXT,
            written_at TIMESTAMP,
            UNIQUE (source_id, external_id)
        );
        CREATE TABLE turns (
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL,
            position INTEGER NOT NULL,
            speaker TEXT NOT NULL,
            ts TIMESTAMP,
            text TEXT NOT NULL,
            external_id TEXT,
            fingerprint TEXT NOT NULL UNIQUE,
            embedding FLOAT[{DIM}] NOT NULL
        );
        CREATE TABLE oplog (
            id INTEGER PRIMARY KEY,
            happened_at TIMESTAMP NOT NULL,
            op TEXT NOT NULL,
            detail TEXT NOT NULL
        );
        """,
    ),
    (
        2,
        "memory layers: entities, profiles, residuals, mentions",
        f"""
        CREATE TABLE entities (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL,
            aliases TEXT[] NOT NULL DEFAULT [],
            created_at TIMESTAMP NOT NULL
        );
        CREATE TABLE profiles (
            entity_id INTEGER PRIMARY KEY,
            text TEXT NOT NULL,
            embedding FLOAT[{DIM}] NOT NULL,
            version INTEGER NOT NULL,
            updated_at TIMESTAMP NOT NULL
        );
        CREATE TABLE residuals (
            id INTEGER PRIMARY KEY,
            entity_id INTEGER NOT NULL,
            text TEXT NOT NULL,
            category TEXT NOT NULL,
            embedding FLOAT[{DIM}] NOT NULL,
            source_turns INTEGER[] NOT NULL,
            date DATE,
            slot TEXT,
            superseded_by INTEGER,
            created_at TIMESTAMP NOT NULL
        );
        CREATE TABLE mentions (
            entity_id INTEGER NOT NULL,
            turn_id INTEGER NOT NULL,
            PRIMARY KEY (entity_id, turn_id)
        );
        """,
    ),
    (
        3,
        "meta: the embedder whose vectors the store holds",
        """
        CREATE TABLE meta (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        """,
    ),
    (
        4,
        "entities: the evidence for each entity's kind, gathered across sessions",
        """
        ALTER TABLE entities ADD COLUMN kind_votes TEXT;
        """,
    ),
    (
        5,
        "model_replies: each model call's reply, kept before it is applied (resume, rebuild)",
        """
        CREATE TABLE model_replies (
            key TEXT NOT NULL,
            model TEXT NOT NULL,
            prompt TEXT NOT NULL,
            prompt_version INTEGER NOT NULL,
            reply TEXT NOT NULL,
            created_at TIMESTAMP NOT NULL
        );
        """,
    ),
    # 6 is another change's (numbers are kept in the order they were handed out).
    (
        6,
        "quarantine and model_spend: entity updates a failed model call held back; calls and tokens per engine",
        """
        CREATE TABLE quarantine (
            entity_id INTEGER NOT NULL,
            session_id INTEGER NOT NULL,
            turn_ids INTEGER[] NOT NULL,
            reason TEXT NOT NULL,
            attempts INTEGER NOT NULL,
            first_failed_at TIMESTAMP NOT NULL,
            last_failed_at TIMESTAMP NOT NULL
        );
        CREATE TABLE model_spend (
            engine TEXT NOT NULL,
            model TEXT NOT NULL,
            calls BIGINT NOT NULL,
            cached BIGINT NOT NULL,
            prompt_tokens BIGINT NOT NULL,
            completion_tokens BIGINT NOT NULL,
            seconds DOUBLE NOT NULL
        );
        """,
    ),
    (
        7,
        "turn_cues: the speaker and content-word cues of each raw turn (the hero retriever's cue graph)",
        """
        CREATE TABLE turn_cues (
            turn_id INTEGER NOT NULL,
            cue TEXT NOT NULL,
            kind TEXT NOT NULL
        );
        """,
    ),
    (
        8,
        "meta: the store's identity (derived files beside it are keyed to it)",
        "",  # no table changes: applying it writes a random id into meta (core/store/meta.py)
    ),
]
LATEST = MIGRATIONS[-1][0]
META_MIGRATION = 3  # applying it also writes the record (core/store/meta.py)
IDENTITY_MIGRATION = 8  # applying it also writes the store's identity (core/store/meta.py)
CUES_MIGRATION = 7  # applying it also files the store's existing turns under their cues (core/store/cues.py)

# Every table's columns as the migrations leave them, in table order, typed with DuckDB's
# names: bulk inserts and row rewrites build their Arrow tables from this (core/store/bulk.py),
# and tests/core/store/test_schema.py holds it to a migrated file. A migration that adds or
# changes a table changes this too.
COLUMNS: dict[str, tuple[tuple[str, str], ...]] = {
    "migrations": (("version", "INTEGER"), ("name", "VARCHAR"), ("applied_at", "TIMESTAMP")),
    "sources": (
        ("id", "INTEGER"),
        ("path", "VARCHAR"),
        ("sha256", "VARCHAR"),
        ("format", "VARCHAR"),
        ("owner", "VARCHAR"),
        ("imported_at", "TIMESTAMP"),
    ),
    "sessions": (
        ("id", "INTEGER"),
        ("source_id", "INTEGER"),
        ("external_id", "VARCHAR"),
        ("title", "VARCHAR"),
        ("started_at", "TIMESTAMP"),
        ("self_name", "VARCHAR"),
        ("written_at", "TIMESTAMP"),
    ),
    "turns": (
        ("id", "INTEGER"),
        ("session_id", "INTEGER"),
        ("position", "INTEGER"),
        ("speaker", "VARCHAR"),
        ("ts", "TIMESTAMP"),
        ("text", "VARCHAR"),
        ("external_id", "VARCHAR"),
        ("fingerprint", "VARCHAR"),
        ("embedding", VECTOR),
    ),
    "oplog": (
        ("id", "INTEGER"),
        ("happened_at", "TIMESTAMP"),
        ("op", "VARCHAR"),
        ("detail", "VARCHAR"),
    ),
    "entities": (
        ("id", "INTEGER"),
        ("name", "VARCHAR"),
        ("kind", "VARCHAR"),
        ("aliases", "VARCHAR[]"),
        ("created_at", "TIMESTAMP"),
        ("kind_votes", "VARCHAR"),  # JSON {kind: weight}; NULL counts as one vote for `kind`
    ),
    "profiles": (
        ("entity_id", "INTEGER"),
        ("text", "VARCHAR"),
        ("embedding", VECTOR),
        ("version", "INTEGER"),
        ("updated_at", "TIMESTAMP"),
    ),
    "residuals": (
        ("id", "INTEGER"),
        ("entity_id", "INTEGER"),
        ("text", "VARCHAR"),
        ("category", "VARCHAR"),
        ("embedding", VECTOR),
        ("source_turns", "INTEGER[]"),
        ("date", "DATE"),
        ("slot", "VARCHAR"),
        ("superseded_by", "INTEGER"),
        ("created_at", "TIMESTAMP"),
    ),
    "mentions": (
        ("entity_id", "INTEGER"),
        ("turn_id", "INTEGER"),
    ),
    "meta": (("key", "VARCHAR"), ("value", "VARCHAR")),
    "model_replies": (
        ("key", "VARCHAR"),  # sha256 of model, prompt name and version, and the whole request
        ("model", "VARCHAR"),
        ("prompt", "VARCHAR"),
        ("prompt_version", "INTEGER"),
        ("reply", "VARCHAR"),  # the reply's text as the server sent it (never the API key)
        ("created_at", "TIMESTAMP"),
    ),
    "quarantine": (
        ("entity_id", "INTEGER"),
        ("session_id", "INTEGER"),
        ("turn_ids", "INTEGER[]"),  # the session's turns about the entity (what identify found)
        ("reason", "VARCHAR"),  # the engine's error (no key), or the earlier update it waits for
        ("attempts", "INTEGER"),
        ("first_failed_at", "TIMESTAMP"),
        ("last_failed_at", "TIMESTAMP"),
    ),
    "model_spend": (
        ("engine", "VARCHAR"),
        ("model", "VARCHAR"),  # the model setting's name, never an endpoint or a key
        ("calls", "BIGINT"),
        ("cached", "BIGINT"),
        ("prompt_tokens", "BIGINT"),
        ("completion_tokens", "BIGINT"),
        ("seconds", "DOUBLE"),
    ),
    "turn_cues": (
        ("turn_id", "INTEGER"),
        ("cue", "VARCHAR"),  # a speaker's name key or a content-word stem (core/store/cues.py)
        ("kind", "VARCHAR"),  # speaker | word
    ),
}
