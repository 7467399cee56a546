"""Registry and detection: the right reader for each file, clear errors otherwise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from memhop.core.errors import ImportFormatError
from memhop.core.importers import available, detect, get, parse_source

SAMPLES = {
    "maya-diary.md": "markdown",
    "whatsapp-alice.txt": "whatsapp",
    "telegram-result.json": "telegram",
    "chatgpt-conversations.json": "chatgpt",
    "notes.jsonl": "generic",
}


def test_available_lists_every_format() -> None:
    assert set(available()) == {
        "chatgpt", "whatsapp", "telegram", "telegram-html", "markdown", "daily", "dayone", "locomo", "generic",
        "messenger", "discord", "signal", "imessage",
    }
    assert get("ChatGPT").name == "chatgpt"


@pytest.mark.parametrize(("name", "fmt"), sorted(SAMPLES.items()))
def test_each_sample_detected_by_name_and_by_content(samples: Path, name: str, fmt: str) -> None:
    data = (samples / name).read_bytes()
    assert detect(name, data) == fmt
    assert detect("-", data) == fmt  # stdin: content only
    assert parse_source(data, name).format == fmt


def test_whatsapp_txt_is_not_taken_for_a_diary() -> None:
    data = "\u200e08/05/2023, 13:56 - Alice: 2024-03-02\n08/05/2023, 13:57 - Alice: ok\n".encode()
    assert detect("notes.txt", data) == "whatsapp"


@pytest.mark.parametrize("name", ["chatgpt-conversations.json", "telegram-result.json", "notes.jsonl"])
def test_truncated_json_is_a_one_line_error(samples: Path, tmp_path: Path, name: str) -> None:
    data = (samples / name).read_bytes()
    cut = tmp_path / name
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImportFormatError) as info:
        parse_source(cut.read_bytes(), str(cut))
    message = str(info.value)
    assert message.startswith(f"{cut}: ")
    assert "\n" not in message
    assert "truncated JSON" in message or "invalid JSON" in message


def test_truncated_locomo(locomo_dir: Path) -> None:
    data = (locomo_dir / "26.json").read_bytes()
    with pytest.raises(ImportFormatError, match=r"^26\.json: truncated JSON: .* at line \d+ column \d+$"):
        parse_source(data[:100_000], "26.json")


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("photo.bin", bytes(range(256)) * 4),
        ("data.txt", b"\x00\x01\x02garbage\xff\xfe"),
        ("-", b"PK\x03\x04 zip archive bytes"),
        ("package.json", b'{"name": "x", "version": "1.0.0"}'),
    ],
)
def test_unsupported_input(name: str, data: bytes) -> None:
    with pytest.raises(ImportFormatError, match=r"unsupported format; use --format NAME \(`memhop ingest --help` lists them\)$"):
        parse_source(data, name)


def test_invalid_utf8_and_empty_and_unknown_format() -> None:
    with pytest.raises(ImportFormatError, match=r"^d\.md: not valid UTF-8 text \(invalid byte 0xff at offset 7\)$"):
        parse_source(b"# 2024-\xff", "d.md")
    with pytest.raises(ImportFormatError, match="empty file"):
        parse_source(b"  \n", "e.md")
    with pytest.raises(ImportFormatError, match=r"^x\.csv: unknown format 'csv' \(expected one of: "):
        parse_source(b"a,b", "x.csv", format="csv")


def test_registry_import_is_lazy() -> None:
    code = (
        "import sys, memhop.core.importers as m\n"
        "formats = {'memhop.core.importers.' + n for n in m.available()}\n"
        "print(','.join(n for n in sys.modules if n in formats or n.split('.')[0] == 'dateparser'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_detection_does_not_import_dateparser(samples: Path) -> None:
    code = (
        "import sys; from pathlib import Path; from memhop.core.importers import detect\n"
        f"detect('-', Path({str(samples / 'maya-diary.md')!r}).read_bytes())\n"
        "print('dateparser' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
