"""Questions whose answer is several things or a count: "which instruments does Seren play?",
"what books did I read?", "how many times did Ivo go climbing?".

The items are gathered across every supporting sentence (one session may name the cello,
another the piano), each read by the grammar: the complements of the question's verb ("plays
guitar and drums"), or a list after a colon ("Favourites: A, B, C"). A count is the number of
distinct dated events the supporting sentences assert (counts.occasions).

An item found so narrows what else counts: a bare noun phrase with the same head and a
modifier ("started on bass trombone" beside "plays trombone") names another kind of the same
thing, when the grammar says the person does it: the person is the subject of the question's
verb or of a take-up verb governing the phrase, not negated or hedged. A kind follows the item
it narrows and never takes an item's place in the list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from memhop.core.engines.offline import counts, grammar, rewrite
from memhop.core.engines.offline.kinds import may_name
from memhop.core.language.chains import same_entity
from memhop.core.language.dates import FUTURE
from memhop.core.language.question import NUMBER_WORDS, Question
from memhop.core.language.sentences import Sentence, actor, is_question, mentions

if TYPE_CHECKING:
    from spacy.tokens import Token

MAX_ITEMS = 6
_WH = frozenset({"what", "which", "who", "where", "when", "why", "how"})
_SPLIT = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|;\s*)")
# "The Road" and "Charlotte's Web" stay: only lower-case determiners and owners of a common noun go
_LEAD = re.compile(r"^(?:(?:the|a|an|some|my|his|her|their|our|your|its)\s+|[\w-]+['’]s\s+(?=[a-z]))+")
_COLON_LIST = re.compile(r":\s*([^.;:!?()]+)")
SIZE_WORDS = frozenset({"top", "thre", "two", "four", "five", "six", "seven", "eight", "nin", "ten"}) | NUMBER_WORDS


def wants_count(question: Question) -> bool:
    """"How many times ...": the number of occasions, when no sentence states it."""
    return question.wh == "how many" and bool(re.search(r"\bhow many times\b", question.text, re.I))


def items(question: Question, sentence: Sentence, hit: int) -> list[str]:
    """The things one sentence lists for the question, in its order."""
    text = sentence.text
    if is_question(text):
        return []  # a question lists nothing
    colon = _COLON_LIST.search(text, hit)
    kind = question.target.rstrip("s") if question.target else None
    if colon and _SPLIT.search(colon.group(1)):
        return _split(colon.group(1), kind)
    verb = grammar.question_verb(question.text)
    if verb is None:
        return []
    skip = frozenset(w.lower() for w in re.findall(r"\w+", question.text))
    asked = _asked(question.text, verb)
    found: list[str] = []
    text = rewrite.clean(text)  # a shared photo's caption ("a man playing a piano") shows, it says no one's doing
    if kind and grammar.verb_base(verb.lower()) == "play":  # "which instruments": no song or game played
        pieces = grammar.played(text, skip, kind, lambda use: _done(use, asked))
    else:
        pieces = grammar.complements(text, verb, skip, lambda use: _done(use, asked))
    for piece in pieces:
        if piece.kind == "thing":
            found += _split(piece.text, kind)
    return found


# The only words a kind's name has before its head: "bass trombone", "bass guitar"; an article,
# owner or number ("her old guitar", "a new guitar", "two guitars") makes it one thing, no kind
_NARROWING = frozenset({"amod", "compound"})
# Adjectives that say how big, new, loud or good one thing or one way of doing it is, never which
# kind it is: "plays loud bass", "speaks fluent French", "picked up basic French" name no new item
_QUALITIES = frozenset(
    """big small little large huge tiny long short new old young loud quiet soft hard heavy light fast slow
    good bad great fine nice lovely terrible awful decent proper real serious casual competitive fluent basic
    broken rusty perfect poor excellent amazing brilliant beautiful""".split()
)
# Verbs after which the person does the thing from then on ("started on bass trombone", "took up
# table tennis", "switched to mini golf", "learned to play electric guitar"): besides the question's
# own verb, the only ones whose object may be a kind. "take" and "pick" only with "up".
_TAKE_UP = frozenset({"start", "begin", "learn", "switch", "move", "take", "pick"})
_WITH_UP = frozenset({"take", "pick"})
# Verbs that undo a take-up said in the same breath ("took up bass trombone but quit after a
# week", "started on squash and gave it up"); "give" only with "up".
_GIVE_UP = frozenset({"quit", "stop", "drop", "give", "abandon"})
# Prepositions a take-up verb reaches its thing through ("switched from bass trombone" is the opposite)
_TAKE_UP_PREPOSITIONS = frozenset({"on", "to", "with"})
_OBJECTS = frozenset({"dobj", "attr", "oprd"})
_ABLE = frozenset({"can", "could"})
_Asked = tuple[tuple[bool, str | None], bool]  # the question verb's stance, and whether it asks of the past


def kinds(question: Question, found: Sequence[str], sentence: Sentence, entity: str | None) -> list[str]:
    """Narrower kinds of items already found that the sentence says `entity` does (what the
    question asks, or takes it up): a noun phrase
    with no article or owner (the kind, as in "plays trombone", not one instrument) whose head is
    an item's last word and which lower-case modifiers narrow ("bass trombone"). The sentence must
    say so by its grammar (`_takes_up`): hating, watching or mentioning a kind ("she hates
    table tennis", "her brother is obsessed with bass trombone") names none of hers. The kind is a
    distinct item: "trombone" does not swallow "bass trombone", nor the other way round."""
    if entity is None or is_question(sentence.text) or FUTURE.search(sentence.text):
        return []
    heads = {item.split()[-1].lower() for item in found}
    if not heads & {w.lower() for w in re.findall(r"\w+", sentence.text)}:
        return []  # no item's head in it: nothing to parse
    known = {item.lower() for item in found}
    verb = grammar.question_verb(question.text)
    more: list[str] = []
    for token in grammar.parsed(sentence.text):
        if token.lower_ not in heads or not token.tag_.startswith("NN") or token.dep_ in _NARROWING:
            continue
        left = list(token.lefts)
        if not left:
            continue
        words = token.doc[left[0].i : token.i + 1]
        if any(w.dep_ not in _NARROWING or not w.is_lower or not w.is_alpha or w.tag_ in {"JJR", "JJS"}
               or w.lower_ in _QUALITIES for w in words[:-1]):
            continue  # "his old cello", "Fender bass", "bigger bass", "loud bass": one thing, a brand, a quality
        kind = words.text
        if kind.lower() not in known and _takes_up(sentence, token, entity, verb):
            more.append(kind)
    return more


def _takes_up(sentence: Sentence, noun: Token, entity: str, verb: str | None) -> bool:
    """Whether the sentence says `entity` does what `noun` names: the noun is the object of the
    question's verb or of a take-up verb (directly, or through "on"/"to"/"with": "started on
    bass trombone"), a chain of take-up verbs may lead up to it ("started playing", "learned to
    play"), the top verb's own subject is the entity (not an owner of it: "her brother"),
    and no verb on the way is negated, hedged by a modal or put as a condition. A verb on the
    way with another direct object ("she started her son on bass trombone") has that object take
    it up, not its subject; one coordinated with giving up ("took up bass trombone but quit after
    a week") says the subject no longer does it."""
    while noun.dep_ == "conj":  # "took up squash and table tennis"
        noun = noun.head
    head = noun.head
    if noun.dep_ == "pobj" and head.dep_ == "prep" and head.lower_ in _TAKE_UP_PREPOSITIONS:
        head = head.head
    elif noun.dep_ not in _OBJECTS:
        return False
    lemma = grammar.verb_base(head.lower_)
    if not head.tag_.startswith("VB") or not (lemma == verb or _is_take_up(head, lemma)):
        return False
    subject = None
    below: Token | None = noun  # what the verb governs on the way up; None: reached as a coordinated clause
    while subject is None:
        if _hedged(head) or _undone(head) or (below is not None and _other_object(head, below)):
            return False
        subject = next((t for t in head.children if t.dep_ == "nsubj"), None)
        if subject is not None:
            break
        if head.dep_ not in {"xcomp", "conj"}:
            return False
        above = head.head
        if head.dep_ == "xcomp" and not _is_take_up(above, grammar.verb_base(above.lower_)):
            return False  # "hates playing bass trombone", "wants to learn table tennis"
        below = head if head.dep_ == "xcomp" else None  # "plays guitar and took up bass trombone": guitar is not hers to take up
        head = above
    who, distance = actor(sentence, subject.idx + len(subject.text))
    return distance == 1 and who == entity


def _asked(question: str, verb: str) -> _Asked:
    """The stance of the question's own verb, and whether it asks about the past."""
    use = next((t for t in grammar.parsed(question)
                if t.tag_.startswith("VB") and t.dep_ not in ("aux", "auxpass") and grammar.verb_base(t.text) == verb),
               None)
    return grammar.stance(use), use is not None and grammar.asked_in_past(use)


def _done(verb: Token, asked: _Asked) -> bool:
    """Whether a use of the question's verb says its subject does it, by the rules a kind is
    read by: in the question's own stance ("will bring" answers "what will she bring?",
    "hasn't read" only "what hasn't she read?"), not hedged or put as a condition, nor given
    up in the same breath; and when it hangs from another verb, that verb carries it out
    (`grammar.carries`: "managed to play", "loves playing", "is going to bring") or takes it
    up ("started playing"), unlike "hates playing", "wants to play" or "stopped playing"."""
    stance, past = asked
    head = verb
    while not (_hedged(head, stance) or _undone(head)):
        if head.dep_ != "xcomp":
            return True
        above = head.head
        if not (grammar.carries(above, past) or _is_take_up(above, grammar.verb_base(above.lower_))):
            return False
        head = above
        stance = (False, None)  # "is going to bring": the verb above says it plainly
    return False


def _is_take_up(verb: Token, lemma: str) -> bool:
    if lemma not in _TAKE_UP:
        return False
    return lemma not in _WITH_UP or any(t.dep_ == "prt" and t.lower_ == "up" for t in verb.children)


def _other_object(verb: Token, governed: Token) -> bool:
    """The verb has a direct object besides what it governs on the way to the kind: "started
    her son on bass trombone" starts her son."""
    return any(t.dep_ == "dobj" and t.i != governed.i for t in verb.children)


def _undone(verb: Token) -> bool:
    """A later verb coordinated with this one, with no subject of its own, gives it up: "but
    quit after a week", "and gave it up" (not "and quit squash": that gives up something else)."""
    return any(
        t.dep_ == "conj" and t.tag_.startswith("VB") and not any(c.dep_ in ("nsubj", "nsubjpass") for c in t.children)
        and (lemma := grammar.verb_base(t.lower_)) in _GIVE_UP
        and (lemma != "give" or any(c.dep_ == "prt" and c.lower_ == "up" for c in t.children))
        and not any(c.dep_ == "dobj" and c.tag_ != "PRP" for c in t.children)
        for t in verb.children
    )


def _hedged(verb: Token, asked: tuple[bool, str | None] | None = None) -> bool:
    """Negated ("never started on"), a modal other than ability ("might take up") or a
    condition; against the question's stance (`asked`) when given, where a future modal is
    none ("will bring") and a negation is asked for ("what hasn't she read?")."""
    if grammar.conditional(verb) or any(c.dep_ == "mark" and c.lower_ == "before" for c in verb.children):
        return True  # "if she took up bass trombone", "before she took up bass trombone": she has not
    if asked is None:
        return grammar.negated(verb) or any(c.tag_ == "MD" and c.lower_ not in _ABLE for c in verb.children)
    denied, modal = grammar.stance(verb)
    return denied != asked[0] or modal not in (None, asked[1], *_ABLE)


def _split(text: str, kind: str | None = None) -> list[str]:
    """The items of a listing; the type noun itself ("book" for "what books") is none."""
    parts = (_one_thing(p.strip(" .,'\"")) for p in _SPLIT.split(text))
    generic = {kind, kind + "s"} if kind else set()
    return [
        p for p in parts
        if p and len(p.split()) <= 5 and p.lower().rstrip("s") not in generic and p.split()[0].lower() not in _WH
    ]


def _one_thing(item: str) -> str:
    """An item without its article or owner ("the hard drive" is a hard drive)."""
    lead = _LEAD.match(item)
    return item if lead is None else item[lead.end():]


def _plain(item: str, found: Sequence[str]) -> str:
    """The item found elsewhere that this one is a quality of: "loud bass" beside "bass" is
    the bass again, as "old cello" beside "cello"; with no such item the words stay, a quality
    word often naming the thing itself ("hard drive", "slow cooker", "short story")."""
    words = item.split(" ")
    while len(words) > 1 and words[0].lower() in _QUALITIES:
        words = words[1:]
        bare = " ".join(words)
        same = next((f for f in found if f.lower() == bare.lower()), None)
        if same is not None:
            return same
    return item


def with_kinds(found: Sequence[str], narrower: Sequence[str]) -> list[str]:
    """The items found, each once and at most MAX_ITEMS, with the narrower kinds of them put
    right after the item each narrows while room is left: a kind never leads the list nor
    pushes an item found off it."""
    listed: list[str] = []
    for item in (_plain(f, found) for f in found):
        if item.lower() not in {x.lower() for x in listed}:
            listed.append(item)
    listed = listed[:MAX_ITEMS]
    for kind in narrower:
        if len(listed) >= MAX_ITEMS or kind.lower() in {x.lower() for x in listed}:
            continue
        head = kind.split()[-1].lower()
        at = max((i for i, x in enumerate(listed) if x.split()[-1].lower() == head), default=None)
        if at is not None:
            listed.insert(at + 1, kind)
    return listed


def join(found: Sequence[str]) -> str:
    """"A, B and C", each thing once (case aside), at most a few."""
    seen: dict[str, str] = {}
    for item in found:
        seen.setdefault(item.lower(), item)
    unique = list(seen.values())[:MAX_ITEMS]
    if len(unique) < 2:
        return unique[0] if unique else ""
    return f"{', '.join(unique[:-1])} and {unique[-1]}"


def tells_occasion(sentence: Sentence, entity: str | None, hit: int | None = None) -> bool:
    """A sentence counts as one occasion of the event if it says it happened (not a plan:
    "we'll walk Pepper after lunch") and is said of or by the entity the question is about
    ("walked to the market" says nothing of walking the dog)."""
    if is_question(sentence.text):
        return False
    if hit is not None:  # only the clause holding the event: "went swimming, we'll go again next week"
        low, high = counts.clause_at(sentence.text, hit)
        low = sentence.text.rfind(",", low, hit) + 1 or low  # and within it, the stretch between commas
        comma = sentence.text.find(",", hit, high)
        if FUTURE.search(sentence.text[low:comma if comma >= 0 else high]):
            return False
    elif FUTURE.search(sentence.text):
        return False
    if entity is None or entity in (sentence.owner, sentence.speaker) or mentions(sentence, entity):
        return True
    if any(same_entity(entity, m.entity) for m in sentence.names):
        return True
    return any(may_name(name, entity) for name in (*(m.entity for m in sentence.names), *_PROPER.findall(sentence.text)))


_PROPER = re.compile(r"\b[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)*")
