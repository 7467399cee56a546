"""The offline engine: no model, no network, deterministic.

spaCy (names, sentences, tags) and hand-written rules (relations, dates, rewriting)
stand in for the model calls of ProGraph's write path. Each turn is tagged and parsed
once: ahead, while `memhop ingest` embeds it (read_ahead), or in identify(); each
coextract() of the same session reuses that analysis.
"""

from __future__ import annotations

import time
from collections import OrderedDict, defaultdict, deque
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from memhop.core.engines.base import Usage
from memhop.core.errors import EngineError
from memhop.core.language.placeholders import mask
from memhop.core.limits import cut
from memhop.core.model import (
    AnswerRequest,
    ExistingResidual,
    Extraction,
    FoundEntity,
    KnownEntity,
    Reply,
    SessionView,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc

    from memhop.core.engines.offline.model import SessionAnalysis

_KEPT_SESSIONS = 4  # analyses cached: the write path works one session at a time
# Characters of text parsed ahead and held at most. A doc's memory grows with its text
# (~150-170 bytes a character with en_core_web_sm: tokens, tags, arcs, the tok2vec tensor),
# not with the number of turns: a diary's day can be 20,000 characters. 1,000,000 characters
# hold ~160 MB of docs, enough to keep the parser busy for a large file's whole embedding.
_AHEAD_CHARS = 1_000_000


class OfflineEngine:
    """Use one instance for a whole write run: identify() parses a session once and the
    coextract() calls for that session reuse the parse (the last few sessions are kept)."""

    name = "offline"

    def __init__(self) -> None:
        self.usage = Usage()
        self._docs: OrderedDict[SessionView, list[Doc]] = OrderedDict()
        self._found: dict[SessionView, list[FoundEntity]] = {}
        self._analyses: dict[tuple[SessionView, tuple[str, ...]], SessionAnalysis] = {}
        self._ahead: defaultdict[str, deque[Doc]] = defaultdict(deque)  # text -> docs parsed ahead, not yet read
        self._ahead_chars = 0  # characters of the docs in _ahead

    def read_ahead(self, turns: Sequence[tuple[str, str]]) -> None:
        """Tag and parse (speaker, text) turns that a write run will read soon, as it will
        read them: `memhop ingest` calls this while the raw layer's embeddings are computed
        on the other core. Each doc waits under its text until a session reads that text
        (the recogniser still runs then, as it depends on the registry of that moment); a
        doc is the same whether parsed here or then. The first turns up to _AHEAD_CHARS
        characters are held, the rest is parsed when read.

        This is only a head start: a text spaCy refuses, or a model that cannot be loaded,
        is left to the write run, which reports it (the raw layer is stored first)."""
        from memhop.core.engines.offline.names import is_bot
        from memhop.core.engines.offline.nlp import tag_and_parse

        room = _AHEAD_CHARS - self._ahead_chars
        texts = []
        for speaker, raw in turns:
            if room <= 0:
                break
            if is_bot(speaker):
                continue
            text = mask(cut(raw))
            if len(text) > room:
                break
            if text:
                texts.append(text)
                room -= len(text)
        try:
            docs = tag_and_parse(texts)
        except (ValueError, ImportError, OSError):  # spaCy refuses a text (E088), or no spaCy or model:
            return  # the write run parses, and reports it
        for text, doc in zip(texts, docs):
            self._ahead[text].append(doc)
        self._ahead_chars += sum(map(len, texts))

    @property
    def ahead_waiting(self) -> int:
        """Docs parsed by `read_ahead` that no session has read yet."""
        return sum(map(len, self._ahead.values()))

    def identify(self, session: SessionView, known: Sequence[KnownEntity]) -> list[FoundEntity]:
        from memhop.core.engines.offline.identify import identify

        started = time.perf_counter()
        session = readable(session)
        words = {w.lower() for k in known for n in (k.name, *k.aliases) for w in n.split()}
        words |= {w.lower() for t in session.turns for w in t.speaker.split()}
        found = identify(session, known, self._parsed(session, frozenset(words)))
        self._found[session] = found
        if found:  # every coextract() of the session reads this analysis: made here, where the
            self.analysis(session)  # write path overlaps it with the previous session's embedding
        self._count(started)
        return found

    def coextract(
        self,
        entity: FoundEntity,
        profile: str | None,
        existing: Sequence[ExistingResidual],
        session: SessionView,
    ) -> Extraction:
        from memhop.core.engines.offline.extract import coextract

        started = time.perf_counter()
        analysis = self.analysis(readable(session), entity)
        extraction = coextract(analysis, entity, profile, existing)
        self._count(started)
        return extraction

    def answer(self, request: AnswerRequest) -> Reply:
        from memhop.core.engines.offline.answer import reply_offline

        started = time.perf_counter()
        reply = reply_offline(request)
        self._count(started)
        return reply

    def analysis(self, session: SessionView, entity: FoundEntity | None = None) -> SessionAnalysis:
        """The session's shared analysis; identify() first if this session was not seen.

        Without a prior identify() (a caller that skipped it), the entities are found
        against an empty registry plus `entity` itself, so its name is kept.
        """
        from memhop.core.engines.offline.session import analyse

        session = readable(session)
        found = self._found.get(session)
        if found is None:
            from memhop.core.engines.offline.identify import identify

            known = [KnownEntity(-1, entity.name, entity.kind, entity.aliases)] if entity else []
            found = self._found[session] = identify(session, known, self._parsed(session))
        if entity is not None and all(f.name.lower() != entity.name.lower() for f in found):
            found = [*found, entity]
        key = (session, tuple(f.name for f in found))
        if key not in self._analyses:
            self._analyses[key] = analyse(session, found, self._parsed(session))
        return self._analyses[key]

    def _parsed(self, session: SessionView, known_words: frozenset[str] = frozenset()) -> list[Doc]:
        """spaCy docs of the session's turns, parsed once; names already known skip NER."""
        from memhop.core.engines.offline.names import is_bot
        from memhop.core.engines.offline.nlp import recognise, tag_and_parse

        if session not in self._docs:
            # An assistant's replies are not the user's life: not parsed, never mined.
            texts = ["" if is_bot(t.speaker) else t.text for t in session.turns]
            ready = [self._take_ahead(text) for text in texts]
            try:
                fresh = iter(tag_and_parse([text for text, doc in zip(texts, ready) if doc is None]))
                self._docs[session] = recognise([doc if doc is not None else next(fresh) for doc in ready], known_words)
            except ValueError as exc:  # spaCy refuses a text, e.g. E088 over its max_length
                reason = str(exc).strip().splitlines()[0] if str(exc).strip() else "ValueError"
                raise EngineError(f"offline engine: cannot parse session {session.id}: {reason[:200]}") from None
            while len(self._docs) > _KEPT_SESSIONS:
                old, _ = self._docs.popitem(last=False)
                self._found.pop(old, None)
                for key in [k for k in self._analyses if k[0] == old]:
                    del self._analyses[key]
        return self._docs[session]

    def _take_ahead(self, text: str) -> Doc | None:
        """A doc `read_ahead` parsed for this text, taken (each is read once)."""
        waiting = self._ahead.get(text)
        if not waiting:
            return None
        doc = waiting.popleft()
        if not waiting:
            del self._ahead[text]
        self._ahead_chars -= len(text)
        return doc

    def _count(self, started: float) -> None:
        self.usage.calls += 1
        self.usage.seconds += time.perf_counter() - started


def readable(session: SessionView) -> SessionView:
    """The session as the engine reads it: media and app placeholders blanked out (same
    offsets), so nothing is ever mined from "[attached: Dan.jpg]" or an app's wording."""
    turns = tuple(replace(t, text=masked) if (masked := mask(t.text)) != t.text else t for t in session.turns)
    return session if turns == session.turns else replace(session, turns=turns)
