"""What the write path's engine calls cost, summed per engine and model over every run.

A counter row per (engine, model); each write run adds what it spent, so `memhop stats`
can say how many calls and tokens the store has cost. Only counts: no prompt, no
endpoint, no key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memhop.core.store.db import Store, has_table

TABLE = "model_spend"


@dataclass(frozen=True)
class Spent:
    calls: int = 0
    cached: int = 0  # requests answered from kept replies: no call paid
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0

    @classmethod
    def between(cls, before: Mapping[str, float], after: Mapping[str, float]) -> Spent:
        """What an engine's usage counters (core.engines.base.Usage, as a dict) grew by."""

        def grew(key: str) -> float:
            return after.get(key, 0) - before.get(key, 0)

        return cls(int(grew("calls")), int(grew("cached")), int(grew("prompt_tokens")),
                   int(grew("completion_tokens")), grew("seconds"))

    @property
    def empty(self) -> bool:
        return not (self.calls or self.cached or self.prompt_tokens or self.completion_tokens)


def add(store: Store, engine: str, model: str, spent: Spent) -> None:
    """Add to the engine's counters (inside the caller's transaction, if any)."""
    if spent.empty:
        return
    found = store.scalar(f"SELECT count(*) FROM {TABLE} WHERE engine = ? AND model = ?", [engine, model])
    if not found:
        store.con.execute(f"INSERT INTO {TABLE} VALUES (?, ?, 0, 0, 0, 0, 0.0)", [engine, model])
    store.con.execute(
        f"UPDATE {TABLE} SET calls = calls + ?, cached = cached + ?, prompt_tokens = prompt_tokens + ?, "
        "completion_tokens = completion_tokens + ?, seconds = seconds + ? WHERE engine = ? AND model = ?",
        [spent.calls, spent.cached, spent.prompt_tokens, spent.completion_tokens, spent.seconds, engine, model],
    )


def totals(store: Store) -> list[dict[str, Any]]:
    """One row per engine and model, as `memhop stats` shows them."""
    if not has_table(store.con, TABLE):  # a store opened read-only before migration 6 has none
        return []
    rows = store.con.execute(
        f"SELECT engine, model, calls, cached, prompt_tokens, completion_tokens, seconds FROM {TABLE} ORDER BY engine, model"
    ).fetchall()
    return [
        {
            "engine": r[0],
            "model": r[1],
            "calls": int(r[2]),
            "cached": int(r[3]),
            "prompt_tokens": int(r[4]),
            "completion_tokens": int(r[5]),
            "seconds": round(float(r[6]), 1),
        }
        for r in rows
    ]
