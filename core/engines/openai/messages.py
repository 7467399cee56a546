"""What each call shows the model, cut to the context window.

Every builder renders its prompt with all of the session's turns and as many of the
optional items (known entities, stored facts, answer facts and evidence) as `fit` allows,
the least relevant dropped first. `fit(count, render)` is the engine's: how many of
`count` items fit beside the reply's max_tokens, `render(k)` the messages with k of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memhop.core.engines.openai.budget import most_relevant_first
from memhop.core.engines.openai.prompts import Prompt
from memhop.core.engines.openai.wire import data_json, data_lines, day_text, iso_date, turn_data
from memhop.core.language.names import find_names
from memhop.core.model import AnswerRequest, ExistingResidual, FoundEntity, KnownEntity, SessionView, TurnView

Messages = list[dict[str, str]]
Fit = Callable[[int, Callable[[int], Messages]], int]


def identify_messages(prompt: Prompt, session: SessionView, known: Sequence[KnownEntity], fit: Fit) -> Messages:
    """The known entities the turns name, the most mentioned first, each complete (name,
    kind, aliases: a model copies what it is shown), as many as the window leaves room for."""
    text = "\n".join(f"{t.speaker}: {t.text}" for t in session.turns)
    counts: dict[str, int] = {}
    for match in find_names(text, [(k.name, k.aliases) for k in known]):
        counts[match.entity] = counts.get(match.entity, 0) + 1
    named = sorted((k for k in known if k.name in counts), key=lambda k: -counts[k.name])

    def render(kept: int) -> Messages:
        shown = {k.name for k in named[:kept]}
        return prompt.render(
            session_date=day_text(session.started_at),
            self_name=data_json(session.self_name),
            known=data_lines(
                {"name": k.name, "kind": k.kind, "aliases": list(k.aliases)} for k in known if k.name in shown
            ),
            turns=data_lines(turn_data(t, session) for t in session.turns),
        )

    return render(fit(len(named), render))


def coextract_messages(
    prompt: Prompt,
    entity: FoundEntity,
    profile: str | None,
    existing: Sequence[ExistingResidual],
    turns: Sequence[TurnView],
    session: SessionView,
    fit: Fit,
) -> Messages:
    """The stored facts that share the most words with the turns, in their stored order and
    in a shape of their own (fact_id, fact): shown as a reply's residuals they were copied
    into the reply without their source_turns."""
    said = "\n".join(t.text for t in turns)
    relevant = most_relevant_first(existing, lambda r: r.text, said, ignore=[entity.name, *entity.aliases])
    ranked = {r.id: rank for rank, r in enumerate(relevant)}

    def render(kept: int) -> Messages:
        return prompt.render(
            session_date=day_text(session.started_at),
            self_name=data_json(session.self_name),
            entity=data_json({"name": entity.name, "kind": entity.kind, "aliases": list(entity.aliases)}),
            profile=data_json(profile),
            residuals=data_lines(
                {"fact_id": r.id, "fact": r.text, "slot": r.slot, "date": iso_date(r.date)}
                for r in existing
                if ranked[r.id] < kept
            ),
            turns=data_lines(turn_data(t, session) for t in turns),
        )

    return render(fit(len(existing), render))


def answer_messages(prompt: Prompt, request: AnswerRequest, fit: Fit) -> Messages:
    """Facts are cut first: those of entities off the chain, then the last-ranked of every
    chain entity before any one's earlier ones (the last hop's kept longest); then the
    last-ranked evidence turns."""
    hops = {name: len(request.chain) - at for at, name in enumerate(request.chain)}  # the last hop: 1
    order = sorted(
        (s.name not in hops, rank, hops.get(s.name, 0), i)
        for i, s in enumerate(request.slices)
        for rank in range(len(s.facts))
    )
    facts = [(rank, i) for _, rank, _, i in order]

    def render(kept_facts: int, kept_evidence: int) -> Messages:
        keep = set(facts[:kept_facts])
        return prompt.render(
            question=data_json(request.question),
            asker=data_json(request.asker),
            chain=data_json(list(request.chain)),
            entities=data_lines(
                {"name": s.name, "profile": s.profile,
                 "facts": [f for rank, f in enumerate(s.facts) if (rank, i) in keep]}
                for i, s in enumerate(request.slices)
            ),
            evidence=data_lines(turn_data(t) for t in request.evidence[:kept_evidence]),
        )

    evidence = len(request.evidence)
    kept_facts = fit(len(facts), lambda k: render(k, evidence))
    kept_evidence = evidence if kept_facts else fit(evidence, lambda k: render(0, k))
    return render(kept_facts, kept_evidence)
