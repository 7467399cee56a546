"""The evidence for an entity's kind: what a reader would take from the words around a name."""

from __future__ import annotations

from collections import Counter
from datetime import datetime

import pytest

from memhop.core.engines.offline import kinds
from memhop.core.engines.offline.engine import OfflineEngine
from memhop.core.engines.offline.nlp import parse
from memhop.core.model import KnownEntity, SessionView, TurnView, decide_kind


def votes_for(name: str, text: str) -> Counter[str]:
    doc = parse([text])[0]
    start = text.index(name)
    return kinds.mention_votes(doc, start, start + len(name))


def stated(name: str, text: str) -> str | None:
    doc = parse([text])[0]
    start = text.index(name)
    return kinds.stated_kind(doc, start, start + len(name))


@pytest.mark.parametrize(
    ("text", "name", "kind"),
    [
        ("She's from Belo Horizonte and has climbed for years.", "Belo Horizonte", "place"),
        ("Mum has already driven to Llanrwst for the week.", "Llanrwst", "place"),
        ("We met in Tromsø last winter.", "Tromsø", "place"),
        ("Tope works at Saltbox three days a week.", "Saltbox", "org"),
        ("Rhys heard Nain's cat yowling at the door.", "Nain", "person"),
        ("Do-hyun's wife Yerin sat beside him.", "Yerin", "person"),
        ("Rafa, my climbing coach, laughed.", "Rafa", "person"),
        ("Her cat Twm never yowls.", "Twm", "pet"),
        ("Oluwaseun said the rota was a joke.", "Oluwaseun", "person"),
        ("Yerin is a paediatric dentist in Seoul.", "Yerin", "person"),
        ("I went to watch the Rams on Saturday.", "Rams", "org"),
    ],
)
def test_the_words_around_a_mention_vote_for_its_kind(text: str, name: str, kind: str) -> None:
    votes = votes_for(name, text)
    assert votes and votes.most_common(1)[0][0] == kind, votes


@pytest.mark.parametrize(
    ("name", "kind"),
    [("Kirkgate Clinic", "org"), ("Meanwood Vets", "org"), ("Potternewton Park", "place"),
     ("Manningham Lane", "place"), ("Ferrier & Lowe", "org"), ("Leeds", "place"), ("Seoul", "place")],
)
def test_what_a_name_is_made_of_votes_for_its_kind(name: str, kind: str) -> None:
    assert kinds.name_votes(name).most_common(1)[0][0] == kind


def test_a_first_name_alone_is_not_a_place() -> None:
    assert kinds.name_votes("Siobhán") == Counter() and kinds.name_votes("Bartek") == Counter()


def _session(*turns: tuple[str, str], self_name: str = "Jun Park") -> SessionView:
    views = tuple(TurnView(i + 1, speaker, text, datetime(2024, 9, 3, 18, i)) for i, (speaker, text) in enumerate(turns))
    return SessionView(1, views[0].timestamp, self_name, views)


def test_a_chat_speaker_first_typed_an_organisation_becomes_a_person() -> None:
    known = [KnownEntity(1, "Jun Park", "self"), KnownEntity(2, "Bartek", "org", (), (("org", 3.0),))]
    session = _session(("Bartek Nowicki", "first quiz next tuesday"), ("Jun Park", "I'm in"),
                       ("Bartek Nowicki", "i will book the table"))
    bartek = next(e for e in OfflineEngine().identify(session, known) if e.name == "Bartek")
    assert bartek.kind == "person" and dict(bartek.kind_votes)["person"] >= kinds.SPEAKS


def test_self_never_changes_kind() -> None:
    assert decide_kind((("place", 100.0),), "self") == "self"


@pytest.mark.parametrize(
    ("text", "name", "kind"),
    [
        ("Got the train to see Saltbox, Tope's bakery.", "Saltbox", "org"),
        ("Biscuit is a Staffordshire bull terrier.", "Biscuit", "pet"),
        ("Rafaela, my climbing coach, laughed.", "Rafaela", "person"),
        ("Pickle is Marcus's beagle.", "Pickle", "pet"),
    ],
)
def test_what_the_text_states_outright_decides(text: str, name: str, kind: str) -> None:
    assert stated(name, text) == kind


