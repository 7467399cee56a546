"""What a number in a sentence counts, for "how many ..." questions.

A count question counts something: "how many lengths" counts lengths, "how many times"
counts occasions. A number answers it only when the sentence says the number of that thing
("forty lengths", "went there twice"); a clock time ("we leave at 8"), a part of a date, an
age ("she's 6"), a price ("£8"), a house number ("12 Elm Row"), a year or a percentage
never counts events, whatever the question counts. When no sentence states the count of
occasions, the answerer counts the distinct dated events the supporting sentences assert
(`occasions`) instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

from memhop.core.engines.offline import grammar
from memhop.core.language import lexical
from memhop.core.language.dates import find_dates
from memhop.core.language.dates import period as period_of
from memhop.core.language.numbers import CURRENCY_CODES, CURRENCY_UNITS, MONEY_SUFFIXES, WORD_NUMBER, as_digits
from memhop.core.language.periods import Period, unpinned
from memhop.core.language.sentences import Sentence

if TYPE_CHECKING:
    from spacy.tokens import Token

_NO_DAY = date(2000, 1, 1)  # a reference for reading dates written in full, which need none
# Nouns a "how many times" question counts with: occasions, however they are said.
OCCASIONS = frozenset({"time", "times", "occasion", "occasions"})
_REPEATS = {"once": "1", "twice": "2", "thrice": "3"}
_NUMBER = re.compile(
    rf"(?<![\w£$€¥#.,:/-])(\d+(?:\.\d+)?|{WORD_NUMBER})"
    r"(?![\w%:/]|\.\d|,\d)",
    re.I,
)
# "once more", "at once", "for once", "once upon a time" count nothing
_REPEAT = re.compile(r"(?<!\bat\s)(?<!\bfor\s)\b(once|twice|thrice)\b(?!\s+(?:more|again|upon|in\s+a\s+while))", re.I)
# Words after a count that are not what it counts: the noun follows within a few modifiers.
_REACH = 3
_STOP = re.compile(r"[.;:!?()—–\"]|,\s|\s-\s")
# What makes a number something other than a count (each read around the number).
_CLOCK_BEFORE = re.compile(
    r"\b(?:at|by|until|till|til|from|around|before|after|half|quarter past|quarter to|past)\s+(?:like\s+|about\s+)?$", re.I
)
_CLOCK_AFTER = re.compile(r"\s*(?:am|pm|a\.m\.|p\.m\.|o['’]clock|ish)\b|\s*[:.]\d\d\b|-ish\b", re.I)
_AGE_BEFORE = re.compile(
    r"(?:\b(?:is|was|aged|age|turned|turns|turning|turn)\s+|['’]s\s+|\((?:she|he|they)['’]s\s+)(?:now\s+|just\s+)?$", re.I
)
_AGE_AFTER = re.compile(r"[\s-]+(?:years?|yrs?|months?)[\s-]+old\b|[\s-]+year[\s-]+old\b", re.I)
_PRICE_BEFORE = re.compile(rf"[£$€¥]\s*$|\b(?:{'|'.join(sorted(CURRENCY_CODES))})\s*$", re.I)
_PRICE_AFTER = re.compile(rf"\s*(?:{'|'.join(sorted(CURRENCY_UNITS | MONEY_SUFFIXES, key=lambda w: (-len(w), w)))})\b", re.I)
_LABEL_BEFORE = re.compile(
    r"\b(?:number|no\.?|flat|room|apartment|apt\.?|unit|platform|gate|bus|route|page|chapter|track|level|floor|"
    r"version|season|episode|#)\s*$",
    re.I,
)
_STREET_AFTER = re.compile(  # "12 Elm Row", "4 Kettle Lane"
    r"\s+(?:[A-Z][\w'’-]+\s+){1,2}(?:Street|St|Road|Rd|Lane|Ln|Avenue|Ave|Row|Close|Drive|Way|Place|Crescent|"
    r"Terrace|Court|Square|Gardens|Grove|Hill|Mews|Walk|Parade|Green|Park)\b"
)
_PERCENT_AFTER = re.compile(r"\s*(?:%|percent\b|per\s+cent\b)", re.I)
_YEAR = re.compile(r"(?:1[89]|20)\d\d$")


_COUNTED = re.compile(
    r"\bhow\s+many\s+(?:more\s+|other\s+|different\s+|separate\s+)?(?:of\s+(?:the|his|her|their|my|our|your)\s+)?([a-z]+)",
    re.I,
)


# the last word before the verb: the head of "Lego sets", "board games"
_HEAD = re.compile(
    r"(?:(?!of\b)[a-z]+\s+){0,2}?((?!of\b)[a-z]+)\s+(?:do|does|did|has|have|had|is|are|was|were|can|could|will|would)\b", re.I
)


def counted_noun(text: str) -> str | None:
    """What a "how many" question counts: "lengths", "times"; None when it does not say
    ("how many did she bake?")."""
    m = _COUNTED.search(text)
    if m is None:
        return None
    head = _HEAD.match(text, m.start(1))  # "how many Lego sets does ...": sets
    noun = (head.group(1) if head else m.group(1)).lower()
    return None if noun in lexical.STOPWORDS else noun


def is_occasions(noun: str | None) -> bool:
    return noun in OCCASIONS


def is_currency(noun: str | None) -> bool:
    """"How many yen/francs/dollars ...": the question counts money, so a price answers it."""
    return noun is not None and any(_same_noun(unit, noun) for unit in CURRENCY_UNITS)


def not_a_count(text: str, start: int, end: int, bare: bool, money: bool = False) -> bool:
    """A clock time, an age, a price, a label (house, flat, page number), a year or a
    percentage: the number at text[start:end] counts nothing. `bare`: no noun follows it,
    so "at 8", "she's 6", "flat 3" are a time, an age, a label ("Halvard's 3 kids" counts).
    `money`: the question counts a currency ("how many yen"), so a price is the count."""
    before, after = text[max(0, start - 30) : start], text[end : end + 30]
    number = text[start:end]
    price = bool(_PRICE_BEFORE.search(before) or _PRICE_AFTER.match(after))
    return bool(
        _YEAR.match(number)
        or _CLOCK_AFTER.match(after) or _AGE_AFTER.match(after)
        or (price and not money) or _PERCENT_AFTER.match(after)
        or (number[:1].isdigit() and _STREET_AFTER.match(after))
        or (bare and bool(_CLOCK_BEFORE.search(before) or _AGE_BEFORE.search(before) or _LABEL_BEFORE.search(before)))
    )


def stated(text: str, noun: str | None, hit: int, cues: Sequence[str] = ()) -> str | None:
    """The count of `noun` the text states nearest the matched word at `hit`, as digits
    ("forty lengths" -> "40 lengths"); occasions only within the clause of the match
    ("walked there twice", not "...; she lay down twice"). None when the text states none.
    Of two counts of the same noun, the one whose clause says more of the question's
    `cues` (content stems) wins before nearness: "forty people came, and twelve people
    stayed" answers "how many people stayed?" with 12."""
    dates = [(d.start, d.end) for d in find_dates(text, _NO_DAY)]
    found: list[tuple[int, str]] = []
    low, high = clause_at(text, hit)
    money = is_currency(noun)
    if is_occasions(noun):
        found += [(m.start(), _REPEATS[m.group(1).lower()]) for m in _REPEAT.finditer(text) if low <= m.start() < high]
    for m in _NUMBER.finditer(text):
        after = _words_after(text, m.end())
        if any(s <= m.start() < e for s, e in dates) or not_a_count(text, m.start(), m.end(), not after, money):
            continue
        value = as_digits(m.group(1))
        if noun is None:
            found.append((m.start(), f"{value} {after[0]}" if after else value))
            continue
        counts = next((w for w in after if _same_noun(w, noun)), None)
        if counts is None or (is_occasions(noun) and not low <= m.start() < high):
            continue
        found.append((m.start(), value if is_occasions(noun) else f"{value} {counts}"))
    wanted = set(cues) - ({lexical.stem(noun)} if noun else set())
    return min(found, key=lambda f: (-_said_in_clause(text, f[0], wanted), abs(f[0] - hit), f[0]))[1] if found else None


