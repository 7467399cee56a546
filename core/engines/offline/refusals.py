"""Does a cut or a sentence answer the question at all? The refusal rules of the offline
answerer: a question in the chat states nothing, a sentence naming another place or person
than the question's is about something else, a cut opening mid-clause or only a pronoun,
placeholder or time (for a question asking no time) names nothing, and a cut that only
repeats the question's words tells nothing."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime

from memhop.core.engines.offline import captions, grammar
from memhop.core.engines.offline.names import HOLIDAYS
from memhop.core.engines.offline.ranking import AMOUNTS
from memhop.core.engines.offline.rewrite import is_frame
from memhop.core.engines.offline.spans import CURRENCY_SIGNS, PREFERS, TIME_NOUNS, asks_name, type_noun
from memhop.core.language import lexical
from memhop.core.language.chains import same_entity
from memhop.core.language.dates import MONTHS, WEEKDAYS, find_dates
from memhop.core.language.names import name_key, nickname_either
from memhop.core.language.question import FIRST_PERSON, Question, bare
from memhop.core.language.sentences import Sentence

_CALENDAR = (frozenset(m.lower() for m in (*MONTHS, *WEEKDAYS)) | frozenset(m.lower()[:3] for m in MONTHS)
             | frozenset(d + "s" for d in WEEKDAYS))  # "Sundays" is no name


_CONTRAST = re.compile(
    r"\b(?:before|after|besides|except|other than|apart from|instead of|rather than|since|until|not)\s+"
    r"(?:the\s+)?[A-Z][\w'’&-]*(?:\s+[A-Z][\w'’&-]*)*"
)


def other_names(question: Question, chain: Sequence[str], known: Sequence[str], sentences: Sequence[Sentence]) -> list[str]:
    """The names of known entities a question gives besides the one it is about ("what did
    Ines take a trip to Lyon for?": Lyon): a sentence that does not name them is about
    something else. Only names the store knows count ("TV", "Sundays" are no entities), never
    the subject's own names or nicknames, and never for "when": the sentence dating an event
    often says only "there". A name memory never mentions ("Lyon" when only Rome was said)
    counts too, unless it is an abbreviation ("TV"); a common word memory says is no name."""
    if question.wh == "when":
        return []
    about = [name_key(name) for name in (*chain, question.owner or "") if name]
    about_words = {w for key in about for w in key.split()}
    known_words = {w for name in known for w in name_key(name).split()}
    text = _CONTRAST.sub("", question.text)  # "where did Ines work before Brackwood?": not at Brackwood
    said = " ".join(s.text for s in sentences)
    found = []
    for word in re.findall(r"(?<=\s)[A-Z][\w'’&-]*", text):
        key = name_key(bare(word))
        if not key or key in about_words or key in _CALENDAR or key in FIRST_PERSON:
            continue
        if key not in known_words and (word.isupper() or re.search(rf"(?<!\w){re.escape(bare(word))}", said, re.I)):
            continue
        if any(nickname_either(key, w) for w in about_words):
            continue  # "Thad" for Thaddeus is the subject still
        found.append(bare(word))
    return found


def names_all(sentence: Sentence, names: Sequence[str], sentences: Sequence[Sentence]) -> bool:
    """Every name is said by the sentence, by a mention linked to it (a nickname), or by the
    sentence before it said by the same person that day ("back from Lisbon. Bought a scarf there")."""
    day = sentence.when.date() if sentence.when else None
    before = sorted(
        (s for s in sentences
         if (s.when.date() if s.when else None) == day and s.speaker == sentence.speaker and s.origin == sentence.origin),
        key=lambda s: s.when or datetime.min,
    )
    at = next((i for i, s in enumerate(before) if s is sentence), 0)
    near = before[max(0, at - 1):at + 1] or [sentence]
    low = " ".join(s.text for s in near).lower()
    mentioned = [name_key(m.entity) for s in near for m in s.names]

    def said(name: str) -> bool:
        key = name_key(name)
        return bool(re.search(rf"(?<!\w){re.escape(name.lower())}", low)) or any(
            key in m.split() or any(nickname_either(key, w) for w in m.split()) for m in mentioned)
    return all(said(name) for name in names)


# A cut that opens mid-clause ("and getting set", ", or find someone", "is brilliant") or is
# only a pronoun ("yours") names nothing: the words that answer were elsewhere.
_OPENS_MID_CLAUSE = frozenset(
    """and or but nor so yet then because is are was were am be been can could will would should must might
    yours mine hers ours theirs""".split()
)
# Words that stand for a thing without naming it: "something", "cool stuff" answer nothing.
_PLACEHOLDERS = frozenset(
    """something anything everything nothing someone anyone everyone somewhere anywhere everywhere
    stuff things together more""".split()
)
_PRONOUNS = frozenset("it them him her me us you they he she i this that".split())
_PRO_ONE = frozenset("one ones this that these those the a another other same new old".split()) - {""}


# "(before 25 May 2023)", "(as of 3 April 2024)": how the write path dates a fact
STORE_DATE_NOTE = re.compile(r"\s*\((?:on|in|before|after|as of|shortly before|shortly after|since|until|around)\s[^()]*\d{4}\)")


def uncaptioned(short: str, question: Question) -> str:
    """The words of a cut without a photo caption's stray brackets ("... [shares a photo") and
    without its "a photo of" frame: what the picture shows. A picture shows what is there,
    never how or why something was done ("how does Idun use the sextant?" is not answered by
    "a photo of a sextant"), so a caption answers no how or why question."""
    if short.count("[") != short.count("]"):
        short = short.split("[")[0] if "[" in short else short.replace("]", "")
    short = short.strip(" ,;:-")
    shown = captions.DEPICTION.sub("", short)
    if shown != short and question.wh in ("how", "why"):
        return ""
    return shown


def well_formed(short: str, question: Question) -> bool:
    """A cut answer must be a phrase of the kind asked: not opening mid-clause, and not a
    time when the question asks no time ("what does the tattoo mean?" is not "a few years ago")."""
    words = short.split()
    if not words or not (short[0].isalnum() or short[0] in "\"'“‘" or short[0] in CURRENCY_SIGNS):
        return False
    # a cut opening mid-clause starts lower-case: "Will Hart" is a name, "will go" is not
    if words[0].strip("\"'“‘") in _OPENS_MID_CLAUSE or (len(words) == 1 and short.lower() in _PRONOUNS):
        return False
    if len(words) <= 2 and words[-1].strip(".,!") in _PLACEHOLDERS:  # "Stranger Things" is a title
        return False
    if len(words) == 2 and words[0].lower() in _PLACEHOLDERS:  # "something special", "someone new"
        return False
    if question.wh in ("what", "which") and captions.generic_work(short):
        return False  # "their newest piece": what was made, it does not say
    if pro_form(short, question):
        return False
    if is_frame(short):
        return False  # "Nia Holt said": the write path's frame around a quote, not what was said
    if question.wh == "how" and lexical.stem("feel") in question.predicate and not grammar.says_a_feeling(short):
        return False  # "how does Idun feel about the launch?" is not "The launch party is on Friday."
    asks_a_name = asks_name(question) or lexical.stem("name") in question.predicate  # "my father's first name?"
    if asks_a_name and short.lower().replace("’", "'").strip(".!") in HOLIDAYS:
        return False  # "Mother's Day" is no one's name
    asks_time = question.wh in ("when", *AMOUNTS) or question.target in TIME_NOUNS
    return asks_time or not only_a_time(short)


# "What did Muffin break?", "Where does Rook work?": the question's subject, right after its auxiliary.
_SUBJECT_SLOT = re.compile(
    r"^\s*(?i:what|which|who|whom|where|when|why|how(?:\s+\w+)?)\s+(?:[\w-]+\s+)?"
    r"(?i:did|does|do|is|was|has|had|will|would|can|could)\s+([A-Z][\w'’-]*)(?=\s+[a-z])",
)


def unheld_subject(question: Question) -> str | None:
    """The name the question is asked of when no known entity holds it ("What did Muffin
    break?" while Muffin was never stored as anyone): a sentence that does not say it is
    about someone else, however well its verb matches ("Wendell broke his ankle")."""
    if question.owner is not None:
        return None
    found = _SUBJECT_SLOT.match(question.text)
    if found is None or found.group(1).lower() in _CALENDAR | {"i", "you", "we", "they", "he", "she", "it"}:
        return None
    return bare(found.group(1))


# "what does she love most about fencing?": what the answer is about, the noun or gerund after
# "about" past any determiner or owner ("about her new job" -> job)
_ABOUT = re.compile(
    r"\babout\s+(?:(?:the|a|an|his|her|their|my|our|your|its|this|that|[A-Z][\w-]*['’]s?)\s+)*"
    r"(?:[a-z][\w-]*\s+){0,2}?([a-z][\w-]*)(?=\s+(?:with|in|at|for|to|of|on|after|before|during|when|while)\b|\W*$)"
)


def topic(question: Question) -> str | None:
    """The stem of the noun a "what … about X" question asks about: a sentence that never says
    it tells nothing about X ("Wenna loved 'The Salt Road'" is nothing she loves about
    fencing)."""
    if question.wh not in ("what", "which"):
        return None
    m = _ABOUT.search(question.text)
    return lexical.stem(m.group(1)) if m and m.group(1) not in lexical.STOPWORDS else None


def says_word(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w'’-]){re.escape(word)}(?![\w-])", text, re.I) is not None


# Who these stand for is the speaker's or the listener's, which a cut answer does not carry.
_FIRST_PERSON_WORDS = frozenset("i me my mine myself we us our ours ourselves".split())
_SECOND_PERSON_WORDS = frozenset("you your yours yourself yourselves u ur".split())
_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
_THING_PRONOUNS = frozenset("it they them this that these those".split())


def unplaced_person(short: str, sentence: Sentence, asker: str | None) -> bool:
    """A cut in someone's own words ("my own resilience", "I painted it because it was
    calming", "make you feel the same way") says nothing of whom until "I" and "you" are known:
    only the asker's own "I", "my", "we" in what the asker said reads as theirs; a "you" is
    always someone unknown. "US" (the country) and a lower-case "i" in a name are no pronouns.
    Nor does a clause opening with "it", "they" or "this" ("It's a real gift", "They motivate
    Melanie") say what it is about."""
    words = _WORD.findall(short)
    if len(words) > 1 and re.split("['’]", words[0])[0].lower() in _THING_PRONOUNS:
        return True
    for word in words:
        low = re.split("['’]", word)[0].lower()
        if word.isupper() and len(word) > 1 and low == "us":
            continue
        if low in _SECOND_PERSON_WORDS:
            return True
        if low in _FIRST_PERSON_WORDS and (low != "i" or word[0] == "I"):
            if not (asker and sentence.speaker and same_entity(sentence.speaker, asker)):
                return True
    return False


def pro_form(short: str, question: Question) -> bool:
    """"gave me this one", "the same": one of what, the cut does not say (a count may be one)."""
    words = short.split()
    return bool(words) and question.wh not in AMOUNTS and all(w.strip(".,!").lower() in _PRO_ONE for w in words)


def only_a_time(short: str) -> bool:
    mentions = find_dates(short, date(2000, 1, 1))
    said = sum(m.end - m.start for m in mentions)
    return bool(mentions) and said >= 0.8 * len(short.strip(" .,!"))


def echoes(short: str, question: Question, chain: Sequence[str] = ()) -> bool:
    """"Where did Ines work before Brackwood?" is not answered by "Brackwood Labs": a name the
    question itself gives is not its answer; nor, for where/who, an entity the question's
    chain walked through ("where did my cousin's band play?" is not "Tom")."""
    if short.lower() in question.text.lower():
        return True
    if (question.wh in ("where", "who", "whom") or not asks_name(question)) and any(same_entity(short, name) for name in chain):
        return True  # nor, unless a name is asked for, anyone the chain walked ("which cuisine …?" is not "Tom")
    if repeats(short, question):
        return True
    asked = {w.lower() for w in re.findall(r"\b[A-Z][\w'’&-]+", question.text)} - {"what", "which", "who", "where", "when", "how"}
    named = {w.lower() for w in re.findall(r"\b[A-Z][\w'’&-]+", short)}
    return question.wh in ("where", "who", "whom") and bool(named & asked)


# Kinds of entity that never answer "who": a town, or a thing ("who is Ines seeing now?" is
# not answered by "Leeds" from "she'll see if she can get down from Leeds").
_NOT_WHO = frozenset({"place", "thing"})
_WORK_FOR = re.compile(r"\b(?:work(?:s|ed|ing)?\s+for|employ\w*|hire[sd]?|hiring|run(?:s|ning)?|own(?:s|ed)?)\b", re.I)
_PLACE_PREPOSITIONS = r"(?:from|in|at|to|near|into|around|outside|via|through|across|towards?|inside)"


def not_a_person(short: str, question: Question, sentence: str, kinds: Mapping[str, str]) -> bool:
    """A "who" question is answered by someone. A cut naming a known entity the store holds
    as a place or a thing (or an organisation, unless the question asks who someone works
    for or who runs or owns something) is none — when the sentence itself says it as a place,
    after "from", "in", "at" and the like. The store's kind alone is not trusted: a person
    it misfiled as a place still answers where the sentence has them act ("Bertrand painted it")."""
    if question.wh not in ("who", "whom"):
        return False
    kind = kinds.get(short) or next((k for name, k in kinds.items() if same_entity(short, name)), "")
    if kind not in _NOT_WHO and not (kind == "org" and not _WORK_FOR.search(question.text)):
        return False
    said = list(re.finditer(rf"(?<![\w'’]){re.escape(short)}(?![\w'’])", sentence))
    as_place = [m for m in said if re.search(rf"\b{_PLACE_PREPOSITIONS}\s+(?:the\s+)?$", sentence[: m.start()], re.I)]
    return bool(said) and len(as_place) == len(said)


_FAVOURITE = frozenset({"favourite", "favorite", "favourites", "favorites"})
def asked_kind(question: Question) -> str | None:
    """The kind of favourite a question asks for: its type noun ("the favourite cuisine of
    Ines", "which drink does Ines like best") or the verb it likes ("what does Ines like to
    drink most?": drink); None when it asks for no favourite."""
    if not PREFERS.search(question.text):
        return None
    asked = type_noun(question)
    return asked if asked != "name" else None


def another_kind(question: Question, sentence: str) -> bool:
    """The sentence names a favourite of another kind than the one asked ("it's her favourite
    drink" to "what is the favourite cuisine of Ines?", "her favourite cuisine, no contest" to
    "what does Ines like to drink most?"): what it holds is no answer."""
    asked = asked_kind(question)
    if asked is None or not _FAVOURITE.intersection(w.lower() for w in re.findall(r"[a-z]+", sentence, re.I)):
        return False
    kinds = [t.head for t in grammar.parsed(sentence) if t.lower_ in _FAVOURITE and t.dep_ == "amod"]
    said = {lexical.stem(t.lower_) for t in kinds if t.tag_.startswith("NN")}
    return bool(said) and lexical.stem(asked) not in said


def repeats(short: str, question: Question) -> bool:
    """"it's her favourite drink", "Petra said", "got a new car" only repeat the question's
    words (a plain modifier like "new" or "big" added tells nothing); a number the question
    does not hold is news ("2 kids" answers "how many kids")."""
    if set(re.findall(r"\d+", short)) - set(re.findall(r"\d+", question.text)):
        return False
    said = {grammar.term_base(t) for t in lexical.terms(short)}
    return bool(said) and said - _PLAIN <= {grammar.term_base(t) for t in lexical.terms(question.text)}


# Modifiers that tell nothing of which one: "got a new car" to "what kind of car did she get?"
# only repeats the question.
_PLAIN = frozenset(
    grammar.term_base(lexical.stem(w)) for w in "new old big small little nice good great lovely brand own".split()
)

