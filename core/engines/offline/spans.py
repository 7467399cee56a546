"""Cutting a short answer out of the best sentence, by what the question asks for:
"when" -> a date, "where" -> a place, "who" -> a name, "how many" -> a number, "what
instrument does X play" -> the object of "play", otherwise the clause that matched.
"""

from __future__ import annotations

import re
from datetime import date

from memhop.core.engines.offline import counts, dating, doers, forms, grammar, tense
from memhop.core.engines.offline.places import is_place_name
from memhop.core.language import lexical, relations
from memhop.core.language.dates import CLOCK_TIME, COUNT_WORDS, FESTIVALS, WEEKDAYS, find_dates, format_day
from memhop.core.language.numbers import CURRENCY_UNITS, MEASURE_UNITS, QUANTITY_UNITS, SIMPLE_NUMBER, as_digits
from memhop.core.language.question import PLACE_NOUNS, Question, tokens
from memhop.core.language.sentences import Sentence, actor

_NUMBER = re.compile(
    rf"\b(\d+(?:[.,]\d+)?|{SIMPLE_NUMBER}|hundred|a few|several|a couple of|dozens of)\b(?:\s+([a-z]+))?",
    re.I,
)
_COUNT = rf"\d{{1,3}}|{SIMPLE_NUMBER}"  # "forty-one" whole, not "forty"
# "that's 3 in a row", "it's 5": a thing's "'s", no one's age
_NOT_SOMEONE = "".join(rf"(?<!\b{w})" for w in ("that", "it", "there", "this", "what", "here", "let", "who", "which"))
_AGE = re.compile(
    rf"(?:\b(?:is|was|aged|age|turned|turns|turning)\s+|{_NOT_SOMEONE}['’]s\s+)({_COUNT})\b(?!\s*(?:am|pm|:|%))"
    rf"|\b({_COUNT})[\s-]+years?[\s-]+old\b"
    r"|['’]s\s+(\d{1,3})(?:st|nd|rd|th)\b(?!\s+(?:of|floor|time|place|anniversary))",  # "for Ines's 60th"
    re.I,
)
# a capitalised name of up to five words
_PROPER = r"((?:[A-Z][\w'’&.-]*)(?:\s+(?:[A-Z][\w'’&.-]*|&|of|on|upon)){0,4})"
# "ran into Ola", "bumped into Ola": met her, went into no place
_MET_INTO = r"(?<![Bb]umped\s)(?<![Bb]ump\s)(?<![Rr]an\s)(?<![Rr]un\s)into"
_PLACE = re.compile(r"\b(?:at|in|on|from|to|near|" + _MET_INTO + r"|of)\s+(?:the\s+)?" + _PROPER)
# A feast word alone ("at Christmas", "on Easter Sunday", "at Christmas Eve") is a time; one
# that starts a longer capitalised name ("Easter Island", "Midsummer Common") is a place.
_FESTIVAL = re.compile(
    r"\b(?:" + "|".join(FESTIVALS) + r")(?:\s+(?i:eve|day|weekend|" + "|".join(WEEKDAYS) + r"))?\b"
    r"(?!\s+(?-i:[A-Z]))",
    re.I,
)
# "what is it famous for?", "what did she apply for in May?": a preposition whose object is the
# answer, at the end or right before the time or occasion the question adds
STRANDED = re.compile(
    r"\b(for|of|about|with|on|from|by|in|to|at|into)(?:\W*$|\s+(?=(?:on|in|at|during|since|before|after|around|"
    r"last|this|next|yesterday|today|tonight|recently|when|while)\b))",
    re.I,
)
# "Ines left for Lyon": the verb (never the noun "leave") and a place's name right after it.
_DESTINATION = re.compile(r"\b(?i:left|leaving)\s+(for)\s+(?:the\s+)?" + _PROPER)
# "three days left for Lisbon", "the flat was left for Ines": what remains, not who went.
_LEFT_OVER = frozenset(
    """day days week weeks hour hours minute minutes month months year years time money nothing something
    anything much little enough none budget cash one two three four five six seven eight nine ten is was
    are were be been being""".split()
)
# A trip, not a move: "left for Rome for a two-day conference", "left for Lyon for the day".
_TRIP = re.compile(
    r"\b(?:conference|congress|trip|holiday|holidays|vacation|weekend|meeting|visit|tour|wedding|funeral|"
    r"festival|concert|gig|match|seminar|workshop|course|interview|business|break|return|returns|returning|back)\b"
    r"|\bfor\s+(?:the|a|an|one|two|three|four|five|a\s+few|a\s+couple\s+of|several)\s+(?:[\w-]+\s+)?"
    r"(?:day|days|night|nights|week|weeks)\b|\w-(?:day|night|week)\b",
    re.I,
)


def set_off(text: str, start: int) -> re.Match[str] | None:
    """"Ines left for Lyon" at `start`: someone going to a named place, with nothing saying it
    is a trip or what is left over. Weaker than "moved to": it may be a journey."""
    found = _DESTINATION.match(text, start)
    if found is None:
        return None
    before = lexical.words(text[:start])
    if before and (before[-1].lower() in _LEFT_OVER or before[-1].isdigit()):
        return None
    end = re.search(r"[.;!?]", text[found.end() :])
    rest = text[found.end() : found.end() + end.start() if end else len(text)]
    return None if _TRIP.search(rest) else found


