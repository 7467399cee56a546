"""Where the tests find the repo's samples and the shared LoCoMo files (the benchmark's
own default: beside the checkout, or $MEMHOP_LOCOMO_DIR)."""

from pathlib import Path

from memhop.core.bench.sources import default_locomo_dir

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_diaries"
LOCOMO = default_locomo_dir()
# A store `memhop restore` was killed in while creating it: a file with no table yet and a
# WAL (its first tables, half written) that DuckDB 1.5.5 cannot replay. Captured from a
# real kill -9 (tests/reliability/test_limits_kill.py); it holds no user text.
UNBORN_STORE = Path(__file__).resolve().parent / "data" / "unborn_store"
