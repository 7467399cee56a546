"""In a chat a reply answers the question before it: "what time's the gig?" — "8pm at the
Forum". The reply shares no word with a later question ("what time does the gig start?"),
so no sentence of it is ranked as support; the asking turn is. When a turn that mostly asks
carries the question's words, its reply (the next turn, by someone else, the same day) is
read for the answer, typed as any answer is (a "what time" still needs a clock time).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from memhop.core.language.sentences import Sentence, is_question
from memhop.core.model import TurnView


def replies_to(asking: Sequence[Sentence], evidence: Sequence[TurnView], sentences: Sequence[Sentence]) -> Iterator[Sentence]:
    """The sentences of the replies to the turns that `asking` (question sentences matching
    the question, best first) come from, in that order."""
    from memhop.core.evidence import asks

    by_id = {turn.id: turn for turn in evidence}
    seen: set[int] = set()
    for question in asking:
        if not is_question(question.text) or question.origin != "evidence":
            continue
        turn = next((t for t in evidence if _holds(t, question)), None)
        if turn is None or turn.id in seen or not asks(turn.text):
            continue
        seen.add(turn.id)
        reply = by_id.get(turn.id + 1)
        if reply is None or reply.speaker == turn.speaker or not _same_day(turn, reply):
            continue
        yield from (s for s in sentences if _holds(reply, s) and not is_question(s.text))


def _holds(turn: TurnView, sentence: Sentence) -> bool:
    return (sentence.origin == "evidence" and sentence.speaker == turn.speaker
            and sentence.when == turn.timestamp and sentence.text in turn.text)


def _same_day(turn: TurnView, reply: TurnView) -> bool:
    """A turn the next day opens a new talk, it answers nothing."""
    if turn.timestamp is None or reply.timestamp is None:
        return turn.timestamp is reply.timestamp
    return turn.timestamp.date() == reply.timestamp.date()