# "She starts at North Shore Dermatology on Monday": a start at a named place is a job there
_STARTS_AT = re.compile(r"(?:start|starts|started|starting)\s+(?:work(?:ing)?\s+)?at\s+(?:the\s+)?[A-Z][\w'’&-]*")


def starts_job(text: str, start: int) -> bool:
    """The word at `start` begins "starts (work) at <a name>": someone taking up work there
    ("started at Lakeside Regional"); not a time ("starts at 9"), nor a place with no name."""
    return _STARTS_AT.match(text, start) is not None


_EMPLOYER = re.compile(r"\b(?:for|with)\s+(?:the\s+)?" + _PROPER)
_ROLE_END = (
    r"(?=\s+(?:at|in|for|on|with|up|down|out|near|from|and|who|which|but|so|because|since|"
    r"is|was|has|had|means|pays|last|this|next|yesterday|today|tonight|tomorrow|recently|now)\b|[,.;:!?—–)]|$)"
)
_ROLE = re.compile(
    r"\b(?:works? as|worked as|job as|career as|is|was|['’]s|became|become|being|as)\s+"
    r"(?:(?:now|currently|still|also|[a-z]+ly)\s+)?(?:(?:an?|the)\s+|(?<=job as )|(?<=works as )|(?<=work as )|(?<=worked as ))"
    r"((?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*)" + _ROLE_END  # "got the job as vice principal": no article after "job as"
)
_CALLED = re.compile(r"\b(?:called|named)\s+((?:[A-Z][\w'’&.-]*)(?:\s+[A-Z][\w'’&.-]*){0,4})")
_APPOSED = re.compile(
    r"\b((?:[A-Z][\w'’&.-]*)(?:\s+(?:[A-Z][\w'’&.-]*|&|of))*),\s+(?:(?:the|a|an|his|her|their|our|my|[A-Z]\w*['’]s)\s+)?"
    r"(?:[a-z]+\s+)?$"
)
# Objects of a preposition that only make an idiom ("for a while", "in time"): no answer.
_IDIOMS = frozenset({"while", "a while", "ages", "a bit", "now", "good", "sure", "example", "instance", "time", "real"})
_GLUED_UNIT = re.compile(r"\b(\d+(?:\.\d+)?)(kg|g|lbs?|km|cm|mm|mi|ml)\b", re.I)
# "once or twice a year", "three times a week", "every Sunday", "weekly": how often
_DAYS = "|".join(WEEKDAYS)
_PERIOD = r"(?:day|night|morning|evening|week|weekend|fortnight|month|year|summer|winter|" + _DAYS + ")"
_WEEKDAYS_PLURAL = re.compile(rf"\b(?:{_DAYS})s\b", re.I)
_FREQUENCY = re.compile(
    r"\b(?:(?:once|twice|(?:\w+|\d+)\s+times)(?:\s+or\s+(?:once|twice|(?:\w+|\d+)\s+times))?\s+(?:a|an|per|every)\s+\w+"
    rf"|every\s+(?:other\s+|single\s+|{COUNT_WORDS}\s+)?{_PERIOD}s?"  # "every two weeks", "every few months"
    rf"|(?:on|most)\s+(?:{_DAYS})s|on\s+weekends|most\s+(?:days|weekends|evenings|mornings|nights)"  # "on Tuesdays"
    r"|daily|nightly|weekly|biweekly|fortnightly|monthly|bimonthly|yearly|annually)\b",
    re.I,
)
_LEAD_PREPOSITION = re.compile(r"^(?:on|in)\s+")
_MONTH_NAME = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", re.I)
# "(a few years before 8 February 2023)", "(shortly before 2 May 2024)": the date a dating note
# counts from, not the day it dates; the distance before it is part of the answer. A bare
# "(before 16 June 2023)" is the write path's note of the day a past event was told: that day
# is the answer the store has, as it always was.
_ANCHORED = re.compile(r"\(([^()]*?\w[^()]*?\s(?:before|after)\s+)$", re.I)
COPULA_NOUN = re.compile(
    r"\W*(?:what|which)\s+(?:is|was|are|were)\s+(?:the|my|his|her|their|its|our|[\w-]+['’]s)\s+"
    # "my team called?": team; "my time in the 10K?": time
    r"(?:[\w-]+\s+){0,2}?([a-z]+)(?:\s+of\b|\s+(?:in|at|on|for|during)\s|(?:\s+(?:called|named)(?:\s+now)?)?\W*$)",
    re.I,
)
_STOP = frozenset(
    """for with at in on to from since after before because when while who which that but so if
    than as by about into during until every each this last next yesterday today tonight""".split()
)
_DETERMINERS = frozenset("the a an his her their my our its some this that these those your".split())
_CLAUSE = re.compile(r"\s*(?:;|(?<!\d):|:(?!\d)|[—–]|\s-\s|,\s+(?:but|and|so|which|because)\s)\s*")  # "58:12" is one time
MAX_CLAUSE_WORDS = 25
TIME_NOUNS = frozenset({"year", "date", "day", "month", "time"})  # "in what year ...", "at what time ..."
JOB_WORDS = frozenset({"job", "work", "profession", "occupation", "living", "career", "role"})
_JOB_STEMS = frozenset(lexical.stem(w) for w in JOB_WORDS)
JOB_QUALIFIERS = frozenset(lexical.stem(w) for w in ("current", "present", "new", "day", "main", "usual"))
_WORK_STEMS = _JOB_STEMS - {lexical.stem("living")}  # "for a living" is work, "live" (the same stem) is not