def _said_in_clause(text: str, at: int, wanted: set[str]) -> int:
    """How many of the `wanted` stems the clause around offset `at` says."""
    low, high = clause_at(text, at)
    return len(wanted & set(lexical.terms(text[low:high])))


def _words_after(text: str, end: int) -> list[str]:
    """The words a number may count: up to a few before a clause mark or a function word
    ("forty slow lengths" -> forty, slow, lengths; "two of his songs" -> none)."""
    rest = text[end:]
    stop = _STOP.search(rest)
    found: list[str] = []
    for word in re.findall(r"[A-Za-z][\w'’-]*", rest[: stop.start() if stop else len(rest)])[:_REACH]:
        if word.lower() in lexical.STOPWORDS and word.lower() not in OCCASIONS:
            break
        found.append(word.lower())
    return found


def _same_noun(said: str, noun: str) -> bool:
    return lexical.stem(said) == lexical.stem(noun)


# "16.4 kg", "58:12": a point or colon between digits ends no clause
_CLAUSE_MARK = re.compile(r"(?<!\d)[.:]|[.:](?!\d)|[;!?—–]|\s-\s|,\s+(?:but|and|so|then|which|while)\s")


def clause_at(text: str, hit: int) -> tuple[int, int]:
    """The clause holding offset `hit`: between clause marks."""
    marks = [(m.start(), m.end()) for m in _CLAUSE_MARK.finditer(text)]
    low = max((e for s, e in marks if e <= hit), default=0)
    high = min((s for s, e in marks if s >= hit), default=len(text))
    return low, high


