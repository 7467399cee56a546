"""Between engine views and a language model's text: session data written as tagged JSON
blocks that user text can never break out of, and replies read back into engine views.

Pure functions, no network: the openai engine uses them, and so can any other LLM engine.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from memhop.core.engines.openai.clean import strip_tags, third_person, ungrounded
from memhop.core.engines.openai.prompts import Prompt, ReplyError
from memhop.core.language.names import find_names, match_registry, mentions, name_key
from memhop.core.model import (
    CATEGORIES,
    Extraction,
    FoundEntity,
    KnownEntity,
    ResidualDraft,
    SessionView,
    TurnView,
)

_DATE = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[T ].*)?")
_THINKING = re.compile(r"^\s*<think>.*?</think>", re.DOTALL)
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
_FENCED_ANYWHERE = re.compile(r"```(?:json)?\s*(.*?)\s*```", re.DOTALL)


# -- reading replies ---------------------------------------------------------------------


@dataclass(frozen=True)
class Completion:
    """What the engine reads of a chat-completion body."""

    content: str
    finish_reason: str | None
    prompt_tokens: int = 0
    completion_tokens: int = 0


def read_completion(body: bytes) -> Completion:
    """The first choice of an HTTP 200 body, checked field by field: a proxy's HTML page,
    a truncated body or a server speaking another protocol is a ReplyError (retried),
    never an exception from deep inside the client."""
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ReplyError("the server's HTTP 200 body is not JSON") from None
    except RecursionError:
        raise ReplyError("the server's HTTP 200 body is JSON nested too deeply") from None
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list):
        raise ReplyError("the server's reply is not a chat completion (no choices list)")
    if not choices:
        raise ReplyError("reply has no choices")
    choice = choices[0]
    message = choice.get("message") if isinstance(choice, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(message, dict) or not isinstance(content, str | None):
        raise ReplyError("the server's reply has no message text")
    reason = choice.get("finish_reason")
    usage = data.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    return Completion(
        content=content or "",
        finish_reason=reason if isinstance(reason, str) else None,
        prompt_tokens=_count(usage.get("prompt_tokens")),
        completion_tokens=_count(usage.get("completion_tokens")),
    )


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def decode_reply(content: str, prompt: Prompt) -> Any:
    """JSON from a reply, tolerating a code fence or a leading <think> block; from a plain
    text reply (a server without a JSON mode), the JSON object within its words."""
    text = _THINKING.sub("", content).strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = _json_within(text)
    except RecursionError:
        raise ReplyError("JSON nested too deeply") from None
    prompt.check_reply(data)
    return data


def _json_within(text: str) -> Any:
    """The first fenced block, else the text from its first "{" to its last "}", as JSON."""
    candidates = [m.group(1) for m in _FENCED_ANYWHERE.finditer(text)]
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except json.JSONDecodeError:
            continue
        except RecursionError:
            raise ReplyError("JSON nested too deeply") from None
    raise ReplyError("not valid JSON")


# Words small models put where a category goes, read as the category they describe. A
# fact's category only labels it, so a near miss is not worth failing a whole reply
# (a model at temperature 0 repeats it through every repair turn).
_CATEGORY_WORDS = {
    "name": ("location", "place", "organisation", "organization", "title", "person", "pet", "entity"),
    "date": ("time", "when", "day", "event_date"),
    "number": ("quantity", "amount", "count", "measurement", "age_number"),
    "cross_entity": ("relationship", "relation", "family", "social", "link"),
    "state_change": ("change", "event", "update", "transition"),
    "list": ("items", "enumeration"),
}
_CATEGORY_OF = {word: category for category, words in _CATEGORY_WORDS.items() for word in words}


def category_of(word: str) -> str:
    """One of CATEGORIES for what the model wrote: itself, its nearest, else "identity" (the
    category of descriptive facts: job, age, role, traits)."""
    key = word.strip().lower().replace(" ", "_").replace("-", "_")
    if key in CATEGORIES:
        return key
    return _CATEGORY_OF.get(key, "identity")


def parse_extraction(
    reply: Mapping[str, Any],
    shown: Mapping[int, TurnView],
    known_ids: set[int],
    *,
    names: Sequence[str],
    self_name: str | None,
) -> Extraction:
    """Residuals keep only turn ids the prompt showed, supersedes only the entity's own
    existing ids (`known_ids`). Tags are stripped; a fact in the diarist's first person is
    rewritten with their name, or dropped when that cannot be done safely; a fact naming a
    name or number its source turns never say is dropped. A profile in the first person
    is a ReplyError, so the retry tells the model so."""
    drafts = []
    for i, item in enumerate(reply["residuals"]):
        sources = tuple(dict.fromkeys(x for x in map(_as_id, item["source_turns"]) if x is not None and x in shown))
        if not sources:
            continue  # a fact that cannot be traced to a turn of this session is not kept
        text = third_person(strip_tags(item["text"]), self_name)
        if not text:
            continue  # "I like ..." with no safe third-person form
        day = _parse_date(item.get("date"), f"reply.residuals[{i}].date")
        cited = [shown[s] for s in sources]
        said_on = [day, *(t.timestamp.date() for t in cited if t.timestamp is not None)]
        if ungrounded(text, [t.text for t in cited], [*names, self_name or ""], said_on) is not None:
            continue  # a name or number the cited turns never say: the model's invention
        drafts.append(
            ResidualDraft(
                text=text,
                category=category_of(str(item["category"])),
                source_turns=sources,
                date=day,
                slot=(item.get("slot") or "").strip().lower() or None,
            )
        )
    supersedes = tuple(dict.fromkeys(x for x in map(_as_id, reply.get("supersedes") or []) if x in known_ids))
    profile = third_person(strip_tags(reply["profile"]), self_name)
    if profile is None:
        raise ReplyError("reply.profile: written in the first person ('I ...'); write it in the third person, "
                         "naming the diarist")
    if not profile:
        raise ReplyError("reply.profile: must not be empty")
    return Extraction(profile=profile, residuals=tuple(drafts), supersedes=supersedes)


def resolve_entities(
    raw: Sequence[Mapping[str, Any]], session: SessionView, known: Sequence[KnownEntity]
) -> list[FoundEntity]:
    """The model's entities matched to the registry, merged, checked against the text."""
    registry: list[tuple[str, Sequence[str]]] = [(k.name, k.aliases) for k in known]
    kinds = {k.name: k.kind for k in known}
    aliases: dict[str, list[str]] = {k.name: list(k.aliases) for k in known}
    self_name = match_registry(session.self_name, registry) if session.self_name else None
    if session.self_name and self_name is None:
        self_name = session.self_name
        registry.append((self_name, ()))
        kinds[self_name], aliases[self_name] = "self", []
    text = "\n".join(t.text for t in session.turns)
    chosen: list[str] = [self_name] if self_name else []
    for item in sorted(raw, key=lambda e: -len(strip_tags(e["name"]))):  # "Bob Kowalski" before "Bob"
        name = strip_tags(item["name"])
        if not name:
            continue
        offered = [a for a in (strip_tags(a) for a in item.get("aliases", [])) if a]
        canonical = next(filter(None, (match_registry(n, registry) for n in (name, *offered))), None)
        if item["kind"] == "self" and (self_name is None or canonical != self_name):
            continue  # only the session's owner is self; "me" or "the diarist" are not names
        if canonical is None:
            written = written_part(name, text)
            canonical = match_registry(written, registry) if written != name else None
            if canonical is None:
                canonical = written
                registry.append((canonical, ()))
                kinds[canonical], aliases[canonical] = item["kind"], []
        for alias in offered:  # a name seen in this text, not a description ("my sister")
            if alias[0].isupper() and mentions(text, alias) and alias.lower() != canonical.lower():
                if alias.lower() not in {a.lower() for a in aliases[canonical]}:
                    aliases[canonical].append(alias)
        if canonical not in chosen:
            chosen.append(canonical)
    forms = [(name, aliases[name]) for name in chosen]
    turn_ids: dict[str, list[int]] = {name: [] for name in chosen}
    for turn in session.turns:
        about = {m.entity for m in find_names(turn.text, forms)}
        about |= {m.entity for m in find_names(turn.speaker, forms)}
        for name in about:
            turn_ids[name].append(turn.id)
    return [
        FoundEntity(
            name=n,
            kind="self" if n == self_name else kinds[n],
            aliases=tuple(aliases[n]),
            turn_ids=tuple(turn_ids[n]),
        )
        for n in chosen
        if turn_ids[n]  # a name the turns never use is the model's invention
    ]