def span(question: Question, sentence: Sentence, hit: int, entity: str | None, loose: bool = True) -> str | None:
    """The short answer inside `sentence`, near the matched word at offset `hit`, if the
    question's type says what to look for and the sentence has it. Not `loose`: only what
    the grammar types (no "whatever words follow the match")."""
    wh = question.wh
    if wh in ("what", "which") and "time" in (question.target, type_noun(question)):  # a clock time (or 58:12), nothing else
        return _nearest([(m.start(), m.group(0)) for m in CLOCK_TIME.finditer(sentence.text)], hit) or None
    if wh == "when" or (wh in ("what", "which") and question.target in TIME_NOUNS):
        found = _date(sentence, hit, tense.of_text(question.text), denied=bool(_DENYING.search(question.text)))
        if question.target == "year" and found:  # "in what year ...": the year alone
            year = re.search(r"\b(?:1[89]|20)\d\d\b", found)
            return year.group(0) if year else None
        return found
    if wh == "where" or (wh in ("what", "which") and asks_place(question)):
        return _place(sentence.text, hit, _trailing_preposition(question.text), employer=_asks_workplace(question),
                      framed=question.text)
    if wh in ("who", "whom"):
        return _person(sentence, hit, entity, question)
    if wh == "how often":
        return _nearest([(m.start(), m.group(0)) for m in _FREQUENCY.finditer(sentence.text)], hit) or None
    if wh == "how many":  # only a count of what the question counts
        return counts.stated(sentence.text, counts.counted_noun(question.text), hit, question.predicate)
    if wh.startswith("how ") and wh != "how often":
        return _number(sentence.text, hit, wh, _amount_kind(question))
    if wh in ("what", "which"):
        if _asks_measure(question):  # "what did the dog weigh?" is "how much did it weigh?"
            return _number(sentence.text, hit, "how much", _amount_kind(question))
        if identity_question(question):
            given = role(sentence.text, current=_asks_current(question))
            return given[0] if given else None
        if asks_class(question):  # "what breed is Juno?": what the sentence says Juno is
            if not _names_a_class(question):
                return None  # "what rank is Dario?": "Dario is Orla's husband" is no rank
            kinds = [p.text for p in grammar.class_of(sentence.text, entity, _kind_word(question))] if entity else []
            if question.target == "breed":  # "their dog Pip" says what Pip is, not which breed
                kinds = [k for k in kinds if k.lower() not in _NO_BREED]
            return kinds[0] if kinds else None
        target = type_noun(question)
        at = _word_at(sentence.text, target, hit) if target else None
        if target and at is not None and asks_name(question) and not _same_kind_of(question, target, sentence.text, at):
            return None  # "what is the chess group called?" is not "our study group was called Night Owls"
        if target and at is not None:
            named = _named_thing(sentence.text, at, target) or grammar.instance_of(sentence.text, at)
            if named and question.target == "names":  # "the girls are named Ottilie and Brann": both
                return _with_coordinated(sentence.text, named)
            if named:  # "a band called X", "the felt mouse, her favourite toy"
                return forms.without_type(named, target)
        stranded = STRANDED.search(question.text)
        if stranded:  # "what is the café famous for?": the object of that preposition
            found_object = grammar.object_of(sentence.text, stranded.group(1).lower(), hit)
            if found_object and found_object.lower() not in _IDIOMS:
                return found_object
        verb = grammar.question_verb(question.text)
        if verb and question.target and grammar.verb_base(verb.lower()) == "play":  # "which sport does Ines play?"
            skip = frozenset(w.lower() for w in re.findall(r"\w+", question.text))
            kept = grammar.played(sentence.text, skip, question.target)
            return kept[0].text if kept else None
        if target and at is None and asks_name(question):
            return None  # "what is my team called?" is not answered by "a horse called Mister Gus"
        if verb:
            skip = frozenset(w.lower() for w in re.findall(r"\w+", question.text))
            found_objects = grammar.complements(sentence.text, verb, skip)
            if found_objects:
                return found_objects[0].text
        return _object(sentence.text, hit) if loose else None
    return None


_MEASURE_VERBS = frozenset({"weigh", "cost", "measure"})


def asks_place(question: Question) -> bool:
    """"Which city", "in what part of town": a place noun is asked for. "Part" names
    a place only with "of" after it: "what part did Ines get in the play?" asks for a
    role."""
    target = question.target
    if target not in PLACE_NOUNS:
        return False
    return target not in _PLACE_ONLY_OF or bool(re.search(rf"\b{target}s?\s+of\b", question.text, re.I))


_PLACE_ONLY_OF = frozenset({"part"})


def _asks_measure(question: Question) -> bool:
    """"What did X weigh?", "what does it cost?": the verb asks for an amount."""
    verb = grammar.question_verb(question.text)
    return question.target is None and verb is not None and grammar.verb_base(verb.lower()) in _MEASURE_VERBS


def _asks_current(question: Question) -> bool:
    return bool(re.search(r"\b(?:now|currently|still|these days|nowadays|current|new|present)\b", question.text, re.I))


