"""Every command's help: reachable with -h and --help, ends with an example that parses,
and the command is in the README."""

from __future__ import annotations

import shlex
import subprocess
import sys
from typing import Any

import pytest
import typer
from support.paths import REPO
from typer.testing import CliRunner

import memhop
from memhop.cli.app import app


def _walk(command: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """(words after `memhop`, the click command) for every command and group below `command`."""
    found = [(path, command)] if path else []
    for name, sub in getattr(command, "commands", {}).items():
        found += _walk(sub, (*path, name))
    return found


COMMANDS = _walk(typer.main.get_command(app))
NAMES = [" ".join(path) for path, _ in COMMANDS]
README = (REPO / "README.md").read_text(encoding="utf-8")


def examples(help_text: str) -> list[str]:
    return [line.strip() for line in help_text.splitlines() if line.strip().startswith("memhop ")]


def test_every_command_is_walked() -> None:
    assert {"ingest", "rebuild", "ask", "bench", "fact", "fact add", "fact edit", "fact rm", "restore"} <= set(NAMES)


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=NAMES)
def test_help_has_an_example_that_parses(runner: CliRunner, path: tuple[str, ...], command: Any) -> None:
    long, short = runner.invoke(app, [*path, "--help"]), runner.invoke(app, [*path, "-h"])
    assert long.exit_code == short.exit_code == 0, long.output
    assert long.stdout == short.stdout
    prefix = "memhop " + " ".join(path)
    mine = [line for line in examples(long.stdout) if line == prefix or line.startswith(prefix + " ")]
    assert mine, f"no example line starting with {prefix!r} in:\n{long.stdout}"
    for line in mine:
        args = shlex.split(line)[1 + len(path):]
        args = args[: args.index("<")] if "<" in args else args  # a shell redirection, not an argument
        with command.make_context(prefix, args) as ctx:  # unknown options or bad values raise here
            assert ctx.params is not None


@pytest.mark.parametrize("name", NAMES)
def test_the_command_is_in_the_readme(name: str) -> None:
    assert f"memhop {name}" in README, f"README.md never names `memhop {name}`"


def test_app_help_and_version(runner: CliRunner) -> None:
    short = runner.invoke(app, ["-h"])
    assert short.exit_code == 0 and short.stdout == runner.invoke(app, ["--help"]).stdout
    assert examples(short.stdout)
    version = runner.invoke(app, ["--version"])
    assert version.exit_code == 0 and version.stdout == f"memhop {memhop.__version__}\n" == "memhop 0.1.0\n"


def test_library_docstring_is_readable_without_heavy_imports() -> None:
    probe = (
        "import sys, memhop; help(memhop.open)\n"
        "print('HEAVY', [m for m in ('duckdb', 'numpy', 'yaml', 'rich', 'memhop.core.api') if m in sys.modules])"
    )
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert "memhop.open(" in shown and "read_only" in shown and "HEAVY []" in shown
