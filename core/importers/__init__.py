"""Registry of import formats, loaded lazily.

Importing this package loads no format module (and so not dateparser): commands that
never import a file stay fast. `detect` tries the sniffers from most to least specific,
so e.g. a WhatsApp `.txt` is claimed before the Markdown diary reader sees it.
"""

from __future__ import annotations

import importlib
from functools import cache

from memhop.core.errors import ImportFormatError, UnknownFormat
from memhop.core.importers._util import BadTimestamp, load_json
from memhop.core.importers.base import Importer, ParsedSource, ParseOptions, Session, Turn

__all__ = ["Importer", "ParseOptions", "ParsedSource", "Session", "Turn", "available", "detect", "get", "parse_source"]

# name -> "module:Class"; the order is the detection order, most specific first.
_REGISTRY: dict[str, str] = {
    "locomo": "locomo:LoCoMoImporter",
    "chatgpt": "chatgpt:ChatGPTImporter",
    "telegram": "telegram:TelegramImporter",
    "dayone": "dayone:DayOneImporter",
    "messenger": "messenger:MessengerImporter",
    "discord": "discord:DiscordImporter",
    "signal": "signal:SignalImporter",
    "generic": "generic:GenericImporter",
    "telegram-html": "telegram_html:TelegramHTMLImporter",
    "imessage": "imessage:IMessageImporter",
    "whatsapp": "whatsapp:WhatsAppImporter",
    "daily": "daily:DailyNoteImporter",
    "markdown": "markdown:MarkdownImporter",
}
HEAD_BYTES = 64 * 1024
STDIN = "-"


def available() -> list[str]:
    """Format names, in detection order."""
    return list(_REGISTRY)


def get(name: str, source: str = "--format") -> Importer:
    """The importer for `name`; an unknown name is an ImportFormatError about `source`."""
    key = name.strip().lower()
    if key not in _REGISTRY:
        raise ImportFormatError(source, f"unknown format {name!r} (expected one of: {', '.join(_REGISTRY)})")
    return _load(key)


@cache
def _load(key: str) -> Importer:
    module_name, class_name = _REGISTRY[key].split(":")
    module = importlib.import_module(f"{__name__}.{module_name}")
    importer: Importer = getattr(module, class_name)()
    return importer


def detect(filename: str, data: bytes) -> str:
    """The first format whose sniffer claims the file; stdin ("-") is judged by content only."""
    head = data[:HEAD_BYTES]
    name = "" if filename == STDIN else filename
    if not head.strip():
        raise UnknownFormat(filename, "empty file")
    for key in _REGISTRY:
        if _load(key).sniff(name, head):
            return key
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"["):
        load_json(data, filename)  # broken JSON: say where it breaks, not just "unsupported"
    raise UnknownFormat(filename, "unsupported format; use --format NAME (`memhop ingest --help` lists them)")


def parse_source(
    data: bytes,
    filename: str,
    format: str | None = None,
    self_name: str | None = None,
    options: ParseOptions | None = None,
) -> ParsedSource:
    """Detect (unless `format` is forced) and parse; every failure is an ImportFormatError."""
    key = get(format, source=filename).name if format else detect(filename, data)
    try:
        return _load(key).parse(data, filename, self_name=self_name, options=options)
    except BadTimestamp as exc:  # an importer that cannot say which record: the file, at least
        raise ImportFormatError(filename, str(exc)) from None