# Words that say an event did not quite happen: "we nearly won", "almost missed it".
# ... or not surely: "we probably went swimming" is no occasion to count.
_SHORT_OF = frozenset({"nearly", "almost", "practically", "virtually",
                       "probably", "maybe", "perhaps", "possibly", "supposedly", "allegedly", "apparently"})
# the write path's note of when a fact was told, not when it happened: "(before 30 December 2024)"
_TOLD_BY = re.compile(r"\((?:shortly\s+)?(?:before|after|as of|since|until|around)\s+$")
# Clauses that say their own event, under whatever verb they hang on.
_CLAUSES = frozenset({"ccomp", "advcl", "conj", "relcl"})
# Verbs whose complement is a wish or a doubt, not an event: "I hope we win", "wondered if we won".
# ... and verbs that say it did not happen, or not as one occasion: "forgot to go swimming",
# "skipped swimming", "was going to go" (a plan), "used to swim" (a habit), and verbs that
# only commit to it: "agreed to go swimming", "was supposed to", "promised to".
_WISHES = frozenset({
    "hope", "wish", "pray", "want", "doubt", "wonder", "bet", "plan", "expect", "imagine",
    "forget", "fail", "skip", "miss", "mean", "intend", "use", "avoid", "refuse", "try",
    "agree", "decide", "promise", "suppose", "offer", "need", "arrange", "aim",
})
# Words that make a time a habit, not an occasion: "every week", "each Sunday".
_EVERY = frozenset({"every", "each"})
# Who "I" and "we" are in the question: the user, so only the user's own occasions count.
_ASKED_OF_ME = re.compile(r"\b(?:do|did|have|had|was|were|am)\s+(?:i|we)\b", re.I)
_ME = frozenset({"i", "we"})


class _Refused(Exception):
    """An occasion that makes the whole count unknown."""


