"""The parser's view of one answer sentence: what a verb's object is, what class a name is
given, which spans are people, places, organisations or amounts.

The offline answerer reads a question's supporting sentences with spaCy's dependency parser
and entity recogniser (the engine's pipeline, loaded on first use), so an answer is the
grammatical complement the question asks for ("gave him *the framed print*", "named it
*Juno*") rather than whatever words follow the matched one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from memhop.core.language import lexical

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from spacy.tokens import Doc, Token

# Complements of a verb, best first: "named it Juno" (oprd), "gave him a print" (dobj),
# "is a vet" (attr), "gave him a print" (dative: the receiver, never the answer's first pick).
_COMPLEMENTS = ("oprd", "dobj", "attr", "xcomp", "acomp", "dative")
_CUT = frozenset({"relcl", "advcl", "punct", "cc", "prep", "appos", "acl", "advmod", "npadvmod"})  # not part of the thing
_POSSESSIVES = frozenset({"his", "her", "their", "my", "our", "your", "its"})
# Nouns that hold or portion out what is asked about: "a tray of flapjack" is flapjack.
_CONTAINERS = frozenset(
    "tray tub box bag bottle jar pot plate bowl cup glass mug tin packet pack carton basket crate batch "
    "slice piece loaf portion serving handful bunch bucket dish flask".split()
)
_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "some"})
MEASURE_LABELS = frozenset({"QUANTITY", "MONEY", "PERCENT"})
_VOWEL = re.compile(r"[aeiouy]")
_REGULAR = (("ied", "y"), ("ies", "y"), ("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e"), ("es", ""), ("s", ""))
_SIBILANT_ES = ("sses", "zzes", "ches", "shes", "xes")  # "-es" after these is the ending: "watches", "passes"


def term_base(term: str) -> str:
    """A term and its verb's other forms alike: "said" and "say"."""
    return lexical.stem(verb_base(term))


@dataclass(frozen=True)
class Piece:
    """A span of a sentence the answer may be: its text, where it starts, what it is."""

    text: str
    start: int
    kind: str  # "thing" (a complement), "class", or a spaCy entity label


@lru_cache(maxsize=4096)
def parsed(text: str) -> Doc:
    """One sentence (or question) tagged and parsed; the recogniser, the costliest pipe, is
    left to `entities`, which few questions need (and is not even loaded until one does)."""
    from memhop.core.engines.offline.nlp import load_nlp

    return load_nlp(ner=False)(text, disable=["ner"])


@lru_cache(maxsize=1024)
def _recognised(text: str) -> Doc:
    from memhop.core.engines.offline.nlp import load_nlp

    return load_nlp()(text)


CONDITIONS = frozenset({"if", "unless", "whether"})  # "if she fixed the sink" says she has not


def negated(verb: Token) -> bool:
    """"didn't go", "never went", "is no longer at": the verb is denied."""
    return any(child.dep_ == "neg" or (child.dep_ == "advmod" and any(c.dep_ == "neg" for c in child.children))
               for child in verb.children)  # "no longer": the advmod's own negation


# Verbs whose denial affirms what follows: "can't wait for the fair on 14 March", "don't forget
# the party on Friday", "won't miss the match on Sunday", "can't believe we met on 3 May".
_AFFIRMING_DENIALS = frozenset({"wait", "forget", "miss", "believe", "stop", "help", "doubt", "deny"})


def denies_at(text: str, at: int) -> bool:
    """Whether the verb governing the word at offset `at` is denied: "didn't go on Monday",
    "the ferry didn't sail on Tuesday", "never made it to the lake last summer"."""
    doc = parsed(text)
    token = next((t for t in doc if t.idx <= at < t.idx + len(t.text)), None)
    while token is not None and not token.tag_.startswith("VB"):
        token = None if token.head.i == token.i else token.head
    return token is not None and negated(token) and verb_base(token.text.lower()) not in _AFFIRMING_DENIALS


def conditional(verb: Token) -> bool:
    """The verb's clause is put as a condition ("if we go", "unless she calls")."""
    return any(c.dep_ == "mark" and c.lower_ in CONDITIONS for c in verb.children)


