"""memhop: a multi-hop personal memory in one DuckDB file."""

__version__ = "0.1.0"
