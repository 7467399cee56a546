"""Whether a text names someone only to speak to them (a vocative: "Thanks, Fred!", "Hey
Tova, how was it?") rather than about them ("Tova's kiln", "I met Tova").

In a conversation a reply names its listener to address them; what the listener did is
in their own turns. The read path uses this to tell a turn said to a person from a turn
about them (core/evidence.py `Listeners`). The rule is English punctuation grammar: a
vocative is set off from its sentence — at the sentence's start or after a comma, or after
a greeting or thanks ("Hey", "Thanks") — and followed by a comma, the sentence's end, or
nothing. A comma that opens an aside or a list does not set a name off: "Tova, who lives
next door, said hi", "Tova, the potter, slept", "Tova, Sam and I went" are about Tova.

Said to someone is not empty of them: "Congrats on the promotion, Tova!" may be the only
turn recording the promotion. So the read path only takes back what naming the person
added to the turn's weight; its other words still rank it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from memhop.core.language.names import WEAK_FIRST_TOKENS, fold

# Words that open an address without a comma ("Hey Tova", "Thanks Tova", "Thank you Tova").
GREETINGS = frozenset("hey hi hello hiya dear thanks thank you congrats congratulations bye goodbye".split())
_SENTENCE_END = re.compile(r"[.!?\n]")
_SET_OFF_AFTER = frozenset(",.!?:")
_WORD = re.compile(r"[a-z']+")
# Words that, after "Tova,", open an aside or go on a list about Tova rather than speak to her.
_ASIDE = frozenset("who whose which that the a an my his her our their and or".split())
_LISTED = re.compile(r"[A-Z][\w'-]*\s*(?:,|and\b)")


@lru_cache(maxsize=256)
def _pattern(forms: tuple[str, ...]) -> re.Pattern[str] | None:
    """The person's forms and each full name's first word ("Tova" of "Tova Lindqvist"), as
    a listener is spoken to, without accents and in any case ("TOVA", "Tóva")."""
    said = {fold(f.strip()) for f in forms if f.strip()}
    for form in list(said):
        first = form.split()[0]
        if " " in form and first[:1].isupper() and len(first) > 1 and first.lower() not in WEAK_FIRST_TOKENS:
            said.add(first)  # not "my" of "my coach"
    if not said:
        return None
    alternatives = "|".join(re.escape(f) for f in sorted(said, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


def only_addressed(text: str, forms: Sequence[str]) -> bool:
    """True when `text` names the person (any of `forms`, their name and aliases) and every
    mention is a vocative; False when one mention is about them, or none is found. A form
    written without its capital ("will" for a person named Will) is a word, not the name."""
    pattern = _pattern(tuple(forms))
    if pattern is None:
        return False
    folded = fold(text)
    found = False
    for match in pattern.finditer(folded):
        if not folded[match.start()].isupper():
            continue
        if not _vocative(folded, match.start(), match.end()):
            return False
        found = True
    return found


def _vocative(text: str, start: int, end: int) -> bool:
    after = text[end:].lstrip(" ")
    if after and after[0] not in _SET_OFF_AFTER:
        return False  # "Tova's", "Tova said", "Tova and I", "Tova; she"
    if after.startswith(","):
        going_on = after[1:].lstrip()
        first = _WORD.match(going_on.lower())
        if (first and first.group() in _ASIDE) or _LISTED.match(going_on):
            return False  # "Tova, who ...", "Tova, the potter, ...", "Tova, Sam and I"
    before = text[:start]
    begun = max((m.end() for m in _SENTENCE_END.finditer(before)), default=0)
    left = before[begun:].strip()
    if not left or left.endswith(","):
        return True
    words = _WORD.findall(left.lower())
    return bool(words) and all(w in GREETINGS for w in words)
