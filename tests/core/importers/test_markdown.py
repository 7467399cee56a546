"""Markdown / plain-text diaries with dated headings."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from memhop.core.errors import ImportFormatError
from memhop.core.importers import ParsedSource, parse_source
from memhop.core.importers.markdown import MarkdownImporter


def _parse(text: str, self_name: str | None = None) -> ParsedSource:
    return MarkdownImporter().parse(text.encode(), "diary.md", self_name=self_name)


def test_sample_entries_and_paragraphs(samples: Path) -> None:
    parsed = parse_source((samples / "maya-diary.md").read_bytes(), "maya-diary.md", self_name="Maya Patel")
    assert parsed.format == "markdown"
    assert parsed.owner == "Maya Patel"
    assert parsed.participants == ("Maya Patel",)
    assert len(parsed.sessions) == 12
    assert sum(len(s.turns) for s in parsed.sessions) == 27
    ids = [s.external_id for s in parsed.sessions]
    assert ids[0] == "2024-02-03" and ids[-1] == "2024-05-18"
    assert {"2024-02-26", "2024-03-02", "2024-03-28", "2024-04-08", "2024-05-04"} <= set(ids)
    first = parsed.sessions[0].turns[0]
    assert first.external_id == "2024-02-03#1"
    assert first.timestamp == datetime(2024, 2, 3)
    assert first.text.startswith("Had dinner at Alice's tonight")
    assert all("Private notes" not in t.text for s in parsed.sessions for t in s.turns)  # preface


def test_heading_styles_and_prose_dates() -> None:
    text = (
        "# My diary\n\n"
        "## Saturday, 2 March 2024\n\nFirst.\n\nSecond\nline two.\n\n"
        "Monday 4 March 2024:\nWent out.\n"
        "On 5 March 2024 I stayed home.\n\n"
        "**Thurs 7th March 2024**\n\nYesterday was odd.\n"
        "### 8/3/2024\nNumeric.\n"
    )
    parsed = _parse(text)
    assert [(s.external_id, [t.text for t in s.turns]) for s in parsed.sessions] == [
        ("2024-03-02", ["First.", "Second\nline two."]),
        ("2024-03-04", ["Went out.\nOn 5 March 2024 I stayed home."]),
        ("2024-03-07", ["Yesterday was odd."]),
        ("2024-03-08", ["Numeric."]),
    ]
    assert parsed.sessions[0].turns[1].speaker == "me"


def test_repeated_date_gets_suffix_and_unique_turn_ids() -> None:
    parsed = _parse("# 2024-03-02\nmorning\n\n# 2024-03-02\nevening\n")
    assert [s.external_id for s in parsed.sessions] == ["2024-03-02", "2024-03-02_2"]
    assert [t.external_id for s in parsed.sessions for t in s.turns] == ["2024-03-02#1", "2024-03-02#2"]


def test_month_first_numeric_headings() -> None:
    parsed = _parse("3/14/2024\npi day\n\n3/2/2024\nlater\n")
    assert [s.external_id for s in parsed.sessions] == ["2024-03-02", "2024-03-14"]


@pytest.mark.parametrize("line", ["Yesterday", "March 2024", "# Groceries", "2024", "10:30", "May I come?"])
def test_non_dates_are_not_headings(line: str) -> None:
    with pytest.raises(ImportFormatError, match=r"^diary\.md: no dated headings found$"):
        _parse(f"{line}\nsome text\n")


def test_headings_without_text_is_no_messages() -> None:
    with pytest.raises(ImportFormatError, match="no messages found"):
        _parse("# 2024-03-02\n\n# 2024-03-03\n")


def test_year_less_heading_takes_the_year_its_weekday_fits() -> None:
    text = "## Fri 3 May 2024\nPacked.\n\n## Sun 5 May\nArrived in Lisbon.\n\n## Mon 6 May 2024\nTram 28.\n"
    parsed = _parse(text)
    assert [(s.external_id, [t.text for t in s.turns]) for s in parsed.sessions] == [
        ("2024-05-03", ["Packed."]),
        ("2024-05-05", ["Arrived in Lisbon."]),  # its own day, not a turn of 3 May
        ("2024-05-06", ["Tram 28."]),
    ]


def test_year_less_heading_across_new_year_and_before_the_first_dated_one() -> None:
    parsed = _parse("# 30 December 2023\nFireworks.\n\n# 2 January\nBack to work.\n")
    assert [s.external_id for s in parsed.sessions] == ["2023-12-30", "2024-01-02"]
    parsed = _parse("# 4 March\nFirst.\n\n# 9 March 2024\nSecond.\n")
    assert [s.external_id for s in parsed.sessions] == ["2024-03-04", "2024-03-09"]


def test_year_less_heading_is_refused_with_its_line_when_nothing_fits() -> None:
    with pytest.raises(ImportFormatError, match=r"^diary\.md: line 4: heading 'Tue 5 May' has no year"):
        _parse("## 3 May 2024\nPacked.\n\n## Tue 5 May\nwrong weekday for 2023-2025\n")
    with pytest.raises(ImportFormatError, match=r"line 1: heading '5 May' has no year"):
        _parse("5 May\nno dated heading anywhere\n")
