"""Folders and .zip exports: what is read, what is left out, and what an archive may not do."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from memhop.core.errors import ImportFormatError
from memhop.core.importers.containers import Limits, walk

from support import exports


def _listing(paths: list[str], limits: Limits | None = None) -> dict[str, str]:
    return {Path(f.name.replace(":", "/")).name: f.status or "read" for f in walk(paths, limits)}


def test_folders_are_walked_recursively_and_export_siblings_ignored(tmp_path: Path) -> None:
    exports.chatgpt_folder(tmp_path)
    exports.obsidian_vault(tmp_path)
    listing = _listing([str(tmp_path)])
    assert listing == {
        "conversations.json": "read",
        "chat.html": "ignored",
        "user.json": "ignored",
        "message_feedback.json": "ignored",
        "model_comparisons.json": "ignored",
        "shared_conversations.json": "ignored",
        "file-A1b2C3-photo.png": "ignored",
        "2024-05-01.md": "read",  # Daily/ found inside the vault
        "2024-05-02.md": "read",
        "Ideas.md": "read",
        "Pasted image 20240501.png": "ignored",
    }  # .obsidian/ is hidden: never listed


def test_zip_members_are_read_in_place(tmp_path: Path) -> None:
    archive = exports.whatsapp_ios_zip(tmp_path)
    found = list(walk([str(archive)]))
    names = [(f.name, f.status) for f in found]
    assert names == [
        (f"{archive}:00000004-PHOTO-2024-05-02-18-03-05.jpg", "ignored"),
        (f"{archive}:_chat.txt", None),
    ]
    assert found[1].load() == exports.WHATSAPP_IOS.encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == [archive.name]  # nothing extracted


def test_an_archive_may_not_climb_out_or_blow_up(tmp_path: Path) -> None:
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("../../outside.txt", "[14/05/2024, 20:30:11] A: hi\n")
        z.writestr("/etc/passwd.txt", "x")
        z.writestr("bomb.txt", "a" * 200_000)  # compresses to a few hundred bytes
        z.writestr("nested.zip", b"PK")
    found = {f.name.split(":", 1)[1]: f for f in walk([str(archive)], Limits(member_bytes=100_000))}
    assert found["../../outside.txt"].status == "skipped" and "unsafe path" in str(found["../../outside.txt"].reason)
    assert found["/etc/passwd.txt"].status == "skipped"
    assert found["nested.zip"].status == "skipped"
    with pytest.raises(ImportFormatError, match="too large once uncompressed"):
        found["bomb.txt"].load()
    assert not (tmp_path.parent / "outside.txt").exists()


def test_the_archive_total_is_capped_too(tmp_path: Path) -> None:
    archive = tmp_path / "many.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for n in range(3):
            z.writestr(f"part{n}.txt", "b" * 40_000)
    found = list(walk([str(archive)], Limits(member_bytes=50_000, archive_bytes=100_000)))
    assert len(found[0].load()) == len(found[1].load()) == 40_000
    with pytest.raises(ImportFormatError, match="archive limit"):
        found[2].load()


def test_a_broken_zip_is_one_error_naming_it(tmp_path: Path) -> None:
    broken = tmp_path / "export.zip"
    broken.write_bytes(b"PK\x03\x04 not really")
    (found,) = walk([str(broken)])
    with pytest.raises(ImportFormatError, match=r"export\.zip: not a valid zip archive"):
        found.load()


def test_a_chat_written_twice_is_read_once(tmp_path: Path) -> None:
    folder = exports.signal_chat(tmp_path)
    listing = _listing([str(folder)])
    assert listing == {
        "data.json": "read",
        "chat.md": "ignored",  # signal-export's Markdown copy of data.json
        "index.html": "ignored",
        "2024-05-06T18-02-11.000_00_IMG_2231.jpg": "ignored",
    }
    archive = exports.zip_folder(folder, tmp_path / "signal.zip")
    assert _listing([str(archive)]) == listing
    (folder / "data.json").unlink()
    assert _listing([str(folder)])["chat.md"] == "read"  # exported with --no-json: the Markdown is the chat
