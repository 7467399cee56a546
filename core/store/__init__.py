"""The one place that speaks SQL: a DuckDB file, its migrations and its transactions."""

from memhop.core.store.db import Store, open_store

__all__ = ["Store", "open_store"]