def occasions(
    question: str, said: Sequence[tuple[Sentence, int]], period: Period | None, user: str | None = None,
    room: int | None = None, weaker: Sequence[tuple[Sentence, int]] = (),
) -> tuple[str, Sentence] | None:
    """How many distinct dated events of the question's verb the sentences assert (and the
    best supporting sentence counted), inside the question's period when it names one; none
    when it names a time it does not pin ("in June", "last week": not a count over all time).

    Each (sentence, offset of the matched word) counts only where the sentence asserts the
    verb: not denied, hedged ("nearly won"), under a modal or a condition, wished or asked. An
    event is dated by the date its clause gives ("we won on Saturday", said on Sunday, is
    Saturday's) else by when it was said, so two messages about one race count once. A count
    is refused (None) when an asserted event cannot be dated to a day: it cannot be told apart
    from the others, and a wrong count is worse than none; so is one whose sentence states a
    number of times. A fact no date places is left to the turn it was written from. An event
    dated after the day it was told is a plan. Asked of "I" or "we", only the `user`'s own
    messages, and in them only what they or "we" did ("my sister went swimming" is hers), count.

    A count must not be a lower bound: it is refused when a `weaker` sentence (one that
    matched the question less well) asserts another occasion in the period, and when the
    occasions crowd the evidence (told in over half of the `room` it had when full), so
    more may lie beyond it."""
    if unpinned(question, date.today()):
        return None
    verb = grammar.question_verb(question)
    mine = bool(_ASKED_OF_ME.search(question))
    days: dict[date, Sentence] = {}
    told: set[int | None] = set()  # the turns asserting an occasion, in the period or not
    try:
        for sentence, hit in said:
            day = _occasion(sentence, hit, verb, mine, user, told)
            if day is not None and (period is None or period.covers(day)):
                days.setdefault(day, sentence)
        for sentence, hit in weaker:
            day = _occasion(sentence, hit, verb, mine, user, told)
            if day is not None and (period is None or period.covers(day)) and day not in days:
                return None  # one more occasion, less sure: the count may be one short or not
    except _Refused:
        return None
    if not days or (room is not None and 2 * len(told - {None}) > room):
        return None
    return str(len(days)), next(iter(days.values()))


def _occasion(
    sentence: Sentence, hit: int, verb: str | None, mine: bool, user: str | None, told: set[int | None]
) -> date | None:
    """The day of the occasion the sentence asserts, None when it asserts none (noting its
    turn in `told` when it asserts one); raises _Refused when it cannot be counted. `mine`:
    the question asks of "I" or "we"; `user`: who that is, when the store knows."""
    if mine and user is not None and sentence.speaker not in (None, user):
        return None  # "I went swimming" in someone else's message is not the user's swim
    where = asserted(sentence.text, verb, hit, mine)
    if where is None:
        return None
    told.add(sentence.turn)
    day = event_day(sentence, where)
    if day is None and sentence.when is None:
        return None  # a fact no date places: its turn, dated, is what counts
    if day is None:
        raise _Refused
    if sentence.when is not None and day > sentence.when.date():
        return None  # "going swimming tomorrow": a plan when it was said, no occasion
    if stated(sentence.text, "times", where) is not None:
        raise _Refused  # "went swimming twice in July": not one occasion, and not told apart
    return day


def asserted(text: str, verb: str | None, hit: int, mine: bool = False) -> int | None:
    """Where in `text` the event is asserted as having happened (the offset of its word),
    None where it is not: the question's verb where the sentence says it, else the matched
    word ("Canoeing again with Kester" for "go canoeing"), each in the stance it is said in;
    `mine`: only where its doer is "I", "we" or unsaid (a diary's "Went swimming")."""
    if text.rstrip().endswith("?"):
        return None
    doc = grammar.parsed(text)
    said = [t for t in doc if verb is not None and grammar.verb_base(t.lower_) == verb]
    if not said:
        said = [t for t in doc if t.idx <= hit < t.idx + len(t.text)][:1]
    return next((t.idx for t in said if _happened(t) and (not mine or _done_by_me(t))), None)


def _done_by_me(word: Token) -> bool:
    """The nearest subject up the verbs `word` hangs on is "I" or "we" (alone or among
    others: "Dafydd and I went"), or there is none."""
    while True:
        subjects = [c for c in word.children if c.dep_ in ("nsubj", "nsubjpass")]
        if subjects:
            return any(w.lower_ in _ME for s in subjects for w in (s, *s.conjuncts))
        if word.head.i == word.i or word.dep_ in _CLAUSES - {"conj"}:
            return True
        word = word.head