# Nouns that ask which class a thing is of ("what breed is Juno?"): what the text says the thing
# is answers them. Another noun ("what rank is Ivo?") asks an attribute: "Ivo is a husband" or
# "a firefighter" is no rank, and such a question gets no class answer.
CLASS_NOUNS = frozenset(
    "breed kind type sort species variety genre brand make model style flavour flavor cut blend strain".split()
)


def asks_class(question: Question) -> bool:
    """"What breed is Juno?", "what kind of bird is Kiwi?": the class a thing belongs to."""
    return bool(
        question.wh in ("what", "which")
        and question.target
        and question.target not in JOB_WORDS
        and question.target not in NAME_NOUNS
        and re.match(r"\W*(?:what|which)\s+(?:(?:kind|type|sort)\s+of\s+)?\w+\s+(?:is|was|are|were)\b", question.text, re.I)
        and not re.search(r"\b(?:in|at|on|from|with|for|of|to|into|by)\W*$", question.text, re.I)  # "what band is Ines in?"
    )


def _names_a_class(question: Question) -> bool:
    return question.target in CLASS_NOUNS or bool(re.search(r"\b(?:kind|type|sort)\s+of\b", question.text, re.I))


NAME_NOUNS = frozenset({"name", "names"})


def _same_kind_of(question: Question, target: str, text: str, at: int) -> bool:
    """The word the question puts before its type noun ("chess" of "the chess group") is the
    one the sentence puts before it, when it puts one there ("study group" is another group)."""
    asked = re.search(rf"(?<![\w'’])([a-z][\w-]*)\s+{re.escape(target)}\b", question.text)  # not the "s" of "Bob's"
    said = re.search(r"(?<![\w'’])([a-z][\w-]*)\s+$", text[:at])
    if asked is None or said is None or asked.group(1).lower() in lexical.STOPWORDS:
        return True
    return said.group(1).lower() in lexical.STOPWORDS or said.group(1).lower() == asked.group(1).lower()


# "what is Ines's dog's name?", "what are her pets' names?": the name of what the possessor owns
_OWNED_NAME = re.compile(r"([a-z][\w-]*)['’]s?\s+(?:(?:first|last|full|middle|nick)\s*)?names?\W*$", re.I)


def asks_name(question: Question) -> bool:
    """"What is the name of ...", "what is X called?", "what is her dog's name?": only a name answers."""
    return question.wh in ("what", "which") and (
        question.target in NAME_NOUNS or bool(re.search(r"\b(?:called|named)\W*(?:now|these days)?\W*$", question.text, re.I))
        or bool(_OWNED_NAME.search(question.text))
    )


def type_noun(question: Question) -> str | None:
    """The noun the answer is an instance of: "what band", "the name of the band" -> band."""
    if question.target in NAME_NOUNS:
        m = re.search(r"\bnames? of (?:the |his |her |their |my )?(?:[\w-]+['’]s )*((?:[a-z][\w-]*\s*){1,3})", question.text)
        return _head(m.group(1).split()) if m else None
    owned = _OWNED_NAME.search(question.text) if question.target is None and question.wh in ("what", "which") else None
    if owned and owned.group(1).islower():  # "what is Ines's dog's name?": a dog's name ("Ines's name" asks none)
        return owned.group(1).lower()
    if question.target is None:  # "what is the favourite drink of Ines?", "what is Ines's usual order?"
        m = COPULA_NOUN.match(question.text)
        if m:
            return m.group(1).lower()
        liked = LIKES_TO.search(question.text) if PREFERS.search(question.text) else None
        return liked.group(1).lower() if liked else None  # "what does Ines like to drink most?": a drink
    return question.target


def _head(words: list[str]) -> str:
    """The head noun of the words after "the name of": the last of the run before a word
    that ends the noun phrase ("the ramen place I ate at" -> place, "the yoga studio" ->
    studio, "the band playing tonight" -> band, "the dog that was adopted" -> dog)."""
    kept = [words[0].lower()]
    for word in words[1:]:
        low = word.lower()
        if low in lexical.STOPWORDS or low.endswith(("ing", "ed")):
            break
        kept.append(low)
    return kept[-1]


PREFERS = re.compile(r"\b(?:favou?rite|most|best)\b", re.I)
LIKES_TO = re.compile(r"\b(?:like|likes|love|loves|prefer|prefers|enjoy|enjoys)\s+to\s+([a-z]+)\b", re.I)


# Animal words of no breed: what "what breed is Pip?" is not answered by.
_NO_BREED = frozenset(
    "dog cat puppy pup kitten kitty pet animal bird fish horse pony rabbit bunny rescue mutt mongrel moggy tomcat".split()
)


def _kind_word(question: Question) -> str | None:
    """The relation the question walked last ("Tomas's cat" -> cat): not an answer to "what breed"."""
    return question.relations[-1].split()[-1] if question.relations else None


def identity_question(question: Question) -> bool:
    """"What does Carol do (for a living)?", "what is Bob's job?" ask for a role."""
    if question.target in JOB_WORDS:
        return True
    asked = set(question.predicate) - JOB_QUALIFIERS  # "the current job of Ines" asks for a job all the same
    if question.wh == "what" and asked and asked <= _JOB_STEMS:
        return True
    return question.wh == "what" and bool(
        re.search(r"\bdo(?:es)?\b.*\bdo(?:\s+for\s+(?:a\s+living|work))?\W*$", question.text, re.I)
    )


