"""The wheel holds every module and prompt of the checkout: packaging cannot drop a file.

The editable install imports straight from the folders, so a subpackage that packaging
missed would still pass every other test; only a built wheel shows it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from support.paths import REPO

pytestmark = pytest.mark.slow


def _tracked_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, text=True, check=True,
    )
    return [line for line in listed.stdout.splitlines() if (REPO / line).exists() or (REPO / line).is_symlink()]


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """Build from a copy of the checkout (as a clean clone would be), so the repo gets no build/ folder."""
    if shutil.which("git") is None:
        pytest.skip("git is needed to list the checkout")
    src = tmp_path_factory.mktemp("src")
    for name in _tracked_files():
        target = src / name
        target.parent.mkdir(parents=True, exist_ok=True)
        origin = REPO / name
        if origin.is_symlink():
            target.symlink_to(origin.readlink())
        elif origin.is_file():
            shutil.copy2(origin, target)
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "-w", str(out), str(src)],
        check=True, capture_output=True, text=True,
    )
    (wheel,) = out.glob("memhop-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def _expected(folder: str, suffixes: tuple[str, ...]) -> set[str]:
    root = REPO / folder
    return {
        f"memhop/{folder}/{path.relative_to(root).as_posix()}"
        for path in root.rglob("*")
        if path.suffix in suffixes and "__pycache__" not in path.parts
    }


@pytest.mark.parametrize("folder", ["cli", "core"])
def test_every_module_is_in_the_wheel(wheel_names: set[str], folder: str) -> None:
    expected = _expected(folder, (".py",))
    assert len(expected) > 5  # the folder was found at all
    assert expected - wheel_names == set()


def test_every_prompt_file_is_in_the_wheel(wheel_names: set[str]) -> None:
    expected = _expected("prompts", (".py", ".yaml"))
    assert any(name.endswith(".yaml") for name in expected)
    assert expected - wheel_names == set()


def test_the_wheel_installs_nothing_generic_at_the_top(wheel_names: set[str]) -> None:
    tops = {name.split("/")[0] for name in wheel_names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"memhop"}
    assert "memhop/__main__.py" in wheel_names
