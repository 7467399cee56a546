"""What a benchmark run is asked to do and what it produced: plain data, shared by the
runner that fills it and the report and plots that read it (neither imports the other)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from memhop.core.bench.gap import Choice, GapRecord, choices
from memhop.core.bench.metrics import Record
from memhop.core.bench.systems import SYSTEMS

if TYPE_CHECKING:
    from memhop.core.bench.natural import NaturalResult
    from memhop.core.bench.scale import ScalePoint


@dataclass(frozen=True)
class BenchConfig:
    out: Path
    quick: bool = False
    scenarios: int | None = None  # default: 3 quick, 10 full
    questions: int | None = None  # per scenario; default: 40 quick, 100 full
    locomo: Path | None = None
    seed: int = 0
    scale: bool = True  # the speed-at-scale stage (minutes); off for smoke runs
    sessions: int = 20  # diary sessions per scenario, as in MemHop
    dev: Path | None = None  # the natural-text dev set (diary, chat, answer key); None: not run

    @property
    def n_scenarios(self) -> int:
        return self.scenarios if self.scenarios is not None else (3 if self.quick else 10)

    @property
    def n_questions(self) -> int:
        return self.questions if self.questions is not None else (40 if self.quick else 100)

    @property
    def locomo_files(self) -> tuple[str, ...] | None:
        """Quick mode reads conversation 26 only; the full run every file in the folder."""
        return ("26.json",) if self.quick else None

    @property
    def scales(self) -> tuple[int, ...]:
        if not self.scale:
            return ()
        return (10_000, 100_000) if self.quick else (10_000, 100_000, 1_000_000)


@dataclass
class IngestStat:
    dataset: str
    source: str
    sessions: int
    turns: int
    embed_seconds: float
    write_seconds: float
    engine_calls: int
    entities: int
    residuals: int
    failures: int

    @property
    def calls_per_session(self) -> float:
        return self.engine_calls / self.sessions if self.sessions else 0.0

    @property
    def turns_per_second(self) -> float:
        spent = self.embed_seconds + self.write_seconds
        return self.turns / spent if spent else 0.0


@dataclass
class BenchResult:
    config: BenchConfig
    engine: str
    records: list[Record] = field(default_factory=list)
    ingest: list[IngestStat] = field(default_factory=list)
    scale: list[ScalePoint] = field(default_factory=list)
    natural: NaturalResult | None = None
    gap: list[GapRecord] = field(default_factory=list)  # the default's weights, per LoCoMo conversation
    unavailable: dict[str, str] = field(default_factory=dict)  # system -> why
    seconds: float = 0.0
    machine: str = ""  # cores and load: timings mean little on a busy machine

    @property
    def weight_choices(self) -> list[Choice]:
        """The gap's choices (core/bench/gap.py) for the report and the JSON summary: one
        pass over the records, so worked out on each read, never stale mid-run."""
        return choices(self.gap)


def systems_in(result: BenchResult) -> list[str]:
    """The systems that ran or were reported not available, in the report's order."""
    ran = {r.system for r in result.records}
    return [s for s in SYSTEMS if s in ran or s in result.unavailable]
