"""memhop runs without the `bench` extra; `memhop bench` without it says what to install."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from memhop.core.bench.extra import BENCH_MODULES

# sys.modules[name] = None is how Python marks a module as not importable: `import name`
# raises ImportError, exactly as if the package were not installed.
WITHOUT = "import sys; sys.modules[{name!r}] = None; sys.argv[0] = 'memhop'; from memhop.cli.app import main; main()"


@pytest.mark.parametrize("module", BENCH_MODULES)
def test_bench_without_its_extra_is_one_line_naming_the_extra(module: str, home: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    command = [sys.executable, "-c", WITHOUT.format(name=module), "bench", "--quick", "-q", "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"Error: memhop bench needs {module}, not installed: pip install 'memhop[bench]'"
    ]
    assert done.stdout == "" and not out.exists()
