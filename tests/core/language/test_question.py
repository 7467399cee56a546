"""Reading a question without a model: where its chain starts, which relations it walks,
and which words are left for the answer sentence to match."""

from __future__ import annotations

import pytest

from memhop.core.language.question import parse

NAMES = ["Ines Moreau", "Tomas", "Jo-ann Reyes", "Gabriela Lima"]


def test_a_hyphenated_name_owns_its_relations() -> None:
    q = parse("When was Jo-ann's daughter born?", NAMES)
    assert (q.owner, q.relations) == ("Jo-ann", ("daughter",))
    assert "born" in q.predicate and "ann" not in q.predicate


def test_a_whole_name_owns_not_just_its_last_word() -> None:
    q = parse("Where does Ines Moreau's brother live?", NAMES)
    assert (q.owner, q.relations) == ("Ines Moreau", ("brother",))
    assert parse("What instrument does Ines Moreau play?", NAMES).owner == "Ines Moreau"


def test_an_unknown_nickname_still_starts_the_chain() -> None:
    q = parse("What breed is Gabi's dog?", NAMES)
    assert (q.owner, q.relations) == ("Gabi", ("dog",))


def test_my_relation_followed_by_a_name_starts_at_the_name() -> None:
    q = parse("What is the name of the band my colleague Tomas plays in?", NAMES)
    assert (q.owner, q.relations) == ("Tomas", ())
    assert "colleague" not in q.predicate


def test_owned_by_reads_like_a_possessive() -> None:
    q = parse("What breed is the cat owned by my sister's neighbour?", NAMES)
    assert (q.owner, q.relations) == ("my", ("sister", "neighbour", "cat"))


def test_now_is_a_tense_not_a_word_to_match() -> None:
    assert "now" not in parse("Where does Tomas live now?", NAMES).predicate


def test_naming_verbs_are_kept_and_the_noun_name_is_not() -> None:
    assert "nam" in parse("What did Tomas name the kitten?", NAMES).predicate
    assert "nam" not in parse("What is the name of Tomas's kitten?", NAMES).predicate


def test_relations_written_with_of_keep_the_words_that_say_which() -> None:
    """"the best friend of the climbing partner of Tomas's sister" walks sister, then climbing
    partner, then best friend: every "of" link is read, with its describing words."""
    q = parse("Which sport does the best friend of the climbing partner of Tomas's sister play?", NAMES)
    assert (q.owner, q.relations) == ("Tomas", ("sister", "climbing partner", "best friend"))
    assert "climb" not in q.predicate and "best" not in q.predicate


def test_a_group_the_chain_owns_is_one_more_hop_and_a_member_of_it_another() -> None:
    assert parse("Where did Tomas's band play?", NAMES).relations == ("band",)
    q = parse("Where does the wife of the bassist in my workmate's band live these days?", NAMES)
    assert (q.owner, q.relations) == ("my", ("workmate", "band", "bassist", "wife"))
    assert "bassist" not in q.predicate and "band" not in q.predicate


def test_only_a_role_noun_after_an_article_is_a_member_hop_before_in() -> None:
    """"What does Ines play in Tomas's band?" asks what she plays: "play" (or "Ines play") is
    no role, and "plays drums" no member; the words stay in the predicate."""
    q = parse("What does Ines play in Tomas's band?", NAMES)
    assert (q.owner, q.relations) == ("Tomas", ("band",)) and "play" in q.predicate
    q = parse("Who plays drums in my workmate's band?", NAMES)
    assert q.relations == ("workmate", "band") and "drum" in " ".join(q.predicate)
    assert parse("Who is the lead singer in my workmate's band?", NAMES).relations == (
        "workmate", "band", "lead singer")


@pytest.mark.parametrize(("text", "wh"), [
    ("Did Pia see how the match ended?", "yes/no"),  # a wh-word inside a yes/no question
    ("Is Odran still at the bakery?", "yes/no"),
    ("Do you know where Pia lives?", "where"),  # an indirect question asks where
    ("Could you remind me where Pia works?", "where"),  # "you" asked to remind, tell, know, note
    ("Do you have any idea where Pia works?", "where"),
    ("Have you any idea where Pia lives?", "where"),
    ("Have I ever told you where Pia works?", "where"),
    ("Did I ever write down what Pia's dog is called?", "what"),
    ("Did I note how much the ferry cost?", "how much"),
    ("Does Odran know where Pia works?", "yes/no"),  # a third person's knowing is asked yes or no
    ("How did Pia get there?", "how"),
])
def test_a_question_opening_with_an_auxiliary_asks_yes_or_no(text: str, wh: str) -> None:
    assert parse(text, ["Pia", "Odran"]).wh == wh


@pytest.mark.parametrize(("text", "owner"), [
    ("How's Pia's new job going?", "Pia"),  # "how's" is "how is", as "when's" is "when is"
    ("How’s Odran been since the move?", "Odran"),  # "how has", with a curly apostrophe
    ("How is Pia's new job going?", "Pia"),
])
def test_a_contracted_how_is_read_as_how(text: str, owner: str) -> None:
    question = parse(text, ["Pia", "Odran"])
    assert (question.wh, question.owner) == ("how", owner)


def test_my_before_a_name_makes_the_question_mine() -> None:
    # "my time in the Harbour 10K": the time is mine, the 10K only where it was
    asked = parse("What was my time in the Harbour 10K?", ["Harbour", "Oskar"])
    assert asked.owner == "my"
    assert parse("What did I give Oskar for his birthday?", ["Oskar"]).owner == "Oskar"


@pytest.mark.parametrize(("text", "owner"), [
    ("What is the name of the noodle bar I ate at in Port Ellery?", "I"),  # the town says where; "I" says whom
    ("Which café in Port Ellery did Pia like?", "Pia"),
    ("What does the café in Port Ellery sell?", "Port Ellery"),  # all it names is the place
    ("What did Pia buy in Port Ellery?", "Pia"),
    ("Which part of Port Ellery does Pia live in?", "Pia"),  # "part of" sets the town as "in" does
])
def test_a_name_after_in_or_at_is_where_not_whom(text: str, owner: str) -> None:
    assert parse(text, ["Port Ellery", "Pia"]).owner == owner