_PAST_ROLE = re.compile(
    r"\b(?:was|used to be|worked as|former(?:ly)?|previously|until|no longer|quit|left|leaving|gave up)\b", re.I
)
_FIELD = re.compile(
    r"\b[Ww]ork(?:s|ed)? in\s+(?!(?:the|a|an|his|her|their|my|our)\b)([a-z][\w-]*(?:\s+[a-z][\w-]*)?)(?=[,.;:!?]|$)"
)


def role(text: str, current: bool = False) -> tuple[str, int] | None:
    """The role a sentence gives someone ("works as a sound engineer", "is now a nurse",
    "works in marketing"), and where it starts; `current`: a role the sentence puts in
    the past ("used to be a teacher", "was a chef") only when it gives no other."""
    found = list(_ROLE.finditer(text))
    if current:
        found.sort(key=lambda m: bool(_PAST_ROLE.search(text, max(0, m.start() - 20), m.start(1))))
    if found:
        return found[0].group(1).strip(), found[0].start(1)
    field = _FIELD.search(text)
    return (f"works in {field.group(1)}", field.start()) if field else _trade(text) or _named_role(text)


# "married to a dentist named Teodor": the role of the one named right after it. Not an animal,
# kin, a friend or a plain person word ("a dog called Rex", "a friend named Bo", "a guy called Hal").
# Only after "to", "with" or "by" (someone one is married to, goes out with, is taught by): "plays in a
# band called X", "joined a choir called X" name a group, not a role of X's.
_NAMED_ROLE = re.compile(
    r"\b(?:to|with|by)\s+(?:a|an)\s+((?:[a-z][\w-]*\s+){0,2}?([a-z][\w-]*))\s+(?:named|called)\s+[A-Z][\w'’-]*"
)
_PLAIN_PEOPLE = frozenset("guy man woman girl boy lady bloke chap lad lass kid person fella fellow dude baby".split())


_GIVEN_TO = re.compile(r"\b(?:named|called)\s+([A-Z][\w'’-]*)$")


def role_given_to(text: str, at: int) -> str | None:
    """The name a role read at `at` belongs to when the grammar gave it to a name ("engaged to
    a nurse called Vesna": Vesna), whoever else the sentence is about; None otherwise."""
    given = _GIVEN_TO.search(text[:at])
    return given.group(1) if given else None


def _named_role(text: str) -> tuple[str, int] | None:
    """The role and the end of the name it is given to: the answer is said of that name."""
    for m in _NAMED_ROLE.finditer(text):
        head = m.group(2)
        kin = relations.gender_of(head) or relations.base_word(head) in relations.SYMMETRIC | relations.KIN_ALIASES
        if head not in _PLAIN_PEOPLE and not kin and not relations.is_pet_word(head):  # a dentist, not a friend
            return m.group(1).strip(), m.end()
    return None


# Verbs whose present tense with an object is a living: "teaches chemistry", "coaches
# rowing", "studies law". Not "runs" or "owns": "runs a marathon", "owns two cats" are not jobs.
_TRADE_VERBS = frozenset({"teach", "lecture", "tutor", "coach", "study"})
_TRADE_WORD = re.compile(r"\b(?:teach(?:es)?|lectures?|tutors?|coach(?:es)?|stud(?:y|ies))\b", re.I)


def _trade(text: str) -> tuple[str, int] | None:
    """"Dora teaches chemistry at the high school" -> ("teaches chemistry", its start): the
    verb and its object, said in the present and not denied. No such word, no parse (a plain
    question's answer loads no parser)."""
    if not _TRADE_WORD.search(text):
        return None
    for token in grammar.parsed(text):
        if token.tag_ not in ("VBZ", "VBP") or grammar.verb_base(token.lower_) not in _TRADE_VERBS:
            continue
        if any(c.dep_ == "neg" for c in token.children):
            continue
        taught = next((c for c in token.children if c.dep_ == "dobj" and c.tag_.startswith("NN")), None)
        if taught is not None and taught.i > token.i:
            return text[token.idx : taught.idx + len(taught.text)], token.idx
    return None


def _nearest(found: list[tuple[int, str]], hit: int) -> str | None:
    return min(found, key=lambda f: (abs(f[0] - hit), f[0]))[1] if found else None


# "when didn't she …", "when did he never …": a question asking for a time something did not happen
_DENYING = re.compile(r"n['’]t\b|\b(?:not|never|no longer)\b", re.I)


