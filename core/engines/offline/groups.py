"""The name a question asks of the chat group it is about (core/groups.py found which, and which name).

"What is <the group> called now?" is answered by the name its last naming record set, and
"what was it called before?" by the name that record replaced (the read path puts the
record among the turns, so it is cited), never by a name some retrieved turn holds.
"""

from __future__ import annotations

from memhop.core.model import AnswerRequest


def name_of(request: AnswerRequest) -> tuple[str, str] | None:
    """The name asked for and the record it is read from; None when no record gives it (or
    the read path could not show the record: an answer that cannot be cited is not given)."""
    group = request.group
    if group is None or group.name is None:
        return None
    record = next((t for t in request.evidence if t.id == group.named_by), None)
    return (group.name, record.text) if record is not None else None