# Modals that only put a statement in the future ("Maud will bring it"); any other ("might",
# "can't", "could") says what may happen, not what did. Contractions as spaCy splits them.
_FUTURE = frozenset({"will", "wo", "'ll", "’ll", "would", "'d", "’d", "shall", "sha"})
_MODAL_BASE = {"ca": "can", "wo": "will", "sha": "shall"}
BE = frozenset({"is", "was", "are", "were", "'s", "’s"})  # the copula, past and present, as spaCy splits it
# Modifiers that pick one thing out of its kind: "her favourite toy is …" says which toy,
# "the dog is a menace" only what the dog is like.
_PICKING = frozenset("favourite favorite best first last latest newest current main only usual".split())
_PRESENT_BE = frozenset({"is", "are", "am", "'s", "'re", "'m", "’s", "’re", "’m"})
# Verbs whose complement happened if they did ("managed to paint", "remembered to buy", "keeps
# playing", "finished painting"), or is done by liking it ("loves playing"). "wanted to",
# "agreed to", "refused to", "was going to" say nothing of whether it was done.
_CARRIED = frozenset({"manage", "get", "remember", "finish", "start", "begin", "keep", "love", "like", "enjoy", "adore"})


def stance(verb: Token | None) -> tuple[bool, str | None]:
    """Whether a verb is denied ("didn't", "never", "no longer") and the modal it is under,
    a future one counting as none: a clause answers only in the question's stance ("who
    hasn't paid?" is answered by "Piet hasn't paid")."""
    if verb is None:
        return False, None
    modal = None
    for child in verb.children:
        if child.tag_ == "MD" and child.lower_ not in _FUTURE:
            modal = _MODAL_BASE.get(child.lower_, child.lower_)
    return negated(verb), modal


def carries(head: Token, past: bool = False) -> bool:
    """The verb a complement hangs from says the complement's act happens or happened:
    "managed to", "kept", "remembered to", "loves"; "is going to" puts it in the future, as
    "will" does; "used to" says it was a habit, so only for a question asked in the past
    (`past`): "used to play the tuba" answers "what did she play?", not "what does she play?"."""
    if not head.tag_.startswith("VB"):
        return False
    base = verb_base(head.text)
    if base in _CARRIED:  # but "would love to play", "'d like to play": a wish
        return not any(c.tag_ == "MD" and c.lower_ not in ("will", "wo", "'ll", "’ll") for c in head.children)
    if base == "go" and head.tag_ == "VBG":  # "is going to bring", not "was going to bring"
        return any(c.dep_ == "aux" and c.lower_ in _PRESENT_BE for c in head.children)
    return past and head.lower_ == "used" and head.tag_ == "VBD"


def asked_in_past(verb: Token) -> bool:
    """A question's verb asks about the past: "who played it?", "what did she play?",
    "what has she played?"."""
    return verb.tag_ in ("VBD", "VBN") or any(
        c.dep_ == "aux" and c.lower_ in ("did", "has", "have", "had") for c in verb.children)


@lru_cache(maxsize=65536)
def verb_base(word: str) -> str:
    """The bare verb: "gave" -> "give", "named" -> "name", "plays" -> "play". A third-person
    form has its plain verb's base ("lives" and "live", "watches" and "watch"), so a question's
    verb is found in a sentence saying it of someone."""
    from memhop.core.engines.offline.nlp import irregular_verbs, is_english_word, verb_lemmas

    low = word.lower()
    irregular = irregular_verbs().get(low)
    if irregular:
        return irregular
    plain = _plain_verb(low)
    if plain is not None:
        return plain  # a WordNet verb: stripping it again made "needs" "ne"
    if low in verb_lemmas():
        return low  # "need", "pass": no "-ed" or "-s" ending to strip
    for end, add in _REGULAR:
        if low.endswith(end) and len(low) - len(end) >= 2:
            base = low[: -len(end)] + add
            if len(base) > 3 and base[-1] == base[-2] and add == "":
                base = base[:-1]  # "stopped" -> "stop"
            if is_english_word(base) and _VOWEL.search(base):  # "bring" is no "br", "string" no "str"
                return base
    return low