def _date(sentence: Sentence, hit: int, asked: str | None = None, denied: bool = False) -> str | None:
    """The date nearest the match. A date of a denied act ("didn't go on Monday") is no time
    it happened, unless the question asks when something did not."""
    ref = sentence.when.date() if sentence.when else None
    # read as ingest stores it (dating.resolve); only between two near readings ("the 28th" as a
    # reply) does the question's tense choose. A date left open has no label: no answer.
    side = {tense.PAST: dating.BEHIND, None: None}.get(asked, dating.AHEAD)
    mentions = dating.resolve(sentence.text, ref or date(2000, 1, 1), grammar.parsed(sentence.text), 0, side)
    mentions = [d for d in mentions if (ref is not None or d.explicit) and d.label
                and (denied or not grammar.denies_at(sentence.text, d.start))]
    calendar_dates = [d for d in mentions if _MONTH_NAME.search(d.text) and re.search(r"\d", d.text)]
    # "next Friday (21 June)": the calendar date wins; a date, not a phrase ("July 2023", not "in July 2023")
    usable = [(d.start, _anchored(sentence.text, d.start, d.text)
               or (format_day(d.day) if d.day and d.label.startswith("on ") else _LEAD_PREPOSITION.sub("", d.label)))
              for d in calendar_dates or mentions]
    # A sentence without a time expression dates nothing: "not in tune since the recital",
    # written in May, does not put the recital in May.
    return _nearest(usable, hit) if usable else None


def _anchored(text: str, start: int, said: str) -> str | None:
    """The whole dating note when a date only anchors it: "a few years before 8 February 2023"
    is when the tattoo was got, not 8 February 2023."""
    note = _ANCHORED.search(text[:start])
    return f"{note.group(1)}{said}".strip() if note else None


def _asks_workplace(question: Question) -> bool:
    """"Where does Ines work?": an employer answers it, named after "for" or "with" too."""
    return question.wh == "where" and bool(set(question.predicate) & _WORK_STEMS)


def _place(text: str, hit: int, preposition: str | None = None, employer: bool = False, framed: str = "") -> str | None:
    """The place named after a preposition nearest the match; "where is Ines from?" wants
    the one after "from". "to Tomas's friends" names an owner, not a place. An `employer`
    is asked for: "a nurse for Hollin Care", "a job with Hollin Care" name one. A time is
    no place: "at Christmas", "at Whitsun", or what the recogniser reads as a date. A place
    the question (`framed`) names is where the answer lies, not the answer ("which suburb of
    Lyon": "her place in Lyon, a flat in Croix-Rousse" answers Croix-Rousse)."""
    dates = [(d.start, d.end) for d in find_dates(text, date(2000, 1, 1))]
    dates += [(m.start(), m.end()) for m in _FESTIVAL.finditer(text)]
    dates += [(m.start(), m.end()) for m in _WEEKDAYS_PLURAL.finditer(text)]  # "on Saturdays" is when
    named = [(m.start(1), m.group(1), m.group(0).split()[0].lower())
             for m in (*_PLACE.finditer(text), *(_EMPLOYER.finditer(text) if employer else ()))]
    named += [(m.start(2), m.group(2), "to") for m in _DESTINATION.finditer(text)  # "left for Lyon": gone to Lyon
              if set_off(text, m.start())]
    found = [
        (at, _before_a_date(place, at, dates), preposition)
        for at, place, preposition in named
        if not re.match(r"['’]s\s+[a-z]", text[at + len(place) - 2 :])
        and not any(start <= at < end for start, end in dates)  # "in June" is a time
        and not _names_an_event(text, at, place)
    ]
    asked = set(lexical.words(framed))
    found = [f for f in found if not set(lexical.words(f[1])) <= asked]
    if preposition and any(p == preposition for _, _, p in found):
        found = [f for f in found if f[2] == preposition]
    elif preposition != "from" and any(p != "from" for _, _, p in found):
        found = [f for f in found if f[2] != "from"]  # "moved from Ghent to Lyon": where one is now
    after = [(at, place) for at, place, _ in found if at >= hit]
    return _nearest(after or [(at, place) for at, place, _ in found], hit)


# Nouns of a gathering: "the Cinder fest", "the Harvest parade" name an event, not where it was.
_GATHERINGS = re.compile(
    r"\s+(?:fest|festival|parade|party|concert|gig|show|match|game|rally|march|conference|wedding|"
    r"meetup|event|ceremony|celebration|day|week|weekend)s?\b"
)


def _names_an_event(text: str, at: int, name: str) -> bool:
    """"at the Cinder fest": a name heading a gathering's noun names the gathering, unless the
    name is a known place ("the Glastonbury festival" is at Glastonbury)."""
    return bool(_GATHERINGS.match(text, at + len(name))) and not is_place_name(name)


def _before_a_date(place: str, at: int, dates: list[tuple[int, int]]) -> str:
    """"the Copper Hall on Saturday": the place ends where a date begins."""
    cut = min((start - at for start, _ in dates if at < start < at + len(place)), default=len(place))
    return re.sub(r"\s+(?:on|in|at|of)$", "", place[:cut].rstrip()).rstrip(".,'’")


def _trailing_preposition(text: str) -> str | None:
    m = re.search(r"\b(from|in|at|to)\W*$", text, re.I)
    return m.group(1).lower() if m else None


# "who is the (new) president of …", "who is the best cook in the family?": the role's head noun,
# the last word before "of", "in", "now" or the end
_WHO_IS_THE = re.compile(
    r"^\s*who(?:\s+is|\s+was|['’]s)\s+(?:the|their|his|her|its|our|your)\s+(?:[a-z]+\s+){0,2}?([a-z]+)"
    r"(?=\s+(?:of|in|at|for|on|now|these|nowadays|currently)\b|\W*$)",
    re.I,
)


