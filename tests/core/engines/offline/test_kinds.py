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
        ("She's from Campo Grande and has climbed for years.", "Campo Grande", "place"),
        ("Gran has already cycled to Kendal for the month.", "Kendal", "place"),
        ("We met in Tromsø last winter.", "Tromsø", "place"),
        ("Dayo works at Tinderbox on Mondays and Fridays.", "Tinderbox", "org"),
        ("Gethin saw Bronwen's dog scratching at the gate.", "Bronwen", "person"),
        ("Min-jae's wife Soyeon stood behind him.", "Soyeon", "person"),
        ("Tati, my swimming coach, laughed.", "Tati", "person"),
        ("Her cat Gwil never yowls.", "Gwil", "pet"),
        ("Olakunle said the rota was a joke.", "Olakunle", "person"),
        ("Soyeon is a hospital pharmacist in Busan.", "Soyeon", "person"),
        ("I went to watch the Hawks on Saturday.", "Hawks", "org"),
        ("my roommate is called Zofia, she does law.", "Zofia", "person"),  # a roommate is someone
        ("we should take him to Castellano for the octopus", "Castellano", "place"),  # where one takes someone
        ("Book club at Ottoline's place tonight.", "Ottoline", "person"),  # "X's place" is X's home
    ],
)
def test_the_words_around_a_mention_vote_for_its_kind(text: str, name: str, kind: str) -> None:
    votes = votes_for(name, text)
    assert votes and votes.most_common(1)[0][0] == kind, votes


@pytest.mark.parametrize(
    ("name", "kind"),
    [("Eastgate Clinic", "org"), ("Oakwell Surgery", "org"), ("Pellingham Park", "place"),
     ("Thornbury Lane", "place"), ("Ashdown & Crane", "org"), ("Leicester", "place"), ("Busan", "place")],
)
def test_what_a_name_is_made_of_votes_for_its_kind(name: str, kind: str) -> None:
    assert kinds.name_votes(name).most_common(1)[0][0] == kind


def test_a_first_name_alone_is_not_a_place() -> None:
    assert kinds.name_votes("Órlaith") == Counter() and kinds.name_votes("Przemek") == Counter()


def _session(*turns: tuple[str, str], self_name: str = "Ada Heath") -> SessionView:
    views = tuple(TurnView(i + 1, speaker, text, datetime(2024, 9, 3, 18, i)) for i, (speaker, text) in enumerate(turns))
    return SessionView(1, views[0].timestamp, self_name, views)


def test_a_chat_speaker_first_typed_an_organisation_becomes_a_person() -> None:
    known = [KnownEntity(1, "Ada Heath", "self"), KnownEntity(2, "Przemek", "org", (), (("org", 3.0),))]
    session = _session(("Przemek Wilk", "first match next thursday"), ("Ada Heath", "I'm in"),
                       ("Przemek Wilk", "i will bring the ball"))
    przemek = next(e for e in OfflineEngine().identify(session, known) if e.name == "Przemek")
    assert przemek.kind == "person" and dict(przemek.kind_votes)["person"] >= kinds.SPEAKS


def test_self_never_changes_kind() -> None:
    assert decide_kind((("place", 100.0),), "self") == "self"


@pytest.mark.parametrize(
    ("text", "name", "kind"),
    [
        ("Got the train to see Tinderbox, Dayo's bakery.", "Tinderbox", "org"),
        ("Noodle is a wire-haired dachshund.", "Noodle", "pet"),
        ("Tatiana, my swimming coach, laughed.", "Tatiana", "person"),
        ("Pickle is Marcus's beagle.", "Pickle", "pet"),
    ],
)
def test_what_the_text_states_outright_decides(text: str, name: str, kind: str) -> None:
    assert stated(name, text) == kind


@pytest.mark.parametrize(
    ("text", "name", "kind"),
    [
        ("Przemek drums for a band called Tin Orchard.", "Tin Orchard", "org"),
        ("Bronwen has a fat ginger cat called Gwil.", "Gwil", "pet"),
        ("Dayo took on a new guy called Ifeanyi.", "Ifeanyi", "person"),
        ("The dentist handed me a booklet called Brushing Basics.", "Brushing Basics", kinds.THING),
        ("Kunle got a job with Harehills Hawks, the women's netball team.", "Harehills Hawks", "org"),
    ],
)
def test_a_noun_that_names_it_says_what_it_is(text: str, name: str, kind: str) -> None:
    assert stated(name, text) == kind


