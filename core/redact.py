"""Text surgery shared by forget and edit: find an entity's names, split sentences, drop or
mark the sentences about it. Functions over strings; no store. Forget finds names by
mention (core/name_mentions.py: an ordinary word such as "rose" is not Rose); edit's
rename keeps the plain whole-word pattern of `names_matcher`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

from memhop.core.errors import EngineError
from memhop.core.name_mentions import NameMatcher

MARKER = "[forgotten]"
_BREAK = re.compile(r"(?:(?<=[.!?…])|(?<=[.!?…][\"'”’)\]]))[ \t]+|[ \t]*\n\s*")
_PRONOUN_START = re.compile(r"^\W*(he|she|they|him|his|her|hers|them|their|theirs)\b", re.IGNORECASE)


class Redactor(Protocol):
    """Rewrites a profile or fact so that it no longer names or describes an entity.

    The offline one drops sentences; an engine with a `rewrite` call (the openai engine)
    fits this protocol as it is and keeps more of the text. Either way forget checks the
    result by string match afterwards.
    """

    name: str

    def rewrite(self, text: str, name: str, aliases: Sequence[str] = ()) -> str:
        """The text without the entity ("" if nothing is left)."""
        ...


def names_matcher(forms: Sequence[str]) -> re.Pattern[str]:
    """Whole-word, case-insensitive, longest form first: the rule of core.names, over an
    explicit list of forms so a first name shared with another entity can be left out."""
    parts = [r"\s+".join(re.escape(p) for p in f.split()) for f in sorted(forms, key=len, reverse=True)]
    alternatives = "|".join(p for p in parts if p) or "(?!)"
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


def mention_matcher(forms: Sequence[str], prose: bool = True) -> NameMatcher:
    """Where the forms name the entity, accents and case aside; `prose` for sentences,
    not for labels such as speakers and file names."""
    return NameMatcher(forms, prose=prose)


def split_sentences(text: str) -> list[tuple[str, str]]:
    """(sentence, the separator after it); joined back they give the text unchanged."""
    out, pos = [], 0
    for m in _BREAK.finditer(text):
        out.append((text[pos : m.start()], m.group(0)))
        pos = m.end()
    out.append((text[pos:], ""))
    return out


def redact(
    text: str, hit: Callable[[str], object], marker: str | None, carry: bool = False, pronouns: bool = True
) -> tuple[str, bool]:
    """Drop (marker None) or mark each sentence that `hit`s, and the sentences right after
    one that open with a pronoun ("He was really good."): they are about it too.

    Returns the new text and whether its last sentence was redacted, so a caller can carry
    that into the next turn of a conversation. An untouched text comes back unchanged.
    """
    out: list[tuple[str, str]] = []
    changed = False
    for sentence, sep in split_sentences(text):
        if hit(sentence) or (carry and pronouns and _PRONOUN_START.match(sentence)):
            carry = changed = True
            if marker is None:
                continue
            if out and out[-1][0] == marker:
                out[-1] = (marker, sep)
            else:
                out.append((marker, sep))
        else:
            carry = carry and not sentence.strip()
            out.append((sentence, sep))
    if not changed:
        return text, carry
    return "".join(s + sep for s, sep in out).strip(), carry


def replace_forms(text: str, matcher: NameMatcher, replacement: str) -> str:
    return matcher.sub(replacement, text)


def normalize(text: str) -> str:
    """For comparing sentences and facts: case, spacing and end punctuation ignored."""
    return " ".join(text.casefold().split()).strip(" .!?;:,")


def sentences_of(text: str) -> list[str]:
    return [s for s, _ in split_sentences(text) if s.strip()]


class SentenceRedactor:
    """Offline: remove every sentence that names the entity. No pronoun follow-ups here:
    in a profile or a fact, "she" is the entity the text is about, not the forgotten one."""

    name = "offline"

    def rewrite(self, text: str, name: str, aliases: Sequence[str] = ()) -> str:
        return redact(text, mention_matcher([name, *aliases]).search, None, pronouns=False)[0]


def checked_rewrite(redactor: Redactor, text: str, forms: Sequence[str]) -> str:
    """The redactor's rewrite, verified by string match: an engine that fails, or leaves
    the entity named, is overridden offline; a name straddling a sentence break is marked."""
    matcher = mention_matcher(forms)
    try:
        new = redactor.rewrite(text, forms[0], list(forms[1:]))
    except EngineError:
        new = text
    if matcher.search(new):
        new = SentenceRedactor().rewrite(new, forms[0], list(forms[1:]))
    return replace_forms(new, matcher, MARKER).strip()