def written_part(name: str, text: str) -> str:
    """A new name as the turns write it: "Bob Kowalski" from a model whose turns only say
    "Bob" becomes "Bob" (a family name from nowhere, such as a prompt's example, is not
    kept); the name itself when the turns write it whole or not at all."""
    parts = name.split()
    for size in range(len(parts), 0, -1):
        form = " ".join(parts[:size])
        if any(name_key(m.text) == name_key(form) for m in find_names(text, [(form, ())])):
            return form
    return name


def _as_id(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    digits = str(value).strip().lstrip("#tT")
    return int(digits) if digits.isdigit() else None


def _parse_date(value: object, where: str) -> date | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "null", "none")):
        return None
    match = _DATE.fullmatch(str(value).strip())
    if match is not None:
        try:
            return date.fromisoformat(match.group(1))
        except ValueError:
            pass  # 2023-02-30 and the like
    raise ReplyError(f"{where}: {str(value)[:30]!r} is not a YYYY-MM-DD date")


# -- writing prompts: data is JSON, so it can never close its tagged block ----------------


def data_json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False).replace("</", "<\\/")


def data_lines(items: Iterable[object]) -> str:
    return "\n".join(data_json(item) for item in items) or "(none)"


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else moment.strftime("%a %Y-%m-%d %H:%M")


def day_text(moment: datetime | None) -> str:
    return "unknown" if moment is None else moment.strftime("%A %Y-%m-%d")


def iso_date(day: date | None) -> str | None:
    return None if day is None else day.isoformat()


def turn_data(turn: TurnView, session: SessionView | None = None) -> dict[str, object]:
    moment = turn.timestamp or (session.started_at if session else None)
    return {"id": turn.id, "speaker": turn.speaker, "time": _when(moment), "text": turn.text}
