"""memhop ingest on exports as people have them: zips, export folders, journals; and
memhop sources, stdin names, the day/month flags."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from memhop.cli.app import app

from support import exports


def ingest(runner: CliRunner, *args: str, input: str | None = None):  # noqa: ANN201
    return runner.invoke(app, ["ingest", "--quiet", *args], input=input)


def sources(runner: CliRunner) -> list[dict[str, object]]:
    result = runner.invoke(app, ["sources", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _files(result) -> dict[str, dict[str, object]]:  # noqa: ANN001
    return {f["path"].replace(":", "/").rsplit("/", 1)[-1]: f for f in json.loads(result.stdout)["files"]}


def test_an_unzipped_chatgpt_export_imports_with_exit_0(home: Path, runner: CliRunner, tmp_path: Path) -> None:
    folder = exports.chatgpt_folder(tmp_path)
    result = ingest(runner, str(folder), "--json", "--tz", "Europe/Berlin")
    assert result.exit_code == 0, result.output
    files = _files(result)
    assert (files["conversations.json"]["status"], files["conversations.json"]["turns"]) == ("imported", 4)
    assert {f["status"] for name, f in files.items() if name != "conversations.json"} == {"ignored"}
    assert result.stderr == ""  # siblings are left out quietly
    (source,) = sources(runner)
    assert (source["format"], source["sessions"], source["turns"]) == ("chatgpt", 2, 4)
    assert (source["first"], source["last"]) == ("2024-05-01T10:00:00", "2024-05-02T10:00:05")  # Berlin clock


def test_verbose_lists_what_was_left_out(home: Path, runner: CliRunner, tmp_path: Path) -> None:
    folder = exports.chatgpt_folder(tmp_path)
    result = ingest(runner, str(folder), "--verbose")
    assert result.exit_code == 0, result.output
    assert f"{folder / 'user.json'}: ignored (part of an export, holds no conversation)" in result.stderr
    assert f"{folder / 'file-A1b2C3-photo.png'}: ignored (media file)" in result.stderr


def test_every_container_imports_with_exact_counts(home: Path, runner: CliRunner, tmp_path: Path) -> None:
    given = [
        exports.chatgpt_zip(tmp_path / "c"),
        exports.whatsapp_ios_zip(tmp_path / "w"),
        exports.dayone_zip(tmp_path / "d"),
        exports.zip_folder(exports.telegram_html_folder(tmp_path / "t"), tmp_path / "Telegram.zip"),
        exports.obsidian_vault(tmp_path / "o"),
    ]
    result = ingest(runner, *map(str, given), "--json", "--tz", "UTC", "--self", "Kit Moreau")
    assert result.exit_code == 0, result.output
    found = {(s["name"].replace(str(tmp_path), ""), s["format"], s["sessions"], s["turns"]) for s in sources(runner)}
    assert found == {
        ("/c/chatgpt-export.zip:conversations.json", "chatgpt", 2, 4),
        ("/w/WhatsApp Chat - Lakeside Book Club.zip:_chat.txt", "whatsapp", 3, 5),  # the group created is a turn
        ("/d/Export-Journal.zip:Journal.json", "dayone", 2, 4),
        ("/Telegram.zip:ChatExport_2024-05-20/messages.html", "telegram-html", 2, 4),
        ("/Telegram.zip:ChatExport_2024-05-20/messages2.html", "telegram-html", 1, 2),
        ("/o/vault/Daily/2024-05-01.md", "daily", 1, 3),
        ("/o/vault/Daily/2024-05-02.md", "daily", 1, 1),
    }
    files = _files(result)
    assert files["Ideas.md"]["status"] == "skipped"  # a note without a date, reported once
    assert "skipped 1 file(s)" not in result.stderr  # --json: the report is on stdout


def test_unknown_files_in_a_folder_are_reported_not_fatal(home: Path, runner: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "notes.jsonl").write_text('{"speaker": "Ana", "text": "hello", "timestamp": "2024-05-01T10:00:00"}\n')
    (folder / "budget.ods").write_bytes(b"PK\x03\x04" + bytes(range(256)))
    result = ingest(runner, str(folder))
    assert result.exit_code == 0, result.output
    assert "imported 1 sessions, 1 turns" in result.stdout
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("skipped 1 file(s) in no format memhop knows:") and "budget.ods" in line


def test_an_ambiguous_us_whatsapp_chat_asks_for_monthfirst(home: Path, runner: CliRunner, tmp_path: Path) -> None:
    chat = tmp_path / "WhatsApp Chat with Leo Park.txt"
    chat.write_text(exports.WHATSAPP_US, encoding="utf-8")
    refused = ingest(runner, str(chat))
    assert refused.exit_code == 1
    (line,) = refused.stderr.strip().splitlines()[:1]
    assert str(chat) in line and "--monthfirst" in line
    assert sources(runner) == []
    result = ingest(runner, str(chat), "--monthfirst", "--json")
    assert result.exit_code == 0, result.output
    (source,) = sources(runner)
    assert (source["sessions"], source["turns"], source["first"]) == (3, 4, "2024-03-04T09:12:00")


def test_stdin_imports_get_names_of_their_own(home: Path, runner: CliRunner) -> None:
    assert ingest(runner, "-", "--name", "voice-memo-may", input="# 2024-05-01\nFirst memo.\n").exit_code == 0
    assert ingest(runner, "-", input="# 2024-05-02\nSecond memo.\n").exit_code == 0
    names = [s["name"] for s in sources(runner)]
    assert names[0] == "voice-memo-may"
    assert names[1].startswith("stdin-") and len(names[1]) == len("stdin-") + 12
    refused = ingest(runner, "diary.md", "--name", "x")
    assert refused.exit_code == 1 and "--name" in refused.stderr


def test_a_bad_time_zone_is_refused_before_anything_happens(home: Path, runner: CliRunner, tmp_path: Path) -> None:
    result = ingest(runner, str(exports.chatgpt_folder(tmp_path)), "--tz", "Mars/Olympus")
    assert result.exit_code == 2
    assert "unknown time zone 'Mars/Olympus'" in result.stderr
    assert not (home / "memhop.duckdb").exists()


def test_self_is_remembered_by_the_store(home: Path, runner: CliRunner) -> None:
    first = ingest(runner, "-", "--self", "Maya Patel", "--name", "one", input="# 2024-05-01\nI met Alice today.\n")
    assert first.exit_code == 0, first.output
    second = ingest(runner, "-", "--name", "two", input="# 2024-05-02\nI called Bob.\n")  # no --self
    assert second.exit_code == 0, second.output
    exported = json.loads(runner.invoke(app, ["export", "--format", "json"]).stdout)
    speakers = {s["path"]: {t["speaker"] for x in s["sessions"] for t in x["turns"]} for s in exported["sources"]}
    assert speakers == {"one": {"Maya Patel"}, "two": {"Maya Patel"}}