def _plain_verb(low: str) -> str | None:
    """The verb (WordNet's) a third-person "-s" form is of, None for a word that is no such
    form (a verb already, or no verb's): "watches" is "watch" + "es" but "lives" "live" + "s",
    "studies" "study", "goes" "go"."""
    from memhop.core.engines.offline.nlp import verb_lemmas

    verbs = verb_lemmas()
    if not low.endswith("s") or low in verbs:
        return None
    bases = [low[:-3] + "y"] if low.endswith("ies") and len(low) > 4 else []  # "studies"; "dies" is "die" + "s"
    if low.endswith(_SIBILANT_ES):
        bases.append(low[:-2])
    bases.append(low[:-1])
    if low.endswith("es"):
        bases.append(low[:-2])  # "goes", "focuses"
    return next((base for base in bases if base in verbs), None)


@dataclass(frozen=True)
class Frame:
    """What a question's main verb is and which words already fill its slots."""

    verb: str | None  # bare form: "give"
    subject: str | None  # as written: "I", "Alice"
    filled: frozenset[str]  # lower-case words of the slots the question itself fills


@lru_cache(maxsize=1024)
def question_verb(question: str) -> str | None:
    """The question's main verb, bare ("give"), or None (a copula question): read by rules
    when the question has a plain shape, so the parser is not loaded for it, else by `frame`.
    Cached: the answerer asks for it once per candidate sentence."""
    from memhop.core.engines.offline import question_verb as rules

    ruled = rules.read(question)
    return ruled.verb if ruled is not None else frame(question).verb


def root(doc: Iterable[Token]) -> Token | None:
    """The parse's main word (its first, for a text of several sentences)."""
    return next((t for t in doc if t.dep_ == "ROOT"), None)


