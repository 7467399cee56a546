"""Relation words and the patterns that tie two named entities together.

Patterns run over a "marked" sentence, where every resolved mention of an entity (a name,
"I", "my", a pronoun) has been replaced by ⟦k⟧, k its index in the session's entity list:
"⟦0⟧'s older sister ⟦1⟧ is down from Carlisle". That keeps the patterns short and readable.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from memhop.core.language.dates import MONTHS, WEEKDAYS
from memhop.core.language.kin import KIN_WORDS, kin_meaning
from memhop.core.language.lexical import STOPWORDS
from memhop.core.language.names import name_key, nickname_either
from memhop.core.language.patterns import LazyPattern

# "X is Y's friend" implies "Y is X's friend".
SYMMETRIC = frozenset(
    "friend roommate flatmate housemate colleague coworker co-worker workmate neighbour neighbor "
    "cousin partner classmate teammate bandmate spouse ex".split()
) | {"best friend", "close friend", "old friend", "good friend"}
# Parent and grandparent words stand for one person, so they can be that person's alias
# ("Mum") or name ("Oma"); the table, by language, is in core/language/kin.py.
KIN_ALIASES = frozenset(KIN_WORDS)
FEMALE = frozenset(
    "sister mum mom mother mummy mommy aunt auntie niece grandma gran granny nan nana grandmother "
    "wife girlfriend daughter fiancée stepmom stepmum stepsister stepdaughter "
    "sister-in-law mother-in-law daughter-in-law".split()
) | {w for w, k in KIN_WORDS.items() if k.gender == "f"}
MALE = frozenset(
    "brother dad father daddy uncle nephew grandpa grandad granddad grandfather husband "
    "boyfriend son fiancé fiance stepdad stepbrother stepson "
    "brother-in-law father-in-law son-in-law".split()
) | {w for w, k in KIN_WORDS.items() if k.gender == "m"}
OTHER_RELATIONS = frozenset(
    "sibling parent child kid grandchild grandson granddaughter boss manager supervisor mentor mentee student pupil "
    "teacher tutor coach trainer instructor therapist doctor dentist vet physio landlord landlady tenant "
    "employee intern trainee apprentice assistant babysitter "
    "in-laws godmother godfather godson goddaughter".split()
) | KIN_ALIASES
ANIMALS = frozenset(
    """dog cat puppy pup kitten kitty greyhound whippet labrador lab beagle poodle terrier
    spaniel retriever collie husky dachshund pug bulldog corgi chihuahua shepherd rescue
    hamster rabbit bunny parrot budgie cockatiel bird goldfish fish tortoise turtle horse pony
    snake lizard gecko ferret rat mouse chinchilla hedgehog lurcher mutt moggy tomcat springer
    schnauzer sheepdog pointer setter staffie staffy rottweiler doberman mongrel""".split()
) | {"guinea pig"}
RELATION_WORDS = SYMMETRIC | FEMALE | MALE | OTHER_RELATIONS | ANIMALS
_MODIFIERS = "older younger elder eldest oldest youngest little big baby twin best close old good dear new lovely step".split()
# Where "X from my team" makes X a colleague.
_GROUP_RELATION = {"team": "colleague", "work": "colleague", "office": "colleague", "job": "colleague",
                   "class": "classmate", "school": "classmate", "band": "bandmate", "choir": "friend"}  # fmt: skip


def _alternation(words: frozenset[str] | list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_REL = rf"(?:{_alternation(RELATION_WORDS)})(?![\w'’-])"  # "my friend's sister" is not my friend
_REL_PLURAL = rf"(?:{_alternation(RELATION_WORDS)})s?(?![\w'’-])"
_MOD = rf"(?:(?:{_alternation(_MODIFIERS)})\s+)*"
_X = r"⟦(\d+)⟧"
_POSS = rf"{_X}['’]s"
_NEG = r"(?<!not )(?<!n't )(?<!never )"

# (pattern, which group is the relative, which is the owner, relation group)
_PATTERNS: tuple[tuple[LazyPattern, int, int, int], ...] = tuple(
    (LazyPattern(p, re.I), rel_of, owner, rel)
    for p, rel_of, owner, rel in (
        # "⟦0⟧'s older sister ⟦1⟧", "⟦0⟧'s dog, ⟦1⟧", "⟦0⟧'s cat named ⟦1⟧"
        (rf"{_NEG}{_POSS}\s+({_MOD}{_REL}),?\s+(?:(?:(?:is|was|['’]s)\s+)?(?:named|called)\s+)?{_X}", 3, 1, 2),
        # "⟦0⟧'s new manager is a guy called ⟦1⟧", "⟦0⟧'s husband is a chef named ⟦1⟧"
        (rf"{_NEG}{_POSS}\s+({_MOD}{_REL})\s+(?:is|was|['’]s)\s+(?:a|an)\s+(?:[\w-]+\s+){{1,2}}?(?:named|called)\s+{_X}",
         3, 1, 2),
        # "⟦1⟧, ⟦0⟧'s sister" / "⟦1⟧ (⟦0⟧'s sister)"
        (rf"{_X}\s*[,(]\s*{_POSS}\s+({_MOD}{_REL})\b", 1, 2, 3),
        # "⟦1⟧ is ⟦0⟧'s roommate" / "⟦1⟧'s ⟦0⟧'s roommate"
        (rf"{_X}(?:\s+(?:is|was|has been|became|is also|was also)|\s*['’]s)\s+{_POSS}\s+({_MOD}{_REL})\b", 1, 2, 3),
        # "⟦1⟧ is the sister of ⟦0⟧"
        (rf"{_X}\s+(?:is|was|['’]s)\s+(?:the|a)\s+({_MOD}{_REL})\s+of\s+{_X}", 1, 3, 2),
    )
)
# "⟦0⟧ and ⟦1⟧ have been best friends"
_MUTUAL = LazyPattern(
    rf"{_X}\s+and\s+{_X}\s+(?:are|were|have been|had been|['’]ve been|became|got)\s+"
    rf"(?:really\s+|such\s+|also\s+)?({_MOD}{_REL_PLURAL})",
    re.I,
)
# Being married or engaged names a partner with no relation word: "⟦0⟧ and ⟦1⟧ got engaged",
# "⟦0⟧ is married to ⟦1⟧", "⟦0⟧'s married now, to a pilot named ⟦1⟧", "⟦0⟧ married ⟦1⟧" ("was
# married to" may be over, and says nothing here).
_NOT_OWNER = r"(?!['’]s\b)"  # "married ⟦1⟧'s brother": ⟦1⟧ is not the partner
_WED_ADVERBS = r"(?:(?:just|finally|recently|secretly|happily|now|newly)\s+)?"
_WED_BOTH = LazyPattern(
    rf"{_X}\s+and\s+{_X}\s+(?:got|get|are|were|have been|had been|['’]ve been|['’]re|['’]d)\s+{_WED_ADVERBS}"
    rf"(married\b|engaged\b(?!\s+(?:in|with)\s+(?:a|an|the|some)\b))",  # not "engaged in a debate"
    re.I,
)
_WED_TO = LazyPattern(
    rf"{_X}(?:\s+(?:is|got|has been|['’]s been)|['’]s)\s+{_WED_ADVERBS}(married|engaged)(?:\s+now)?,?\s+"
    rf"to\s+(?:(?:a|an)\s+(?:[\w-]+\s+){{1,2}}(?:named|called)\s+)?{_X}{_NOT_OWNER}",
    re.I,
)
# A diary line with no subject is the writer's: "Fourteen years married to ⟦1⟧ today.", "Engaged to ⟦1⟧!"
_WED_UNSAID = LazyPattern(
    rf"^\s*(?:(?:[\w-]+\s+){{1,2}}(?:years?|yrs?|months?)\s+)?{_WED_ADVERBS}(married|engaged)\s+to\s+{_X}{_NOT_OWNER}",
    re.I,
)
_WED_VERB = LazyPattern(rf"{_X}\s+{_WED_ADVERBS}(married)\s+{_X}{_NOT_OWNER}", re.I)
_WED_RELATION = {"married": "spouse", "engaged": "partner"}
# "⟦1⟧ from ⟦0⟧'s team"
_GROUP = LazyPattern(rf"{_X},?\s+from\s+{_POSS}\s+({'|'.join(_GROUP_RELATION)})\b", re.I)
# "as ⟦0⟧'s flatmate" in a first-person sentence: the speaker is ⟦0⟧'s flatmate
_AS_ROLE = LazyPattern(rf"\bas\s+{_POSS}\s+({_MOD}{_REL})\b", re.I)
# "⟦1⟧, who works beside ⟦0⟧ and is ⟦0⟧'s colleague", "⟦1⟧, who is ⟦2⟧'s cousin": a relative
# clause states the relation of the name it follows.
_WHO = r"\s*,\s*who(?:\s+[^.;:!?]*?\s+and)?\s+(?:is|was|has been)"
_RELATIVE_CLAUSE = LazyPattern(rf"{_X}{_WHO}\s+{_POSS}\s+({_MOD}{_REL})\b", re.I)
# "⟦1⟧ is a colleague", "⟦1⟧, who …, is the colleague who fixes the printer": a mutual relation with
# nobody named is the speaker's (the caller passes the owner only for first-person sentences).
_UNOWNED = LazyPattern(
    rf"{_X}(?:{_WHO}|\s+(?:is|was|has been)|\s*['’]s)\s+(?:a|an|the)\s+(?:only\s+|other\s+|new\s+)?"
    rf"({_alternation(SYMMETRIC)})(?![\w'’-])(?!\s+of\b)",
    re.I,
)
# "⟦1⟧ from next door": a neighbour — of the one other person whose things the sentence
# names ("… heard ⟦2⟧'s cat"), since next door is next to the home the scene is in; else
# of the speaker.
_NEXT_DOOR = LazyPattern(rf"{_X},?\s+(?:from|who lives|who lived|lives|lived)\s+next\s+door\b", re.I)
# "a cat named ⟦1⟧" (owner decided by the caller: the speaker when the sentence is first person)
_NAMED_ANIMAL = LazyPattern(rf"\b({_alternation(ANIMALS)})\s+(?:named|called)\s+{_X}", re.I)


@dataclass(frozen=True)
class Relation:
    """`subject` is `owner`'s `word`: Carol (subject) is Bob's (owner) older sister."""

    subject: int
    word: str
    owner: int


def normalise_word(word: str) -> str:
    return " ".join(word.lower().split())


def base_word(word: str) -> str:
    """The relation word without its modifiers: "older sister" -> "sister"."""
    parts = normalise_word(word).split()
    while len(parts) > 1 and parts[0] in _MODIFIERS and " ".join(parts) not in RELATION_WORDS:
        parts = parts[1:]
    return " ".join(parts)


def is_pet_word(word: str) -> bool:
    return base_word(word) in ANIMALS


# A third-person pronoun's gender.
PRONOUN_GENDER = {"he": "m", "him": "m", "his": "m", "himself": "m", "she": "f", "her": "f", "hers": "f", "herself": "f"}


def gender_of(word: str) -> str | None:
    base = base_word(word)
    return "f" if base in FEMALE else "m" if base in MALE else None


def find_relations(marked: str, first_person_owner: int | None = None, speaker: int | None = None) -> list[Relation]:
    """Relations stated in one marked sentence; self-relations are dropped. `speaker`: who said
    it, whose a line with no subject is ("Fourteen years married to ⟦1⟧ today.")."""
    found: list[Relation] = []
    if speaker is not None:
        for m in _WED_UNSAID.finditer(marked):
            found.append(Relation(int(m.group(2)), _WED_RELATION[m.group(1).lower()], speaker))
    for pattern, rel_of, owner, rel in _PATTERNS:
        for m in pattern.finditer(marked):
            found.append(Relation(int(m.group(rel_of)), normalise_word(m.group(rel)), int(m.group(owner))))
    for m in _MUTUAL.finditer(marked):
        word = normalise_word(m.group(3))
        word = word[:-1] if word.endswith("s") and base_word(word[:-1]) in RELATION_WORDS else word
        if base_word(word) in SYMMETRIC:
            found.append(Relation(int(m.group(1)), word, int(m.group(2))))
    for pattern, first, second, verb in ((_WED_BOTH, 1, 2, 3), (_WED_TO, 1, 3, 2), (_WED_VERB, 1, 3, 2)):
        for m in pattern.finditer(marked):
            found.append(Relation(int(m.group(first)), _WED_RELATION[m.group(verb).lower()], int(m.group(second))))
    for m in _GROUP.finditer(marked):
        found.append(Relation(int(m.group(1)), _GROUP_RELATION[m.group(3).lower()], int(m.group(2))))
    for m in _RELATIVE_CLAUSE.finditer(marked):
        found.append(Relation(int(m.group(1)), normalise_word(m.group(3)), int(m.group(2))))
    for m in _NEXT_DOOR.finditer(marked):
        subject = int(m.group(1))
        owners = {int(k) for k in re.findall(r"⟦(\d+)⟧['’]s", marked)} - {subject, first_person_owner}
        neighbour_of = owners.pop() if len(owners) == 1 else first_person_owner
        if neighbour_of is not None:
            found.append(Relation(subject, "neighbour", neighbour_of))
    if first_person_owner is not None:
        for m in _UNOWNED.finditer(marked):
            found.append(Relation(int(m.group(1)), normalise_word(m.group(2)), first_person_owner))
        for m in _NAMED_ANIMAL.finditer(marked):
            found.append(Relation(int(m.group(2)), normalise_word(m.group(1)), first_person_owner))
        for m in _AS_ROLE.finditer(marked):  # "Four years as Femi's flatmate and I never …"
            found.append(Relation(first_person_owner, normalise_word(m.group(2)), int(m.group(1))))
    unique: dict[tuple[int, int], Relation] = {}
    for r in found:
        if r.subject != r.owner:
            unique.setdefault((r.subject, r.owner), r)
    return list(unique.values())


# Cue patterns on raw text, used before any entity is known (identify).
_NAME = r"([A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?)"
# "it's", "that's": a verb, not an owner ("It's the best dog Jo has had").
_NOT_OWNERS = r"(?i:it|that|what|there|he|she|who|here|let|where|how)"
_PET_CUES = tuple(
    LazyPattern(p)
    for p in (
        rf"\b(?:[Mm]y|[Oo]ur|[Hh]er|[Hh]is|[Tt]heir|[Aa]|[Aa]n|(?!{_NOT_OWNERS}['’]s)\w+['’]s)\s+(?:[\w-]+\s+){{0,3}}(?:{_alternation(ANIMALS)})\s*,?\s+(?:(?:named|called)\s+)?{_NAME}\b",
        rf"\b{_NAME}\s*,\s+(?:my|our|her|his|their|the)\s+(?:[\w'’]+\s+){{0,3}}(?:{_alternation(ANIMALS)})\b",
        rf"\b{_NAME}\s+(?:is|was)\s+(?:my|our|her|his|their|a|an)\s+(?:\w+\s+)?(?:{_alternation(ANIMALS)})\b",
        rf"\b(?:{_alternation(ANIMALS)})\s*,?\s+(?:named|called)\s+{_NAME}\b",
        # "came home with a lurcher. The rescue named him Bodkin": a name given to the animal
        # just mentioned (in the same sentence or the next)
        rf"\b(?:{_alternation(ANIMALS)})s?\b[^.!?\n]{{0,80}}(?:[.!?]\s+[^.!?\n]{{0,80}})?"
        rf"\b(?:named|renamed|christened|called)\s+(?:him|her|it)\s+{_NAME}\b",
    )
)
_THING_NAME = LazyPattern(
    rf"\b(?:named|called|call|name)\s+it\s+{_NAME}"
    rf"|\bit(?:['’]s|\s+is|\s+was)\s+(?:now\s+)?(?:called|named)\s+{_NAME}"
)


def thing_names(text: str) -> list[str]:
    """Names given to things, not beings: "named it Gerald", "it's called Project Cymbal"."""
    return [m.group(1) or m.group(2) for m in _THING_NAME.finditer(text)]


def pet_names(text: str) -> list[str]:
    """Names introduced by an animal word: "her greyhound Pepper", "Nibbles, my hamster"."""
    return [m.group(1) for p in _PET_CUES for m in p.finditer(text)]


# Name cues with any letters ("Zoë", "Ji-ho", "O'Brien"). `re` has no class for
# capital letters beyond ASCII, so the patterns ignore case and _names() checks it.
_W = r"[^\W\d_]+(?:[-'’][^\W\d_]+)*"
_NAMES = rf"(?P<name>{_W}(?:\s+{_W}){{0,2}})"  # up to three words, trimmed by _names()
_OWNER = rf"(?P<owner>(?:(?:my|our)\s+)?{_W}['’]s|my|our|your|his|her|their)"
_PERSON_REL = rf"(?P<rel>{_alternation(RELATION_WORDS - ANIMALS)})(?![\w'’-])"
_REL_TOKENS = frozenset(w for phrase in RELATION_WORDS - ANIMALS for w in re.findall(r"[^\W\d_]+", phrase.lower()))
_ENDS = r"(?=\s*(?:[,.;:!?)—–]|\s-\s|$))"  # an apposition that closes: "Ji-ho, my brother, ..."
_BINDINGS = tuple(
    (LazyPattern(p, re.I), after)
    for p, after in (
        # "Mum (Leena)", "my brother (Tom)"
        (rf"(?:\b{_OWNER}\s+)?\b{_MOD}{_PERSON_REL}\s*\(\s*{_NAMES}\s*\)", True),
        # "my mum, Gwen", "my little brother Ji-ho", "Zoë's new boyfriend, Sam Doyle"
        (rf"\b{_OWNER}\s+{_MOD}{_PERSON_REL},?\s+(?:(?:named|called)\s+)?{_NAMES}", True),
        # "Ji-ho, my little brother, ...", "Oma, Mum's mum."
        (rf"{_NAMES}\s*,\s+{_OWNER}\s+{_MOD}{_PERSON_REL}{_ENDS}", False),
        # "Leena (Mum)", "Ji-ho (my brother)"
        (rf"{_NAMES}\s*\(\s*(?:{_OWNER}\s+)?{_MOD}{_PERSON_REL}\s*\)", False),
        # "Oma is Dad's mum", "Leena is my mum", "Tom's my brother"
        (rf"{_NAMES}(?:\s+(?:is|was)|['’]s)\s+{_OWNER}\s+{_MOD}{_PERSON_REL}", False),
    )
)
# Capitalised words that do not start a name: "Honestly, my mum ...", "Yesterday, my boss ...".
_NOT_NAMES = (
    STOPWORDS
    | frozenset(MONTHS) | frozenset(WEEKDAYS)
    | frozenset(
        """anyway honestly also well oh ok okay thanks thank sorry hey hi hello yesterday today tonight
        tomorrow apparently luckily sadly meanwhile later still now finally obviously actually
        basically seriously plus everyone everybody someone somebody nobody anyone dear love lol
        happy merry congrats congratulations bless""".split()
    )
    | (RELATION_WORDS - KIN_ALIASES)
)
_FIRST_PERSON = ("my", "our")


def _names(text: str, start: int, end: int, after: bool) -> tuple[str, int] | None:
    """The name in text[start:end] and where it starts: its capitalised words, the leading
    ones when it follows its cue ("my mum, Gwen and I"), the trailing ones when it comes
    first ("I met Ji-ho, my brother"); a possessive ends it ("Ji-ho's wife")."""
    words = [(m.group(0), start + m.start()) for m in re.finditer(_W, text[start:end])]
    if not after:
        i = len(words)
        while i > 0 and _name_word(_bare(words[i - 1][0])) and (i == len(words) or not _possessive(words[i - 1][0])):
            i -= 1
        words = words[i:]
    kept: list[tuple[str, int]] = []
    for word, at in words:
        if not _name_word(_bare(word)):
            break
        kept.append((_bare(word), at))
        if _possessive(word):
            break
    return (" ".join(w for w, _ in kept), kept[0][1]) if kept else None


def _bare(word: str) -> str:
    return re.sub(r"['’]s$", "", word)


def _possessive(word: str) -> bool:
    return _bare(word) != word


def _name_word(word: str) -> bool:
    """Capitalised and not a common word; "FaceTimed" is a verb, "McKenzie" a name."""
    camel = re.search(r"[a-z][A-Z]", word) and not re.match(r"(?:Mc|Mac|De|Di|Da|La|Le|Van)[A-Z]", word)
    return word[:1].isupper() and len(word) > 1 and word.lower() not in _NOT_NAMES and not camel


def _kin_used_as_name(text: str, start: int, word: str) -> bool:
    """"Oma", "Mum" written as a name: capitalised, not "the Oma" or "Alice's Oma"."""
    before = text[:start].rstrip().lower()
    return word[:1].isupper() and not re.search(r"(?:\bthe|\ba|\ban|['’]s)$", before)


def kin_aliases(text: str) -> list[tuple[str, str]]:
    """(name, alias) pairs for the people a kinship or role word names in the text.

    - "Mum (Leena)", "my mum, Gwen", "Leena is my mum": ("Leena", "Mum"); the alias is
      the kin word when it stands for one person (a parent or grandparent, any language:
      core/language/kin.py) and is the diarist's ("my", or nobody's as in "Mum (Leena)").
    - "my little brother Ji-ho", "Ji-ho, my brother", "Gabi's wife, Bisi": the name is
      a person's, and its own alias: ("Ji-ho", "Ji-ho").
    - A kin word used as a name where a sentence ties it by a relation ("Oma is Mum's
      mum", "my grandmother, Oma"): ("Oma", "Oma") and ("Mum", "Mum").
    Bindings to real names come first, so a kin word bound in the same text is an alias.
    """
    bound: list[tuple[str, str]] = []
    kin_names: list[tuple[str, str]] = []
    if _REL_TOKENS.isdisjoint(re.findall(r"[^\W\d_]+", text.lower())):
        return []  # every binding needs a relation word; most turns have none (cheap check)
    for pattern, after in _BINDINGS:
        for m in pattern.finditer(text):
            owner = (m.group("owner") or "").lower()
            rel = base_word(m.group("rel"))
            owner_word = re.sub(r"^(?:my|our)\s+|['’]s$", "", m.group("owner") or "")
            if owner_word.lower() in KIN_ALIASES and _kin_used_as_name(text, m.start("owner"), owner_word):
                kin_names.append((owner_word, owner_word))
            found = _names(text, m.start("name"), m.end("name"), after)
            if found is not None:
                name, at = found
                mine = owner in ("", *_FIRST_PERSON)
                if name.lower() in KIN_ALIASES:
                    same = kin_meaning(name) is not None and kin_meaning(name) == kin_meaning(rel)
                    if _kin_used_as_name(text, at, name) and (same if mine else owner not in _PRONOUNS):
                        kin_names.append((name, name))
                elif rel in KIN_ALIASES and mine:
                    bound.append((name, rel.capitalize()))
                else:
                    bound.append((name, name))
    taken = {alias.lower() for _, alias in bound}
    kin_names = [(n, a) for n, a in kin_names if n.lower() not in taken]
    return list(dict.fromkeys(bound + kin_names))


_PRONOUNS = ("your", "his", "her", "their")
_CALLERS = r"(?:everyone|everybody|we\s+all|we|people|most\s+people|all\s+of\s+us|they\s+all|(?:his|her|their)?\s*friends)"
_NICKS = tuple(
    LazyPattern(p, re.I)
    for p in (
        # "Robert Kowalski (Bob)"
        rf"(?P<full>{_W}(?:\s+{_W}){{1,3}})\s*\(\s*(?P<nick>{_W})\s*\)",
        # "Gabriela, who everyone calls Gabi", "Łukasz, who goes by Luki"
        rf"(?P<full>{_W}(?:\s+{_W}){{0,2}})\s*,?\s+(?:who|whom)\s+(?:{_CALLERS}\s+calls?\s+(?:him\s+|her\s+|them\s+)?"
        rf"|goes\s+by\s+|(?:is|'s|’s)\s+(?:also\s+)?known\s+as\s+)(?P<nick>{_W}(?:\s+{_W})?)",
        # "Olufemi, nicknamed Femi", "Robert aka Bob"
        rf"(?P<full>{_W}(?:\s+{_W}){{0,2}})\s*,?\s+(?:nicknamed|aka|a\.k\.a\.?)\s+(?P<nick>{_W}(?:\s+{_W})?)",
    )
)
# What each of _NICKS cannot match without, found by a quick literal search first.
_NICK_CUES = tuple(re.compile(p, re.I) for p in (r"\(", r"who", r"nicknamed|aka|a\.k\.a"))
# A pronoun stands for the person: "everyone calls her Gabi", "His real name is Łukasz".
_OTHER_NAME = LazyPattern(
    rf"\b(?:{_CALLERS}\s+call(?:s|ed)?\s+(?:him|her|them)"
    rf"|(?:he|she|they)\s+(?:goes|go|went)\s+by"
    rf"|(?:his|her|their)\s+(?:real|full|proper|actual|given|birth|legal)\s+name(?:\s+is|\s+was|\s*[,:])?)"
    rf"\s+(?P<name>{_W}(?:\s+{_W}){{0,2}})",
    re.I,
)


def nicknames(text: str) -> list[tuple[str, str]]:
    """(name, other name) pairs: the person is registered under the first, the second
    becomes an alias.

    "Robert Kowalski (Bob)", "Gabriela, who everyone calls Gabi": (full name, nickname).
    "everyone calls her Gabi", "His real name is Łukasz", "gave her full name,
    Olufemi Bello": the pronoun's person is the nearest earlier name that looks like
    the new one (a shared start, or one inside the other: Luki / Łukasz, Femi /
    Olufemi), paired as (that name, the new one).
    """
    out: list[tuple[str, str]] = []
    for pattern, cue in zip(_NICKS, _NICK_CUES):
        if not cue.search(text):
            continue  # no match possible: skip the costly search (ms a pattern on a long text)
        for m in pattern.finditer(text):
            full = _names(text, m.start("full"), m.end("full"), after=False)
            nick = _names(text, m.start("nick"), m.end("nick"), after=True)
            if full is None or nick is None or nick[0].lower() in KIN_ALIASES or full[0] == nick[0]:
                continue
            if pattern is _NICKS[0] and (" " not in full[0] or nick[0][1:].isupper()):
                continue  # "Robert Kowalski (Bob)", not "Carlisle (UK)"
            out.append((full[0], nick[0]))
    for m in _OTHER_NAME.finditer(text):
        new = _names(text, m.start("name"), m.end("name"), after=True)
        if new is None:
            continue
        earlier = [run for run in _capitalised_runs(text[: m.start()]) if _resembles(run, new[0])]
        if earlier and earlier[-1] != new[0]:
            out.append((earlier[-1], new[0]))
    return list(dict.fromkeys(out))


def _capitalised_runs(text: str) -> list[str]:
    """Runs of up to three adjacent capitalised words that could be names, in text order."""
    runs: list[list[str]] = []
    last_end = -1
    for m in re.finditer(_W, text):
        word = _bare(m.group(0))
        if not _name_word(word):
            last_end = -1
            continue
        adjacent = last_end >= 0 and not text[last_end : m.start()].strip() and len(runs[-1]) < 3
        if adjacent:
            runs[-1].append(word)
        else:
            runs.append([word])
        last_end = -1 if _possessive(m.group(0)) else m.end()
    return [" ".join(run) for run in runs]


def _resembles(a: str, b: str) -> bool:
    """Two names of one person: "Luki" / "Łukasz", "Femi" / "Olufemi Bello"."""
    x, y = name_key(a).split()[0], name_key(b).split()[0]
    return x == y or len(os.path.commonprefix([x, y])) >= 4 or nickname_either(x, y)