def asked_role(question: Question) -> str | None:
    """The role "who is the president of the climbing society?" asks for, which the answering
    sentence must say: "joined the climbing society" names a member, not its president."""
    found = _WHO_IS_THE.match(question.text)
    return found.group(1) if found and found.group(1).lower() not in lexical.STOPWORDS else None


def holder_of(text: str, role_word: str) -> str | None:
    """Who a sentence says holds the role: "new president is Wren Aldous", "the president is this
    very intense guy, Callum Reid", "Wren is our new president", "the president, Wren";
    None when it names the role otherwise ("Callum is stepping down as president")."""
    word = re.escape(role_word)
    name = r"([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*)"
    plain = r"(?!(?:in|at|on|from|to|with|for|by|of|near)\b)[a-z][\w'’-]*"  # "this really intense guy,", no place
    for pattern in (
        rf"\b{word}s?\s+(?:is|was|['’]s)\s+(?:now\s+)?(?:{plain}\s+){{0,4}}?(?:{plain},\s*)?{name}",
        rf"{name}\s+(?:is|was|['’]s)\s+(?:now\s+)?(?:the|our|their|his|her|its)\s+(?:new\s+|current\s+)?{word}\b",
        rf"\b{word},\s+{name}",
    ):
        found = re.search(pattern, text)
        if found:
            return found.group(1)
    return None


def _person(sentence: Sentence, hit: int, entity: str | None, question: Question) -> str | None:
    if doers.asks_subject(question.text):  # "who is bringing the tent?": the one said to
        return doers.subject(question.text, sentence, hit)
    role_word = asked_role(question)
    if role_word:  # "who is the president?": who the sentence says is it, or nobody
        return holder_of(sentence.text, role_word)
    doer, _ = actor(sentence, hit)
    asked = {n.lower() for n in (question.owner, entity) if n}
    if doer and doer.lower() not in asked:
        return doer
    others = [m for m in sentence.names if m.entity.lower() not in asked]
    if len({m.entity for m in others}) > 1:  # "a fan of old jazz like Nina Holm, and of new folk like Arlo Finch"
        near = _qualifiers(sentence.text, question, hit)
        if near:
            others.sort(key=lambda m: min(abs(m.start - at) for at in near))
    return others[0].entity if others else None


def _qualifiers(text: str, question: Question, hit: int) -> list[int]:
    """Where the sentence says the question's other words, those that narrow what it asks
    ("in terms of modern music"): offsets of words sharing a stem of the question's predicate
    other than the matched word's own. The one of several names nearest them is the one meant."""
    matched = re.match(r"[\w'’-]+", text[hit:])
    own = lexical.stem(matched.group(0).lower()) if matched else ""
    wanted = {t for t in question.predicate if t != own}
    return [m.start() for m in re.finditer(r"[\w'’-]+", text)
            if m.start() != hit and lexical.stem(m.group(0).lower()) in wanted]


def _number(text: str, hit: int, wh: str, kind: str | None = None) -> str | None:
    """The count, age or duration nearest the match; numbers inside dates do not count.
    `kind` MONEY takes only a price, QUANTITY only a measure (see _amount_kind)."""
    if wh == "how old":
        age = _nearest([(m.start(), m.group(1) or m.group(2) or m.group(3)) for m in _AGE.finditer(text)], hit)
        return as_digits(age) if age else None
    if wh in ("how much", "how far"):  # a measure or a price, by the recogniser: not "quarter past four"
        # "16.2KG", "19.9kg": the recogniser misses a unit written onto its number
        glued = [] if kind == MONEY else [(m.start(), f"{m.group(1)} {m.group(2).lower()}")
                                          for m in _GLUED_UNIT.finditer(text)]
        labels = _LABELS.get(kind or "", grammar.MEASURE_LABELS)
        measures = grammar.entities(text, labels)
        if measures or glued:
            priced = [(m.start, _priced(text, m.start, m.text)) for m in measures if m.start not in dict(glued)]
            return _nearest([*glued, *priced], hit)
    dates = [(d.start, d.end) for d in find_dates(text, date(2000, 1, 1))]
    found = []
    for m in _NUMBER.finditer(text):
        if any(start <= m.start() < end for start, end in dates):
            continue
        unit = m.group(2) or ""
        if text[m.end():m.end() + 1] in ("-", "‐"):
            unit = ""  # "2 second-hand bikes": the word is no unit
        keep = unit and unit.lower() not in _STOP
        count = as_digits(m.group(1))
        amount = _priced(text, m.start(), f"{count} {unit}".strip() if keep else count)
        if wh == "how much" and not _amount_of(kind, unit.lower(), amount[:1] in CURRENCY_SIGNS):
            continue  # "6 Lego sets" counts things: "how much" asks for a price or a measure
        found.append((m.start(), amount))
    if wh == "how long":
        found += [(m.start(), m.group(0)) for m in re.finditer(r"\bsince [^,.;!?]+", text)]
    return _nearest(found, hit)


def _amount_of(kind: str | None, unit: str, signed: bool) -> bool:
    """Whether an amount with this unit (or currency sign) answers a "how much" of `kind`."""
    if kind == MONEY:
        return signed or unit in CURRENCY_UNITS
    if kind == QUANTITY:
        return not signed and unit in QUANTITY_UNITS
    return signed or unit in MEASURE_UNITS


