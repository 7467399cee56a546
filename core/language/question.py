"""What a question asks, read without a model: its question word, the type noun ("what
instrument"), the entity it starts from, the chain of relation words it walks ("Alice's
roommate's sister" -> Alice, [roommate, sister]) and the words left for the answer to match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memhop.core.language import lexical
from memhop.core.language.name_lookup import is_surname
from memhop.core.language.names import name_key, nickname_either
from memhop.core.language.numbers import UNIT_WORDS
from memhop.core.language.relations import RELATION_WORDS, base_word

TOKEN = re.compile(r"\w+(?:[-'’]\w+)*|[^\w\s]")  # "Jo-ann's", "sister-in-law" are one word
MODIFIERS = frozenset(
    "older younger elder eldest oldest youngest little big baby twin best close old good dear new step".split()
)
# People who act together under a name of their own: "my cousin's band" is one more hop,
# to the band he is in by name.
GROUPS = frozenset({"band", "team", "choir", "orchestra", "club", "crew", "troupe", "ensemble", "group"})
COLLECTIVE = GROUPS | {"squad"}  # what a group of people calls itself: "our team won", "my darts squad"
FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself"})
CURRENT = frozenset({"now", "currently", "still", "nowadays", "anymore"})  # asks for the latest state
_AUX = frozenset("is are was were do does did has have had can could will would should".split())
_HOW = frozenset({"many", "much", "old", "long", "often", "far"})
_WH = frozenset({"what", "which", "who", "whom", "whose", "where", "when", "why", "how"})
_TYPE_OF = frozenset({"kind", "type", "sort"})
# "Do you know / could you remind me / did I ever tell you / did I note where ...": the user
# (you or I) knowing, telling or noting a wh-clause asks the wh-question itself.
_INDIRECT = frozenset("""know knew remember remembered recall recalled tell told say said mention mentioned wonder
    remind idea note noted write wrote written forget forgot forgotten record recorded""".split())
_ASKERS = frozenset({"you", "i"})
# One word per group stands for all: a flatmate is a roommate, a mum is a mother.
_SYNONYMS = (
    {"roommate", "flatmate", "housemate", "roomie"},
    {"mum", "mom", "mother", "mummy", "mommy", "ma"},
    {"dad", "father", "daddy", "pa"},
    {"partner", "girlfriend", "boyfriend", "wife", "husband", "spouse", "fiance", "fiancé", "fiancée"},
    {"colleague", "coworker", "co-worker", "workmate", "teammate"},
    {"friend", "mate", "pal", "bestie"},
    {"boss", "manager"},
    {"grandma", "gran", "granny", "nan", "nana", "grandmother"},
    {"grandpa", "grandad", "granddad", "grandfather"},
    {"kid", "child"},
)


@dataclass(frozen=True)
class Question:
    text: str
    wh: str  # "what", "who", "where", "when", "how many", "how old", ..., "yes/no" or ""
    target: str | None  # the type noun: "instrument" in "what instrument ..."
    owner: str | None  # where the chain starts, as written: a name, or "my" / "I"
    relations: tuple[str, ...]  # relation words walked from the owner, in order
    predicate: tuple[str, ...]  # content stems the answer sentence should share


def tokens(text: str) -> list[re.Match[str]]:
    return list(TOKEN.finditer(text))


def target_noun(question: Question) -> str | None:
    """The type noun without a run-on "is": "what time's the gig?" asks for a "time"."""
    return re.split("['’]", question.target)[0] if question.target else None


def bare(token: str) -> str:
    """"Alice's" -> "Alice"."""
    return re.sub(r"['’]s$", "", token)


def is_possessive(token: str) -> bool:
    return bool(re.search(r"\w['’]s$", token))


def relation_forms(word: str) -> frozenset[str]:
    """Every word that means the same relation, singular and plural."""
    base = base_word(word)
    forms = {base}
    for group in _SYNONYMS:
        if base in group:
            forms |= group
    return frozenset(forms | {f + "s" for f in forms})


def is_relation(word: str) -> bool:
    return base_word(word.lower()) in RELATION_WORDS or any(word.lower() in g for g in _SYNONYMS)


NUMBER_WORDS = frozenset(UNIT_WORDS[2:11])  # "top three", "two books": a size


def asks_for_several(question: Question) -> bool:
    """A plural type noun ("which instruments", "what books") or a "top three" asks for several."""
    target = question.target or ""
    if question.wh not in ("what", "which"):
        return False
    plural = target.endswith("s") and not target.endswith(("ss", "us", "is"))
    counted = bool(re.search(r"\b(?:top\s+)?(?:\d+|" + "|".join(NUMBER_WORDS) + r")\s+\w+s\b", question.text, re.I))
    return plural or counted


# Prepositions that set a name as the place or time of what is asked, not whom it is about.
_SETTING = frozenset({"in", "at", "near", "from", "to", "around", "outside", "inside", "during"})
# "Which city ...", "in which part of ...": a place is asked for (and "part of Lyon" sets Lyon).
PLACE_NOUNS = frozenset(
    "city town country place part area neighbourhood neighborhood village county region suburb district state "
    "island continent".split()
)


def _set_in(at: int, named: set[int], low: list[str]) -> bool:
    """The name at token `at` (or the name it goes on: "Ellery" of "Port Ellery") follows one
    of `_SETTING`, or "of" after a place noun ("which part of Port Ellery")."""
    while at - 1 in named:
        at -= 1
    return at > 0 and (low[at - 1] in _SETTING or (at > 1 and low[at - 1] == "of" and low[at - 2] in PLACE_NOUNS))


def parse(text: str, names: list[str]) -> Question:
    """`names` are the entity names the question may start from (canonical, first tokens match)."""
    toks = [m.group(0) for m in tokens(text)]
    low = [t.lower() for t in toks]
    wh, target = _question_word(low)
    owner, relations, used = _chain(toks, low, names)
    if owner is None:
        named = [i for i, tok in enumerate(toks) if _is_name(tok, names)]
        # "the ramen place I ate at in Tallow Bay": a name after "in" says where, the asker is whom
        whom = [i for i in named if not _set_in(i, set(named), low)]
        at = whom[0] if whom else None
        mine = next((i for i, t in enumerate(low) if t == "my"), None)
        if at is None or (mine is not None and mine < at):  # "what was my time in the Harbour 10K?": mine
            at = next((i for i, t in enumerate(low) if t in FIRST_PERSON), None)
        if at is None and named:  # "what does the café in Fitzroy sell?": the place is all it names
            at = named[0]
        if at is not None:
            last = at  # "Ines Moreau": the whole name
            while last + 1 < len(toks) and toks[last][:1].isupper() and not is_possessive(toks[last]) \
                    and toks[last + 1][:1].isupper() and low[last + 1] != "i":
                last += 1
            owner, used = bare(" ".join(toks[at : last + 1])), set(range(at, last + 1))
            _outer(low, at, relations, used)
    skip = {i for i, t in enumerate(low) if t in _WH or t in _AUX or t in _HOW or t in CURRENT}
    words = [bare(toks[i]) for i in range(len(toks)) if i not in used and i not in skip]
    # "the name of ..." asks for a name; "what did Ines name the kitten?" is about naming
    noun_name = re.search(r"\b(?:the|a|his|her|their|its|my|your|\w+['’]s)\s+names?\b", text, re.I)
    predicate = [t for t in lexical.terms(" ".join(words)) if t != lexical.stem("name") or not noun_name]
    return Question(text, wh, target, owner, tuple(relations), tuple(dict.fromkeys(predicate)))


def _question_word(low: list[str]) -> tuple[str, str | None]:
    words = [w for t in low if re.match(r"\w", t) for w in _uncontracted(t)]
    if not words:
        return "", None
    first = next((i for i, t in enumerate(words) if t in _WH), None)
    indirect = first is not None and len(words) > 1 and words[1] in _ASKERS and bool(_INDIRECT.intersection(words[2:first]))
    if words[0] in _AUX and not indirect:
        return "yes/no", None  # "did she see how it ended?" asks yes or no; "do you know where ...?" asks where
    if first is None:
        return "", None
    wh = words[first]
    rest = words[first + 1 :]
    if wh == "how" and rest and rest[0] in _HOW:
        return f"how {rest[0]}", None
    target = None
    if wh in ("what", "which") and rest:
        if rest[0] in _TYPE_OF and len(rest) > 2 and rest[1] == "of":
            target = rest[2]
        elif rest[0] not in _AUX and rest[0] not in lexical.STOPWORDS:
            target = rest[0]
        elif len(rest) > 3 and rest[0] in ("is", "was", "'s", "are", "were") and rest[1] == "the" and rest[3] == "of":
            target = rest[2]  # "what is the name of ..."
    return wh, target


_RUN_ON = re.compile(r"(what|where|who|when|how)['’]s", re.I)


def run_on(token: str) -> str | None:
    """The question word a token runs "'s" onto ("When's" -> "when"), None for any other token."""
    found = _RUN_ON.fullmatch(token)
    return found[1].lower() if found else None


def _uncontracted(token: str) -> list[str]:
    """"When's the recital?" asks what "When is the recital?" does, "what's", "where's",
    "who's", "how's" likewise: the "'s" ("is", or "has" in "who's been ...", "how's she
    been?") is run on. Either is an auxiliary, so the question word is read as it is
    uncontracted."""
    word = run_on(token)
    return [word, "is"] if word else [token]


def _is_name(token: str, names: list[str]) -> bool:
    """A known name, its first name, its surname, or a nickname either way ("Thaddeus" for
    Thad); case and accents aside ("Andre" for André Morvan, "Quarrie" for Lindel Quarrie or
    another Quarrie: which one it means is the answerer's to say)."""
    word = bare(token)
    if not word[:1].isupper():
        return False
    key = name_key(word)
    firsts = [name_key(n.split()[0]) for n in names if n.split()]
    return (any(key == name_key(n) or is_surname(key, name_key(n).split()) for n in names)
            or any(key == f or nickname_either(key, f) for f in firsts))


def _chain(toks: list[str], low: list[str], names: list[str]) -> tuple[str | None, list[str], set[int]]:
    """The first possessive chain: "Alice's roommate's sister", "my mum", "the sister of Bob"."""
    for i, tok in enumerate(toks):
        owner_ok = (is_possessive(tok) and (_is_name(tok, names) or (i > 0 and tok[0].isupper()))) or low[i] == "my"
        if not owner_ok:
            continue
        relations: list[str] = []
        used = {i}
        j = i + 1
        while j < len(toks):
            mods = []
            while j < len(toks) and (low[j] in MODIFIERS or _describes_relation(toks, low, j)):
                mods.append(low[j])
                used.add(j)
                j += 1
            if j >= len(toks) or not re.match(r"\w", toks[j]):
                break
            word = bare(low[j])
            if is_possessive(toks[j]):
                relations.append(" ".join([*mods, word]))
                used.add(j)
                j += 1
                continue
            if word in GROUPS and not mods and (relations or j == i + 1):
                relations.append(word)  # "my cousin's band", "Ines's team": the group they are in
                used.add(j)
                break
            if is_relation(word):
                relations.append(" ".join([*mods, word]))
                used.add(j)
                named = j + 1 < len(toks) and toks[j + 1][:1].isupper() and low[j + 1] != "i"
                if named and len(relations) == 1 and not is_possessive(toks[j + 1]):
                    # "my colleague Ivo plays ...": the chain starts at the name it gives
                    return bare(toks[j + 1]), [], used | {j + 1}
            break
        _outer(low, i, relations, used)
        if relations or low[i] != "my":
            if low[i] == "my":
                return "my", relations, used
            first = i  # "Ines Moreau's": the whole name owns
            while first > 1 and toks[first - 1][:1].isupper() and low[first - 1] not in _WH | _AUX:
                first -= 1
            used |= set(range(first, i))
            return " ".join([*toks[first:i], bare(tok)]), relations, used
    return None, [], set()


def _describes_relation(toks: list[str], low: list[str], j: int) -> bool:
    """"my climbing partner", "Ines's cooking teacher": a lower-case word right before a
    relation word says which one, it does not end the chain."""
    nxt = j + 1
    return (
        toks[j].isalpha()
        and toks[j].islower()
        and low[j] not in _WH | _AUX | lexical.STOPWORDS
        and not is_relation(low[j])
        and nxt < len(toks)
        and is_relation(bare(low[nxt]))
    )


def _describes_word(low: list[str], k: int) -> bool:
    """A plain lower-case word that can say which relative ("cooking" in "the cooking student")."""
    word = low[k]
    return (word.isalpha() and word not in _WH | _AUX | lexical.STOPWORDS and not is_relation(word)
            and not any(word == link[-1] for link in _LINKS))


_ROLE_ENDINGS = ("er", "or", "ist", "ian", "ant")  # drummer, conductor, bassist, librarian, assistant
_ROLE_NOUNS = frozenset({"captain", "coach", "lead", "frontman", "frontwoman", "chef", "nurse", "member"})


def _member_role(low: list[str], k: int) -> bool:
    """"the drummer in ...", "the lead singer in ...": a role noun after an article names a
    member; "what does Ines play in ...", "who plays drums in ..." name none."""
    word = low[k]
    if not _describes_word(low, k) or not (word in _ROLE_NOUNS or word.endswith(_ROLE_ENDINGS)):
        return False
    j = k - 1
    while j >= 0 and (low[j] in MODIFIERS or _describes_word(low, j)) and low[j] not in ("the", "a", "an"):
        j -= 1
    return j >= 0 and low[j] in ("the", "a", "an")


_LINKS = (("of",), ("owned", "by"), ("belonging", "to"), ("kept", "by"))  # "the cat owned by Ines"


def _outer(low: list[str], at: int, relations: list[str], used: set[int]) -> None:
    """"the sister of Alice's roommate", "the dog owned by my aunt": relations written before
    the owner come last."""
    k = at - 1
    while True:
        link = next((w for w in _LINKS if k - len(w) >= 0 and tuple(low[k - len(w) + 1 : k + 1]) == w), None)
        if link is None and k >= 1 and low[k] == "in" and relations and relations[-1] in GROUPS \
                and _member_role(low, k - 1):
            link = ("in",)  # "the drummer in my cousin's band": a member, by the part they play
        elif link is None or not is_relation(low[k - len(link)]):
            return
        word = k - len(link)
        used |= set(range(word, k + 1))
        k = word - 1
        mods: list[str] = []  # "the best friend of", "the cooking student of": which one
        while k >= 0 and (low[k] in MODIFIERS or _describes_word(low, k)):
            mods.insert(0, low[k])
            used.add(k)
            k -= 1
        relations.append(" ".join([*mods, low[word]]))
        while k >= 0 and low[k] == "the":
            used.add(k)
            k -= 1
