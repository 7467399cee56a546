"""Numbered schema migrations. Append only: a released migration is never edited."""

from __future__ import annotations

from memhop.core.embed import DIM

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
]
