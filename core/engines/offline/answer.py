"""The offline answerer: deterministic and extractive, no model.

It walks the chain the question describes ("Alice's roommate's sister": in what is said
about Alice find "roommate" next to a name -> Bob; about Bob find "sister" -> Carol),
then takes the answer from the sentences about the entity where the chain ends — verified
facts first, then evidence turns, then profiles (ranked in ranking.py) — and cuts it to the
span of the type the question asks for (spans.py, read with the parser in grammar.py; lists
and counts in lists.py). When the chain breaks, no sentence carries enough of the
question's words or none holds a span of that type, it says exactly "I don't know"
instead of guessing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from memhop.core.engines.offline import (
    captions,
    counts,
    events,
    forms,
    grammar,
    groups,
    lists,
    ranking,
    refusals,
    renames,
    replies,
    yesno,
)
from memhop.core.engines.offline.kinds import may_name
from memhop.core.engines.offline.nlp import is_english_word
from memhop.core.engines.offline.ranking import AMOUNTS, TYPED
from memhop.core.engines.offline.rewrite import unquoted
from memhop.core.engines.offline.spans import (
    JOB_QUALIFIERS,
    JOB_WORDS,
    STRANDED,
    TIME_NOUNS,
    asked_role,
    asks_name,
    asks_place,
    clause,
    identity_question,
    span,
    type_noun,
)
from memhop.core.language import group_events, lexical
from memhop.core.language.chains import named_by, relative, same_entity
from memhop.core.language.described import described
from memhop.core.language.names import fold, name_key
from memhop.core.language.question import (
    FIRST_PERSON,
    GROUPS,
    Question,
    asks_for_several,
    bare,
    is_relation,
    parse,
    relation_forms,
)
from memhop.core.language.relations import ANIMALS
from memhop.core.language.sentences import Sentence, gather, is_question
from memhop.core.model import AnswerRequest, EntitySlice, Reply, TurnView

DONT_KNOW = "I don't know"
# A clause is no answer to these: "did Ines go?" wants yes or no, "how often" a frequency.
NEEDS_SPAN = TYPED | {"who", "whom", "how often", "yes/no"}
STRONG_SHARE = 0.6  # a list or count gathers from sentences scoring at least this share of the best
SPAN_REACH = 8  # supporting sentences searched for a typed span before falling back to the best one
_FIRST_PERSON_SUBJECT = re.compile(r"\b(?:do|did|have|had|will|would|can|could|should|am|was|were|are)\s+(?:I|we)\b", re.I)
# Words of an amount question that name its type, not what the sentence must say.
_AMOUNT_WORDS = frozenset(lexical.stem(w) for w in ("turn", "turned", "age", "aged", "old", "cost", "long", "far", "times"))


@dataclass(frozen=True)
class Explanation:
    """What the answerer did: the chain it walked and the sentence it answered from."""

    answer: str
    chain: tuple[str, ...]  # entity names from where the question starts to where it ends
    sentence: str | None  # the supporting sentence (None: from the chain alone, or no answer)

    @property
    def span(self) -> tuple[int, int] | None:
        """Where the answer stands in its sentence (character offsets), when it was cut
        from it word for word; None for a refusal, a list, a count or a resolved date."""
        if self.sentence is None:
            return None
        at = self.sentence.find(self.answer)
        return (at, at + len(self.answer)) if at >= 0 and self.answer else None


def answer_offline(request: AnswerRequest) -> str:
    """The answer alone."""
    return explain(request).answer


def reply_offline(request: AnswerRequest) -> Reply:
    """The answer with the sentence it was cut from: support cites that sentence first."""
    found = explain(request)
    return Reply(found.answer, found.sentence)


def explain(request: AnswerRequest) -> Explanation:
    """The answer, the chain walked to reach it and the sentence it came from."""
    if request.group is not None:  # "what is our choir called now?", "what was the group called before?"
        named = groups.name_of(request)
        return Explanation(named[0], (), named[1]) if named else Explanation(DONT_KNOW, (), None)
    sentences = gather(request)
    names = [s.name for s in request.slices]
    question = parse(request.question, names)
    found = _explain(question, request, sentences, names)
    if found.answer == DONT_KNOW and question.relations and question.relations[-1] in GROUPS:
        # "where did Ines's band play?": what is said of the band, else of Ines with "band" among the words to match
        *inner, group = question.relations
        short = replace(question, relations=tuple(inner), predicate=(*question.predicate, lexical.stem(group)))
        return _explain(short, request, sentences, names)
    return found


def _explain(question: Question, request: AnswerRequest, sentences: list[Sentence], names: list[str]) -> Explanation:
    start, ambiguous = _start(question, request, names)
    if ambiguous or (question.relations and start is None) or (start is None and _unknown_name(question.text, sentences)):
        return Explanation(DONT_KNOW, (), None)
    chain = [start] if start else []
    leftover: list[str] = []
    for i, relation in enumerate(question.relations):
        following = _kin_entity(relation, names) if i == 0 and question.owner in FIRST_PERSON else None
        following = following or relative(chain[-1], relation, names, sentences)
        if following is None:
            head = relation.split()[-1]
            if i < len(question.relations) - 1 or (is_relation(head) and head.rstrip("s") not in ANIMALS):
                return Explanation(DONT_KNOW, tuple(chain), None)  # nobody known is that relative
            leftover = lexical.terms(relation)  # "Carol's dog's breed": said of the dog, unnamed
            break
        chain.append(following)
    end = chain[-1] if chain else None
    if end and not any(same_entity(end, n) for n in names):
        sentences = _naming(request, end)
    if len(chain) > 1 and not leftover:  # "her husband is a paramedic" tells of the husband the chain found
        sentences = [*sentences, *described(chain[-2], question.relations[-1], chain[-1], sentences)]
    if question.wh == "yes/no":
        return _yes_or_no(question, request, chain, names, sentences)
    scope, said = ranking.scope_of(question.text)  # "in May 2024": when, not words to match
    predicate = tuple(t for t in dict.fromkeys((*question.predicate, *leftover)) if t not in said)
    if question.wh in AMOUNTS:
        predicate = tuple(t for t in predicate if t not in _AMOUNT_WORDS)
    if end and asks_name(question) and renames.asks_renamed(predicate):  # "what is Pomelo called now?"
        taken = renames.latest_name(_forms(end, request), sentences)
        if taken:
            return Explanation(taken[0], tuple(chain), taken[1].cited)
    if identity_question(question):
        predicate = tuple(t for t in predicate if t not in {lexical.stem(w) for w in JOB_WORDS} | JOB_QUALIFIERS)
    elif not predicate and question.wh not in TYPED:
        if end and len(chain) > 1:
            return Explanation(end, tuple(chain), None)  # "who is Alice's roommate?"
        if _DOING.search(question.text):
            return Explanation(DONT_KNOW, tuple(chain), None)  # "what did Tobin do before?" asks no description
        return Explanation(_describe(end, sentences), tuple(chain), None)
    ranked = ranking.ranked(question, predicate, end, sentences, _doer(question, request), scope)
    asking = [r.sentence for r in ranked if is_question(r.sentence.text)]
    ranked = [r for r in ranked if not is_question(r.sentence.text)]  # "how did you get into pottery?" tells nothing
    role_noun = asked_role(question)
    if role_noun:  # "who is the president of the society?": only a sentence saying "president"
        ranked = [r for r in ranked if refusals.says_word(r.sentence.text, role_noun)]
    unheld = refusals.unheld_subject(question) if start is None else None
    if unheld:  # "what did Muffin break?", Muffin no entity: only what is said of Muffin
        ranked = [r for r in ranked if refusals.says_word(r.sentence.text, unheld)]
    other_names = refusals.other_names(question, chain, names, sentences)
    if other_names:  # "a trip to Lyon" is not one to Rome
        ranked = [r for r in ranked if refusals.names_all(r.sentence, other_names, sentences)]
    ranked = [r for r in ranked if not refusals.another_kind(question, r.sentence.text)]  # "her favourite drink" is no cuisine
    topic = refusals.topic(question)
    if topic:  # "what does she love about fencing?": only a sentence that says fencing
        ranked = [r for r in ranked if topic in lexical.terms(r.sentence.text)]
    if ranked and asks_for_several(question):
        gathered = _gathered(question, ranked, sentences, end)
        if gathered:
            return Explanation(gathered[0], tuple(chain), gathered[1])
    if question.wh == "when" and any(map(_group_record, sentences)):
        if _GROUP_WORD.search(question.text):
            return Explanation(DONT_KNOW, tuple(chain), None)  # "when did Lasse join the group?", a chat's records at hand
        records = [r.score for r in ranked if _group_record(r.sentence)]
        if records:  # "when did Lasse leave?": only what is supported as well as the record may answer
            ranked = [r for r in ranked if r.score > max(records) and not _group_record(r.sentence)]
    kinds = {s.name: s.kind for s in request.slices if s.kind}  # "who" is never answered by a known place
    turns = {turn.id: turn for turn in request.evidence}  # the evidence by id: for the event and the replies alike
    about = _of_event(question, sentences, turns)
    count_asked = question.wh == "how many"
    for scored in ranked[:SPAN_REACH]:  # a typed span from any well-supported sentence first
        if not about(scored.sentence):
            continue  # "It begins at 11am", of the parade, is no time of the recital
        if count_asked and not counts.stated_within(scored.sentence, scored.hit, scope):
            continue  # "won 3 races in 2024" counts none of March 2025's
        short = _typed_cut(question, scored.sentence, scored.hit, end, chain, kinds, request.asker)
        if short and question.wh == "how old" and _aged_since(question, scored.sentence, end, sentences):
            return Explanation(DONT_KNOW, tuple(chain), None)  # "she's 6" said before a birthday is no age now
        if short:
            return Explanation(short, tuple(chain), scored.sentence.cited)
    if asking and _needs_span(question):  # "what time's the gig?" matched: its reply may say
        for reply in replies.replies_to(question, asking, turns, sentences):
            if not about(reply) or (count_asked and not counts.stated_within(reply, 0, scope)):
                continue
            short = _typed_cut(question, reply, 0, end, chain, kinds, request.asker)
            if short:
                return Explanation(short, tuple(chain), reply.cited)
    if question.wh in ("what", "which", "where", "who", "when"):  # "got a new car!!" — "what kind?" — "a red one"
        for told in replies.elaborations([r.sentence for r in ranked[:SPAN_REACH]], turns, sentences, question):
            if not about(told):
                continue
            short = _typed_cut(question, told, 0, end, chain, kinds, request.asker)
            if short is None and question.wh in ("what", "which"):
                cut = replies.fragment(told)
                short = cut if cut and not refusals.echoes(cut, question, chain) else None
            if short:
                return Explanation(short, tuple(chain), told.cited)
    if ranked and lists.wants_count(question):  # "how many times": the days it happened on
        strong = _strong(ranked)
        happened = [(s.sentence, s.hit) for s in strong if lists.tells_occasion(s.sentence, end, s.hit)]
        weaker = [(s.sentence, s.hit) for s in ranked if s not in strong and lists.tells_occasion(s.sentence, end, s.hit)]
        user = request.asker
        full = request.budget is not None and len(request.evidence) >= request.budget  # more may match unseen
        room = request.budget if full else None
        counted = counts.occasions(question.text, happened, scope, user, room, weaker)  # in the period asked about
        if counted:
            return Explanation(counted[0], tuple(chain), counted[1].cited)
        return Explanation(DONT_KNOW, tuple(chain), None)  # no number of anything else answers it
    top = ranked[0] if ranked else None
    if (top and not _needs_span(question) and not asks_name(question) and not type_noun(question)
            and _grounded(question, top.sentence)):
        cut = span(question, top.sentence, top.hit, end)  # else the best sentence's own words
        if cut and refusals.pro_form(cut, question):
            return Explanation(DONT_KNOW, tuple(chain), None)  # what "this one" is, the sentence does not say
        if cut and question.wh in ("what", "which") and captions.generic_work(cut):
            # "Here's this new piece [shares a photo: …]": what the piece is, the picture shows
            cut = captions.shown(top.sentence.text, question.text)
            if cut is None or refusals.echoes(cut, question, chain):
                return Explanation(DONT_KNOW, tuple(chain), None)
        elif cut and question.wh in ("what", "which") and captions.in_caption(top.sentence.text, top.hit):
            # "what did she paint?" met in "a photo of a painting of a heron": the heron, not "of a heron"
            cut = captions.shown(top.sentence.text, question.text, made_only=True) or cut
        if not cut or refusals.echoes(cut, question, chain) or all(w in lexical.STOPWORDS for w in lexical.words(cut)):
            cut = clause(top.sentence.text, top.hit)
        short = _trimmed(cut, question)
        if question.wh != "when":
            short = refusals.STORE_DATE_NOTE.sub("", short)  # the dating note a written fact carries is no part of what it says
        if (refusals.well_formed(short, question) and not refusals.repeats(short, question)
                and not refusals.unplaced_person(short, top.sentence, request.asker)):
            return Explanation(short, tuple(chain), top.sentence.cited)
    return Explanation(DONT_KNOW, tuple(chain), None)


# The group or chat as a noun ("when did Lasse leave the group?", "our group chat"), not the
# verb ("when did we last chat?").
_GROUP_WORD = re.compile(r"\b(?:the|our|this|that|my|your|their)\s+(?:[\w-]+\s+)?(?:group|chat)\b|\bgroup\s+chat\b", re.I)


def _group_record(sentence: Sentence) -> bool:
    """A chat's record of a group event ("Lasse left"): the turn itself, spoken by the actor
    (a fact written from it, or "Lasse joined the group" in a diary, is none). Its day is the
    turn's time, which is read as no date of what it says, and which group it is of (two may
    have a Lasse leave) is not known here. So a "when" question asked of a group or chat is
    refused while such records are at hand; any other answers only from a sentence better
    supported than the record (a date in "we renamed it last week" or "first swim is
    Saturday" is of something else)."""
    return sentence.origin == "evidence" and group_events.is_record(sentence.text, sentence.speaker)


def _of_event(question: Question, sentences: Sequence[Sentence],
              turns: dict[int, TurnView]) -> Callable[[Sentence], bool]:
    """Whether a sentence is about the event a "when" question asks of (events.py); any
    sentence is when the question names none."""
    if events.unnamed(question):
        return lambda sentence: False  # "When's it?": the time of nothing the question names
    noun = events.event(question)
    if noun is None:
        return lambda sentence: True
    said = events.by_turn(sentences)
    return lambda sentence: events.speaks_of(noun, sentence, said, turns)


def _trimmed(cut: str, question: Question) -> str:
    """A cut without what is no part of an answer: a caption's frame ("a photo of"), and the
    question's own frame around an activity ("to go" of "used to go kayaking")."""
    return forms.activity(refusals.uncaptioned(cut, question), question)


def _typed_cut(question: Question, sentence: Sentence, hit: int, end: str | None, chain: list[str],
               kinds: Mapping[str, str], asker: str | None) -> str | None:
    """The span of the question's type in the sentence, if it is a well-formed answer that
    does not echo the question and, for "who", names no known place or thing."""
    short = _trimmed(span(question, sentence, hit, end, loose=False) or "", question)
    if refusals.unplaced_person(short, sentence, asker):
        return None  # "my own resilience": whose, the answer does not say
    if short and not refusals.echoes(short, question, chain) and refusals.well_formed(short, question):
        return None if refusals.not_a_person(short, question, sentence.text, kinds) else short
    return None


def _yes_or_no(question: Question, request: AnswerRequest, chain: list[str], names: Sequence[str],
               sentences: Sequence[Sentence]) -> Explanation:
    """"Yes" from a sentence stating the question of its subject (yesno.py), else a refusal."""
    asked = yesno.read(question.text)  # None for "still at the bakery?", too
    if asked is None:
        return Explanation(DONT_KNOW, tuple(chain), None)
    entity = _subject_entity(asked.subject, question, request, chain, names)
    # "does he work at the bakery?": the state now, which nothing said later may have changed
    found = yesno.verdict(asked, entity, sentences, not (asked.past or asked.modal))
    if found is None:
        return Explanation(DONT_KNOW, tuple(chain), None)
    return Explanation(found.answer, tuple(chain), found.sentence.cited)


def _subject_entity(subject: str, question: Question, request: AnswerRequest, chain: Sequence[str],
                    names: Sequence[str]) -> str | None:
    """Who the question's grammatical subject is: the writer for "I", the chain's
    end for "my sister", a known name (or a nickname of one), else nobody known ("you": the
    read path does not anchor the writer for it, so who is meant is not known here)."""
    low = subject.lower()
    if low in FIRST_PERSON:
        return request.asker
    words = {bare(w).lower() for w in subject.split()} - {"'s", "’s", "the", "of"}
    owner = {w.lower() for w in (question.owner or "").split()}
    if owner and owner & words:  # "my sister", "Odran's friend": the chain's end, walked all the way
        walked = owner | {w for relation in question.relations for w in relation.lower().split()}
        return chain[-1] if chain and words <= walked and len(chain) == len(question.relations) + 1 else None
    return _known_name(subject, names)


def _needs_span(question: Question) -> bool:
    """A clause is no answer to "where", "when", "who", "how many" — nor to "which city",
    "in what year": the type the question names must be found, or nothing is."""
    if STRANDED.search(question.text):  # "what is the gallery famous for?": its object, or nothing
        return True
    if question.target and grammar.verb_base((grammar.question_verb(question.text) or "").lower()) == "play":
        return True  # "which sport does Ines play?": what she plays, of that kind, or nothing
    return (question.wh in NEEDS_SPAN or asks_place(question) or question.target in TIME_NOUNS
            or (question.target is None and type_noun(question) in TIME_NOUNS))  # "what was my time in the 10K?"


def _grounded(question: Question, sentence: Sentence) -> bool:
    """Words cut from a sentence answer "which instrument does Ines play?" only if the
    sentence speaks of playing or of instruments; otherwise they are a guess."""
    heads = {lexical.stem(w) for w in (question.target, ranking.main_verb(question)) if w}
    if not heads:
        return True
    return bool(ranking.matched(sentence, dict.fromkeys(heads, 1.0), ranking.verb_stems(question)))


_NOW = re.compile(r"\b(?:now|currently|these days|nowadays|at the moment)\b", re.I)
_BIRTHDAY = re.compile(r"\bbirthday\b", re.I)


def _aged_since(question: Question, said: Sentence, end: str | None, sentences: Sequence[Sentence]) -> bool:
    """An age asked "now" and told in a sentence before a birthday of the same person that the
    memory mentions (later, or with no date to tell): the age may have gone up since."""
    if end is None or not _NOW.search(question.text):
        return False
    told = ranking.date_of(said)
    for other in sentences:
        if other is said or not _BIRTHDAY.search(other.text) or not any(same_entity(m.entity, end) for m in other.names):
            continue
        when = ranking.date_of(other)
        if told is None or when is None or when > told:
            return True
    return False


def _strong(ranked: Sequence[ranking.Scored]) -> list[ranking.Scored]:
    """The supporting sentences nearly as good as the best one (and as direct: a hint such
    as "left for Rome" does not join sentences that say it outright)."""
    top = ranked[0]
    return [r for r in ranked if r.second == top.second and r.score >= STRONG_SHARE * top.score]


def _gathered(question: Question, ranked: Sequence[ranking.Scored], sentences: Sequence[Sentence],
              end: str | None) -> tuple[str, str] | None:
    """Every item the strong supporting sentences give, oldest statement first, then the
    narrower kinds of them any sentence says the chain's end does (lists.kinds), each after
    the item it narrows; and the sentence of the first item (a kind is never the evidence)."""
    dated: list[tuple[date, int, str, str]] = []
    for scored in _strong(ranked):
        for item in lists.items(question, scored.sentence, scored.hit):
            dated.append((ranking.date_of(scored.sentence) or date.max, len(dated), item, scored.sentence.cited))
    if not dated:
        return None
    dated.sort()
    found = [item for _, _, item, _ in dated]
    narrower: list[tuple[date, int, str]] = []
    for sentence in sentences:
        for kind in lists.kinds(question, found, sentence, end):
            narrower.append((ranking.date_of(sentence) or date.max, len(narrower), kind))
    return lists.join(lists.with_kinds(found, [kind for _, _, kind in sorted(narrower)])), dated[0][3]


def _unknown_name(text: str, sentences: Sequence[Sentence]) -> bool:
    """The question names someone nothing in memory mentions ("what does Halvard play?" after
    Halvard was forgotten): whatever the sentences say is about someone else. The months of
    the period it names ("between March and June 2023") name no one."""
    scope, _ = ranking.scope_of(text)
    text = text.replace(scope.words, " ") if scope else text
    words = [fold(w) for w in re.findall(r"(?<=\s)[A-Z][\w'’-]+", text)]  # "Celeste" typed is "Céleste" said
    said = {w for s in sentences for w in re.findall(r"[\w'’-]+", fold(s.text))}
    return any(bare(w) not in said and w not in said for w in words)


def _start(question: Question, request: AnswerRequest, names: Sequence[str]) -> tuple[str | None, bool]:
    """The entity the question starts from ("I"/"my" is the asker, the store's writer),
    and whether its name fits two known people at once ("Andre" when Andre Morvan and Andre
    Wierzbicki are both known): whichever is taken may be the wrong one."""
    owner = question.owner
    if owner is None:
        return None, False
    if owner.lower() in FIRST_PERSON:
        return request.asker, False
    fits = _fits(owner, names)
    return _one(fits) or owner, len(fits) > 1


def _forms(entity: str, request: AnswerRequest) -> list[str]:
    """The entity's name and the other names the memory holds for it."""
    held = next((s for s in request.slices if s.name == entity), None)
    return [entity, *(held.aliases if held else ())]


def _known_name(written: str, names: Sequence[str]) -> str | None:
    """The known name a name as written in the question is, when only one fits (`_fits`)."""
    return _one(_fits(written, names))


def _fits(written: str, names: Sequence[str]) -> list[str]:
    """The known names a name as written in the question may be: the same entity, else one it
    is a nickname of ("Gwen" for "Gwendolyn Crane", or the other way), as the write path reads
    them; "Barton Road" is no one's name, and a lower-case word ("the dog") no nickname."""
    same = named_by(written, names)
    key = name_key(written)
    if same and is_english_word(key) and all(key not in name_key(n).split()[:1] for n in same):
        # "Grant", "Heath" fitting a surname only: as likely a first name the write path lost ("Grant
        # Fisher" kept as "Fisher") or a place's last word, so another one may be meant
        return [*same, written]
    if same or not written[:1].isupper():
        return same
    return next(([name] for name in names if may_name(name, written)), [])


def _one(fits: Sequence[str]) -> str | None:
    """The one name that fits; None for none, or for two (neither is known to be meant)."""
    return fits[0] if len(fits) == 1 else None


def _naming(request: AnswerRequest, name: str) -> list[Sentence]:
    """The sentences again, now knowing `name`: the chain reached someone only named in
    passing ("Bo, who is my colleague"), whose doings must be told from everyone else's."""
    return gather(replace(request, slices=(*request.slices, EntitySlice(name, "", ()))))


def _kin_entity(relation: str, names: Sequence[str]) -> str | None:
    """"my mum" is the entity the diary calls "Mum", when there is one."""
    forms = relation_forms(relation.split()[-1])
    return next((n for n in names if n.lower() in forms), None)


def _doer(question: Question, request: AnswerRequest) -> str | None:
    """Who the question says acted, when not the entity it is about: "what did I give Ines?"
    asks what the asker (the store's writer) did, to Ines."""
    first_person = _FIRST_PERSON_SUBJECT.search(question.text)
    if first_person and question.owner not in FIRST_PERSON:
        return request.asker
    return None


_DOING = re.compile(r"\b(?:do|does|did)\b.*\bdo(?:ing)?\b", re.I)


def _describe(entity: str | None, sentences: Sequence[Sentence]) -> str:
    """"Who is Alice?": the first thing said about her."""
    for sentence in sentences:
        if entity and sentence.owner == entity:
            said = unquoted(sentence.text)  # not "Nia Holt said", the frame of a quote
            return clause(said, 0) if said else DONT_KNOW
    return DONT_KNOW
