"""Finding the files inside what a user points at: files, folders (walked recursively) and
`.zip` exports (read in place, never extracted).

An app's export holds more than conversations: ChatGPT puts `chat.html` and `user.json`
beside `conversations.json`, WhatsApp and Telegram put the photos and voice notes, Day One
its `photos/`. Those are known to hold no conversation and are `ignored` (listed with
--verbose); any other file found inside a folder or archive that no importer recognises
is `skipped` and reported, never a failure of the files that did import.

Archives are untrusted input: a member is read into memory only up to a size limit (the
sizes the archive claims are not trusted), the total read per archive is capped, and a
member whose path climbs out of the archive ("../x", "/etc/x") is refused by name.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from memhop.core.errors import ImportFormatError

STDIN = "-"
ARCHIVE_SEP = ":"  # "export.zip:conversations.json" names a member of an archive

# Files of known exports that hold no conversation (lower-case base names).
_SIBLINGS = frozenset(
    {
        # ChatGPT
        "chat.html",
        "user.json",
        "message_feedback.json",
        "model_comparisons.json",
        "shared_conversations.json",
        # Telegram Desktop (the full export's index page) and OS litter
        "export_results.html",
        "thumbs.db",
        "desktop.ini",
    }
)
# A file that repeats, in another form, the conversation of a sibling: signal-export
# writes each chat as data.json, chat.md and index.html.
_SHADOWED_BY = {"chat.md": "data.json", "index.html": "data.json"}
# Folders of known exports that hold no conversation: Telegram's page assets and lists.
_ASSET_DIRS = frozenset({"css", "js", "images", "lists", "profile_pictures", "__macosx"})
# Media and documents that exports carry beside the text; their content is never speech.
MEDIA_SUFFIXES = frozenset(
    (
        ".jpg .jpeg .png .gif .webp .heic .heif .bmp .tif .tiff .svg .ico "
        ".mp4 .mov .m4v .avi .mkv .webm .3gp .opus .ogg .oga .m4a .mp3 .wav .aac .amr .flac "
        ".pdf .vcf .doc .docx .xls .xlsx .ppt .pptx .tgs .css .js .woff .woff2 .ttf"
    ).split()
)


@dataclass(frozen=True)
class Limits:
    """How much one archive may make us read (uncompressed bytes)."""

    member_bytes: int = 512 * 1024 * 1024
    archive_bytes: int = 2 * 1024 * 1024 * 1024
    members: int = 100_000


@dataclass(frozen=True)
class Found:
    """One file to import, or one left out (`ignored` / `skipped` with the reason).

    `nested` files were found by walking a folder or an archive: one in no known format is
    skipped rather than failed, since nobody asked for it by name.
    """

    name: str
    load: Callable[[], bytes]
    nested: bool = False
    status: str | None = None  # None: import it; "ignored" or "skipped": left out
    reason: str | None = None


def known_non_conversation(relative: str, siblings: frozenset[str] = frozenset()) -> str | None:
    """Why a file inside an export holds no conversation, or None if it may hold one.
    `siblings`: the lower-case names of the files beside it."""
    path = PurePosixPath(relative.replace("\\", "/"))
    name = path.name.lower()
    if name in _SIBLINGS:
        return "part of an export, holds no conversation"
    if _SHADOWED_BY.get(name) in siblings:
        return f"the same chat as {_SHADOWED_BY[name]} beside it"
    if any(part.lower() in _ASSET_DIRS for part in path.parts[:-1]):
        return "export page asset"
    if path.suffix.lower() in MEDIA_SUFFIXES:
        return "media file"
    return None


def walk(paths: list[str], limits: Limits | None = None) -> Iterator[Found]:
    """Every file under the given paths, in name order; stdin and plain files as given.
    Nothing is read until a Found's `load` is called (an archive is reopened for it)."""
    limits = limits or Limits()
    for given in paths:
        path = Path(given)
        if given == STDIN:
            yield Found(given, _unreadable(given, "stdin is read by the caller"))
        elif path.is_dir():
            yield from _folder(path, path, limits)
        elif _is_zip_name(path) and path.is_file():
            yield from _archive(path, limits, nested=False)
        else:
            yield Found(given, _file_loader(path))


