"""WhatsApp "Export chat" text files, iOS and Android layouts, any common locale.

The date order (day-first or month-first) is a property of the phone that exported the
file, so it is decided once per file from all dates, never line by line: a field above 12
decides, then the only order in which the dates run forward; a file that still cannot
tell is refused with a request for --dayfirst or --monthfirst, never guessed. Times are
the phone's local time and stored as written. The chat's name (the group subject, iOS's
chat-name line, or the export's file name) is every session's title; a poll becomes
"Poll: question — options".
Media placeholders, in whatever language the phone spoke, become a placeholder line
("[image omitted]", "[media omitted]", "[attached: NAME]") so the fact that something was
shared is kept and nothing is read into the app's wording; deleted messages and calls are
skipped. A sender the phone had no name for is a stable "unsaved contact …0456" label;
iOS's "~ " before such a sender's own display name is dropped.
System lines, decided per kind (whatsapp_events reads them):
- kept as a turn of the person who acted, in the line's own words: the group created,
  renamed ("changed the subject/group name from … to …"), someone added, removed, left or
  joined by the invite link. Who was in the group, since when, and what it was called
  then are facts of the user's life, asked about like any other.
- skipped: the encryption notice, "security code changed", "messages you send…",
  disappearing-message settings, pins, icon or description changes (the export holds no
  content for them), admin and number changes, calls. They are the app's bookkeeping, and
  kept they would only crowd out what people said.
The chat's name, as last set, stays every session's title (never read as a statement).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime

from memhop.core.errors import ImportFormatError
from memhop.core.importers._util import INVISIBLE, decode, finish, head_text, make_session, poll_text
from memhop.core.importers.base import ParsedSource, ParseOptions, Turn
from memhop.core.importers.whatsapp_events import group_event
from memhop.core.language.group_events import QUOTE_MARKS, names
from memhop.core.language.placeholders import is_phone_number, placeholder, unsaved_contact

_DATE = r"(?P<date>\d{1,4}[./-]\d{1,2}[./-]\d{1,4})"
_TIME = r"(?P<time>\d{1,2}[:.]\d{2}(?:[:.]\d{2})?)(?:[\s\u202f\u00a0]*(?P<ampm>[aApP]\.?\s?[mM]\.?))?"
# iOS: "[08/05/2023, 13:56:02] Name: text"; Android: "08/05/2023, 13:56 - Name: text".
LINE = re.compile(rf"^(?P<ios>\[)?{_DATE},?\s+{_TIME}(?(ios)\]\s*|\s+[-\u2013]\s+)(?P<rest>.*)$")
_SENDER = re.compile(r"^(?P<name>[^:\n]{1,80}?):\s(?P<text>.*)$", re.S)
# The quote marks of a group name: a "sender" holding an odd number of them is a system
# line whose colon stands inside a quoted name ('Seren changed the subject to "Sketchbook: B"').
_QUOTES = re.compile(f"[{re.escape(QUOTE_MARKS)}]")
_E2E = re.compile(r"^messages (?:and calls are end-to-end encrypted|to this (?:chat|group) are now secured)", re.I)
# The app's own notices, in the languages of most exports (its wording, not the user's).
_DELETED = re.compile(
    r"^(?:this message was deleted|you deleted this message|diese nachricht wurde gelöscht|du hast diese nachricht "
    r"gelöscht|ce message a été supprimé|vous avez supprimé ce message|se eliminó este mensaje|eliminaste este "
    r"mensaje|este mensaje fue eliminado|esta mensagem foi apagada|mensagem apagada|você apagou esta mensagem|"
    r"questo messaggio è stato eliminato|hai eliminato questo messaggio|dit bericht is verwijderd|je hebt dit "
    r"bericht verwijderd)\.?$",
    re.I,
)
_YOU_DELETED = re.compile(
    r"^(?:you deleted this message|du hast diese nachricht gelöscht|vous avez supprimé ce message|eliminaste este "
    r"mensaje|você apagou esta mensagem|hai eliminato questo messaggio|je hebt dit bericht verwijderd)\.?$",
    re.I,
)
_CALL = re.compile(
    r"^(?:missed (?:group )?(?:voice|video) call|verpasster (?:sprach|video|gruppen)anruf|appel (?:vocal|vidéo) "
    r"manqué|llamada (?:de voz |de video |)perdida|chamada de (?:voz|vídeo) perdida|chiamata (?:vocale|video) persa|"
    r"gemiste (?:spraak|video)oproep)\b",
    re.I,
)
_EDITED = re.compile(
    r"\s*\u200e?<(?:this message was edited|diese nachricht wurde bearbeitet|ce message a été modifié|se editó este "
    r"mensaje|mensagem editada|messaggio modificato|dit bericht is bewerkt)>$",
    re.I,
)
_OMITTED = re.compile(r"^<?(?P<kind>media|image|video|audio|sticker|gif|document|contact card)\s+omitted>?$", re.I)
# iOS in other languages ("\u200eBild weggelassen", "\u200eimage absente"), always after its LRM mark.
_OMITTED_ABROAD = re.compile(
    r"^\w+(?:\s\w+)?\s+(?:weggelassen|ausgeschlossen|omise?s?|absente|omitid[oa]s?|ocult[oa]s?|omess[oaie]|"
    r"weggelaten|pominięt[eya]|dahil edilmedi|tidak disertakan)$",
    re.I,
)
# Android wraps its media notice in angle brackets in every language: "<Media omitted>",
# "<Medien ausgeschlossen>", "<Multimédia omis>". Two or three words: "<sigh>" is the user's.
_BRACKETED = re.compile(r"^<[^<>\s]+(?:\s[^<>\s]+){1,2}>$")
_ATTACHED = re.compile(
    r"^<?(?:attached|angehängt|anhang|pièce jointe|adjunto|anexo|allegato|bijlage):\s*(?P<file>[^<>\n]+?)>?$", re.I
)
# iOS's mark of a sender saved under their own display name only: "~ Dan", "~\u202fDan".
_TILDE = re.compile(r"^~[\s\u00a0\u202f]*")

@dataclass
class _Msg:
    line: int
    date: tuple[int, int, int]
    time: str
    ampm: str | None
    rest: str


class WhatsAppImporter:
    """One session per calendar day; a turn per message, continuation lines included."""

    name = "whatsapp"

    def sniff(self, filename: str, head: bytes) -> bool:
        if b"\x00" in head:
            return False
        lines = [ln.strip(INVISIBLE + " \t\r") for ln in head_text(head).splitlines() if ln.strip()]
        if not lines or not LINE.match(lines[0]):
            return False  # exports always start with a dated line
        return any((m := LINE.match(ln)) and _SENDER.match(m["rest"]) for ln in lines[:30])

    def parse(
        self, data: bytes, filename: str, self_name: str | None = None, options: ParseOptions | None = None
    ) -> ParsedSource:
        msgs = list(_messages(decode(data, filename)))
        if not msgs:
            raise ImportFormatError(filename, "not a WhatsApp export: no dated message lines")
        order = _date_order(msgs, (options or ParseOptions()).day_first, filename)
        chat = _chat_name(msgs, filename)
        owner = self_name or _owner(msgs)
        talkers = _talkers(msgs)
        days: dict[str, list[Turn]] = {}
        named: list[str] = []  # the group's names, as its kept events set them
        for msg in msgs:
            stamp = _timestamp(msg, order)
            if stamp is None:
                raise ImportFormatError(filename, f"line {msg.line}: unreadable date or time")
            turn, event = _turn(msg, stamp, owner, chat, talkers)
            if turn is None:
                continue
            if event:
                named.extend(new for _, new in names(turn.text))
            day = stamp.date().isoformat()
            bucket = days.setdefault(day, [])
            bucket.append(replace(turn, external_id=f"{day}#{len(bucket) + 1}"))
        title = named[-1] if named else chat
        sessions = [make_session(day, turns, title=title) for day, turns in days.items()]
        return finish(self.name, sessions, filename, owner=owner)


def _messages(text: str) -> Iterator[_Msg]:
    """Dated lines with their continuation lines folded in."""
    current: _Msg | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.lstrip(INVISIBLE)
        match = LINE.match(line.rstrip())
        if match is None:
            if current is not None:
                current.rest += "\n" + raw
            continue
        if current is not None:
            yield current
        fields = tuple(int(f) for f in re.split(r"[./-]", match["date"]))
        current = _Msg(number, (fields[0], fields[1], fields[2]), match["time"], match["ampm"], match["rest"])
    if current is not None:
        yield current


def _date_order(msgs: list[_Msg], day_first: bool | None, filename: str) -> str:
    """ "ymd", "dmy" or "mdy" for the whole file; ImportFormatError when nothing tells and
    the user did not say (--dayfirst / --monthfirst)."""
    dates = [m.date for m in msgs]
    if any(d[0] > 31 for d in dates):
        return "ymd"
    if day_first is not None:
        return "dmy" if day_first else "mdy"
    if any(d[0] > 12 for d in dates):
        return "dmy"
    if any(d[1] > 12 for d in dates):
        return "mdy"
    if all(d[0] == d[1] for d in dates):
        return "dmy"  # 5/5/24: both orders read the same day
    forward = [order for order in ("dmy", "mdy") if _runs_forward(dates, order)]
    if len(forward) == 1:
        return forward[0]  # exports are in time order; the other reading would go back in time
    a, b = next((m.date[0], m.date[1]) for m in msgs if m.date[0] != m.date[1])
    hint = _text_hint(msgs)
    raise ImportFormatError(
        filename,
        f"cannot tell whether dates are day/month or month/day (no day above 12); pass --dayfirst "
        f"({a}/{b} is {a} {_MONTH_NAMES[b - 1]}) or --monthfirst ({a}/{b} is {_MONTH_NAMES[a - 1]} {b}){hint}",
    )


_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")
_MONTH_PREFIXES = tuple(name[:3].lower() for name in _MONTH_NAMES)
_MENTION = re.compile(r"\b(?P<month>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?P<day>\d{1,2})"
                      r"(?:st|nd|rd|th)?\b|\b(?P<day2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month2>jan|feb|mar|apr|"
                      r"may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", re.I)


def _text_hint(msgs: list[_Msg]) -> str:
    """Weak evidence, only ever shown, never acted on: a message dated 3/4 that says
    "March 4th" suggests month-first."""
    for msg in msgs:
        a, b, _ = msg.date
        for match in _MENTION.finditer(msg.rest):
            month = _MONTH_PREFIXES.index((match["month"] or match["month2"]).lower()) + 1
            day = int(match["day"] or match["day2"])
            if (month, day) == (a, b) and a != b:
                return f"; line {msg.line} says {match[0]!r}, which suggests --monthfirst"
            if (month, day) == (b, a) and a != b:
                return f"; line {msg.line} says {match[0]!r}, which suggests --dayfirst"
    return ""


def _runs_forward(dates: list[tuple[int, int, int]], order: str) -> bool:
    keys = [(c, b, a) if order == "dmy" else (c, a, b) for a, b, c in dates]
    return all(x <= y for x, y in zip(keys, keys[1:]))


_FILE_TITLE = re.compile(r"^WhatsApp Chat (?:with|-|mit|avec|con|com|met)\s+(?P<name>.+?)(?:\.zip|\.txt)?$", re.I)


def _chat_name(msgs: list[_Msg], filename: str) -> str | None:
    """The chat's name before any kept event sets it: iOS's chat-name line (its first line
    puts the encryption notice under the chat's name), else the export's file name."""
    first = _SENDER.match(msgs[0].rest)
    if first and _E2E.match(first["text"].strip(INVISIBLE + " ")):
        return _speaker(first["name"])
    for part in reversed(re.split(r"[/\\:]", filename)):
        if match := _FILE_TITLE.match(part.strip()):
            return match["name"].strip()
    return None


def _timestamp(msg: _Msg, order: str) -> datetime | None:
    a, b, c = msg.date
    year, month, day = (a, b, c) if order == "ymd" else (c, b, a) if order == "dmy" else (c, a, b)
    if year < 100:
        year += 2000
    parts = [int(p) for p in re.split(r"[:.]", msg.time)]
    hour, minute, second = parts[0], parts[1], parts[2] if len(parts) > 2 else 0
    if msg.ampm:
        pm = msg.ampm.lower().startswith("p")
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if pm else 0)
    try:
        return datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None


def _talkers(msgs: list[_Msg]) -> frozenset[str]:
    """The senders who write at least one line without iOS's leading LRM: people, not the
    chat's own name under which the app files its notices."""
    said = (_SENDER.match(msg.rest) for msg in msgs)
    return frozenset(s["name"] for s in said if s is not None and not s["text"].startswith("\u200e"))


def _turn(
    msg: _Msg, stamp: datetime, owner: str | None, chat: str | None, talkers: frozenset[str]
) -> tuple[Turn | None, bool]:
    """The message as a turn, and whether it is a group event (kept as its actor's
    statement); None for the app's other notices, calls, deleted and empty messages. A line
    is the app's by its whole shape, never because a sender's name holds a word like "left"."""
    if event := _event(msg.rest.strip(INVISIBLE + " "), None, owner, stamp, chat):  # Android: no sender
        return event, True
    sender = _SENDER.match(msg.rest)
    if sender is None or len(_QUOTES.findall(sender["name"])) % 2:
        return None, False
    raw = sender["text"]
    text = _EDITED.sub("", raw.strip(INVISIBLE + " \t")).strip()
    if _E2E.match(text):
        return None, False  # iOS puts the encryption notice under the chat's name
    if not text or _DELETED.match(text) or _CALL.match(text):
        return None, False
    if media := _media_marker(text, ios_notice=raw.startswith("\u200e")):
        text = media
    elif poll := _poll(text):
        text = poll
    elif raw.startswith("\u200e"):  # iOS marks its system notices with a leading LRM
        if event := _event(text, _speaker(sender["name"]), owner, stamp, chat):
            return event, True
        if sender["name"].strip(INVISIBLE + " ") == chat or (chat is None and sender["name"] not in talkers):
            # the app's other notices, under the chat's name; when the file does not say it, a name that never talks
            return None, False
    return Turn(speaker=_speaker(sender["name"]), text=text, timestamp=stamp), False


def _event(line: str, sender: str | None, owner: str | None, stamp: datetime, chat: str | None) -> Turn | None:
    """A membership or group-name line as its actor's statement; None for other notices."""
    event = group_event(line, sender, owner, name=_speaker, chat=chat)
    return Turn(speaker=event[0], text=event[1], timestamp=stamp) if event else None


def _owner(msgs: list[_Msg]) -> str | None:
    """Whoever exported the chat, when the file shows it: the sender of a "You deleted this
    message" line is the phone's owner."""
    for msg in msgs:
        sender = _SENDER.match(msg.rest)
        if sender and _YOU_DELETED.match(sender["text"].strip(INVISIBLE + " \t")):
            return _speaker(sender["name"])
    return None


def _speaker(name: str) -> str:
    """The sender's name as the phone showed it, minus the marks of an unsaved contact."""
    clean = _TILDE.sub("", name.strip(INVISIBLE + " ")).strip(INVISIBLE + " ")
    return unsaved_contact(clean) if is_phone_number(clean) else clean


def _media_marker(text: str, ios_notice: bool) -> str | None:
    first, _, caption = text.partition("\n")
    first = first.strip(INVISIBLE + " ")
    if match := _ATTACHED.match(first):
        marker = placeholder("attached", match["file"].strip())
    elif first.lower().endswith("(file attached)"):
        marker = placeholder("attached", first[: -len("(file attached)")].strip())
    elif match := _OMITTED.match(first):
        marker = placeholder(f"{match['kind'].lower()} omitted")
    elif _BRACKETED.match(first) or (ios_notice and _OMITTED_ABROAD.match(first)):
        marker = placeholder("media omitted")
    else:
        return None
    return f"{marker}\n{caption.strip()}" if caption.strip() else marker


_OPTION = re.compile(r"^\s*OPTION:\s*(?P<text>.+?)\s*$")


def _poll(text: str) -> str | None:
    """ "POLL:\nquestion\nOPTION: a (2 votes)\n..." as "Poll: question — a (2 votes); ..."."""
    lines = [ln.strip(INVISIBLE + " ") for ln in text.splitlines() if ln.strip(INVISIBLE + " ")]
    if len(lines) < 2 or lines[0].upper() != "POLL:":
        return None
    options = [m["text"] for ln in lines[2:] if (m := _OPTION.match(ln))]
    return poll_text(lines[1], options)
