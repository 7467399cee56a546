"""Where the tests find the repo's samples and the shared LoCoMo files."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_diaries"
LOCOMO = REPO.parent / "shared" / "data" / "locomo"
