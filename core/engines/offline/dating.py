"""Which side of the turn a date without a year lies ("on 3 May", "on Friday", "the 28th"):
one rule for the dates a sentence stores at ingest (clauses) and the dates an answer reads
from a sentence (spans), so the two never disagree.

The clause that holds the date decides, read from its parse:
- a past verb ("was on 3 May", "has been there since") puts it before the turn; a future
  one ("will run on 3 May"), a plan word in its clause ("next", "going to") or waiting
  for it ("can't wait for the fair on 3 May"), after;
- under a present verb, "since" and a "from" that dates a thing ("the photos from 3 May",
  "the photos are from our hike on 3 May") look back; a verb that gives its subject's
  time ("the wedding is on 3 May", "we fly on 3 May", "it is booked for 3 May") looks
  ahead, unless "be" shows a thing ("this is Corentin at the lake on 3 May", a caption);
- otherwise the grammar does not tell ("I still think about the trip on 3 May"): the date
  is the coming one only within the coming six weeks, else the one gone by.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from typing import TYPE_CHECKING

from memhop.core.engines.offline import tense
from memhop.core.language.dates import FUTURE, DateMention, find_dates

if TYPE_CHECKING:
    from spacy.tokens import Token

SCHEDULE_DAYS = 42  # "is on the 28th": the coming six weeks; a date further ahead is more likely one gone by
AHEAD, BEHIND = tense.FUTURE_TENSE, tense.PAST
SCHEDULE = "schedule"  # a present tense giving the time: the coming one, unless the one just gone is nearer
# Verbs a present tense uses for a fixed plan at its time: "we fly on 3 May", "it's booked for".
_SCHEDULED = tense.TIMED | frozenset(
    """fly leave go travel arrive depart return move come land sail head drive book schedule plan set fix
    arrange hold host due""".split()
)
# Waiting for a thing looks ahead to its date: "can't wait for the fair on 3 May", "looking forward to".
_AWAITED = re.compile(r"\b(?:look(?:s|ing)? forward|ca(?:n['’]?t|n ?not) wait|counting down)\b", re.I)
_SHOWN = frozenset({"this", "these", "that", "those", "here"})  # "this is Corentin at the lake": a caption
_NOUN_TAGS = ("NN", "PRP", "CD")


def resolve(
    text: str, ref: date | None, tokens: Iterable[Token], lead: int = 0, unknown: str | None = None
) -> list[DateMention]:
    """Every date in `text` (said on `ref`), each read on the side its clause points to.
    `tokens` are the sentence's parsed tokens, `lead` the offset of `text` in their doc;
    `unknown` is the tense to read a date in when no verb governs it ("the 28th" as a reply)."""
    ahead = {d.start: d for d in find_dates(text, ref, past=False)}
    if not ahead:
        return []  # most sentences: no date, and no need to read the text again as past tense
    behind = {d.start: d for d in find_dates(text, ref, past=True)}
    words = list(tokens)
    out = []
    for start in sorted(ahead.keys() | behind.keys()):
        coming, gone = ahead.get(start), behind.get(start)
        some = gone or coming
        assert some is not None
        side = _side(words, lead, start, some.end, unknown)
        if side == AHEAD:
            out.append(coming or some)
        elif side == SCHEDULE and ref is not None:
            out.append(_recent(gone, coming, ref) or coming or some)
        elif side == BEHIND or ref is None:
            out.append(gone or some)
        else:
            out.append(_soon(coming, ref) or gone or some)
    return out


def _soon(mention: DateMention | None, ref: date) -> DateMention | None:
    """The mention read ahead, if its day is within the coming weeks a present tense speaks of."""
    if mention is None or mention.day is None:
        return None
    return mention if 0 <= (mention.day - ref).days <= SCHEDULE_DAYS else None


def _recent(gone: DateMention | None, coming: DateMention | None, ref: date) -> DateMention | None:
    """The mention read back, if its day is within the weeks just gone and the coming one is
    not within the weeks ahead ("the recital is on 18 September and I am still buzzing", said
    on the 21st; "the match is on Saturday" is still the coming Saturday)."""
    if gone is None or gone.day is None or _soon(coming, ref):
        return None
    return gone if 0 <= (ref - gone.day).days <= SCHEDULE_DAYS else None


def _side(words: list[Token], lead: int, start: int, end: int, unknown: str | None) -> str | None:
    """AHEAD, BEHIND, SCHEDULE, or None when the clause does not tell."""
    inside = [t for t in words if start <= t.idx - lead < end]
    if not inside:
        return unknown if unknown != tense.PRESENT else None
    token = next((t for t in inside if t.head == t or t.head not in inside), inside[0])
    path: list[Token] = []  # the words from the date up to the verb that governs it
    verb = None
    while token.head != token and len(path) < 8:
        token = token.head
        if tense.finite(token) or (token.tag_.startswith("VB") and token.head == token):
            verb = token
            break
        path.append(token)
    if verb is None:
        return unknown if unknown != tense.PRESENT else None
    said = tense.of_verb(verb) or unknown
    if said == tense.PAST:
        return BEHIND
    clause = _clause(verb)
    if said == tense.FUTURE_TENSE or FUTURE.search(clause) or _AWAITED.search(clause):
        return AHEAD
    return _present(path, verb, inside)


def _present(path: list[Token], verb: Token, inside: list[Token]) -> str | None:
    """A present (or untensed) clause: a look back (BEHIND), a time it gives (SCHEDULE), or
    nothing said (None)."""
    if any(tok.lower_ == "since" for tok in (*inside, *path)):
        return BEHIND  # "closed since 3 May", "since May"
    for tok in path:
        if tok.lower_ == "from" and (tok.head.tag_.startswith(_NOUN_TAGS) or not any(c in inside for c in tok.children)):
            return BEHIND  # "photos from 3 May", "are from our hike on 3 May"
    if any(tok.tag_.startswith(("NN", "PRP")) for tok in path):
        return None  # "I miss the party on 12 June": the date is the party's, the verb says nothing of it
    near = next((t for t in path if t.tag_.startswith("VB")), verb)
    base = tense.verb_base(near.lower_)
    if base not in _SCHEDULED:
        return None  # "I still think about it on 3 May"
    if base == "be" and _shows(near):
        return None
    return SCHEDULE


def _shows(be: Token) -> bool:
    """"This is Corentin at the lake", "The photos are from the hike": "be" saying what a thing
    is or where it comes from, not when something happens."""
    for child in be.children:
        if child.dep_ in ("attr", "acomp") or (child.dep_ == "prep" and child.lower_ in ("from", "since")):
            return True
        if child.dep_.startswith("nsubj") and child.lower_ in _SHOWN:
            return True
        if child.dep_ == "advmod" and child.lower_ == "here":
            return True
    return False


def _clause(verb: Token) -> str:
    """The words of the verb's own clause, without a clause joined to it by "and"."""
    joined = {t.i for c in verb.children if c.dep_ == "conj" for t in c.subtree}
    return "".join(t.text_with_ws for t in verb.subtree if t.i not in joined)
