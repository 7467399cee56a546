"""What looks like a name where it stands, and who is speaking: the offline engine's
surface rules, shared by identification and the session analysis."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memhop.core.engines.offline.nlp import is_english_word
from memhop.core.language import relations
from memhop.core.language.dates import MONTHS, WEEKDAYS
from memhop.core.language.names import NameMatch
from memhop.core.model import SessionView

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

GREETINGS = frozenset(
    """hey hi hello hiya heya howdy yo oi thanks thank thx ty ta bye goodbye congrats congratulations wow yay
    yep yeah yes no nope nah oh ooh aw aww haha lol omg ok okay cheers dear morning afternoon evening night
    love hugs glad sorry wanna gonna gotta sure cool awesome great nice welcome please
    hallo hola olá ciao salut coucou bonjour bonsoir hej hallå moin servus hoi ahoj cześć namaste shalom
    salaam merci danke gracias grazie obrigado obrigada buongiorno buonasera buenas buenos guten""".split()
)
# How a chat export or a diary names its own writer: never an entity, always the diarist.
SELF_LABELS = frozenset({"me", "myself", "i", "you", "user", "self"})
_CONNECTORS = frozenset({"of", "and", "&", "de", "da", "du", "la", "le", "van", "von", "the", "'s", "’s", "upon", "on"})
_NOT_ORGS = frozenset("lgbt lgbtq lgbtq+ lgbtqia fyi omg lol btw tbh imo idk diy tv dj ok ps asap rip".split())
# Job titles written as letters ("the new VP") are roles, not names.
_ROLES = frozenset("vp svp evp ceo cfo cto coo cmo".split())
# Holidays are times, never anyone or anywhere: "at Easter", "Quiet NYE".
HOLIDAYS = frozenset(
    """easter christmas xmas nye halloween hogmanay thanksgiving diwali eid hanukkah chanukah passover
    ramadan lent advent whitsun pentecost""".split()
) | {"new year", "new years", "new year's", "new year's eve", "christmas eve", "christmas day", "boxing day",
     "easter sunday", "easter monday", "good friday", "bonfire night", "labor day", "labour day",
     "memorial day", "independence day", "mother's day", "father's day", "valentine's day", "valentine's"}
_BOTS = frozenset({"chatgpt", "assistant", "system", "bot", "deleted account", "gpt", "claude"})
# A wish is not a name: "Happy Birthday", "Merry Christmas", "Happy New Year".
_WISHES = frozenset(
    "happy merry best good warm birthday christmas xmas new year easter anniversary holidays holiday "
    "halloween diwali eid hanukkah chanukah wishes luck day".split()
)
_WISH_OPENERS = frozenset({"happy", "merry", "best", "good", "warm"})
_TIME_WORDS = frozenset([*MONTHS, *WEEKDAYS, *(w[:3] for w in MONTHS + WEEKDAYS), "tues", "thurs", "weds", "sept"])
_BAD_CHARS = re.compile(r"[\d@#/\\:;,!?\"“”()\[\]{}<>=+*_|~]|https?")


def self_name_of(session: SessionView) -> str:
    return session.self_name or "me"


def is_self_speaker(session: SessionView, speaker: str) -> bool:
    """The diarist: their own name, or the label an export gives its owner ("Me", "You")."""
    spoken = speaker.strip().lower()
    return spoken == self_name_of(session).lower() or spoken in SELF_LABELS


def is_bot(speaker: str) -> bool:
    return speaker.strip().lower() in _BOTS


def sentence_starts(doc: Doc) -> set[int]:
    """Offsets where a sentence, line or list item begins (cached on the doc)."""
    cached = doc.user_data.get("memhop_starts")
    if cached is None:
        cached = {s.start_char for s in doc.sents} | {0}
        cached |= {m.end() for m in re.finditer(r"\n\s*|[-–—•*]\s+|[.!?]\s+", doc.text)}
        doc.user_data["memhop_starts"] = cached
    return cached


def clean_name(text: str, keep_possessive: bool = False) -> str | None:
    """The name inside an NER span, or None if it is not a plausible name.

    Places and organisations keep a final "'s" (St Mary's); people lose it (Kate Bush's).
    """
    words = text.replace("’", "'").split()
    while words and words[0].lower().strip(",!.") in GREETINGS | {"the", "a", "an", "my", "our", "dear"}:
        words = words[1:]
    if words and words[-1].endswith("'s") and not keep_possessive:
        words[-1] = words[-1][:-2]
    words = [w.strip(".'\"") for w in words if w.strip(".'\"")]
    if not words or len(words) > 5:
        return None
    name = " ".join(words)
    if _BAD_CHARS.search(name) or not name[0].isupper():
        return None
    for w in words:
        low = w.lower()
        if low in _CONNECTORS:
            continue
        if not w[0].isupper() or low in GREETINGS or low in _TIME_WORDS:
            return None
    if name.lower() in _NOT_ORGS | _ROLES | HOLIDAYS or name.lower() in relations.KIN_ALIASES:
        return None
    lowered = [w.lower() for w in words]
    if len(words) > 1 and lowered[0] in _WISH_OPENERS and all(w in _WISHES for w in lowered):
        return None  # "Happy Birthday", "Merry Christmas": a wish, sung or said
    return name


def plausible_mention(match: NameMatch, doc: Doc, starts: set[int], self_turn: bool, tagged: set[int]) -> bool:
    """Registry matches found by plain text search must still look like names in place."""
    surface = match.text
    single = len(surface.split()) == 1
    if surface.lower() in relations.KIN_ALIASES:
        # "Mum" / "my mum" is the diarist's mum; "Alice's mum" is not.
        own = surface[0].isupper() or doc.text[max(0, match.start - 3) : match.start].lower() == "my "
        return self_turn and own
    if not single:
        return True
    if not surface[0].isupper():
        return not is_english_word(surface)
    if match.start in starts and is_english_word(surface) and match.start not in tagged:
        token = doc.char_span(match.start, match.end, alignment_mode="expand")
        return token is not None and token.root.tag_.startswith("NN")
    return True


def in_quotes(ent: Span) -> bool:
    """A name inside a quoted title ("Charlotte's Web", ‘Für Elise’) is part of the title.

    A curly apostrophe inside a word ("didn’t") closes no quote.
    """
    before = ent.sent.text[: ent.start_char - ent.sent.start_char]
    if before.count('"') % 2 == 1 or before.count("“") > before.count("”"):
        return True
    return before.count("‘") > len(re.findall(r"’(?!\w)", before))


def modifier(ent: Span) -> bool:
    """"the Geminid meteor shower", "a Tudor banquet": a name used as an adjective."""
    root = ent.root
    head = root.head
    if ent.label_ == "PERSON" or root.dep_ not in ("compound", "amod") or head.tag_ not in ("NN", "NNS"):
        return False
    # "Brookside Vets charges £45": a verb in -s the tagger took for a plural noun. A bare
    # plural after a name is as likely that verb as a noun the name modifies; only a
    # determiner or possessor ("the Geminid meteor showers") makes it a noun phrase.
    return head.tag_ == "NN" or any(c.dep_ in ("det", "poss") for c in head.children)


def is_vocative(text: str, start: int, end: int, dep: str = "") -> bool:
    """"Thanks, Ottilie!", "Hey Ottilie", "no, Mum, he's ...": addressed, not talked about."""
    before = text[:start].rstrip()
    after = text[end:].lstrip()
    prev_word = before.split()[-1].strip(",!.").lower() if before.split() else ""
    opens = not before or before.endswith((",", "!", "—", "-")) or prev_word in GREETINGS
    closes = not after or after[0] in ",!?.)" or after.startswith(("—", "-"))
    if not (opens and closes):
        return False
    # "Bob, Alice's roommate, played ..." is an appositive subject, not a vocative.
    return not after.startswith(",") or dep not in ("nsubj", "nsubjpass", "appos")
