"""A progress bar on stderr, only when a person is watching."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

from memhop.cli.common import err

MIN_TOTAL = 50  # short inputs finish before a bar is worth drawing


class RichProgress:
    def __init__(self, progress: Progress) -> None:
        self._progress = progress
        self._task: TaskID | None = None

    def start(self, label: str, total: int) -> None:
        if self._task is not None:
            self._progress.remove_task(self._task)
            self._task = None
        if total >= MIN_TOTAL:
            self._task = self._progress.add_task(label, total=total, note="")

    def advance(self, amount: int) -> None:
        if self._task is not None:
            self._progress.advance(self._task, amount)

    def note(self, text: str) -> None:
        if self._task is not None:
            self._progress.update(self._task, note=text)


class NoProgress:
    def start(self, label: str, total: int) -> None:
        return None

    def advance(self, amount: int) -> None:
        return None

    def note(self, text: str) -> None:
        return None


@contextmanager
def progress_for(quiet: bool) -> Iterator[RichProgress | NoProgress]:
    if quiet or not err.is_terminal:
        yield NoProgress()
        return
    columns = (
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        TextColumn("{task.fields[note]}"),
    )
    with Progress(*columns, console=err, transient=True) as bar:
        yield RichProgress(bar)