def _happened(word: Token) -> bool:
    """Stated as done: not denied or short of it ("didn't win", "no swim", "nearly won"), no
    modal, not under a condition or a wish ("if we win", "I hope we won", "wanted to win"),
    nor said under a verb that is ("didn't go swimming")."""
    if grammar.negated(word) or grammar.conditional(word) or _plan(word) or any(
        c.tag_ == "MD" or (c.dep_ == "advmod" and c.lower_ in _SHORT_OF) or (c.dep_ in ("det", "neg") and c.lower_ == "no")
        or _habitual(c)
        for c in word.children
    ):
        return False
    head = word.head
    if head.i == word.i:
        return True
    if word.dep_ in _CLAUSES:  # a clause of its own: only a condition or a wish above it takes it back
        return not grammar.conditional(head) and grammar.verb_base(head.lower_) not in _WISHES
    # "went swimming", "wanted to win", "didn't go swimming": the word it hangs on says whether
    return grammar.verb_base(head.lower_) not in _WISHES and _happened(head)


def _plan(word: Token) -> bool:
    """Said in the present, so a plan or a habit, not a past occasion: "going swimming
    tonight", "I'm going swimming" ("I was going swimming when..." is past), "we go swimming
    every Sunday", "I love swimming"."""
    base = grammar.verb_base(word.lower_)
    if word.tag_ in ("VBP", "VBZ") and word.lower_ in (base, f"{base}s", f"{base}es"):  # not a mistagged "swam"
        return True
    return word.lower_ == "going" and not any(c.dep_ == "aux" and c.tag_ == "VBD" for c in word.children)


def _habitual(word: Token) -> bool:
    """A time that recurs: "every week", "on each Sunday" (a habit, not an occasion)."""
    times = [word] if word.dep_ == "npadvmod" else [c for c in word.children if c.dep_ == "pobj"] if word.dep_ == "prep" else []
    return any(d.dep_ == "det" and d.lower_ in _EVERY for t in times for d in t.children)


def event_day(sentence: Sentence, at: int) -> date | None:
    """The day the event at offset `at` happened: a day its clause names, resolved against
    when it was said ("yesterday", "on Saturday"), else the day it was said; None when the
    clause names a vaguer time the day said does not fall in ("a few weeks ago", "in May").
    A fact has no day it was said but the write path's note of when it was told ("(before
    17 August 2024)"), and only the dates it writes out in full name its event's day."""
    if sentence.when is not None:
        said: date | None = sentence.when.date()
        found = find_dates(sentence.text, said, past=True)
    else:
        written = [m for m in find_dates(sentence.text, _NO_DAY, past=True) if m.explicit]
        told = [m for m in written if _TOLD_BY.search(sentence.text, 0, m.start)]
        said = next((covered[0] for covered in map(period_of, told) if covered), None)
        found = [m for m in written if m not in told]
    low, high = clause_at(sentence.text, at)
    near = [m for m in found if low <= m.start < high]
    if not near:
        return said
    mention = min(near, key=lambda m: abs(m.start - at))
    covered = period_of(mention)
    if covered is None:
        return None
    if covered[0] == covered[1]:
        return covered[0]
    return said if said is not None and covered[0] <= said <= covered[1] else None


def stated_within(sentence: Sentence, hit: int, period: Period | None) -> bool:
    """A count a sentence states answers for the question's period only when its clause names
    that very time ("won 3 races in 2024" for 2024; not for March 2024, nor "won 3 races last
    week" for 2024: a part of the period counts only part of it), and any count for no period
    ("won 3 races": a total said with no time may span any years). A fact's own dating note
    ("(before 30 December 2024)": when it was told) is no time of the count."""
    if period is None:
        return True
    ref = sentence.when.date() if sentence.when else _NO_DAY
    low, high = clause_at(sentence.text, hit)
    for mention in find_dates(sentence.text, ref, past=True):
        if not low <= mention.start < high or not (mention.explicit or sentence.when):
            continue
        covered = period_of(mention)
        if covered and not _TOLD_BY.search(sentence.text, 0, mention.start) and period.spans(covered):
            return True
    return False
