"""`memhop bench`: run the benchmark, print the side-by-side table, write the report."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from memhop.cli.common import EngineOption, JsonOption, err, out, print_json, reports_errors, settings


@reports_errors
def bench(
    quick: Annotated[
        bool, typer.Option("--quick", help="Under 10 minutes on 2 cores: 3 scenarios x 40 questions, LoCoMo 26, 10k/100k turns.")
    ] = False,
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for report.md, plots, records.jsonl.")] = Path("bench-results"),
    scenarios: Annotated[
        int | None, typer.Option("--scenarios", min=0, help="Generated scenarios (default 3 quick, 10 full).")
    ] = None,
    questions: Annotated[
        int | None, typer.Option("--questions", min=5, help="Questions per scenario (default 40 quick, 100 full).")
    ] = None,
    locomo: Annotated[
        Path | None,
        typer.Option(
            "--locomo",
            help="LoCoMo folder (default: shared/data/locomo beside the checkout, or $MEMHOP_LOCOMO_DIR, "
            "when it exists).",
            show_default=False,
        ),
    ] = None,
    dev: Annotated[
        Path | None,
        typer.Option(
            "--dev",
            help="Natural-text dev set: a diary and a chat with cast.json and questions.json (default: "
            "shared/data/dev beside the checkout, or $MEMHOP_DEV_DIR, when it exists).",
            show_default=False,
        ),
    ] = None,
    sessions: Annotated[int, typer.Option("--sessions", min=2, help="Diary sessions per scenario.")] = 20,
    scale: Annotated[bool, typer.Option("--scale/--no-scale", help="Time synthetic stores of 10k-1M turns.")] = True,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the scenario generator.")] = 0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    json: JsonOption = False,
    engine: EngineOption = None,
) -> None:
    """Measure memhop against its ablations and baselines: recall, chain reach, answers, speed.

    \b
    Example:
      memhop bench --quick --out bench-out/
    """
    from memhop.cli.progress import progress_for
    from memhop.core.bench.report import headline, natural_headline, summary, write_outputs
    from memhop.core.bench.result import BenchConfig
    from memhop.core.bench.runner import run_bench
    from memhop.core.bench.sources import dev_dir, locomo_dir

    conf = settings(engine=engine)
    config = BenchConfig(out_dir, quick, scenarios, questions, locomo_dir(locomo), seed, scale, sessions,
                         dev_dir(dev))
    with progress_for(quiet) as progress:
        result = run_bench(config, conf, progress=progress)
    written = write_outputs(result, out_dir)
    if json:
        print_json(summary(result))
    else:
        out.print("MemHop-style (all K)\n" + headline(result, "memhop"), markup=False)
        out.print("\nLoCoMo (categories 1-4)\n" + headline(result, "locomo"), markup=False)
        out.print("\nNatural text (dev set, offline engine)\n" + natural_headline(result), markup=False)
    err.print(f"report: {written[0]} ({result.seconds / 60:.1f} min)")
    for name, why in sorted(result.unavailable.items()):
        err.print(f"not available: {name}: {why}")
