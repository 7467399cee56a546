"""What every command shares: the --db option, settings, the store, errors -> exit codes."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional, TypeVar

import typer
from rich.console import Console

if TYPE_CHECKING:
    from memhop.core.config import Settings
    from memhop.core.store import Store

err = Console(stderr=True, highlight=False, soft_wrap=True)
out = Console(highlight=False, soft_wrap=True)

DbOption = Annotated[
    Optional[Path],
    typer.Option("--db", help="The store file (default: from settings / MEMHOP_HOME).", show_default=False),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")]
EngineOption = Annotated[
    Optional[str], typer.Option("--engine", help="offline (default) or openai.", show_default=False)
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


def settings(db: Path | None = None, engine: str | None = None) -> "Settings":
    from memhop.core.config import load_settings

    return load_settings(db=db, engine=engine)


@contextmanager
def opened_store(settings: "Settings", read_only: bool = False) -> Iterator["Store"]:
    from memhop.core.store import open_store

    store = open_store(settings.db, read_only=read_only)
    try:
        yield store
    finally:
        store.close()


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, default=str, indent=2) + "\n")
