"""Where the tests find the repo's samples and the shared LoCoMo files (the benchmark's
own default: beside the checkout, or $MEMHOP_LOCOMO_DIR)."""

from pathlib import Path

from memhop.core.bench.sources import default_locomo_dir

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_diaries"
LOCOMO = default_locomo_dir()