def _folder(root: Path, folder: Path, limits: Limits) -> Iterator[Found]:
    try:
        children = sorted(folder.iterdir())
    except OSError as exc:
        yield Found(str(folder), _unreadable(str(folder), f"cannot list folder ({exc.strerror})"), nested=True)
        return
    siblings = frozenset(c.name.lower() for c in children)
    for child in children:
        if child.name.startswith("."):
            continue  # .obsidian/, .DS_Store, .git/
        if child.is_dir():
            if not child.is_symlink():  # a linked folder could loop back on itself
                yield from _folder(root, child, limits)
            continue
        if not child.is_file():
            continue
        relative = child.relative_to(root).as_posix()
        if reason := known_non_conversation(relative, siblings):
            yield Found(str(child), _file_loader(child), nested=True, status="ignored", reason=reason)
        elif _is_zip_name(child):
            yield from _archive(child, limits, nested=True)
        else:
            yield Found(str(child), _file_loader(child), nested=True)


def _archive(path: Path, limits: Limits, nested: bool) -> Iterator[Found]:
    try:
        with zipfile.ZipFile(path) as archive:
            infos = [i for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, OSError) as exc:
        reason = "not a valid zip archive" if isinstance(exc, zipfile.BadZipFile) else f"cannot read ({exc})"
        yield Found(str(path), _unreadable(str(path), reason), nested=nested)
        return
    if len(infos) > limits.members:
        yield Found(str(path), _unreadable(str(path), f"archive holds {len(infos)} files (limit {limits.members})"))
        return
    budget = [limits.archive_bytes]
    folders: dict[str, set[str]] = {}
    for info in infos:
        folder, _, base = info.filename.replace("\\", "/").rpartition("/")
        folders.setdefault(folder, set()).add(base.lower())
    for info in sorted(infos, key=lambda i: i.filename):
        name = f"{path}{ARCHIVE_SEP}{info.filename}"
        inner = PurePosixPath(info.filename.replace("\\", "/"))
        if inner.is_absolute() or ".." in inner.parts or ":" in inner.parts[0]:
            yield Found(name, _unreadable(name, "unsafe path in archive"), nested=True, status="skipped",
                        reason="unsafe path in archive (refused)")
            continue
        if any(part.startswith(".") for part in inner.parts):
            continue
        siblings = frozenset(folders[info.filename.replace("\\", "/").rpartition("/")[0]])
        if why := known_non_conversation(info.filename, siblings):
            yield Found(name, _unreadable(name, why), nested=True, status="ignored", reason=why)
            continue
        if inner.suffix.lower() == ".zip":
            yield Found(name, _unreadable(name, "archive inside an archive"), nested=True, status="skipped",
                        reason="archive inside an archive (unzip it first)")
            continue
        yield Found(name, _member_loader(path, info, name, limits, budget), nested=True)


def _member_loader(
    path: Path, info: zipfile.ZipInfo, name: str, limits: Limits, budget: list[int]
) -> Callable[[], bytes]:
    def load() -> bytes:
        cap = min(limits.member_bytes, budget[0])
        try:
            with zipfile.ZipFile(path) as archive, archive.open(info) as stream:
                data = stream.read(cap + 1)  # the header's size is not trusted: count what comes out
        except RuntimeError as exc:  # zipfile's way of saying "encrypted"
            raise ImportFormatError(name, f"cannot read from archive ({exc})") from None
        except (zipfile.BadZipFile, OSError, EOFError) as exc:
            raise ImportFormatError(name, f"damaged archive member ({exc})") from None
        if len(data) > cap:
            which = "file" if cap == limits.member_bytes else "archive"
            raise ImportFormatError(name, f"too large once uncompressed (over the {which} limit of {cap} bytes)")
        budget[0] -= len(data)
        return data

    return load


def _file_loader(path: Path) -> Callable[[], bytes]:
    def load() -> bytes:
        try:
            return path.read_bytes()
        except FileNotFoundError:
            raise ImportFormatError(str(path), "no such file") from None
        except IsADirectoryError:
            raise ImportFormatError(str(path), "is a directory") from None
        except PermissionError:
            raise ImportFormatError(str(path), "permission denied") from None

    return load


def _unreadable(name: str, reason: str) -> Callable[[], bytes]:
    def load() -> bytes:
        raise ImportFormatError(name, reason)

    return load


def _is_zip_name(path: Path) -> bool:
    return path.suffix.lower() == ".zip"