def test_a_named_thing_is_not_an_entity_and_a_short_form_joins_its_organisation() -> None:
    session = _session(
        ("Ada Heath", "The dentist handed me a booklet called Brushing Basics."),
        ("Ada Heath", "Kunle got the job with Harehills Hawks, the women's netball team."),
    )
    found = OfflineEngine().identify(session, [KnownEntity(1, "Ada Heath", "self")])
    assert "Brushing Basics" not in [e.name for e in found]
    rams = next(e for e in found if e.name == "Harehills Hawks")
    assert rams.kind == "org"
    later = _session(("Ada Heath", "Kunle sent a selfie from the changing room at the Hawks."))
    known = [KnownEntity(1, "Ada Heath", "self"), KnownEntity(2, "Harehills Hawks", "org")]
    names = [e.name for e in OfflineEngine().identify(later, known)]
    assert "Hawks" not in names


def test_a_real_name_in_a_later_paragraph_is_an_alias() -> None:
    session = _session(
        ("Ada Heath", "Przemek, who shares my desk, took me for a curry after work."),
        ("Ada Heath", "His real name is Przemysław. Nobody can spell it."),
    )
    found = OfflineEngine().identify(session, [KnownEntity(1, "Ada Heath", "self")])
    przemek = next(e for e in found if e.name == "Przemek")
    assert "Przemysław" in przemek.aliases and "Przemysław" not in [e.name for e in found]


def test_a_kin_word_used_as_a_name_is_a_person_until_the_text_names_them() -> None:
    engine = OfflineEngine()
    first = _session(("Ada Heath", "Dad moves house in August. Her Dad is a baker, Kunle says."))
    found = engine.identify(first, [KnownEntity(1, "Ada Heath", "self")])
    assert [(e.name, e.kind) for e in found if e.name == "Dad"] == [("Dad", "person")]
    later = _session(("Ada Heath", "Lunch with Dad (Gareth) at the pub."))
    known = [KnownEntity(1, "Ada Heath", "self"), KnownEntity(2, "Dad", "person")]
    dad = next(e for e in engine.identify(later, known) if "Dad" in (e.name, *e.aliases))
    assert dad.name == "Gareth" and "Dad" in dad.aliases


def test_a_work_read_or_played_is_not_an_entity() -> None:
    assert stated("Gymnopédie", "Her fingers still know the opening bars of Gymnopédie.") == kinds.THING


def test_a_subjectless_fragment_takes_the_subject_of_the_clause_it_runs_into() -> None:
    engine = OfflineEngine()
    session = _session(("Ada Heath", "Two years as Kunle's flatmate and I always lose the debate about the heating."))
    known = [KnownEntity(1, "Ada Heath", "self"), KnownEntity(2, "Kunle Babatunde", "person", ("Kunle",))]
    jun = next(e for e in engine.identify(session, known) if e.name == "Ada Heath")
    assert "Ada Heath is Kunle Babatunde's flatmate." in engine.coextract(jun, None, [], session).profile


def test_the_placeholder_profile_of_a_first_guess_is_not_kept_as_a_fact() -> None:
    engine = OfflineEngine()
    session = _session(("Ada Heath", "Dahye is Min-jae's daughter and she is nearly seven weeks old."))
    known = [KnownEntity(1, "Ada Heath", "self"), KnownEntity(2, "Dahye", "person")]
    haneul = next(e for e in engine.identify(session, known) if e.name == "Dahye")
    profile = engine.coextract(haneul, "Dahye is a place mentioned in passing.", [], session).profile
    assert "mentioned in passing" not in profile and "daughter" in profile


def test_a_possessive_pronoun_belongs_to_its_clauses_subject() -> None:
    engine = OfflineEngine()
    session = _session(("Ada Heath", "Dahye is small and she naps all afternoon. Soyeon runs her clinic on Tuesdays."))
    known = [KnownEntity(1, "Ada Heath", "self"), KnownEntity(2, "Dahye", "person"), KnownEntity(3, "Soyeon", "person")]
    found = engine.identify(session, known)
    haneul = next(e for e in found if e.name == "Dahye")
    assert "clinic" not in engine.coextract(haneul, None, [], session).profile
