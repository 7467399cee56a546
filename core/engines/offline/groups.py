"""What a question asks of the chat group it is about (core/groups.py found which one).

"What is <the group> called now?" is answered by the name its last naming record set (the
read path puts that record among the turns, so it is cited), never by a name some retrieved
turn holds. "How many times did <the group> win ...?" counts what the group's own members
say "we" (or the group) did in its chat: in a group chat, a member's "we" is the group.
Anything else asked of a group is left to the answerer's other steps.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memhop.core.engines.offline import counts, grammar, ranking
from memhop.core.language.sentences import Sentence
from memhop.core.model import AnswerRequest, GroupView

_NOW = r"(?:\s+(?:now|today|currently|these\s+days|nowadays))?"
_IS = r"what(?:['’]s|\s+is)\s+"
_CALLED = (
    re.compile(rf"^\s*{_IS}(?P<x>.+?)\s+called{_NOW}\s*\??\s*$", re.I),  # "what is our team called now?"
    re.compile(rf"^\s*{_IS}the\s+(?:current\s+)?name\s+of\s+(?P<x>.+?){_NOW}\s*\??\s*$", re.I),
    re.compile(rf"^\s*{_IS}(?P<x>.+?)['’]s\s+(?:current\s+)?name{_NOW}\s*\??\s*$", re.I),
)


def name_asked(question: str, group: GroupView | None) -> bool:
    """The question asks what the group is called now (by words naming that very group)."""
    if group is None:
        return False
    asked = next((m["x"] for pattern in _CALLED if (m := pattern.match(question))), None)
    return asked is not None and _same(asked, group.called)


def name_now(request: AnswerRequest) -> tuple[str, str] | None:
    """The group's name now and the record that set it; None when no record named it (or
    the read path could not show the record: an answer that cannot be cited is not given)."""
    group = request.group
    if group is None or group.name is None:
        return None
    record = next((t for t in request.evidence if t.id == group.named_by), None)
    return (group.name, record.text) if record is not None else None


def count_asked(question: str, group: GroupView | None) -> bool:
    """A count of what the group did: "how many times did <the group> win ...?"."""
    if group is None or not counts.counts_days(question):
        return False
    return re.search(rf"\b(?:did|do|does|has|have)\s+{re.escape(group.called)}\s+[a-z]", question, re.I) is not None


def counted(request: AnswerRequest, sentences: Sequence[Sentence]) -> tuple[str, Sentence] | None:
    """How many days the group did what the question asks, from all its members said in the
    period (the read path gave every such turn), with the guards of counts.occasions (period,
    plans, hedges, an undated or stated count)."""
    group = request.group
    if group is None or not group.complete:
        return None  # more turns than could be read: a count over some of them is a lower bound
    own = [
        (s, -1) for s in sentences  # -1: only where the question's verb is said
        if s.origin == "evidence" and s.turn in group.turns and s.speaker in group.members
    ]
    names = frozenset(" ".join(t.lower_ for t in grammar.parsed(n)) for n in (*group.names, group.called))
    scope, _ = ranking.scope_of(request.question)
    return counts.occasions(request.question, own, scope, None, None, group=names)


def _same(asked: str, called: str) -> bool:
    return " ".join(asked.lower().split()) == " ".join(called.lower().split())
