"""One hop of the chain: who is X's relative (or member), by the sentences that say it."""

from __future__ import annotations

from datetime import datetime

from memhop.core.language.chains import follow, relative
from memhop.core.language.sentences import Sentence, gather
from memhop.core.model import AnswerRequest, EntitySlice, TurnView

PEOPLE = tuple(EntitySlice(name, "", ()) for name in ("Noor Haddad", "Tin Owls", "Cal Rees", "Carol", "Lyon"))


def said(text: str) -> list[Sentence]:
    turn = TurnView(1, "Noor Haddad", text, datetime(2024, 5, 2), "1")
    return gather(AnswerRequest("", PEOPLE, (turn,), ("Noor Haddad",)))


def test_the_member_of_a_group_is_the_name_after_its_copula() -> None:
    assert follow("Tin Owls", "drummer", said("Funny thing: the drummer in Tin Owls is Cal Rees.")) == "Cal Rees"
    assert follow("Carol", "sister", said("The sister of Carol is Tin Owls's singer.")) is None


def test_a_relative_in_a_place_is_not_the_places() -> None:
    assert follow("Lyon", "sister", said("My sister in Lyon is Carol.")) is None


def test_only_a_known_name_after_the_copula_is_the_member() -> None:
    """"The mother of Carol was French": an adjective is no one's mother, and only "the
    <role> in <group> is <name>" equates a role with the name after the copula."""
    assert follow("Carol", "mother", said("The mother of Carol was French, and she taught her to cook.")) is None
    assert follow("Tin Owls", "drummer", said("The drummer in Tin Owls is Brilliant, honestly.")) is None


def test_a_couple_is_named_from_either_side() -> None:
    """"Noor's new boyfriend, Cal Rees" says who Cal's girlfriend (or partner) is too: the
    read path's chain and the answerer take the same hop."""
    names = [p.name for p in PEOPLE]
    sentences = said("Noor Haddad's new boyfriend, Cal Rees, came bouldering with us.")
    assert relative("Cal Rees", "girlfriend", names, sentences) == "Noor Haddad"
    assert relative("Cal Rees", "partner", names, sentences) == "Noor Haddad"
    assert relative("Noor Haddad", "boyfriend", names, sentences) == "Cal Rees"
    # a one-way relation stays one-way: Carol's coach has no coach
    assert relative("Cal Rees", "coach", names, said("Carol's coach is Cal Rees.")) is None


def test_a_sibling_from_the_other_side_is_a_sister_only_where_the_text_says_so() -> None:
    """"Noor's brother Cal" makes Noor Cal's sibling, not his sister: Noor may be a brother."""
    names = [p.name for p in PEOPLE]
    only_brother = said("Noor Haddad's brother Cal Rees came too.")
    assert relative("Cal Rees", "sister", names, only_brother) is None
    called_sister = said("Noor Haddad's brother Cal Rees came too. Carol's sister Noor Haddad drove.")
    assert relative("Cal Rees", "sister", names, called_sister) == "Noor Haddad"
    her = said("Noor Haddad's brother Cal Rees came too. Noor Haddad drove, and she sang until her voice went.")
    assert relative("Cal Rees", "sister", names, her) == "Noor Haddad"
    once = said("Noor Haddad's brother Cal Rees came too. Noor Haddad drove, and she sang.")
    assert relative("Cal Rees", "sister", names, once) is None  # one pronoun may be misread
    him = said("Noor Haddad's brother Cal Rees came too. Noor Haddad drove, and he sang until his voice went.")
    assert relative("Cal Rees", "sister", names, him) is None
    assert relative("Cal Rees", "brother", names, him) == "Noor Haddad"


def test_two_who_call_someone_their_partner_leave_the_partner_unknown() -> None:
    names = [p.name for p in PEOPLE]
    two = said("Noor Haddad's wife Carol came. Cal Rees's wife Carol came too.")
    assert relative("Carol", "husband", names, two) is None
    assert relative("Carol", "husband", names, said("Noor Haddad's ex wife Carol came.")) is None
