"""The event a "when" question asks about, and whether a sentence speaks of it.

"What time does the recital start?" is answered by a clock time only from a sentence about
the recital: "It begins at 11am, by the harbour", said of a parade, matches the question's
words (begin, start) and holds a time, yet answers nothing about a recital. The event is
the question's subject when it is a common noun (recital, parade, bake sale, flight; not a
person, a relative or the asked type itself, "time"). A sentence speaks of it when it says
the noun, when the turn it answers (the asking turn just before, by someone else) says it
and the sentence has no subject of its own or a pronoun one ("what time's the quiz?" — "It
starts at 6pm", "Starts at 6pm"; not "My shift starts at 6pm"), or when its subject is a
pronoun whose antecedent, in the sentence or turn before, says it ("The parade is on
Saturday. It begins at 11am"). A question whose subject is a person ("when did Ines adopt
the kitten?") names no event and is not checked; one whose subject is only "it" or "that"
("When's it?") names nothing a sentence can be known to be about, and is refused.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memhop.core.engines.offline import grammar, tense
from memhop.core.engines.offline.spans import TIME_NOUNS
from memhop.core.language import lexical
from memhop.core.language.question import GROUPS, Question, is_relation, run_on, target_noun
from memhop.core.language.sentences import Sentence, split_sentences
from memhop.core.language.turns import asks, replies
from memhop.core.model import TurnView

_AUXILIARIES = frozenset({"do", "does", "did", "is", "was", "are", "were", "will", "'s", "’s"})
_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "my", "your", "his", "her", "our",
                          "their", "its", "next", "last", "first"})
_PREPOSITIONS = frozenset({"on", "at", "in", "for", "with", "to", "from", "of", "after", "before", "near", "by",
                           "this", "next", "and", "or"})
_PERSONAL = frozenset({"i", "you", "he", "she", "we", "they", "it", "me", "him", "us", "them", "everyone", "anyone"})
_WORD = re.compile(r"[A-Za-z][\w-]*(?:['’]s)?|['’]s|\?")
# "..., the quiz?": the thing "it" stands for, named after a comma at the end of the question
_NAMED_AFTER = re.compile(r",\s*(?:the|this|that|my|your|his|her|our|their)\s+([\w'’ -]+?)\s*\?*\s*$", re.I)
_SUBJECTS = frozenset({"nsubj", "nsubjpass", "expl", "csubj"})
# A subject that stands for something said before: "it begins at 11am", "that's at 6pm".
REFERRING = frozenset({"it", "this", "that", "they"})


def event(question: Question) -> str | None:
    """The stem of the noun a "when"/"what time" question asks the time of — its subject's
    head ("the bake sale", "Kasim's recital") — or None when its subject is a person, a
    pronoun or the asked type itself ("the last time ...")."""
    asked = _time_asked(question)
    if asked is None:
        return None
    named = _NAMED_AFTER.search(question.text)
    if named:  # "what time does it start, the quiz?": the noun "it" stands for
        last = named.group(1).split()[-1].lower()
        return None if last in TIME_NOUNS or last in lexical.STOPWORDS else lexical.stem(last)
    words, aux = asked
    if aux is None:
        return None
    verb = grammar.question_verb(question.text)
    walked = {w.lower() for relation in question.relations for w in relation.split()} | GROUPS
    phrase: list[str] = []
    for word in words[aux + 1:]:
        low = word.lower()
        if verb and grammar.verb_base(low) == verb and phrase:
            verb = None  # found where the subject ends
            break
        if low in _DETERMINERS and not phrase:
            continue  # "this recital", "the next recital": a determiner before the subject, not a stop after it
        if low == "?" or low in _PREPOSITIONS:
            break
        if low in _DETERMINERS or re.search("['’]s$", word):
            continue  # "the", "Kasim's": the subject's head is yet to come
        if word[:1].isupper() or low in _PERSONAL or is_relation(low) or low in walked:
            return None  # "when did Ines / you / my sister / my cousin's band ...": who the chain reaches
        phrase.append(low)
    if verb and words[aux].lower() in ("do", "does", "did") and len(phrase) > 1:
        phrase.pop()  # "when does Kasim's flight land?", its verb not read: the last word is the verb
    if not phrase or phrase[-1] in TIME_NOUNS or phrase[-1] in lexical.STOPWORDS:
        return None
    return lexical.stem(phrase[-1])


def unnamed(question: Question) -> bool:
    """Whether a "when"/"what time" question asks the time of a thing it names only by a
    word standing for something said before ("When's it?", "when's that?", "what time does
    it start?"): a question asked alone has nothing before it, so no sentence can be known
    to be about that thing, and the only date in the evidence is no answer. "When did it
    snow?" names its event by the verb and is read as any question is."""
    asked = _time_asked(question)
    if asked is None or asked[1] is None:
        return False
    words, aux = [w.lower() for w in asked[0]], asked[1]
    if aux + 1 >= len(words) or words[aux + 1] not in REFERRING - {"they"}:
        return False
    after = words[aux + 2] if aux + 2 < len(words) else "?"
    if words[aux + 1] != "it" and after != "?" and after not in _PREPOSITIONS:
        return False  # "when's that party?": a determiner, the event is named after it
    if after in ("that", "when") or _NAMED_AFTER.search(question.text):
        return False  # "when was it that Tomas moved?", "what time does it start, the quiz?": named after all
    verb = grammar.question_verb(question.text)
    return verb is None or tense.verb_base(verb) in tense.TIMED  # "when is it?", not "when did it snow?"


def _time_asked(question: Question) -> tuple[list[str], int | None] | None:
    """A time question's words and where its auxiliary (or "what time's") is, the subject
    following it; None for a question asking no time."""
    if question.wh != "when" and target_noun(question) not in TIME_NOUNS:
        return None
    words = _WORD.findall(question.text)
    return words, next((i for i, w in enumerate(words) if w.lower() in _AUXILIARIES or _contracted(w)), None)


def _contracted(word: str) -> bool:
    """"time's", "date's", "When's": the type noun or "when" with "is" run on (the word
    tokeniser keeps the "'s" on the word, so it is no auxiliary of its own)."""
    found = re.fullmatch(r"(\w+)['’]s", word.lower())
    return found is not None and (found[1] in TIME_NOUNS or run_on(word) == "when")


def speaks_of(noun: str, sentence: Sentence, said: dict[int, list[Sentence]],
              turns: dict[int, TurnView]) -> bool:
    """Whether `sentence` is about the event `noun` (see the module's docstring). `said`:
    each evidence turn's sentences in order (`by_turn`)."""
    if _says(noun, sentence.text):
        return True
    if sentence.turn is None:
        return False  # a fact or profile: nothing before it to lean on
    asked = asked_by(turns.get(sentence.turn), turns)
    if asked is not None and asks(asked.text) and _says(noun, asked.text) and _answering(sentence.text):
        return True  # the reply to "are you going to the parade?": "Saturday, at noon", "It's at 6pm"
    if not refers(sentence.text):
        return False
    before = said.get(sentence.turn, [])
    at = next((i for i, s in enumerate(before) if s == sentence), 0)
    if at > 0:
        return _says(noun, before[at - 1].text)
    return asked is not None and _says(noun, split_sentences(asked.text)[-1])


def by_turn(sentences: Sequence[Sentence]) -> dict[int, list[Sentence]]:
    """Each evidence turn's sentences, in the order said: made once per question, not once
    per sentence `speaks_of` weighs."""
    said: dict[int, list[Sentence]] = {}
    for s in sentences:
        if s.origin == "evidence" and s.turn is not None:
            said.setdefault(s.turn, []).append(s)
    return said


def asked_by(turn: TurnView | None, turns: dict[int, TurnView]) -> TurnView | None:
    """The turn `turn` answers: the one just before it, by someone else, in the same talk."""
    if turn is None:
        return None
    before = turns.get(turn.id - 1)
    return before if before is not None and answers(before, turn) else None


def answers(turn: TurnView, reply: TurnView) -> bool:
    """Whether `reply`, the turn after `turn`, can answer it (core/language/turns.py `replies`)."""
    return replies(turn.speaker, turn.session, reply.speaker, reply.session)


def _says(noun: str, text: str) -> bool:
    return noun in lexical.terms(text)


def _answering(text: str) -> bool:
    """Whether a sentence of a reply speaks of what was asked: its main clause has no subject
    of its own and a verb an event does at its time, or none ("Starts at 8pm", "8pm at the
    Forum"; not "Working until 6pm"), or a subject standing for it ("It's at 6pm").
    "My shift starts at 6pm", in a reply to "what time's the quiz?", is about the shift."""
    doc = grammar.parsed(text)
    root = grammar.root(doc)
    if root is None:
        return False
    subject = next((c for c in root.children if c.dep_ in _SUBJECTS), None)
    if subject is None:  # "Starts at 8pm", "8pm at the Forum"; not "Working until 6pm", the writer's own day
        return not root.tag_.startswith("VB") or tense.verb_base(root.lower_) in tense.TIMED
    return subject.lower_ in REFERRING


def refers(text: str) -> bool:
    """The sentence's subject is a pronoun standing for something said before."""
    return any(t.dep_ in ("nsubj", "nsubjpass") and t.lower_ in REFERRING for t in grammar.parsed(text))