def frame(question: str) -> Frame:
    doc = parsed(question)
    head = root(doc)
    if head is None:
        return Frame(None, None, frozenset())
    # "does ... play?" is a verb even when the tagger, unused to questions, calls it a noun
    verbal = head.tag_.startswith("VB") or any(c.dep_ == "aux" and c.lower_ in ("do", "does", "did") for c in head.children)
    verb = head if verbal and head.lower_ not in ("is", "was", "are", "were", "be") else None
    verb = _done(head) or verb
    subject = next((c.text for c in head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    filled = frozenset(
        t.lower_ for c in head.children if c.dep_ in ("dobj", "dative", "nsubj", "attr") and c.tag_ not in ("WP", "WDT")
        for t in c.subtree
    )
    return Frame(verb_base(verb.text) if verb is not None else None, subject, filled)


def _done(head: Token) -> Token | None:
    """The verb the parser took for the object of an auxiliary "did" it made the root: in
    "how many times did Kit Vane win?" it reads "win" as a noun "did" does. Only a bare word
    after the root (no article, no verb of its own under "did") that is a known verb."""
    from memhop.core.engines.offline.nlp import verb_lemmas

    if head.lower_ not in ("do", "does", "did") or any(c.dep_ == "aux" for c in head.children):
        return None
    return next((  # as its object, or as its subject when nothing follows ("did Kit Vane win?")
        c for c in head.children if c.dep_ in ("dobj", "attr", "nsubj") and c.i > head.i and c.text.islower()
        and c.tag_ in ("NN", "VB", "VBP") and not any(d.dep_ in ("det", "poss", "amod", "nummod") for d in c.children)
        and c.lower_ in verb_lemmas()
    ), None)


def verbless(text: str) -> bool:
    """A note with no verb at all ("Tin Owls at the Copper Hall last night."): what it says
    its subject did is left out, so any verb may be read into it."""
    return not any(t.tag_.startswith("VB") or t.tag_ == "MD" for t in parsed(text))


def complements(text: str, verb: str, skip: frozenset[str], said: Callable[[Token], bool] | None = None) -> list[Piece]:
    """What the sentence's `verb` takes as its object or complement, best first; a pronoun
    or a slot the question already fills (`skip`, lower-case words) is not an answer, nor is
    anything of a use of the verb that `said` (when given) rejects ("never plays the oboe")."""
    if not _may_hold_verb(text, verb):
        return []  # no word of the sentence is a form of the verb: nothing to parse for
    doc = parsed(text)
    found: list[tuple[int, Piece]] = []
    for token in doc:
        if not token.tag_.startswith("VB") or verb_base(token.text) != verb or (said is not None and not said(token)):
            continue
        for child in token.children:
            if child.dep_ not in _COMPLEMENTS or child.tag_ in ("PRP", "WP", "WDT", "EX"):
                continue
            if child.lower_ in skip:
                continue
            if _supports(token, child):  # "took a shot at running a stall": no shot, but a stall tried
                tried = _tried(token, child)
                if tried is not None:
                    found.append((_COMPLEMENTS.index(child.dep_), tried))
                continue
            phrase = _phrase(child)
            if phrase is not None:
                found.append((_COMPLEMENTS.index(child.dep_), phrase))
    return [p for _, p in sorted(found, key=lambda f: f[0])]


# Verbs that lend their meaning to their object's noun ("take a shot at", "take control of",
# "have a go at", "make a start on"): the noun says what is done, the verb almost nothing.
_LIGHT_VERBS = frozenset({"take", "make", "have", "give", "get", "do"})
# The nouns such a verb makes one act of (support-verb constructions): no thing taken or made.
_SUPPORT_NOUNS = frozenset(
    """shot go stab crack look glance peek break rest nap breather care charge control hold advantage notice
    pride interest part chance risk step stand start attempt try effort decision turn leap plunge
    dive toll""".split()
)


def _supports(verb: Token, noun: Token) -> bool:
    return one_act(verb.text, noun.text)


# Support nouns of trying: "take a shot at", "have a go at", "make an attempt at" X is to try X.
_TRIES = frozenset({"shot", "go", "stab", "crack", "attempt", "try"})


def _tried(verb: Token, noun: Token) -> Piece | None:
    """What "took a shot at" / "had a go at" tries: the object of its "at", whether the parser
    hung the "at" on the noun or on the verb. Only a trying said as done or under way: "gonna
    take a shot at starting a business" (under another verb) or "might have a go at" tries
    nothing yet."""
    if noun.lower_ not in _TRIES or verb.dep_ == "xcomp" or any(c.tag_ == "MD" for c in verb.children):
        return None
    at = next((c for c in (*noun.children, *verb.children) if c.dep_ == "prep" and c.lower_ == "at"), None)
    held = next((c for c in at.children if c.dep_ in ("pobj", "pcomp")), None) if at is not None else None
    if held is None:
        return None
    if held.dep_ == "pobj":
        return _phrase(held)
    tried = held.doc[held.left_edge.i : held.right_edge.i + 1]  # "running a food stall"
    return Piece(tried.text.strip(" ,;:"), tried.start_char, "thing")


def one_act(verb: str, noun: str) -> bool:
    """The object of a light verb is no thing taken or made when it is one act of it: "take a
    shot at starting a business", "took control of my destiny", "taking a risk"; "took a job at
    the bakery" and "took a photo" are taken."""
    return verb_base(verb.lower()) in _LIGHT_VERBS and noun.lower() in _SUPPORT_NOUNS


# What "play" with no article takes: "plays squash", "play chess". "Play the X" is an
# instrument or a part ("plays the cello", "played the villain"), never a sport or game.
BARE_PLAY = frozenset({"sport", "game"})


# What is played that is no instrument: a piece of music, a part of one, a show.
_PIECES = frozenset(
    """piece minuet sonata sonatina nocturne etude étude prelude fugue concerto symphony waltz march lullaby song tune
    hymn carol anthem ballad aria scale chord solo duet trio quartet number track set gig encore melody riff
    part role game match round""".split()
)


# Games and sports, played with no article like an instrument ("plays badminton", "plays piano"),
# which no question about an instrument or a part is answered by.
_GAMES = frozenset(
    """tennis badminton football soccer rugby cricket golf chess squash hockey basketball volleyball netball
    baseball softball darts pool snooker billiards poker bridge cards frisbee padel pickleball croquet bowls
    lacrosse handball polo ping-pong scrabble monopoly mahjong backgammon dominoes checkers draughts""".split()
)


def played(text: str, skip: frozenset[str], asked: str, said: Callable[[Token], bool] | None = None) -> list[Piece]:
    """What the sentence says is played, of the kind `asked` (the question's type noun:
    "which sport", "what instrument"). A capitalised object is a piece, a part or an opponent
    ("played Greensleeves on the oboe"), neither instrument nor sport. Unless a sport or game is
    asked, the common noun after "on" is what was played on, whatever was played ("a lullaby on
    the cello"). For a sport or a game an object with an article or owner ("plays the cello",
    "her violin") is none; nor is anything of a use of "play" that `said` (when given) rejects."""
    if not _may_hold_verb(text, "play"):
        return []
    found: list[Piece] = []
    for token in parsed(text):
        if not token.tag_.startswith("VB") or verb_base(token.text) != "play" or (said is not None and not said(token)):
            continue
        # "on" hangs from the verb or, as the parser often has it, from what was played
        objects = [c for c in token.children if c.dep_ == "dobj"]
        on = next((c for w in (token, *objects) for c in w.children if c.dep_ == "prep" and c.lower_ == "on"), None)
        held = next((c for c in on.children if c.dep_ == "pobj"), None) if on is not None else None
        if held is not None and (held.tag_ not in ("NN", "NNS") or not held.text.islower() or held.lower_.rstrip("s") in _PIECES):
            held = None  # "played my accordion on one song": a piece is no instrument played on
        for child in token.children:
            if child.dep_ != "dobj" or child.tag_ in ("PRP", "WP", "WDT", "EX") or child.lower_ in skip:
                continue
            if asked not in BARE_PLAY and held is not None:  # "played us a lullaby on the cello": the cello
                phrase = _phrase(held)
                found += [phrase] if phrase else []
                continue
            if child.text[:1].isupper():  # the writer's capital, not the tagger's NNP ("playing the tuba")
                continue  # a piece, a part or an opponent
            if asked not in BARE_PLAY and (child.lower_.rstrip("s") in _PIECES or child.lower_ in _GAMES):
                continue  # "played a Bach minuet", "plays badminton": a piece or a game, no instrument
            if asked in BARE_PLAY and any(c.dep_ in ("det", "poss") and c.lower_ not in ("no", "any") for c in child.children):
                continue
            phrase = _phrase(child)
            found += [phrase] if phrase else []
    return found


def _may_hold_verb(text: str, verb: str) -> bool:
    """False only when no word of `text` can have `verb` as its `verb_base`: a regular form
    starts with the verb less its last letter ("liked", "liking", "tried"), an irregular
    one is among the lemmatizer's forms ("gave")."""
    low = text.lower()
    return verb[:-1] in low or any(form in low for form in _irregular_forms().get(verb, ()))


@lru_cache(maxsize=1)
def _irregular_forms() -> dict[str, list[str]]:
    """"give" -> ["gave", "given", ...]: the irregular verb forms by their base."""
    from memhop.core.engines.offline.nlp import irregular_verbs

    forms: dict[str, list[str]] = {}
    for form, base in irregular_verbs().items():
        forms.setdefault(base, []).append(form)
    return forms


def _phrase(head: Token) -> Piece | None:
    """The noun phrase a head word stands for, without relative clauses and trailing asides;
    for "a tray of figs and a jar of honey", what the containers hold: "figs and honey"."""
    heads = [head, *(c for c in head.children if c.dep_ == "conj")]
    held = [_contents(h) for h in heads]
    if any(h is not c for h, c in zip(heads, held)):
        parts = [p.text for p in map(_whole, held) if p]
        if not parts:
            return None
        joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + f" {_joiner(head)} " + parts[-1]
        return Piece(joined, held[0].idx, "thing")
    return _whole(head)


def _contents(noun: Token) -> Token:
    """What a container or portion noun holds: "a tray of figs" -> figs; any other noun itself."""
    low = noun.lower_
    if not {low, low.removesuffix("s"), low.removesuffix("es")} & _CONTAINERS:  # the lemmatizer is not run
        return noun
    of = next((c for c in noun.children if c.dep_ == "prep" and c.lower_ == "of"), None)
    held = next((c for c in of.children if c.dep_ == "pobj"), None) if of is not None else None
    return held if held is not None and held.tag_.startswith("NN") else noun


def _joiner(head: Token) -> str:
    return next((c.lower_ for c in head.children if c.dep_ == "cc"), "and")


def _whole(head: Token) -> Piece | None:
    keep = [head]
    stack = [c for c in head.children if c.dep_ not in _CUT]
    while stack:
        token = stack.pop()
        keep.append(token)
        stack.extend(c for c in token.children if c.dep_ not in _CUT or token.dep_ == "conj")
    keep += [c for c in head.children if c.dep_ == "conj"]
    keep += [t for c in head.children if c.dep_ == "conj" for t in c.subtree if t.dep_ != "punct"]
    keep += [c for c in head.children if c.dep_ == "cc"]
    tokens = sorted({t.i: t for t in keep}.values(), key=lambda t: t.i)
    while tokens and tokens[0].lower_ in _DETERMINERS:
        tokens = tokens[1:]
    if not tokens:
        return None
    doc = head.doc
    span = doc[tokens[0].i : tokens[-1].i + 1]
    return Piece(span.text.strip(" ,;:"), span.start_char, "thing")


# Nouns and verbs that name a feeling where no adjective does ("in awe", "loves it").
_FEELING_WORDS = frozenset(
    """awe joy pride relief gratitude love hate dread fear delight excitement happiness sadness anger
    loved hated adored enjoyed dreaded feared appreciated""".split()
)


def says_a_feeling(text: str) -> bool:
    """Whether a cut says how someone feels: a predicative adjective or participle ("was
    amazing", "felt so proud", "I'm thrilled", a bare "So excited!") or a feeling word ("in
    awe", "loved it"). "The opening night is tomorrow" says when, not how anyone feels."""
    for token in parsed(text):
        if token.dep_ in ("acomp", "oprd") or (token.dep_ == "ROOT" and token.tag_ == "JJ"):
            return True
        if (token.tag_ == "VBN" and token.dep_ in ("acomp", "ROOT")) or token.lower_ in _FEELING_WORDS:
            return True
    return False


def instance_of(text: str, at: int) -> str | None:
    """The thing a type noun at offset `at` is said of: "the felt mouse, her favourite toy"
    -> felt mouse; "she ordered lemonade, her favourite drink" -> lemonade; "her favourite
    toy is a knitted owl" -> knitted owl."""
    doc = parsed(text)
    noun = next((t for t in doc if t.idx == at), None)
    if noun is None or not noun.tag_.startswith("NN"):
        return None
    if noun.dep_ == "appos" and noun.head.tag_.startswith("NN") and noun.head.i < noun.i:
        phrase = _phrase(noun.head)
        return phrase.text if phrase else None
    copula = noun.head
    picked_out = any(c.lower_ in _PICKING for c in noun.children)  # "the dog is a menace" says no which
    if noun.dep_ == "nsubj" and picked_out and copula.lower_ in BE and not negated(copula):  # "her favourite toy is …"
        said = next((c for c in copula.children if c.dep_ == "attr" and c.tag_.startswith("NN")), None)
        phrase = _phrase(said) if said is not None else None
        return phrase.text if phrase else None
    if noun.dep_ == "attr" and any(c.dep_ == "nsubj" and c.lower_ in ("it", "that", "this") for c in copula.children):
        # "she ordered lemonade - it's her favourite drink": what "it" stands for, just before;
        # a thing done or named (object, or a verbless "Made blini") before one a preposition
        # only places ("Made blini for Idun since it's her favourite dish")
        earlier = [t for t in doc[: copula.i] if t.tag_.startswith("NN")]
        salient = [t for t in earlier if t.dep_ in ("dobj", "attr", "ROOT")] or [t for t in earlier if t.dep_ == "pobj"]
        phrase = _phrase(salient[-1]) if salient else None
        return phrase.text if phrase else None
    return None


def object_of(text: str, preposition: str, after: int) -> str | None:
    """"famous for its rare maps" answers "what is X famous for?": the object of the
    preposition the question leaves stranded, first after offset `after`."""
    if preposition not in text[after:].lower():
        return None  # not said after that point: nothing to parse for
    for token in parsed(text):
        if token.lower_ == preposition and token.idx >= after:
            objects = [c for c in token.children if c.dep_ == "pobj"]
            phrase = _phrase(objects[0]) if objects else None
            if phrase:
                return _without_owner(phrase.text) or phrase.text
    return None


def class_of(text: str, name: str, kind_word: str | None) -> list[Piece]:
    """What the sentence says `name` is: "Juno is a lurcher" -> lurcher, "her lurcher Juno"
    -> lurcher. `kind_word` (the relation the question walked, "dog") is not a class."""
    first = name.split()[0].lower()
    if first not in text.lower():
        return []  # the name is not in the sentence: nothing to parse for
    doc = parsed(text)
    found: list[Piece] = []
    for token in doc:
        if token.lower_ != first:
            continue
        head = token.head
        if token.dep_ in ("nsubj", "nsubjpass") and head.lower_ in ("is", "was", "'s"):
            for attr in (c for c in head.children if c.dep_ == "attr" and c.tag_.startswith("NN")):
                phrase = _phrase(attr)
                if phrase and not _generic(phrase.text, kind_word):
                    found.append(Piece(_without_owner(phrase.text), phrase.start, "class"))
        for appos in (c for c in token.children if c.dep_ == "appos" and c.tag_ in ("NN", "NNS")):
            found += _noun_before(doc, appos, kind_word)  # "Juno, my aunt's lurcher"
        if token.dep_ == "appos" and head.tag_.startswith("NN") and head.text.islower() and head.i < token.i:
            found += _noun_before(doc, head, kind_word)  # "her lurcher, Juno"
        previous = doc[token.i - 1] if token.i > 0 else None
        if previous is not None and _class_noun(doc, previous, token):
            found += _noun_before(doc, previous, kind_word)
    for token in doc:  # "Juno is Sam's lurcher": the noun after a copula whose subject is the name
        if token.dep_ == "attr" and token.tag_.startswith("NN") and any(
            c.dep_ == "nsubj" and c.lower_ == first for c in token.head.children
        ):
            phrase = _phrase(token)
            if phrase and not _generic(phrase.text, kind_word) and all(p.text != phrase.text for p in found):
                found.append(Piece(_without_owner(phrase.text), phrase.start, "class"))
    return found


def _class_noun(doc: Doc, noun: Token, name: Token) -> bool:
    """"her greyhound Pepper", "Sam's lurcher Juno": a common noun owned or determined,
    right before the name it classes."""
    before = doc[noun.i - 1] if noun.i > 0 else None
    return (
        noun.text.islower()
        and noun.tag_.startswith("NN")
        and noun.head.i == name.i
        and before is not None
        and (before.lower_ in _POSSESSIVES | _DETERMINERS or before.tag_ == "POS" or before.dep_ in ("amod", "compound"))
    )


def _noun_before(doc: Doc, noun: Token, kind_word: str | None) -> list[Piece]:
    words = [t for t in noun.subtree if t.i <= noun.i and t.dep_ in ("compound", "amod") or t.i == noun.i]
    span = doc[min(t.i for t in words) : noun.i + 1]
    text = _without_owner(span.text)
    return [] if _generic(text, kind_word) else [Piece(text, span.start_char, "class")]


def _without_owner(text: str) -> str:
    """"Sam's lurcher" -> "lurcher"."""
    words = text.split()
    owned = [i for i, w in enumerate(words) if w.endswith(("'s", "’s", "s'")) or w.lower() in _POSSESSIVES]
    return " ".join(words[owned[-1] + 1 :] if owned else words)


def _generic(text: str, kind_word: str | None) -> bool:
    """A class that only repeats what the question already knows ("a dog") says nothing."""
    words = _without_owner(text).lower().split()
    return not words or (kind_word is not None and words[-1].rstrip("s") == kind_word.rstrip("s")) or words[-1] in (
        "one", "thing", "person", "name"
    ) or words[-1] in EVALUATIVE


# Nouns that judge rather than class: "Juno is a menace", "a legend", "a good boy" say what
# one thinks of Juno, never its breed or kind.
EVALUATIVE = frozenset(
    """menace legend star nightmare angel darling sweetheart gem treasure pest nuisance handful delight joy
    disaster hero genius monster terror rascal diva character mess pain dream idiot clown cutie sweetie
    champ champion beast brute baby boy girl lad love diamond saint devil horror hoot riot scream""".split()
)


def entities(text: str, labels: frozenset[str]) -> list[Piece]:
    """The recogniser's entities of the given labels."""
    doc = _recognised(text)
    return [Piece(e.text, e.start_char, e.label_) for e in doc.ents if e.label_ in labels]
