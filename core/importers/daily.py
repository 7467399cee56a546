"""Daily notes: one Markdown file per day, dated by its file name (Obsidian's
`Daily/2024-05-01.md`, Logseq's `journals/2024_05_01.md`) or by a `date:` in its front
matter.

The note's text is that day's entry; dated headings inside it (a note that keeps a log
of several days) open entries of their own, and year-less ones take the note's year.
Logseq writes every block as a "- " bullet: each top-level bullet is a paragraph.
"""

from __future__ import annotations

import re
from datetime import date

from memhop.core.errors import ImportFormatError
from memhop.core.importers._util import decode, finish, head_text
from memhop.core.importers.base import ParsedSource, ParseOptions
from memhop.core.importers.markdown import diary_entries, diary_sessions

_NAME_DATE = re.compile(r"(?:^|[/\\:])(?P<y>\d{4})[-_.](?P<m>\d{2})[-_.](?P<d>\d{2})(?:[ _-][^/\\:]*)?\.(?:md|markdown)$", re.I)
_FRONT_DATE = re.compile(r"^(?:date|created|day)\s*:\s*[\"']?(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})", re.I | re.M)
_BULLET = re.compile(r"^- ")


class DailyNoteImporter:
    """One session for the note's day (plus one per dated heading inside it)."""

    name = "daily"

    def sniff(self, filename: str, head: bytes) -> bool:
        if b"\x00" in head:
            return False
        if _name_date(filename) is not None:
            return True
        front, _ = _split_front_matter(head_text(head))
        return front is not None and _FRONT_DATE.search(front) is not None

    def parse(
        self, data: bytes, filename: str, self_name: str | None = None, options: ParseOptions | None = None
    ) -> ParsedSource:
        front, body = _split_front_matter(decode(data, filename))
        day = _front_date(front) or _name_date(filename)
        if day is None:
            raise ImportFormatError(filename, "not a daily note: no date in its file name or front matter")
        lines = _outline_paragraphs(body) if _is_outline(body) else body.splitlines()
        entries = diary_entries(lines, filename, (options or ParseOptions()).day_first, preface_day=day)
        speaker = self_name or "me"
        return finish(self.name, diary_sessions(entries, speaker), filename, owner=self_name)


def _split_front_matter(text: str) -> tuple[str | None, str]:
    """(front matter, body) of a note that opens with a "---" block; (None, text) otherwise."""
    if not text.startswith("---"):
        return None, text
    lines = text.splitlines(keepends=True)
    for index in range(1, min(len(lines), 200)):
        if lines[index].strip() in ("---", "..."):
            return "".join(lines[1:index]), "".join(lines[index + 1 :])
    return None, text


def _front_date(front: str | None) -> date | None:
    match = _FRONT_DATE.search(front) if front else None
    return _date(match) if match else None


def _name_date(filename: str) -> date | None:
    match = _NAME_DATE.search(filename)
    return _date(match) if match else None


def _date(match: re.Match[str]) -> date | None:
    try:
        return date(int(match["y"]), int(match["m"]), int(match["d"]))
    except ValueError:
        return None


def _outline_paragraphs(body: str) -> list[str]:
    """Each top-level bullet opens a paragraph; its nested blocks stay in it, unbulleted."""
    out: list[str] = []
    for line in body.splitlines():
        if _BULLET.match(line):
            out.extend(["", line[2:]])
        elif line.strip():
            out.append(_BULLET.sub("", line.strip()))
    return out


def _is_outline(body: str) -> bool:
    """A Logseq page: (nearly) every non-blank line is a bullet or an indented child."""
    lines = [line for line in body.splitlines() if line.strip()]
    return bool(lines) and all(line.startswith(("- ", "\t", "  ")) for line in lines)
