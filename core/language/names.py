"""Finding registered names in text: the rule of ProGraph's appendix A, used by the write
path (matching the registry), the read path (name boost, expansion) and forget.

A name matches as its full form or by its first token as a whole word; aliases match in
full. Matching ignores case and accents ("zoe" finds Zoë, "Lukasz" finds
Łukasz), and a hyphenated name is one word: "Ann" is not found in "Mary-Ann", while
"Leeds-based" still mentions Leeds.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from memhop.core.language.kin import KIN_WORDS

# First tokens too common to stand for a person on their own.
WEAK_FIRST_TOKENS = frozenset({"the", "a", "an", "my", "mr", "mrs", "ms", "dr", "st", "new", "old"})
# Letters Unicode does not decompose that people still write without their mark, and
# typographic variants of the apostrophe and hyphen. Each maps to exactly one character.
_PLAIN = {"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ħ": "h", "Ħ": "H", "ı": "i",
          "ŀ": "l", "Ŀ": "L", "ŧ": "t", "Ŧ": "T", "’": "'", "‘": "'", "‐": "-", "‑": "-"}  # fmt: skip


@dataclass(frozen=True)
class NameMatch:
    entity: str  # canonical name
    start: int
    end: int
    text: str  # the matched surface form


@lru_cache(maxsize=1)
def _fold_table() -> dict[int, str]:
    """Accented Latin letters (Latin-1 to Latin Extended Additional) to their base letter."""
    table: dict[int, str] = {}
    for code in (*range(0xC0, 0x250), *range(0x1E00, 0x1F00)):
        parts = unicodedata.normalize("NFD", chr(code))
        if len(parts) > 1 and all(unicodedata.combining(c) for c in parts[1:]):
            table[code] = parts[0]
    table.update({ord(k): v for k, v in _PLAIN.items()})
    return table


def fold(text: str) -> str:
    """The text without accents, one character for one, so offsets stay valid."""
    return text if text.isascii() else text.translate(_fold_table())


def name_key(name: str) -> str:
    """What two spellings of one name share: no accents, no case, single spaces."""
    return " ".join(fold(unicodedata.normalize("NFC", name)).casefold().split())


def name_forms(name: str, aliases: Iterable[str] = ()) -> list[str]:
    """Every surface form that stands for an entity, longest first."""
    forms = {name.strip(), *(a.strip() for a in aliases)}
    first = name.split()[0] if name.split() else ""
    if first and first.lower() not in WEAK_FIRST_TOKENS and len(first) > 1:
        forms.add(first)
    return sorted((f for f in forms if f), key=len, reverse=True)


@lru_cache(maxsize=4096)
def _pattern(form: str) -> re.Pattern[str]:
    """The form as whole words, to be searched in folded text."""
    escaped = r"\s+".join(re.escape(part) for part in fold(form).split())
    return re.compile(rf"(?<!\w){escaped}(?!\w)", re.IGNORECASE)


def _hyphen_joined(text: str, start: int, end: int) -> bool:
    """The match is part of a hyphenated name: "Mary-Ann", "Jean-Luc" (a capitalised part
    on the other side of the hyphen); "ex-Bob" and "Leeds-based" are not."""
    if start >= 2 and text[start - 1] == "-" and text[start - 2].isalnum():
        part = re.search(r"[^\W_]+$", text[: start - 1])
        if part is not None and part.group(0)[0].isupper():
            return True
    return end + 1 < len(text) and text[end] == "-" and text[end + 1].isupper()


def _matches(form: str, text: str, folded: str) -> Iterator[tuple[int, int]]:
    for m in _pattern(form).finditer(folded):
        if not _hyphen_joined(text, m.start(), m.end()):
            yield m.start(), m.end()


def find_names(text: str, entities: Sequence[tuple[str, Sequence[str]]]) -> list[NameMatch]:
    """All non-overlapping mentions of the given (name, aliases) in text, in text order.

    Longer forms win over shorter ones, so "Bob Kowalski" is one match, not two.
    """
    folded = fold(text)
    candidates: list[NameMatch] = []
    for name, aliases in entities:
        for form in name_forms(name, aliases):
            for start, end in _matches(form, text, folded):
                candidates.append(NameMatch(name, start, end, text[start:end]))
    candidates.sort(key=lambda m: (m.start, -(m.end - m.start)))
    chosen: list[NameMatch] = []
    last_end = -1
    for match in candidates:
        if match.start >= last_end:
            chosen.append(match)
            last_end = match.end
    return chosen


def mentions(text: str, name: str, aliases: Sequence[str] = ()) -> bool:
    folded = fold(text)
    return any(next(_matches(form, text, folded), None) for form in name_forms(name, aliases))


@lru_cache(maxsize=1)
def _kin_keys() -> frozenset[str]:
    return frozenset(name_key(word) for word in KIN_WORDS)


def is_nickname(short: str, long: str) -> bool:
    """"Femi" for Olufemi, "Fran" for Francesca, "Tomi" for Tomasz (folded lower-case words).

    A prefix of 3-4 letters ("Maria" is her own name, not Mariana's), or an ending of 4
    letters or more of a name at least 3 letters longer ("Anna" is not Joanna).
    """
    if len(short) < 3 or short in WEAK_FIRST_TOKENS or short in _kin_keys() or long in _kin_keys():
        return False
    if len(short) <= 4 and len(long) >= len(short) + 2 and long.startswith(short):
        return True
    return len(short) >= 4 and len(long) >= len(short) + 3 and long.endswith(short)


def nickname_either(a: str, b: str) -> bool:
    """One folded word is a nickname of the other, whichever is the short one ("Bart", "Bartholomew")."""
    return is_nickname(a, b) or is_nickname(b, a)


def same_person_parts(a: list[str], b: list[str]) -> bool:
    """Two names (as key words) with the same first word: different surnames mean different
    people; a missing surname fits any."""
    return bool(a) and bool(b) and a[0] == b[0] and (len(a) == 1 or len(b) == 1 or a[1:] == b[1:])


def match_registry(name: str, known: Sequence[tuple[str, Sequence[str]]]) -> str | None:
    """The canonical name a newly seen name refers to, if the registry has it.

    "Bob" matches "Bob Kowalski"; "Bob Kowalski" matches a registered "Bob"; aliases count;
    case and accents do not. Failing those, a nickname ("Femi" and "Olufemi Bello")
    matches when exactly one registered name fits it.
    """
    wanted = name_key(name)
    if not wanted:
        return None
    words = wanted.split()
    for canonical, aliases in known:
        if wanted == name_key(canonical) or any(wanted == name_key(a) for a in aliases):
            return canonical
    if words[0] not in WEAK_FIRST_TOKENS:
        for canonical, _aliases in known:
            if same_person_parts(words, name_key(canonical).split()):
                return canonical
    return _by_nickname(words, known)


def _by_nickname(words: list[str], known: Sequence[tuple[str, Sequence[str]]]) -> str | None:
    fits: set[str] = set()
    for canonical, aliases in known:
        for form in (canonical, *(a for a in aliases if " " in a.strip())):
            other = name_key(form).split()
            if not other or (len(words) > 1 and len(other) > 1 and words[1:] != other[1:]):
                continue  # different surnames: different people
            if nickname_either(words[0], other[0]):
                fits.add(canonical)
    return fits.pop() if len(fits) == 1 else None