@pytest.mark.parametrize(
    ("text", "name", "kind"),
    [
        ("Bartek plays bass in a band called Moth Parliament.", "Moth Parliament", "org"),
        ("Nain has a grumpy old cat called Twm.", "Twm", "pet"),
        ("Tope took on a new guy called Ifeanyi.", "Ifeanyi", "person"),
        ("The vet gave me a leaflet called Portion Awareness.", "Portion Awareness", kinds.THING),
        ("Seun got a job with Roundhay Rams, the women's rugby league team.", "Roundhay Rams", "org"),
    ],
)
def test_a_noun_that_names_it_says_what_it_is(text: str, name: str, kind: str) -> None:
    assert stated(name, text) == kind


def test_a_named_thing_is_not_an_entity_and_a_short_form_joins_its_organisation() -> None:
    session = _session(
        ("Jun Park", "The vet gave me a leaflet called Portion Awareness."),
        ("Jun Park", "Seun got the job with Roundhay Rams, the women's rugby league team."),
    )
    found = OfflineEngine().identify(session, [KnownEntity(1, "Jun Park", "self")])
    assert "Portion Awareness" not in [e.name for e in found]
    rams = next(e for e in found if e.name == "Roundhay Rams")
    assert rams.kind == "org"
    later = _session(("Jun Park", "Seun texted a photo from the physio room at the Rams."))
    known = [KnownEntity(1, "Jun Park", "self"), KnownEntity(2, "Roundhay Rams", "org")]
    names = [e.name for e in OfflineEngine().identify(later, known)]
    assert "Rams" not in names


def test_a_real_name_in_a_later_paragraph_is_an_alias() -> None:
    session = _session(
        ("Jun Park", "Bartek, who sits opposite me, took me for a pint after work."),
        ("Jun Park", "His real name is Bartłomiej. Nobody has ever attempted it."),
    )
    found = OfflineEngine().identify(session, [KnownEntity(1, "Jun Park", "self")])
    bartek = next(e for e in found if e.name == "Bartek")
    assert "Bartłomiej" in bartek.aliases and "Bartłomiej" not in [e.name for e in found]


def test_a_kin_word_used_as_a_name_is_a_person_until_the_text_names_them() -> None:
    engine = OfflineEngine()
    first = _session(("Jun Park", "Dad retires in June. Her Dad is a vet, Seun says."))
    found = engine.identify(first, [KnownEntity(1, "Jun Park", "self")])
    assert [(e.name, e.kind) for e in found if e.name == "Dad"] == [("Dad", "person")]
    later = _session(("Jun Park", "Lunch with Dad (Gareth) at the pub."))
    known = [KnownEntity(1, "Jun Park", "self"), KnownEntity(2, "Dad", "person")]
    dad = next(e for e in engine.identify(later, known) if "Dad" in (e.name, *e.aliases))
    assert dad.name == "Gareth" and "Dad" in dad.aliases


def test_a_work_read_or_played_is_not_an_entity() -> None:
    assert stated("Clair de Lune", "My right hand remembers the first page of Clair de Lune.") == kinds.THING


def test_a_subjectless_fragment_takes_the_subject_of_the_clause_it_runs_into() -> None:
    engine = OfflineEngine()
    session = _session(("Jun Park", "Three years as Seun's flatmate and I still lose every argument about the dog."))
    known = [KnownEntity(1, "Jun Park", "self"), KnownEntity(2, "Seun Adeyemi", "person", ("Seun",))]
    jun = next(e for e in engine.identify(session, known) if e.name == "Jun Park")
    assert "Jun Park is Seun Adeyemi's flatmate." in engine.coextract(jun, None, [], session).profile


def test_the_placeholder_profile_of_a_first_guess_is_not_kept_as_a_fact() -> None:
    engine = OfflineEngine()
    session = _session(("Jun Park", "Haneul is Do-hyun's daughter and she is almost five months old."))
    known = [KnownEntity(1, "Jun Park", "self"), KnownEntity(2, "Haneul", "person")]
    haneul = next(e for e in engine.identify(session, known) if e.name == "Haneul")
    profile = engine.coextract(haneul, "Haneul is a place mentioned in passing.", [], session).profile
    assert "mentioned in passing" not in profile and "daughter" in profile


def test_a_possessive_pronoun_belongs_to_its_clauses_subject() -> None:
    engine = OfflineEngine()
    session = _session(("Jun Park", "Haneul is tiny and she sleeps all day. Yerin is back at her clinic three days a week."))
    known = [KnownEntity(1, "Jun Park", "self"), KnownEntity(2, "Haneul", "person"), KnownEntity(3, "Yerin", "person")]
    found = engine.identify(session, known)
    haneul = next(e for e in found if e.name == "Haneul")
    assert "clinic" not in engine.coextract(haneul, None, [], session).profile
