"""The entity profile: a short third-person narrative that keeps related names.

It is written in a few fixed sentence shapes so that the next session can read it back:
"Bob is Alice's roommate." / "Bob's older sister is Carol." / slot sentences ("Bob
works as ...", with "(previously ...)") / then the most informative facts, newest first,
until the word budget is spent. Relations come first because the read path walks them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from memhop.core.engines.offline.facts import is_identity, slot_of, values
from memhop.core.language import relations

# ~120 words is the design's ceiling; 80 keeps the write path's embedding cost (a profile is
# embedded at each commit that changed it, and MiniLM costs per token) in budget.
MAX_WORDS = 80
MAX_RELATIONS = 10
SLOT_ORDER = ("job", "home", "relationship", "school", "age", "weight")
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“])")
_ITEM = re.compile(r"(?:^|,\s+|\s+and\s+)(.+?)['’]s\s+([a-z][a-z -]*?)(?=,\s+|\s+and\s+|$)")
_PREVIOUSLY = re.compile(r"\s*\(previously ([^)]*)\)\s*$")
_PLACEHOLDER = re.compile(r" is (?:a|an|the) [a-z ]+ mentioned in passing\.$")


@dataclass
class Profile:
    name: str
    of: dict[str, str] = field(default_factory=dict)  # owner -> word: "<name> is <owner>'s <word>"
    has: dict[str, str] = field(default_factory=dict)  # relative -> word: "<name>'s <word> is <relative>"
    slots: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # slot -> (sentence, previously)
    facts: list[str] = field(default_factory=list)  # newest first


def _first(name: str) -> str:
    return name.split()[0] if name.split() else name


def _possessive(name: str) -> str:
    return "My" if name.lower() == "me" else f"{_first(name)}'s"


def _subject(name: str) -> tuple[str, str]:
    return ("I", "am") if name.lower() == "me" else (name, "is")


def key(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def parse(text: str | None, name: str, aliases: Sequence[str] = ()) -> Profile:
    """Read a profile this module wrote; sentences of any other shape become facts.

    The profile may have been written under another of the entity's names ("Femi is
    Ana's flatmate." before the text gave "Femi Bello"), so every name is its subject.
    """
    profile = Profile(name)
    if not text:
        return profile
    subject, verb = _subject(name)
    forms = sorted({name, _first(name), *aliases} - {""}, key=len, reverse=True)
    subjects = "|".join(re.escape(f) for f in ([subject] if subject == "I" else forms))
    own = "|".join(re.escape(f) for f in forms)
    for sentence in _SPLIT.split(text.strip()):
        body = sentence.strip()
        if _PLACEHOLDER.search(body):
            continue  # "X is a place mentioned in passing": written when nothing was known; never a fact
        m = re.match(rf"^(?:{subjects}) {verb} (.+)\.$", re.sub(r"\bmy ", "me's ", body))
        items = _ITEM.findall(m.group(1)) if m else []
        if m and items and all(relations.base_word(w) in relations.RELATION_WORDS for _, w in items):
            for owner, word in items:
                profile.of.setdefault(owner.strip(), word.strip())
            continue
        m = re.match(rf"^(?:{own}|My)['’]?s? ([a-z][a-z -]*?) is (.+)\.$", body)
        if m and relations.base_word(m.group(1)) in relations.RELATION_WORDS:
            profile.has.setdefault(m.group(2).strip(), m.group(1).strip())
            continue
        slot = own_slot(body, name)
        if slot is not None:
            prev = _PREVIOUSLY.search(body)
            clean = _PREVIOUSLY.sub("", body)
            clean = clean if clean.endswith((".", "!", "?")) else clean + "."
            profile.slots.setdefault(slot, (clean, prev.group(1) if prev else None))
            continue
        profile.facts.append(body)
    return profile


def subject_of(sentence: str, name: str) -> bool:
    """The sentence opens with the entity's name as subject (not "Bob's ...", not "Bob: ...")."""
    if name.lower() in ("me", "user"):
        return sentence.startswith(("I ", "I'", "I’"))
    for form in (name, _first(name)):
        if sentence.startswith(form):
            rest = sentence[len(form) :]
            return not rest or not (rest[0].isalnum() or rest[0] in "'’:")
    return False


