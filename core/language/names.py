"""Finding registered names in text: the rule of ProGraph's appendix A, used by the write
path (matching the registry), the read path (name boost, expansion) and forget.

A name matches as its full form (case-insensitive, whole words) or by its first token
as a whole word; aliases match in full.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

# First tokens too common to stand for a person on their own.
_WEAK_FIRST_TOKENS = frozenset({"the", "a", "an", "my", "mr", "mrs", "ms", "dr", "st", "new", "old"})


@dataclass(frozen=True)
class NameMatch:
    entity: str  # canonical name
    start: int
    end: int
    text: str  # the matched surface form


def name_forms(name: str, aliases: Iterable[str] = ()) -> list[str]:
    """Every surface form that stands for an entity, longest first."""
    forms = {name.strip(), *(a.strip() for a in aliases)}
    first = name.split()[0] if name.split() else ""
    if first and first.lower() not in _WEAK_FIRST_TOKENS and len(first) > 1:
        forms.add(first)
    return sorted((f for f in forms if f), key=len, reverse=True)


@lru_cache(maxsize=4096)
def _pattern(form: str) -> re.Pattern[str]:
    escaped = r"\s+".join(re.escape(part) for part in form.split())
    return re.compile(rf"(?<![\w]){escaped}(?![\w])", re.IGNORECASE)


def find_names(text: str, entities: Sequence[tuple[str, Sequence[str]]]) -> list[NameMatch]:
    """All non-overlapping mentions of the given (name, aliases) in text, in text order.

    Longer forms win over shorter ones, so "Bob Kowalski" is one match, not two.
    """
    candidates: list[NameMatch] = []
    for name, aliases in entities:
        for form in name_forms(name, aliases):
            for m in _pattern(form).finditer(text):
                candidates.append(NameMatch(name, m.start(), m.end(), m.group(0)))
    candidates.sort(key=lambda m: (m.start, -(m.end - m.start)))
    chosen: list[NameMatch] = []
    last_end = -1
    for match in candidates:
        if match.start >= last_end:
            chosen.append(match)
            last_end = match.end
    return chosen


def mentions(text: str, name: str, aliases: Sequence[str] = ()) -> bool:
    return any(_pattern(form).search(text) for form in name_forms(name, aliases))


def match_registry(name: str, known: Sequence[tuple[str, Sequence[str]]]) -> str | None:
    """The canonical name a newly seen name refers to, if the registry has it.

    "Bob" matches "Bob Kowalski"; "Bob Kowalski" matches a registered "Bob"; aliases count.
    """
    wanted = name.strip().lower()
    if not wanted:
        return None
    first = wanted.split()[0]
    for canonical, aliases in known:
        forms = [canonical.lower(), *(a.lower() for a in aliases)]
        if wanted in forms:
            return canonical
    for canonical, _aliases in known:
        canon_first = canonical.lower().split()[0]
        if first == canon_first and first not in _WEAK_FIRST_TOKENS:
            # Same first name; different surnames mean different people.
            other_rest = canonical.lower().split()[1:]
            rest = wanted.split()[1:]
            if not rest or not other_rest or rest == other_rest:
                return canonical
    return None
