"""What the LoCoMo benchmark scripts share: their arguments and a warm embedder."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from memhop.core.bench.sources import default_locomo_dir

if TYPE_CHECKING:
    from memhop.core.embed import Embedder


def locomo_args(doc: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("source", nargs="?", type=Path, default=default_locomo_dir() / "26.json")
    parser.add_argument("--repeats", type=int, default=3)
    return parser.parse_args()


def warm_embedder() -> Embedder:
    """Prints the machine's state first: wall clocks on a shared VM mean little without it.
    MEMHOP_EMBEDDER picks the embedder, as it does for memhop (e.g. minilm-int8; the default is the float minilm)."""
    from memhop.core.embed import get_embedder

    print(f"cpus={os.cpu_count()}  load average={', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    embedder = get_embedder(os.environ.get("MEMHOP_EMBEDDER") or None)  # None: a new store's default
    embedder.embed(["warm up"])  # also builds the cached ONNX graph on a first run
    return embedder