MONEY, QUANTITY = "money", "quantity"
_LABELS = {MONEY: frozenset({"MONEY"}), QUANTITY: grammar.MEASURE_LABELS - {"MONEY"}}
_COST_WORDS = frozenset({"cost", "costs", "pay", "paid", "price", "priced", "worth", "spend", "spent", "charge",
                         "charged", "earn", "earned", "earns", "money", "rent", "fee", "fare", "salary"})


def _amount_kind(question: Question) -> str | None:
    """What a "how much" asks for: MONEY ("how much did the trip cost?", "how much was the
    ferry?"), QUANTITY ("how much water", "what does the dog weigh?"), or None (either)."""
    words = re.findall(r"[\w'’]+", question.text.lower())
    if _COST_WORDS.intersection(words):
        return MONEY
    verb = grammar.question_verb(question.text)
    if verb is not None and grammar.verb_base(verb.lower()) in ("weigh", "measure"):
        return QUANTITY
    after = next((words[i + 2] for i in range(len(words) - 2) if words[i:i + 2] == ["how", "much"]), None)
    if after in grammar.BE:
        return MONEY  # "how much is the rent?": a price
    if after is not None and after not in lexical.STOPWORDS and grammar.verb_base(after) == after:
        return QUANTITY  # "how much water did ...", "how much time"
    return None


def _priced(text: str, start: int, amount: str) -> str:
    """A price keeps the currency sign written before it: "£400", not "400"."""
    sign = text[start - 1] if start > 0 else ""
    return sign + amount if sign in CURRENCY_SIGNS and not amount.startswith(sign) else amount


CURRENCY_SIGNS = frozenset("£$€¥₹")


def _word_at(text: str, word: str, hit: int) -> int | None:
    """Where the sentence says `word` (any inflection), nearest the match."""
    want = lexical.stem(word.lower())
    found = [start for w, start in lexical.positions(text) if lexical.stem(w) == want]
    return min(found, key=lambda f: abs(f - hit)) if found else None


def _named_thing(text: str, hit: int, target: str) -> str | None:
    """"a covers band called The Loose Ends" answers "what band ..."."""
    m = _CALLED.match(text, hit + len(target)) or _CALLED.search(text, hit, hit + 60)
    if m:
        return m.group(1).rstrip(".,;:!?")
    before = _APPOSED.search(text[:hit])  # "Larkspur, Ines's bakery"
    if before:
        return _without_opening_verb(text, before.start(1), before.group(1))
    # "the band Loose Ends", or through a copula: "her favourite show is Stranger Things, she ..."
    after = re.match(r"\w*\s+(?:(?:is|was|are|were)\s+)?((?:[A-Z][\w'’&.-]*)(?:\s+[A-Z][\w'’&.-]*){0,4})", text[hit:])
    return after.group(1).rstrip(".,;:!?") if after else None


_NAME_WORD = r"[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*"
_COORDINATED = re.compile(rf"((?:\s*,\s*{_NAME_WORD})*,?\s+(?:and|&)\s+{_NAME_WORD})")


def _with_coordinated(text: str, named: str) -> str:
    """A name and the names joined to it ("Ottilie and Brann", "Ada, Bea and Cy"), asked for as names."""
    at = text.find(named)
    more = _COORDINATED.match(text, at + len(named)) if at >= 0 else None
    return named + more.group(1) if more else named


def _without_opening_verb(text: str, start: int, name: str) -> str:
    """"Joined Crag & Cup, the bouldering gym": a line's first word is capitalised for being
    first, and a verb that opens it is no part of the name."""
    first, _, rest = name.partition(" ")
    opening = not text[:start].strip() or text[:start].rstrip().endswith((":", ".", "!", "?"))
    low = first.lower()
    if opening and rest and low.endswith("ed") and grammar.verb_base(low) != low and rest[:1].isupper():
        return rest  # a past tense ("joined" of "join"), not "Reading Rovers" or "James Street"
    return name


def _object(text: str, hit: int) -> str | None:
    """The noun phrase after the matched verb: "played the piano for us" -> "piano"."""
    after = [t for t in tokens(text) if t.start() > hit]
    if not after:
        return None
    words: list[str] = []
    for tok in after:
        word = tok.group(0)
        low = word.lower()
        if not words and low in _DETERMINERS:
            continue
        if low in _STOP or low.endswith("ly") or word in ".;:!?—–()\"":
            break
        words.append(word)
        if len(words) >= 6:
            break
    while words and words[-1].lower() in (",", "and", "or"):
        words.pop()
    verb = re.match(r"[\w'’]+", text[hit:])
    if words and verb and grammar.one_act(verb.group(0), words[0]):
        return None  # "taking a shot at running a stall" takes no shot
    phrase = " ".join(words).replace(" ,", ",")
    return phrase or None


def clause(text: str, hit: int) -> str:
    """The part of the sentence around the match: between clause marks, at most a few words."""
    pos = 0
    for piece in _CLAUSE.split(text):
        start = text.find(piece, pos)
        if start <= hit < start + len(piece) + 1:
            return _trim(piece)
        pos = max(pos, start)
    return _trim(text)


def _trim(text: str) -> str:
    words = text.strip().split()
    cut = " ".join(words[:MAX_CLAUSE_WORDS]) + ("…" if len(words) > MAX_CLAUSE_WORDS else "")
    return cut.rstrip(" ,;")