def own_slot(sentence: str, name: str) -> str | None:
    """The slot a sentence sets about this entity (it must be its subject)."""
    if not re.match(rf"^(?:{re.escape(name)}|{re.escape(_first(name))})\b(?!['’]s\b|:)", sentence):
        return None
    return slot_of(sentence)


def add_relation(profile: Profile, other: str, word: str, direction: str) -> None:
    """One relation word per pair; a more specific old word ("best friend") beats "friend"."""
    table = profile.of if direction == "of" else profile.has
    old = table.get(other)
    if old is not None and old != word and old.endswith(word):
        return
    # "Maya's mum is Mum" said before the diary named her: her name replaces the kin word
    if other.lower() not in relations.KIN_ALIASES:
        for stale in [o for o, w in table.items() if o.lower() in relations.KIN_ALIASES and w == word]:
            del table[stale]
    elif any(w == word and o.lower() not in relations.KIN_ALIASES for o, w in table.items()):
        return
    table.pop(other, None)
    table[other] = word


def add_slot(profile: Profile, slot: str, sentence: str, own_names: tuple[str, ...]) -> None:
    sentence = sentence if sentence.endswith((".", "!", "?")) else sentence + "."
    old = profile.slots.get(slot)
    if old is None:
        profile.slots[slot] = (sentence, None)
        return
    old_sentence, old_prev = old
    new_values = values(sentence, own_names)
    old_values = values(old_sentence, own_names)
    if new_values and old_values and not (new_values & old_values):
        prev = " and ".join(sorted(old_values - new_values))
        profile.slots[slot] = (sentence, prev or old_prev)
    else:
        profile.slots[slot] = (sentence, old_prev)


def add_facts(profile: Profile, facts: Iterable[str]) -> None:
    """New facts go first; repeats and facts a slot sentence already says are dropped."""
    taken = {key(s) for s, _ in profile.slots.values()}
    merged: list[str] = []
    seen: set[str] = set()
    for fact in [*facts, *profile.facts]:
        k = key(fact)
        if k in seen or any(k in t for t in taken):
            continue
        seen.add(k)
        merged.append(fact)
    profile.facts = merged


def render(profile: Profile) -> str:
    """The profile text: relations, slots, then facts while the word budget lasts."""
    subject, verb = _subject(profile.name)
    parts: list[str] = []
    of = list(profile.of.items())[-MAX_RELATIONS:]
    if of:
        items = [f"my {word}" if owner.lower() == "me" else f"{owner}'s {word}" for owner, word in of]
        parts.append(f"{subject} {verb} {_join(items)}.")
    for relative, word in list(profile.has.items())[-MAX_RELATIONS:]:
        parts.append(f"{_possessive(profile.name)} {word} is {relative}.")
    for slot in sorted(profile.slots, key=lambda s: SLOT_ORDER.index(s) if s in SLOT_ORDER else len(SLOT_ORDER)):
        sentence, prev = profile.slots[slot]
        if prev:
            sentence = f"{sentence.rstrip('.!?')} (previously {prev})."
        parts.append(sentence)
    words = sum(len(p.split()) for p in parts)
    # Facts about the entity itself first (its identity before anything else), newest first.
    ranked = sorted(profile.facts, key=lambda f: (not subject_of(f, profile.name), not is_identity(f)))
    for fact in ranked:
        size = len(fact.split())
        if words + size > MAX_WORDS:
            continue
        parts.append(fact if fact.endswith((".", "!", "?", "…", '"', "”", ")")) else fact + ".")
        words += size
    return " ".join(parts)


def _join(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
