"""What a question asks of the chat group it is about (core/groups.py found which, and what).

"What is <the group> called now?" is answered by the name its last naming record set (the
read path puts that record among the turns, so it is cited), never by a name some retrieved
turn holds. "How many times did <the group> win ...?" counts what the group's own members
say "we" (or the group) did in its chat: in a group chat, a member's "we" is the group.
"""

from __future__ import annotations

from collections.abc import Sequence

from memhop.core.engines.offline import counts, grammar, ranking
from memhop.core.language.sentences import Sentence
from memhop.core.model import AnswerRequest


def name_now(request: AnswerRequest) -> tuple[str, str] | None:
    """The group's name now and the record that set it; None when no record named it (or
    the read path could not show the record: an answer that cannot be cited is not given)."""
    group = request.group
    if group is None or group.name is None:
        return None
    record = next((t for t in request.evidence if t.id == group.named_by), None)
    return (group.name, record.text) if record is not None else None


def counted(request: AnswerRequest, sentences: Sequence[Sentence]) -> tuple[str, Sentence] | None:
    """How many days the group did what the question asks, from all its members said in the
    period (the read path gave every such turn), with the guards of counts.occasions (period,
    plans, hedges, an undated or stated count). None for a count of things a day may hold
    several of ("how many goals"), and when the group said more than could be read."""
    group = request.group
    if group is None or not group.complete or not counts.counts_days(request.question):
        return None
    own = [
        (s, -1) for s in sentences  # -1: only where the question's verb is said
        if s.origin == "evidence" and s.turn in group.turns and s.speaker in group.members
    ]
    names = frozenset(" ".join(t.lower_ for t in grammar.parsed(n)) for n in (*group.names, group.called))
    scope, _ = ranking.scope_of(request.question)
    return counts.occasions(request.question, own, scope, None, None, group=names)
