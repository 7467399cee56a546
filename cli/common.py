"""What every command shares: the options, the consoles, errors -> exit codes."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console

if TYPE_CHECKING:
    from memhop.core.config import Settings

HELP_OPTIONS: dict[str, Any] = {"help_option_names": ["-h", "--help"]}  # for every command

err = Console(stderr=True, highlight=False, soft_wrap=True)
out = Console(highlight=False, soft_wrap=True)

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help="The store file (default: from settings / MEMHOP_HOME).", show_default=False),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")]
EngineOption = Annotated[
    str | None, typer.Option("--engine", help="offline (default) or openai.", show_default=False)
]
JobsOption = Annotated[
    int | None,
    typer.Option("--jobs", "-j", min=1, metavar="N", show_default=False,
                 help="Model calls in flight at once (openai engine; default openai.concurrency, 4)."),
]

SinceOption = Annotated[
    str | None,
    typer.Option("--since", help="Only memories from this day on (2024-03-15, '15 March 2024', 'March 2024', 'last week').",
                 show_default=False),
]
UntilOption = Annotated[
    str | None,
    typer.Option("--until", help="Only memories up to this day (a month or year: up to its end).", show_default=False),
]

F = TypeVar("F", bound=Callable[..., Any])


def reports_errors(func: F) -> F:
    """Core raises MemhopError; here it becomes one line on stderr and an exit code."""
    from rich.markup import escape

    from memhop.core.errors import MemhopError  # cheap: no heavy imports in errors

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except MemhopError as exc:
            err.print(f"[red]Error:[/red] {escape(str(exc))}", markup=True)  # "memhop[bench]" is text
            raise typer.Exit(code=exc.exit_code) from None

    return wrapper  # type: ignore[return-value]


def settings(db: Path | None = None, engine: str | None = None) -> Settings:
    """For `memhop bench`, which builds stores of its own; other commands use memhop.open."""
    from memhop.core.config import load_settings

    return load_settings(db=db, engine=engine)


def print_json(data: Any, file: IO[str] | None = None) -> None:
    (file or sys.stdout).write(json.dumps(data, ensure_ascii=False, default=str, indent=2) + "\n")
