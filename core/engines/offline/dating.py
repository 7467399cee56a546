"""Which side of the turn a date without a year lies ("on 3 May", "on Friday", "the 28th"):
one rule for the dates a sentence stores at ingest (clauses) and the dates an answer reads
from a sentence (spans); they differ in one place only, said last.

The clause that holds the date decides, read from its parse:
- a past verb ("was on 3 May", "has been there since") puts it before the turn; so do
  "since", a "from" that dates a thing ("the photos from our hike on 3 May", "the photos are
  from 3 May") and a caption ("this is Corentin at the lake on 3 May", "here is ...");
- a future verb ("will sail on 3 May", "is going to be"), a plan word on the date's own verb
  ("wants to sail on 3 May", not "next to" nor one in a relative clause) or waiting for it
  ("can't wait for the fair on 3 May") puts it after;
- a date that hangs on a present verb, simple or progressive ("Corentin sails the relay on
  3 May", "is sailing on 3 May", "the deadline is 3 May", "starts at 8pm on 3 May"), on what
  that verb does or holds ("I have a hearing on 3 May") or on what "there is" holds, is the
  verb's time: the coming one, unless the one just gone is near and the coming one not;
- otherwise the grammar does not tell: a date on a noun the verb only describes ("the
  ferry on 3 May is booked"), under a verb of mind or with "still"/"usually" ("I still
  think about the trip on 3 May"), a verbless line ("Recital on 3 May!"). Such a date is
  resolved only when exactly one of its two readings is within six weeks of the turn, else
  it keeps its text but gets no day (an answer then says "I don't know": a guessed year is
  worse). A line whose date no verb governs reads back if the line has a past verb.
The answer side alone, when both readings are within six weeks ("the 28th" or "Saturday!"
replying in a chat), takes the one the question's tense points to; ingest stores no day.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Literal

from memhop.core.engines.offline import tense
from memhop.core.language.dates import CLOCK_TIME, FUTURE, DateMention, find_dates

if TYPE_CHECKING:
    from spacy.tokens import Token

Side = Literal["ahead", "behind", "schedule"]
SCHEDULE_DAYS = 42  # "is on the 28th": the coming six weeks; a date further ahead is more likely one gone by
AHEAD: Side = "ahead"
BEHIND: Side = "behind"
SCHEDULE: Side = "schedule"  # a present tense giving the time: the coming one, unless the one just gone is nearer
# Waiting for a thing looks ahead to its date: "can't wait for the fair on 3 May", "looking forward to".
_AWAITED = re.compile(r"\b(?:look(?:s|ing)? forward|ca(?:n['’]?t|n ?not) wait|counting down)\b", re.I)
_SHOWN = frozenset({"this", "these", "that", "those", "here"})  # "this is Corentin at the lake": a caption
_NOUN_TAGS = ("NN", "PRP", "CD")
# A verb's own words that can carry its tense or plan; "tomorrow", "next week" are adverbs and
# time the verb only.
_OWN = frozenset({"aux", "auxpass", "neg", "prt", "advmod", "npadvmod"})
_ADVERBS = frozenset({"advmod", "npadvmod"})
# Aspect and frequency adverbs make a present tense tell of now or of habit, not of a time to come:
# "Corentin still talks about the regatta on 3 May", "I usually sail on 3 May".
_ONGOING = frozenset({"still", "already", "always", "usually", "often", "sometimes", "never", "ever", "again"})
# Verbs of mind and feeling tell of now, not of a time they are set for: "I miss the party on 3 May".
_MIND = frozenset("miss remember recall think love like hate enjoy adore know regret treasure cherish mourn".split())
_TENSE_ONLY = re.compile(r"\b(?:will|going to|gonna|shall)\b|\w['’]ll\b", re.I)


def resolve(
    text: str, ref: date | None, tokens: Iterable[Token], lead: int = 0, asked: Side | None = None
) -> list[DateMention]:
    """Every date in `text` (said on `ref`), each read on the side its clause points to; a date
    the grammar leaves open and the calendar does not settle keeps its text but no day or label.
    `tokens` are the sentence's parsed tokens, `lead` the offset of `text` in their doc. `asked`
    (the answer side only: the side the question's tense points to) picks between two readings
    both within six weeks ("the 28th" replying to "when is the bake sale?"); ingest has none."""
    ahead = {d.start: d for d in find_dates(text, ref, past=False)}
    if not ahead:
        return []  # most sentences: no date, and no need to read the text again as past tense
    behind = {d.start: d for d in find_dates(text, ref, past=True)}
    words = list(tokens)
    # no verb governs the date ("Recital on 3 May!", "the 28th"): a past verb elsewhere says gone
    unknown: Side | None = BEHIND if any(tense.past_form(t) for t in words) else None
    out = []
    for start in sorted(ahead.keys() | behind.keys()):
        coming, gone = ahead.get(start), behind.get(start)
        some = gone or coming
        if some is None:
            continue
        side = _side(words, lead, start, some.end, unknown)
        if side == AHEAD:
            out.append(coming or some)
        elif side == SCHEDULE and ref is not None:
            out.append(_recent(gone, coming, ref) or coming or some)
        elif side == BEHIND or ref is None:
            out.append(gone or some)
        else:
            out.append(_undecided(gone, coming, ref, asked) or some)
    return out


def _undecided(
    gone: DateMention | None, coming: DateMention | None, ref: date, asked: Side | None
) -> DateMention | None:
    """The grammar leaves the side open: the one reading within the weeks around the turn (or
    of two, the one `asked` for), else the mention with no day ("on 3 May" said in December)."""
    if gone is None or coming is None or gone.day == coming.day:
        return None  # an explicit or relative date: one reading only
    near = [m for m in (gone, coming) if m.day is not None and abs((m.day - ref).days) <= SCHEDULE_DAYS]
    if len(near) == 1:
        return near[0]
    if len(near) == 2 and asked is not None:
        return gone if asked == BEHIND else coming
    return replace(coming, day=None, label="")


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


def _side(words: list[Token], lead: int, start: int, end: int, unknown: Side | None) -> Side | None:
    """AHEAD, BEHIND, SCHEDULE, or None when the clause does not tell."""
    inside = [t for t in words if start <= t.idx - lead < end]
    if not inside:
        return unknown
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
        return unknown
    said = tense.of_verb(verb)
    if said == tense.PAST or (said is None and unknown == BEHIND):
        return BEHIND  # an untensed verb ("heading home after the gig on 3 May, I saw ...") reads as the line
    if _looks_back(path, inside):
        return BEHIND
    own = [t for t in path if t.tag_.startswith("VB")] + [verb]
    thing = any(_thing(t) for t in path)  # the date is a noun's, not the verb's
    plan = _own_words(own, adverbs=not thing)
    if said == tense.FUTURE_TENSE or _AWAITED.search(plan) or (_TENSE_ONLY if thing else FUTURE).search(plan):
        return AHEAD
    if _caption(verb):
        return BEHIND
    ongoing = any(c.dep_ == "advmod" and c.lower_ in _ONGOING for t in own for c in t.children) or any(
        tense.verb_base(t.lower_) in _MIND for t in own
    )
    return None if thing or ongoing else SCHEDULE


def _looks_back(path: list[Token], inside: list[Token]) -> bool:
    """"since 3 May"; "the photos from 3 May", "are from 3 May", "the photos (are) from our
    hike on 3 May" (the date right after a thing's "from", wherever the parser hung it)."""
    if any(tok.lower_ == "since" for tok in (*inside, *path)):
        return True
    if any(tok.lower_ == "from" and (_origin(tok) or not any(c in inside for c in tok.children)) for tok in path):
        return True
    first = min(inside, key=lambda t: t.i)
    if path and path[0].dep_ == "prep" and first.i - 1 == path[0].i:
        first = path[0]  # the date's own preposition
    before = first.doc[first.i - 1] if first.i > 0 else None
    return before is not None and before.sent == first.sent and any(
        a.lower_ == "from" and _origin(a) and a.i >= before.i - 6 for a in (before, *before.ancestors) if a not in path
    )


def _origin(word: Token) -> bool:
    """A "from" saying where a thing comes from: "the photos from", "the photos are from"
    (not "we sail from 3 May", a start)."""
    return word.head.tag_.startswith(_NOUN_TAGS) or tense.verb_base(word.head.lower_) == "be"


def _thing(tok: Token) -> bool:
    """A noun on the date's path that makes the date that noun's, not the verb's: not a clock
    time ("at 8pm on 3 May"), nor what "there is" holds or a verb does ("there's a fair on 3
    May", "I have an exam on 3 May", "is rowing the race on 3 May"): for those the parser's
    choice of head does not change the time."""
    if not tok.tag_.startswith(("NN", "PRP")):
        return False
    if CLOCK_TIME.fullmatch(tok.doc[tok.left_edge.i : tok.i + 1].text):
        return False
    head = tok.head
    if tok.dep_ == "attr" and any(c.dep_ == "expl" for c in head.children):
        return False  # "there's a recital on 3 May"
    return not (tok.dep_ == "dobj" and head.tag_.startswith("VB"))


def _own_words(verbs: list[Token], adverbs: bool) -> str:
    """The verbs with their auxiliaries, negation, particles (and, if `adverbs`, adverbs) and
    the "to" of a verb they govern ("is going to", "wants to"): a plan or tense said of the verb
    itself, not anywhere in the sentence or in a relative clause ("next to the cliffs" is no plan)."""
    picked = set()
    for verb in verbs:
        picked.add(verb)
        for child in verb.children:
            if child.dep_ in _OWN and (adverbs or child.dep_ not in _ADVERBS) and not _next_to(child):
                picked.add(child)
            if child.dep_ == "xcomp":
                picked.update(c for c in child.children if c.dep_ == "aux" and c.lower_ == "to")
    ordered = sorted(picked, key=lambda t: t.i)
    return "".join(t.text + (t.whitespace_ if n.i == t.i + 1 else " ") for t, n in zip(ordered, ordered[1:] + [ordered[-1]]))


def _next_to(tok: Token) -> bool:
    return tok.lower_ == "next" and any(c.lower_ == "to" for c in tok.children)


def _caption(be: Token) -> bool:
    """"This is Corentin at the lake", "Here are the photos": "be" showing a thing (not "this
    is when we sail": no thing shown)."""
    if tense.verb_base(be.lower_) != "be":
        return False
    shown = [c for c in be.children if c.lower_ in _SHOWN and (c.dep_.startswith("nsubj") or c.dep_ == "advmod")]
    thing = [c for c in be.children if c.dep_ in ("attr", "nsubj") and c.tag_.startswith(("NN", "PRP")) and c not in shown]
    return bool(shown and thing)
