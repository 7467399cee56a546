"""The evidence for an entity's kind in one session, as votes.

Who speaks (a chat speaker is a person), the words around each mention ("moved to X",
"works at X", "X's sister", "X said"), what the name is made of ("… Clinic", "… Park"),
a gazetteer of world places and, weakly, spaCy's NER label. The write path adds each
session's votes to the entity's (core.model.decide_kind), so a kind rests on all the
evidence so far: a wrong first guess is outvoted later instead of sticking.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from memhop.core.engines.offline import grammar
from memhop.core.engines.offline.facts import OCCUPATIONS
from memhop.core.engines.offline.places import is_place_name
from memhop.core.language import relations

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

SPEAKS = 6  # speaks in a chat: nothing but a person does
CUED = 4  # "my dog X", "his wife Y", "Mum (X)": the text says what it is
NAMED_AS = 3  # the name's own head word: "Elm Road Clinic", "Victoria Park"
CONTEXT = 2  # one mention's surroundings
LABEL = 1  # one mention's NER label (the small model guesses kinds poorly)
GAZETTEER = 1  # a world place of that name (many are also first names: Florence, Jordan)

NER_KIND = {"PERSON": "person", "ORG": "org", "GPE": "place", "LOC": "place", "FAC": "place"}

# Head words that make a name an organisation or a place ("Hillside Vets", "Ashgrove Park").
ORG_HEADS = frozenset(
    "inc ltd llc plc gmbh co corp company group studio studios clinic clinics vets vet surgery practice "
    "bakery cafe café coffee restaurant bistro kitchen pub bar brewery gym club fc united rovers band "
    "choir orchestra school academy college university uni institute bank agency labs lab partners "
    "team league squad crew company firm business startup charity "
    "associates consulting records press media foundation trust charity society council ministry "
    "hospital library museum gallery theatre theater cinema hotel shop store market supermarket".split()
)
PLACE_HEADS = frozenset(
    "park street st road rd lane avenue ave square bridge hill hills river lake mountain mount valley "
    "beach bay island islands coast forest wood woods moor fell estate village town city county "
    "district station airport harbour harbor canal".split()
)
_MET_INTO = frozenset({"ran", "run", "runs", "running", "bumped", "bump", "bumps", "bumping"})
_PLACE_PREPS = frozenset({"in", "near", "around", "outside", "across", "through", "towards", "toward"})


def _inflected(bases: str, irregular: str = "") -> frozenset[str]:
    """The forms of each base verb or noun the pipeline sees (it runs no lemmatizer)."""
    forms = set(irregular.split())
    for base in bases.split():
        stem = base[:-1] if base.endswith("e") else base
        forms |= {base, base + "s", base + "es", stem + "ed", stem + "ing", base + "d"}
    return frozenset(forms)


_MOTION = _inflected(
    "go drive move fly travel head return come walk ride cycle commute relocate emigrate trip journey "
    "flight train bus visit holiday back get way",
    "went gone drove driven flew flown came rode ridden got travelled travelling",
)
# "take him to Castellano": where one takes someone is a place ("took the book to Tom" is not: a thing to a person)
_TAKING = _inflected("take", "took taken")
_TAKEN = frozenset({"him", "her", "them", "me", "us", "you"})
_ORIGIN = _inflected("be come move hail originate return", "is 's are 're was were am 'm came back")
_JOB = _inflected("work job shift intern internship placement role position career start join employ hire", "began")
# What only someone (a person or an animal) does: love, laugh, sleep. A company "says" and
# "wants", so verbs of saying and wanting are no sign that a name NER calls an organisation is someone.
FEELING_VERBS = _inflected(
    "love adore hate laugh cry smile grin giggle sob sigh blush frown sulk sleep nap snore wake hug kiss cuddle enjoy miss",
    "cried slept woke woken sobbed hugged napped grinned",
)
# Verbs only a person (or an animal, rarely) is the subject of.
_PERSON_VERBS = _inflected(
    "say tell ask text call reply answer laugh cry smile shout whisper think know feel want hope "
    "promise admit agree argue explain complain joke insist remember forget love hate like miss "
    "decide claim swear reckon message email ring",
    "said told thought knew felt forgot swore rang replied cried",
)


THING = "thing"  # a named object (a booklet, a houseplant, a song): not an entity
_PEOPLE = frozenset(
    "guy man woman girl boy lad bloke chap lady kid person someone somebody bloke fella gentleman "
    "people folk neighbour neighbor".split()
)
_WORK_PARTS = frozenset(
    "page pages chapter chapters verse verses chorus lyrics bars movement episode episodes season "
    "sequel prequel copy copies cover score album track soundtrack ending trailer".split()
)
_NOUN_PHRASE = frozenset({"PRP$", "DT", "POS", "NNP", "NNPS", "NN", "NNS", "JJ", "JJR", "JJS", "VBG", "CD", "HYPH"})
_PLACE_NOUNS = frozenset({"city", "town", "village", "country", "region", "neighbourhood", "neighborhood", "suburb"})
_OCCUPATIONS = frozenset(
    word for job in OCCUPATIONS.split("|") for word in job.split()[-1:]
)
_PERSONAL = frozenset(
    "hip hand hands arm leg knee back head face eye eyes ear ears eyebrow hair voice heart teeth "
    "birthday wedding funeral party retirement graduation pregnancy baby kids children "
    "flat house home place apartment cottage room bedroom kitchen garden bed sofa phone car bike job boss mum dad "
    "name surname nickname".split()
)


# What only an animal has or is taken to: "Snarfle's vet", "Bodkin's lead", "took Bodkin to the vet".
_PET_CARE = frozenset(
    "vet vets veterinarian lead leash collar kennel kennels hutch cage litter tray paw paws fur flea fleas "
    "worming groomer grooming muzzle harness".split()
)


# Parts of a town named by a place in it: "the Marlowe side of town".
_QUARTERS = frozenset({"side", "end", "part", "edge"})


def label_votes(labels: Counter[str]) -> Counter[str]:
    """spaCy's labels of a name's mentions, one weak vote each."""
    votes: Counter[str] = Counter()
    for label, count in labels.items():
        if label in NER_KIND:
            votes[NER_KIND[label]] += LABEL * count
    return votes


def headed_as_place_or_org(name: str) -> bool:
    """A name of two words or more whose head word makes it a place or an organisation
    ("Barton Road", "Fenmore Clinic"): no person, whatever its first word looks like."""
    words = name.replace("’", "'").split()
    return len(words) > 1 and words[-1].lower().strip(".,'") in ORG_HEADS | PLACE_HEADS


def may_name(run: str, person: str) -> bool:
    """A proper name ("Thaddeus") may stand for `person` ("Thad") when one of its words is
    a nickname of one of theirs, either way round, and it is no nationality ("a Danish
    pastry") and no place or firm ("Barton Road")."""
    from memhop.core.engines.offline.nlp import is_adjective
    from memhop.core.language.names import name_key, nickname_either

    words, key = name_key(run).split(), name_key(person).split()
    return (any(nickname_either(k, w) for k in key for w in words)
            and not is_adjective(run.split()[0]) and not headed_as_place_or_org(run))


def name_votes(name: str) -> Counter[str]:
    """What the name itself says: its head word, a company sign, a known world place."""
    votes: Counter[str] = Counter()
    words = name.replace("’", "'").split()
    head = words[-1].lower().strip(".,'") if words else ""
    if len(words) > 1 and head in ORG_HEADS:
        votes["org"] += NAMED_AS
    elif len(words) > 1 and head in PLACE_HEADS:
        votes["place"] += NAMED_AS
    if "&" in words and not name.endswith("'s"):
        votes["org"] += CONTEXT  # "Hale & Moss", "Crumb & Co" (two known people are caught earlier)
    if is_place_name(name):
        votes["place"] += GAZETTEER
    return votes


def mention_votes(doc: Doc, start_char: int, end_char: int) -> Counter[str]:
    """The words around one mention of a name in a parsed turn."""
    votes: Counter[str] = Counter()
    span = doc.char_span(start_char, end_char, alignment_mode="expand")
    if span is None or not len(span):
        return votes
    first, last = span[0], span[-1]
    before = doc[first.i - 1] if first.i > 0 else None
    before2 = doc[first.i - 2] if first.i > 1 else None
    after = doc[last.i + 1] if last.i + 1 < len(doc) else None
    possessive = after is not None and after.lower_ in ("'s", "’s")
    if before is not None and not possessive:
        votes.update(_preposition_votes(before, before2, after))
    if before is not None and before.lower_ == "into" and before2 is not None and before2.lower_ in _MET_INTO:
        votes["person"] += CONTEXT  # "ran into Mirela at the market": met, not a place gone into
    quarter = before is not None and before.lower_ == "the" and after is not None and after.lower_ in _QUARTERS
    if quarter:
        votes["place"] += CUED  # "on the Marlowe side of town", "the Hallam end"
    elif before is not None:
        votes.update(_title_votes(before, before2))
    if last.dep_ in ("pobj", "dobj") and [t.lower_ for t in doc[last.i + 1 : last.i + 3]] in (["as", "their"], ["as", "its"]):
        votes["org"] += CUED  # "off to Wessex Wanderers as their physio": an employer
    owned = doc[last.i + 2].lower_ if possessive and last.i + 2 < len(doc) else ""
    if owned in _PET_CARE:
        votes["pet"] += CONTEXT  # "Snarfle's vet", "Bodkin's lead"
    elif owned and personal(owned):
        votes["person"] += CONTEXT  # "Femi's sister", "Oma's cat", "Min-ji's eyebrows"
    if _taken_to_the_vet(doc, last.i):
        votes["pet"] += CONTEXT  # "took Snarfle to the vet"
    if _named_as_relative(doc, first.i):
        votes["person"] += CUED  # "my roommate is called Zofia": a roommate is someone
    if _named_by_pronoun(doc, first.i):
        votes["person"] += CONTEXT  # "She's called Sora", "he was named Tiago" (a pet word elsewhere outvotes it)
    stated = stated_kind(doc, start_char, end_char)
    if stated is not None and stated != THING:
        votes[stated] += CUED
    elif _is_person_subject(last):
        votes["person"] += CONTEXT
    if after is not None and after.text == "," and last.i + 2 < len(doc) and doc[last.i + 2].lower_ == "who":
        votes["person"] += CONTEXT  # "Gabriela Souza, who …"
    return votes


def stated_kind(doc: Doc, start_char: int, end_char: int) -> str | None:
    """The kind the text states outright: an appositive ("Crumbwell, Bisi's bakery",
    "Gabi, my rowing coach", "Mochi (her cat)") or "X is a/his/Femi's <noun>" ("Pickle is a
    smooth-haired fox terrier")."""
    span = doc.char_span(start_char, end_char, alignment_mode="expand")
    if span is None or not len(span):
        return None
    last = span[-1]
    after = last.i + 1
    called = _called_kind(doc, span[0].i)
    if called is not None:
        return called
    i = span[0].i
    if i >= 2 and doc[i - 1].lower_ == "of" and doc[i - 2].lower_ in _WORK_PARTS:
        return THING  # "the first page of Für Elise", "the last episode of Succession"
    if after < len(doc) and doc[after].text in (",", "("):
        kind = _head_noun_kind(doc, after + 1)
        if kind is not None:
            return kind
    if last.dep_ == "nsubj" and last.head.lower_ in grammar.BE:
        for child in last.head.children:
            if child.dep_ == "attr" and (kind := _noun_kind(child.lower_)) is not None:
                return kind
    return None


def _taken_to_the_vet(doc: Doc, i: int) -> bool:
    """The name is followed, within its clause, by "to the vet(s)" or "to the groomer"."""
    words = [t.lower_ for t in doc[i + 1 : i + 7]]
    for at in range(len(words) - 2):
        if words[at] in (".", "!", "?", ";"):
            return False
        if words[at] == "to" and words[at + 1] in ("the", "a") and words[at + 2] in _PET_CARE:
            return True
    return False


def _named_by_pronoun(doc: Doc, i: int) -> bool:
    """"she's called X", "he is named X", "his name's X": a name given to someone a personal
    pronoun stands for."""
    if i >= 3 and doc[i - 1].lower_ in ("'s", "’s", "is", "was") and doc[i - 2].lower_ == "name":
        return doc[i - 3].lower_ in ("his", "her")
    if i < 3 or doc[i - 1].lower_ not in ("called", "named"):
        return False
    verb, pronoun = doc[i - 2], doc[i - 3]
    return verb.lower_ in ("'s", "’s", "is", "was", "'ll", "’ll") and pronoun.lower_ in ("she", "he")


def _called_kind(doc: Doc, i: int) -> str | None:
    """"a band called Paper Kites" (org), "a cat named Mochi" (pet), "a booklet called
    Healthy Paws" (a thing: not an entity), from the noun before "called"/"named"."""
    if i < 2 or doc[i - 1].lower_ not in ("called", "named"):
        return None
    for token in reversed(doc[max(0, i - 5) : i - 1]):
        if token.tag_ in ("NN", "NNS"):
            return _noun_kind(token.lower_) or THING
        if token.tag_ not in ("JJ", "JJR", "JJS", "VBG", "HYPH", "NN", "NNS"):
            return None
    return None


def _head_noun_kind(doc: Doc, i: int) -> str | None:
    """The kind named by the noun phrase starting at token i, read up to its first noun of a known class."""
    for token in doc[i : i + 6]:
        if token.tag_ not in _NOUN_PHRASE:
            return None
        kind = _noun_kind(token.lower_) if token.tag_.startswith("NN") else None
        if kind is not None:
            return kind
    return None


def _noun_kind(word: str) -> str | None:
    base = relations.base_word(word)
    if base in relations.ANIMALS:
        return "pet"
    if base in relations.RELATION_WORDS or base in _OCCUPATIONS or base in _PEOPLE:
        return "person"
    if base in ORG_HEADS:
        return "org"
    if base in PLACE_HEADS or base in _PLACE_NOUNS:
        return "place"
    return None


def _preposition_votes(before: Token, before2: Token | None, after: Token | None = None) -> Counter[str]:
    votes: Counter[str] = Counter()
    word, lead = before.lower_, before2.lower_ if before2 is not None else ""
    governor = _governor(before)
    if word in _PLACE_PREPS:
        votes["place"] += CONTEXT  # "in Wetherby", "near Ashgrove Park"
    elif word == "to" and (lead in _MOTION or (governor in _TAKING and lead in _TAKEN)):
        votes["place"] += CONTEXT  # "drove to Penzance", "moved to Lerwick", "take him to Castellano"
    elif word == "from" and (lead in _ORIGIN or governor in _MOTION | _ORIGIN):
        votes["place"] += CONTEXT  # "she's from Porto Alegre", "flew over from Kilrush"
    elif word in ("at", "for") and lead in _JOB:
        votes["org"] += CONTEXT * 2  # "works at Crumbwell", "a job at Hale & Moss"
    elif word == "at" and _somewhere_at(before) and not (after is not None and after.lower_ in ("and", "&", ",")):
        votes["place"] += CONTEXT  # "brunch at Salt Fig", "stayed at Hollins" ("at Rosa and Ben's" is their home)
    return votes


# Verbs and adjectives aimed "at" someone: "laughed at Priya", "cross at Tom" — no place.
_AIMED_AT = _inflected(
    "look laugh shout smile yell stare wave glare snap grin wink hiss scream point throw swear bark "
    "angry mad cross annoyed furious upset",
    "threw thrown swore",
)
_STAY_AT = _inflected(
    "be stay meet eat have drink train sleep wait arrive dine spend lunch party work shop celebrate",
    "is was were 's am are met ate had drank slept spent",
)


def _governor(prep: Token) -> str:
    """The word a preposition hangs from, past a particle: "flew over from" -> "flew"."""
    head = prep.head
    if head == prep:
        return ""
    if head.tag_ in ("RB", "RP", "IN") and head.head != head:
        head = head.head
    return head.lower_


def _somewhere_at(prep: Token) -> bool:
    """"at X" names a place when it hangs from a noun ("brunch at X", "the gym at X") or from
    being, staying, eating or meeting there; not when something is aimed at X."""
    head = prep.head
    if prep.dep_ != "prep" or head == prep or head.lower_ in _AIMED_AT:
        return False
    from memhop.core.engines.offline.nlp import is_english_word

    # a capitalised noun opening a line is tagged a proper noun: "Gym at Hammerlock."
    opening = head.tag_ == "NNP" and (head.i == 0 or head.is_sent_start) and is_english_word(head.lower_)
    if head.tag_ in ("NN", "NNS") or opening:
        return not personal(head.lower_)
    return head.tag_.startswith("VB") and head.lower_ in _STAY_AT


def _title_votes(before: Token, before2: Token | None) -> Counter[str]:
    """What stands right before the name: "his wife Min-ji", "my boss, Anne", "her cat Mochi",
    "the Otters" (people take no article)."""
    votes: Counter[str] = Counter()
    word = before2.lower_ if before.text == "," and before2 is not None else before.lower_
    base = relations.base_word(word)
    if base in relations.ANIMALS:
        votes["pet"] += CUED
    elif base in relations.RELATION_WORDS or base in _OCCUPATIONS:
        votes["person"] += CUED
    elif before.lower_ == "the":
        votes["org"] += CONTEXT
    return votes


def _named_as_relative(doc: Doc, i: int) -> bool:
    """"<relation or job> is called/named <name>" ("my roommate is called Zofia", "her boss
    was named Ada"): the name is given to a relative or a worker, a person."""
    if i < 3 or doc[i - 1].lower_ not in ("called", "named") or doc[i - 2].lower_ not in ("is", "was", "'s", "’s"):
        return False
    base = relations.base_word(doc[i - 3].lower_)
    return base in relations.RELATION_WORDS - relations.ANIMALS or base in _OCCUPATIONS


def personal(word: str) -> bool:
    """What only a person (or a pet) has: kin, friends, pets, a body, a birthday, a home."""
    base = relations.base_word(word)
    return base in relations.RELATION_WORDS or base in _PERSONAL or base.rstrip("s") in _PERSONAL or (
        word[:1].isdigit() and word.endswith(("st", "nd", "rd", "th"))  # "Oma's 89th"
    )


def _is_person_subject(token: Token) -> bool:
    """The name is the subject of a verb only people do ("Anne said", "Bisi texted"), or of
    "is a <job or relation>" ("Min-ji is a school librarian")."""
    if token.dep_ != "nsubj" or not token.head.tag_.startswith("VB"):
        return False
    if token.head.lower_ in _PERSON_VERBS:
        return True
    attrs = [child for child in token.head.children if child.dep_ == "attr"]
    return any(relations.base_word(a.lower_) in relations.RELATION_WORDS | _OCCUPATIONS for a in attrs)
