"""Typed answer spans of the offline answerer: the question's type decides what counts as an
answer (a date, a place, a class, a verb's object, a list, a count), relative dates are read
against the turn that says them, and a broken chain or an unsupported span is refused."""

from __future__ import annotations

from datetime import datetime

from memhop.core.engines.offline.answer import DONT_KNOW, answer_offline, explain
from memhop.core.model import AnswerRequest, EntitySlice, TurnView

NOOR = EntitySlice("Noor Haddad", "Noor Haddad keeps this diary. Her brother is Tomas.", ())
TOMAS = EntitySlice("Tomas", "Tomas is Noor's brother.", ())
INES = EntitySlice("Ines", "Ines is Noor's flatmate.", ())


def turn(i: int, text: str, day: str, speaker: str = "Noor Haddad") -> TurnView:
    return TurnView(i, speaker, text, datetime.fromisoformat(day), f"{day}#{i}")


def ask(question: str, slices=(NOOR, TOMAS, INES), evidence=(), chain=("Noor Haddad",)) -> str:
    # the read path starts a question that says "I" at the writer, who is its asker
    return answer_offline(AnswerRequest(question, tuple(slices), tuple(evidence), tuple(chain), asker=next(iter(chain), None)))


def test_last_night_is_the_day_before_the_entry_that_says_it() -> None:
    entry = turn(1, "Tomas's cello recital was last night and he was brilliant.", "2024-06-15")
    assert ask("When was Tomas's cello recital?", evidence=(entry,)) == "14 June 2024"


def test_a_later_mention_does_not_date_the_event() -> None:
    later = turn(2, "Tomas says his cello has sounded odd since the recital.", "2024-09-02")
    assert ask("When was Tomas's cello recital?", evidence=(later,)) == DONT_KNOW
    entry = turn(1, "Tomas's recital is next Friday (21 June).", "2024-06-12")
    assert ask("When was Tomas's cello recital?", evidence=(later, entry)) == "21 June 2024"


def test_a_date_without_a_year_is_read_on_the_side_the_verb_points_to() -> None:
    # said a week before: this year's 28 September, not last year's
    coming = turn(1, "Tomas's recital is on 28 September.", "2024-09-21")
    assert ask("When is Tomas's recital?", evidence=(coming,)) == "28 September 2024"
    gone = turn(1, "Tomas's recital was on 28 September.", "2024-09-21")
    assert ask("When was Tomas's recital?", evidence=(gone,)) == "28 September 2023"
    soon = turn(1, "Tomas's recital is on Friday.", "2024-06-12")  # a Wednesday: the Friday two days on
    assert ask("When is Tomas's recital?", evidence=(soon,)) == "14 June 2024"
    just_now = turn(1, "Tomas's recital is on 18 September and I am still buzzing.", "2024-09-21")
    assert ask("When is Tomas's recital?", evidence=(just_now,)) == "18 September 2024"  # three days ago
    saturday = turn(1, "Tomas's match is on Saturday.", "2024-06-11")  # a Tuesday: the coming one
    assert ask("When is Tomas's match?", evidence=(saturday,)) == "15 June 2024"
    # a present tense that only remembers a date months from either reading: no year is guessed
    remembered = turn(1, "I still think about Tomas's trip to Porto on 3 May.", "2024-12-01")
    assert ask("When was Tomas's trip to Porto?", evidence=(remembered,)) == DONT_KNOW
    run_on = turn(1, "Tomas's bake sale's on 5 October.", "2024-09-21")  # the tagger's possessive "'s": "is"
    assert ask("When is Tomas's bake sale?", evidence=(run_on,)) == "5 October 2024"
    photos = turn(1, "Tomas's wedding photos from 14 April are finally here.", "2024-11-20")
    assert ask("When was Tomas's wedding?", evidence=(photos,)) == "14 April 2024"


def test_a_present_tense_about_a_date_months_away_reads_the_one_gone_by() -> None:
    """A present verb does not make a date months ahead the coming one: a caption, a state
    since a day, a thing from a day all look back (the coming six weeks aside)."""
    for text, question in [
        ("Tomas's been in Lisbon since 3 May.", "When did Tomas move to Lisbon?"),
        ("The photos are from our hike on 3 May.", "When was the hike?"),
        ("The bakery is closed since 3 May.", "When did the bakery close?"),
    ]:
        assert ask(question, evidence=(turn(1, text, "2024-12-01"),)) == "3 May 2024", text
    caption = turn(1, "This is Tomas at the lake on 3 May.", "2024-01-15")
    assert ask("When was Tomas at the lake?", evidence=(caption,)) == "3 May 2023"
    on_mind = turn(1, "Tomas's accident is on my mind since 3 May.", "2024-01-15")
    assert ask("When was Tomas's accident?", evidence=(on_mind,)) == "3 May 2023"


def test_what_breed_asks_for_the_class_the_text_gives_the_animal() -> None:
    juno = EntitySlice("Juno", "Juno is Tomas's dog.", ("Juno is a wire-haired lurcher who hates rain.",))
    assert ask("What breed is Tomas's dog?", slices=(TOMAS, juno)) == "wire-haired lurcher"
    appositive = EntitySlice("Juno", "Juno is Tomas's dog.", ("Tomas walked his whippet Juno by the river.",))
    assert ask("What breed is Tomas's dog?", slices=(TOMAS, appositive)) == "whippet"


def test_a_chain_that_breaks_is_refused_rather_than_answered_about_another_animal() -> None:
    juno = EntitySlice("Juno", "Juno is Tomas's dog.", ("Juno is a whippet.",))
    assert ask("What breed is Ines's dog?", slices=(TOMAS, INES, juno)) == DONT_KNOW
    assert ask("What breed is Ines's cat?", slices=(TOMAS, INES, juno)) == DONT_KNOW


def test_what_did_i_give_is_the_object_of_the_speakers_giving() -> None:
    gift = turn(3, "I gave him the blue scarf I had been knitting since March.", "2024-05-04")
    context = turn(2, "Tomas turned forty today.", "2024-05-04")
    assert ask("What did I give Tomas for his birthday?", evidence=(context, gift)) == "blue scarf"


def test_what_did_someone_name_is_the_name_given() -> None:
    named = turn(1, "Ines has named it Biscotti.", "2024-07-01", speaker="Noor Haddad")
    kitten = turn(0, "I brought Ines a kitten from the shelter.", "2024-07-01")
    assert ask("What did Ines name the kitten I brought?", evidence=(kitten, named)) == "Biscotti"


def test_a_name_question_is_answered_by_a_name_only() -> None:
    vague = turn(1, "Ines says the choir is getting bigger every week.", "2024-02-01")
    assert ask("What is Ines's choir called?", evidence=(vague,)) == DONT_KNOW
    named = turn(2, "Ines sings in a choir called The Low Notes.", "2024-02-08")
    assert ask("What is the name of Ines's choir?", evidence=(vague, named)) == "The Low Notes"


def test_roles_read_past_adverbs_and_fields_of_work() -> None:
    role = turn(1, "Ines is officially a structural engineer at Ortega & Lund now.", "2024-03-01")
    assert ask("What does Ines do for a living?", evidence=(role,)) == "structural engineer"
    field = EntitySlice("Ines", "Ines is Noor's flatmate.", ("Ines works in marketing.",))
    assert ask("What does Ines do?", slices=(NOOR, field)) == "works in marketing"


def test_a_living_said_by_a_verb_answers_what_someone_does() -> None:
    teaches = turn(1, "Ines teaches geography at the sixth-form college.", "2024-03-01")
    assert ask("What does Ines do for a living?", evidence=(teaches,)) == "teaches geography"
    # a verb that is not a living, or a denied one, answers nothing
    runs = turn(2, "Ines runs a half marathon every spring.", "2024-03-02")
    assert ask("What does Ines do for a living?", evidence=(runs,)) == DONT_KNOW
    stopped = turn(3, "Ines doesn't teach geography any more.", "2024-03-03")
    assert ask("What does Ines do for a living?", evidence=(stopped,)) == DONT_KNOW


def test_lists_gather_items_across_sessions() -> None:
    first = turn(1, "Tomas plays the cello in the county orchestra.", "2024-01-10")
    second = turn(2, "Tomas is playing his grandad's banjo at the village fair.", "2024-06-02")
    assert ask("Which instruments does Tomas play?", evidence=(first, second)) == "cello and banjo"


def test_a_list_keeps_a_longer_item_that_is_another_thing_and_drops_true_duplicates() -> None:
    """"bass guitar" is not the same instrument as "guitar"; "Guitar" is."""
    said = [turn(1, "Tomas plays guitar in a covers band.", "2024-01-10"),
            turn(2, "Tomas played the bass guitar at the village fair.", "2024-06-02"),
            turn(3, "Tomas plays Guitar on Fridays.", "2024-07-02")]
    assert ask("Which instruments does Tomas play?", evidence=tuple(said)) == "guitar and bass guitar"


def test_a_list_after_a_colon() -> None:
    books = turn(1, "My favourite films that year, in order: Alien, Heat, Up.", "2023-12-30")
    assert ask("What were my top 3 films of 2023?", evidence=(books,)) == "Alien, Heat and Up"


def test_how_many_times_counts_the_days_it_happened() -> None:
    climbs = [
        turn(i, "Ines went bouldering with Tomas after work.", day)
        for i, day in enumerate(["2024-02-01", "2024-02-08", "2024-02-15"], start=1)
    ]
    assert ask("How many times did Ines go bouldering?", evidence=climbs) == "3"


def test_a_period_in_the_question_picks_the_sentence_of_that_period() -> None:
    old = turn(1, "Tomas turned 39 today, cake at Mum's.", "2023-08-20")
    new = turn(2, "Tomas turned 40 today, cake at Mum's.", "2024-08-20")
    assert ask("How old did Tomas turn in August 2024?", evidence=(old, new)) == "40"
    assert ask("How old did Tomas turn in August 2023?", evidence=(old, new)) == "39"


def test_ages_from_an_ordinal_birthday() -> None:
    party = turn(1, "Off to Hexham for Tomas's 40th.", "2024-05-18")
    assert ask("How old did Tomas turn?", evidence=(party,)) == "40"


def test_an_age_in_words_is_read_whole() -> None:
    """"forty-one" is 41, not the "forty" before its hyphen."""
    party = turn(1, "Tomas turned forty-one today and pretended not to mind.", "2024-05-18")
    assert ask("How old did Tomas turn?", evidence=(party,)) == "41"
    assert ask("How old is Tomas?", evidence=(turn(2, "Tomas is sixteen and taller than me.", "2024-05-19"),)) == "16"


def test_measures_come_from_the_recogniser_not_from_the_time_of_day() -> None:
    born = EntitySlice("Lina", "Lina is Tomas's daughter.", ("Lina was born at ten to six, weighing 3.4 kg.",))
    tomas = EntitySlice("Tomas", "Tomas is Noor's brother. His daughter is Lina.", ())
    assert ask("How much did Tomas's daughter weigh as a newborn?", slices=(tomas, born)) == "3.4 kg"


def test_now_prefers_the_latest_statement() -> None:
    old = turn(1, "Ines lives in Porto, near the river.", "2023-04-01")
    new = turn(2, "Ines has moved to Lyon for the new job.", "2024-09-01")
    assert ask("Where does Ines live now?", evidence=(old, new)) == "Lyon"


def test_left_for_a_place_is_moving_there() -> None:
    new = turn(2, "Ines left for Lyon this morning, with all her stuff in one suitcase.", "2024-09-01")
    assert ask("Which city is Ines living in now?", evidence=(new,)) == "Lyon"
    old = turn(1, "Ines lives in Porto, near the river.", "2023-04-01")
    assert ask("Which city did Ines move to?", evidence=(old, new)) == "Lyon"


def test_left_for_never_outranks_a_move_and_a_trip_or_what_is_left_is_no_home() -> None:
    """"left for" may be a journey: a newer one does not beat "moved to" for where someone
    lives, and a trip, the noun "leave", an errand or what is left over say nothing of a home."""
    moved = turn(1, "Ines moved to Exeter in 2019.", "2019-03-01")
    trip = turn(2, "Ines left for Rome on Friday for a two-day conference.", "2024-05-10")
    assert ask("Where does Ines live now?", evidence=(moved, trip)) == "Exeter"
    assert ask("Where does Ines live now?", evidence=(trip,)) == DONT_KNOW
    plain = turn(2, "Ines left for Rome on Friday.", "2024-05-10")
    assert ask("Where does Ines live now?", evidence=(moved, plain)) == "Exeter"
    assert ask("Where did Ines move to?", evidence=(moved, plain)) == "Exeter"
    for said in ("Ines left for the airport in Dublin after lunch.", "Ines is on leave for two weeks in Porto.",
                 "Ines has three days left for Lisbon."):
        assert ask("Where does Ines live now?", evidence=(turn(3, said, "2024-06-01"),)) == DONT_KNOW, said


def test_where_from_wants_the_place_after_from_and_never_an_owner() -> None:
    said = turn(1, "Ines met Tomas's friends from the rowing club. She's from Valparaíso originally.", "2024-03-01")
    rafa = EntitySlice("Ines", "Ines is Noor's flatmate.", ())
    assert ask("Where is Ines from?", slices=(rafa,), evidence=(said,)) == "Valparaíso"


def test_spouses_are_each_others() -> None:
    ines = EntitySlice("Ines", "Ines is Noor's flatmate.", ("Ines's husband, Marco, is a pilot.",))
    marco = EntitySlice("Marco", "Marco flies for a small airline.", ("Marco is from Turin.",))
    assert ask("Where is my flatmate's husband from?", slices=(NOOR, ines, marco)) == "Turin"
    assert ask("Who is Marco's wife?", slices=(NOOR, ines, marco)) == "Ines"


def test_the_explanation_keeps_its_sentence() -> None:
    entry = turn(1, "Tomas's cello recital was last night and he was brilliant.", "2024-06-15")
    steps = explain(AnswerRequest("When was Tomas's cello recital?", (NOOR, TOMAS), (entry,), ("Noor Haddad",)))
    assert steps.answer == "14 June 2024"
    assert steps.sentence == entry.text
    assert steps.chain == ("Tomas",)


def test_words_cut_from_a_sentence_that_says_nothing_of_the_question_are_not_an_answer() -> None:
    club = turn(1, "Ines met everyone at the club on Friday.", "2024-03-01")
    assert ask("What instrument does Ines play at the club?", evidence=(club,)) == DONT_KNOW


def test_where_someone_moved_to_not_from() -> None:
    move = turn(1, "Ines moved from Ghent to Lyon last spring.", "2024-06-01")
    assert ask("Where does Ines live now?", evidence=(move,)) == "Lyon"


def test_a_current_role_over_a_former_one() -> None:
    job = turn(1, "Ines was a teacher for years, but she is now an accountant.", "2024-06-01")
    assert ask("What does Ines do for a living now?", evidence=(job,)) == "accountant"


def test_in_what_year_wants_a_year() -> None:
    cafe = EntitySlice("Alder Café", "A café on Mill Lane.", ("Alder Café opened in 1994 on Mill Lane.",))
    assert ask("In what year did Alder Café open?", slices=(cafe,)) == "1994"


def test_a_month_is_not_a_place() -> None:
    trip = turn(1, "Ines camped in June near Lake Bled with Tomas.", "2024-07-01")
    assert ask("Where has Ines camped?", evidence=(trip,)) == "Lake Bled"


def test_the_thing_a_type_noun_is_said_of() -> None:
    drink = turn(1, "Ines ordered elderflower cordial, her favourite drink.", "2024-07-01")
    assert ask("What is the favourite drink of Ines?", evidence=(drink,)) == "elderflower cordial"


def test_the_explanation_says_where_the_answer_stands_in_its_sentence() -> None:
    drink = turn(1, "Ines ordered elderflower cordial, her favourite drink.", "2024-07-01")
    steps = explain(AnswerRequest("What is the favourite drink of Ines?", (NOOR, INES), (drink,), ("Noor Haddad",)))
    assert steps.span == (13, 32) and drink.text[13:32] == "elderflower cordial"
    refused = explain(AnswerRequest("What is the favourite drink of Tomas?", (NOOR, TOMAS), (), ("Noor Haddad",)))
    assert refused.answer == DONT_KNOW and refused.span is None


def test_a_name_memory_never_mentions_is_refused_not_answered_about_someone_else() -> None:
    violin = turn(1, "I play the violin in the county orchestra.", "2024-03-01")
    assert ask("What instrument do I play?", evidence=(violin,)) == "violin"
    assert ask("What instrument does Ezra play?", evidence=(violin,)) == DONT_KNOW


def test_a_described_relation_is_still_walked_not_dropped() -> None:
    ines = EntitySlice("Ines", "Ines is Noor's flatmate.", ("Ines plays the cello.", "Ines's climbing partner is Marco."))
    marco = EntitySlice("Marco", "Marco climbs with Ines on Sundays.", ("Marco plays the ukulele badly.",))
    assert ask("What instrument does Ines's climbing partner play?", slices=(NOOR, ines, marco)) == "ukulele"
    assert ask("What instrument does Ines's cooking teacher play?", slices=(NOOR, ines, marco)) == DONT_KNOW


def test_the_object_of_the_preposition_the_question_leaves_stranded() -> None:
    cafe = EntitySlice("Alder Café", "A café on Mill Lane.", ("Alder Café is famous for its cardamom buns.",))
    assert ask("What is Alder Café famous for?", slices=(cafe,)) == "cardamom buns"


def test_what_it_stands_for_and_never_the_question_repeated() -> None:
    drink = turn(1, "Ines ordered a ginger beer - it's her favourite drink.", "2024-07-01")
    assert ask("What is the favourite drink of Ines?", evidence=(drink,)) == "ginger beer"


def test_a_where_answer_is_never_a_person_the_question_walked_through() -> None:
    entry = turn(1, "Tomas borrowed my ladder again and still has not returned it.", "2024-07-27")
    assert ask("Where did my brother's band perform in July 2024?", evidence=(entry,)) == DONT_KNOW
    gig = turn(2, "Tomas's band performed at the Copper Hall on Saturday.", "2024-07-27")
    assert ask("Where did my brother's band perform in July 2024?", evidence=(entry, gig)) == "Copper Hall"


def test_which_city_needs_a_place_not_a_clause() -> None:
    chat = turn(1, "no lift to the match sun, kickoff got moved to the indoor pitch", "2024-09-16", speaker="Ines")
    assert ask("Which city does my flatmate live in now?", evidence=(chat,)) == DONT_KNOW


def test_a_count_written_in_words_is_answered_in_digits() -> None:
    party = turn(1, "Tomas is fifty! We had cake at midnight.", "2024-08-12")
    assert ask("How old did my brother turn in August 2024?", evidence=(party,)) == "50"


def test_a_nickname_in_the_question_starts_from_the_person_it_shortens() -> None:
    francesca = EntitySlice("Francesca Lima", "Francesca Lima's brother is Rui.", ())
    rui = EntitySlice("Rui", "Rui is Francesca's brother.", ("Rui plays the cello in an orchestra.",))
    assert ask("What instrument does Fran's brother play?", slices=(francesca, rui)) == "cello"
    # a longer name that only begins the same is someone else, not a short form
    assert ask("What instrument does Frances's brother play?", slices=(francesca, rui)) == DONT_KNOW


def test_where_someone_works_can_be_an_employer_named_after_for_or_with() -> None:
    ines = EntitySlice("Ines", "Ines is Noor's flatmate.", ("Ines took a nursing job with Hollin Care in the spring.",))
    assert ask("Where does Ines work?", slices=(NOOR, ines)) == "Hollin Care"
    assert ask("Where does Ines live?", slices=(NOOR, ines)) == DONT_KNOW  # an employer is no home
    friend = EntitySlice("Ines", "Ines is Noor's flatmate.", ("Ines lives with Pavla near the canal.",))
    assert ask("Where does Ines live now?", slices=(NOOR, friend)) == DONT_KNOW  # "live" is not "for a living"


def test_what_someone_brought_is_what_the_containers_held() -> None:
    ines = EntitySlice("Ines", "Ines is Noor's flatmate.", ("Ines brought a basket of plums and a jar of honey.",))
    assert ask("What did Ines bring?", slices=(NOOR, ines)) == "plums and honey"


def test_the_question_verb_bring_counts_as_much_as_any_other_verb() -> None:
    # "bring" must not be read as "br": the verb is what the answer sentence shares most.
    ines = EntitySlice("Ines", "Ines is Noor's flatmate.", (
        "Ines brought a basket of plums.",
        "The food at the summer barbecue was mostly burnt.",
        "Noor loves a barbecue in the summer.",
    ))
    assert ask("What food did Ines bring to the summer barbecue?", slices=(NOOR, ines)) == "plums"


def test_who_did_something_to_someone_is_the_doer_of_a_sentence_about_them() -> None:
    """"Who drove Gran home?" is answered by whoever did the driving in a sentence that names Gran,
    not refused because the sentence's subject is someone else."""
    gran = EntitySlice("Gran", "Gran is Noor's gran.", ("Gran got lost in the market on 14 April 2024.",))
    dai = EntitySlice("Dai Morgan", "Dai Morgan is Gran's neighbour.",
                      ("Dai Morgan drove Gran home from the market, and she paid him in scones.",))
    assert ask("Who drove Gran home after she got lost in April 2024?", slices=(NOOR, gran, dai)) == "Dai Morgan"
    assert ask("Who drove Gran home after she got lost?", slices=(NOOR, gran)) == DONT_KNOW


def test_a_sibling_is_found_from_the_other_side_of_an_apposition() -> None:
    """"Ola's big sister Kemi" also says who Kemi's sibling is; a sister only when the text
    calls Ola one too (else Ola may be a brother), and not someone it calls a brother."""
    ola = EntitySlice("Ola", "Ola is Noor's flatmate.", ())
    kemi = EntitySlice("Kemi", "", ("Ola's big sister Kemi phoned from Belfast at dawn.",))
    assert ask("Who is Kemi's sister?", slices=(NOOR, ola, kemi)) == DONT_KNOW
    ola = EntitySlice("Ola", "Ola is Noor's flatmate.", ("Ines's sister Ola sings.",))
    rufus = EntitySlice("Rufus", "Rufus is Ola's dog.", ("Rufus is a Border terrier with opinions.",))
    assert ask("Who is Kemi's sister?", slices=(NOOR, ola, kemi, INES)) == "Ola"
    assert ask("What breed is Kemi's sister's dog?", slices=(NOOR, ola, kemi, rufus, INES)) == "Border terrier"
    brother = EntitySlice("Ola", "Ola is Noor's flatmate.", ("Ola is Tomas's brother.",))
    assert ask("Who is Kemi's sister?", slices=(NOOR, TOMAS, brother, kemi)) == DONT_KNOW


def test_what_something_weighed_is_a_measure_even_with_its_unit_written_on() -> None:
    """"What did the dog weigh?" asks for an amount, not what was weighed; "18.2KG" in a
    shouted chat message is 18.2 kg, not 18."""
    rufus = EntitySlice("Rufus", "Rufus is Ines's dog.", ())
    weighed = (turn(1, "When we got there they weighed Rufus, 21.3 kg, and the nurse tutted.", "2024-02-01"),
               turn(3, "RUFUS WEIGHED IN: 18.2KG, DIET WORKS!!!", "2024-11-01", speaker="Ines"))
    assert ask("What did Ines's dog weigh in February 2024?", slices=(NOOR, INES, rufus), evidence=weighed) == "21.3 kg"
    assert ask("What did Ines's dog weigh the last time it was weighed?", slices=(NOOR, INES, rufus),
               evidence=weighed) == "18.2 kg"


def test_the_band_someone_plays_in_is_read_from_what_they_are_in_it() -> None:
    """"the drummer in Tin Owls is Cal Rees" says which band Cal plays in: a player's role word
    stands for "plays", and a copula ties the role to the name after it."""
    cal = EntitySlice("Cal Rees", "Cal Rees is Ines's boyfriend.", ())
    ines = EntitySlice("Ines", "Ines is Noor's flatmate. Ines's boyfriend is Cal Rees.", ())
    gig = (turn(1, "Tin Owls at the Crescent last night. It is loud.", "2024-06-30"),
           turn(2, "Funny thing — the drummer in Tin Owls is Cal Rees. Ines says she mentioned it.", "2024-06-30"))
    assert ask("Which band does Ines's boyfriend play in?", slices=(NOOR, ines, cal), evidence=gig) == "Tin Owls"
    other = (turn(2, "Funny thing — the drummer in Tin Owls is Ana. Cal Rees was there too.", "2024-06-30"),)
    assert ask("Which band does Ines's boyfriend play in?", slices=(NOOR, ines, cal), evidence=other) == DONT_KNOW


def test_an_answer_is_never_someone_the_chain_walked_unless_a_name_is_asked() -> None:
    cal = EntitySlice("Cal", "Cal is Ines's flatmate.", ("Cooked Thai for Cal since it's his favourite cuisine.",))
    ines = EntitySlice("Ines", "Ines's flatmate is Cal.", ())
    said = ask("Which cuisine does Ines's flatmate like best?", slices=(NOOR, ines, cal))
    assert said != "Cal" and "Thai" in said


def test_a_stranded_preposition_wants_its_object_not_an_idiom_or_a_clause() -> None:
    """"What is the bakery where Ines works famous for?" is not "while" ("for a while"), nor
    the sentence about her working there."""
    ines = EntitySlice("Ines", "Ines is Noor's flatmate.", ("Ines has been working at Crumb Hall Bakery for a while now.",))
    assert ask("What is the bakery where Ines works famous for?", slices=(NOOR, ines)) == DONT_KNOW
    bakery = EntitySlice("Crumb Hall Bakery", "Crumb Hall Bakery is a bakery.", ("Crumb Hall Bakery is famous for its rye sourdough.",))
    assert ask("What is Crumb Hall Bakery famous for?", slices=(NOOR, ines, bakery)) == "rye sourdough"  # the object, when said


ANSEL = EntitySlice("Ansel", "Ansel is Noor's workmate.", ("Noor's workmate Ansel plays keys in a band called Tin Owls.",))


def test_a_colleagues_band_is_the_band_he_plays_in_and_a_note_without_a_verb_says_where_it_played() -> None:
    owls = EntitySlice("Tin Owls", "Tin Owls is a band.", ())
    gig = turn(1, "Tin Owls at the Copper Hall last night. Ansel was brilliant.", "2024-05-12")
    question = "When did my workmate's band play at the Copper Hall?"
    assert ask(question, slices=(NOOR, ANSEL, owls), evidence=(gig,)) == "11 May 2024"


def test_a_note_without_a_verb_stands_in_for_it_only_beside_another_word_and_below_a_verb() -> None:
    """"Ines at the Louvre" does not say she studied or graduated there: the note answers only
    when the question's other words match it too, and never above a sentence with the verb."""
    note = turn(1, "Ines at the Louvre, with Tomas.", "2019-05-03")
    dated = turn(2, "Ines at the Louvre on 3 May 2019.", "2019-05-03")
    assert ask("Where did Ines study?", evidence=(note,)) == DONT_KNOW
    assert ask("When did Ines graduate?", evidence=(dated,)) == DONT_KNOW
    said = turn(3, "Ines played at the Copper Hall on 2 June 2024.", "2024-06-02")
    later = turn(4, "Ines at the Copper Hall on 9 June 2024.", "2024-06-09")
    assert ask("When did Ines play at the Copper Hall?", evidence=(said, later)) == "2 June 2024"


def test_a_note_without_a_verb_answers_only_for_the_entity_it_opens_with() -> None:
    owls = EntitySlice("Tin Owls", "Tin Owls is a band.", ())
    dinner = turn(1, "Dinner with Tin Owls at the Copper Hall last night.", "2024-05-12")
    assert ask("Where did my workmate's band play in May 2024?", slices=(NOOR, ANSEL, owls), evidence=(dinner,)) == DONT_KNOW


def test_a_member_of_a_group_is_named_after_its_part_in_it() -> None:
    owls = EntitySlice("Tin Owls", "Tin Owls is a band.", ("As it happens the bassist in Tin Owls is Cal Rees.",))
    cal = EntitySlice("Cal Rees", "Cal Rees plays bass.", ("Cal Rees's wife Wren is lovely.",))
    wren = EntitySlice("Wren", "Wren is Cal's wife.", ())
    moved = turn(1, "Wren left for Lyon this morning.", "2024-10-02")
    question = "Where does the wife of the bassist in my workmate's band live these days?"
    assert ask(question, slices=(NOOR, ANSEL, owls, cal, wren), evidence=(moved,)) == "Lyon"


def test_what_the_group_hop_cannot_answer_is_still_read_from_its_member() -> None:
    owls = EntitySlice("Tin Owls", "Tin Owls is a band.", ("Tin Owls rehearse on Thursdays.",))
    ansel = EntitySlice("Ansel", "Ansel is Noor's workmate.", ("Ansel plays keys in a band called Tin Owls.",))
    gig = turn(1, "Ansel's band played at the Copper Hall on Friday.", "2024-05-12")
    assert ask("What is Ansel's band called?", slices=(NOOR, ansel, owls)) == "Tin Owls"
    assert ask("Where did Ansel's band play?", slices=(NOOR, ansel, owls), evidence=(gig,)) == "Copper Hall"


def test_a_where_question_is_not_parsed_unless_a_note_could_stand_in_for_its_verb() -> None:
    """Reading a where/when question's verb loads the parser on a cold ask: it is read only
    for a sentence that opens like a note ("Ines at the Copper Hall ...")."""
    from memhop.core.engines.offline import grammar

    said = turn(1, "Ines played at the Copper Hall on 2 June 2024.", "2024-06-02")
    grammar.parsed.cache_clear()
    assert ask("Where did Ines play?", evidence=(said,)) == "Copper Hall"
    assert grammar.parsed.cache_info().misses == 0


def test_a_note_dated_inside_the_questions_period_says_where_a_band_played() -> None:
    """"Tin Owls at the Crescent last night", a fact dated 28 June 2024: asked where the band
    played in June 2024, the period stands in for the missing verb, and the fact's own date
    (not only a turn's) places it there; a note, fact or turn, dated outside the period, or
    asked what was not done there (studying), answers nothing."""
    owls = EntitySlice("Tin Owls", "Tin Owls is a band.", ("Tin Owls at the Crescent last night (on 28 June 2024).",))
    assert ask("Where did Tin Owls play in June 2024?", slices=(NOOR, owls)) == "Crescent"
    assert ask("Where did Tin Owls play in March 2024?", slices=(NOOR, owls)) == DONT_KNOW
    assert ask("Where were Tin Owls in June 2024?", slices=(NOOR, owls)) == "Crescent"  # a copula asks where they were
    note = turn(1, "Ines at the Louvre, with Tomas.", "2019-05-03")
    assert ask("Where did Ines study in May 2019?", evidence=(note,)) == DONT_KNOW
    assert ask("Where did Ines go in May 2019?", evidence=(note,)) == "Louvre"
    assert ask("Where did Ines go in June 2019?", evidence=(note,)) == DONT_KNOW
    assert ask("Where were Tin Owls in March 2024?", slices=(NOOR, owls)) == DONT_KNOW


def test_when_s_asks_what_when_is_does() -> None:
    """"When's the recital?" is a "when" question about the recital, as "When is ...?" is:
    a sentence about another event is no answer, and the answer is a date, not a sentence."""
    other = turn(1, "The recital hall is lovely. The parade is on 28 April.", "2024-04-02")
    assert ask("When is the recital?", evidence=(other,)) == DONT_KNOW
    assert ask("When's the recital?", evidence=(other,)) == DONT_KNOW
    said = turn(2, "The recital is on 28 April, and I'm so nervous.", "2024-04-02")
    assert ask("When's the recital?", evidence=(said,)) == "28 April 2024"


def test_a_perfect_progressive_yes_no_asks_of_the_time_up_to_now() -> None:
    """"Has Tomas been going to the gym?" asks, as "has he gone?" does, whether it happened:
    a past sentence saying so answers it."""
    gym = turn(1, "Tomas went to the gym on Monday.", "2024-06-12")
    assert ask("Has Tomas been going to the gym?", evidence=(gym,)) == "Yes"
    lisbon = turn(1, "Tomas lived in Lisbon for a year.", "2024-06-12")
    assert ask("Has Tomas been living in Lisbon?", evidence=(lisbon,)) == "Yes"


def test_a_when_question_about_it_names_its_event_by_the_verb() -> None:
    """"When did it snow?" asks of the snowing, not of something said before ("when is it?")."""
    snow = turn(1, "It snowed on the hills on 3 February.", "2024-02-10")
    assert ask("When did it snow?", evidence=(snow,)) == "3 February 2024"
    assert ask("When is it?", evidence=(snow,)) == DONT_KNOW


def test_who_did_it_is_the_subject_of_the_clause_that_says_it() -> None:
    """"Who cooked dinner?" is the one the sentence says cooked it: the writer of a sentence
    with no subject, the "by" of a passive, nobody the sentence names ("my sister", "we")."""
    def who(question: str, text: str) -> str:
        return ask(question, evidence=(turn(1, text, "2024-05-12"),))
    assert who("Who cooked dinner?", "Cooked dinner for everyone tonight.") == "Noor Haddad"
    assert who("Who won the quiz?", "The quiz was won by Marek.") == "Marek"
    assert who("Who visited Tomas?", "Tomas was visited by Ines on Sunday.") == "Ines"
    assert who("Who was invited to the wedding?", "Marek was invited to the wedding by Ines.") == "Marek"
    assert who("Who is bringing the tent?", "My sister is bringing the tent.") == DONT_KNOW  # not the writer
    assert who("Who is bringing the tent?", "We are bringing the tent.") == DONT_KNOW


def test_a_preposition_left_at_the_end_asks_for_its_object() -> None:
    allergy = turn(1, "Had to be careful at dinner: Ines is allergic to walnuts, so we changed the plan.", "2024-03-01")
    assert ask("What is Ines allergic to?", evidence=(allergy,)) == "walnuts"
    skill = turn(2, "Ines is annoyingly good at darts.", "2024-03-02")
    assert ask("What is Ines good at?", evidence=(skill,)) == "darts"


def test_the_current_job_is_the_role_taken_up_not_the_one_left() -> None:
    being = turn(1, "Ines had a long week at work; being a paramedic is no joke.", "2024-03-01")
    assert ask("What is the current job of Ines?", evidence=(being,)) == "paramedic"
    switched = turn(2, "Last week Ines quit her job as a florist and started as a surveyor.", "2024-03-08")
    assert ask("What is Ines's new job?", evidence=(switched,)) == "surveyor"
    no_role = turn(3, "Ines had a long week at work.", "2024-03-09")
    assert ask("What is Ines's current job?", evidence=(no_role,)) == DONT_KNOW


def test_a_weekday_is_no_place() -> None:
    chess = turn(1, "Ines plays chess on Sundays.", "2024-03-01")
    assert ask("Where does Ines play chess?", evidence=(chess,)) == DONT_KNOW
    club = turn(2, "Ines plays chess at the Rook & Pawn on Sundays.", "2024-03-02")
    assert ask("Where does Ines play chess?", evidence=(club,)) == "Rook & Pawn"


def test_who_is_never_answered_by_a_known_place() -> None:
    """"see if she can get down from Leeds" holds the question's verb and a known name, but
    Leeds is a town: a who-question wants someone, so it is refused."""
    leeds = EntitySlice("Leeds", "Leeds is a city in the north.", (), "place")
    wrote = turn(1, "Ines will see if she can get down from Leeds.", "2024-05-02")
    assert ask("Who is Ines seeing now?", slices=(NOOR, TOMAS, INES, leeds), evidence=(wrote,)) == DONT_KNOW
    said = TurnView(2, "Ines", "I'll see if I can get down from Leeds", datetime(2024, 5, 2), "2024-05-02#2")
    assert ask("Who is Ines seeing now?", slices=(NOOR, TOMAS, INES, leeds), evidence=(said,)) == DONT_KNOW
    # someone known as a person still answers
    bryn = EntitySlice("Bryn", "Bryn is Ines's boyfriend.", (), "person")
    dating = turn(3, "Ines is seeing Bryn, who she met at the climbing wall.", "2024-05-03")
    assert ask("Who is Ines seeing now?", slices=(NOOR, TOMAS, INES, leeds, bryn), evidence=(dating,)) == "Bryn"
    # an organisation answers who someone works for
    firm = EntitySlice("Harrow Freight", "Harrow Freight is a haulage firm.", (), "org")
    job = turn(4, "Ines works for Harrow Freight in the depot.", "2024-05-04")
    assert ask("Who does Ines work for?", slices=(NOOR, TOMAS, INES, firm), evidence=(job,)) == "Harrow Freight"
    # a person the store misfiled as a place still answers where the sentence has them act
    cosmo = EntitySlice("Cosmo", "Cosmo is a neighbour.", (), "place")
    fixed = turn(5, "Cosmo fixed the garden gate for Ines.", "2024-05-05")
    assert ask("Who fixed the garden gate?", slices=(NOOR, TOMAS, INES, cosmo), evidence=(fixed,)) == "Cosmo"


def test_a_favourite_of_another_kind_is_no_answer() -> None:
    """"her favourite stew" names a stew: it answers no question about her favourite
    colour, and "her favourite cuisine" nothing she likes to drink."""
    stew = turn(1, "Ines cooked goulash again, it's her favourite stew.", "2024-05-02")
    assert ask("What is the favourite colour of Ines?", evidence=(stew,)) == DONT_KNOW
    food = turn(2, "Ines loves Basque food; her favourite cuisine, no contest.", "2024-05-03")
    assert ask("What does Ines like to drink most?", evidence=(food,)) == DONT_KNOW
    tea = turn(3, "Ines ordered rooibos, her favourite drink.", "2024-05-04")
    assert ask("What does Ines like to drink most?", evidence=(food, tea)) == "rooibos"


def test_what_is_played_must_be_of_the_kind_asked() -> None:
    """"play the X" is an instrument or a part, never a sport; a capitalised object is a
    piece, and the instrument is the one it was played on."""
    cello = turn(1, "Tomas plays the harpsichord in a baroque ensemble.", "2024-05-02")
    assert ask("Which sport does Tomas play?", evidence=(cello,)) == DONT_KNOW
    piece = turn(2, "Tomas played Jerusalem on the euphonium at the fete.", "2024-05-03")
    assert ask("What instrument does Tomas play?", evidence=(piece,)) == "euphonium"
    assert ask("Which sport does Tomas play?", evidence=(piece,)) == DONT_KNOW
    bare = turn(3, "Tomas plays netball with the university club.", "2024-05-04")
    assert ask("Which sport does Tomas play?", evidence=(bare,)) == "netball"


def test_a_judgement_is_no_class() -> None:
    """"Biscuit is a menace" says what the family thinks of the dog, not its breed."""
    biscuit = EntitySlice("Biscuit", "Biscuit is Tomas's dog.", ("Biscuit is an absolute menace.",))
    assert ask("What breed is Tomas's dog?", slices=(TOMAS, biscuit)) == DONT_KNOW
    bred = EntitySlice("Biscuit", "Biscuit is Tomas's dog.", ("Biscuit is an absolute menace.", "Biscuit is a basset hound."))
    assert ask("What breed is Tomas's dog?", slices=(TOMAS, bred)) == "basset hound"


def test_a_part_is_a_place_only_as_a_part_of_somewhere() -> None:
    """"What part did Ines get in the play?" asks for a role: "to Sunrise", a song's title,
    is no place that answers it; "which part of Leeds" still asks for one."""
    song = EntitySlice("Sunrise", "Sunrise is mentioned.", (), "person")
    tune = turn(1, "Ines played us Hymn to Sunrise on the violin, twice.", "2024-05-02")
    assert ask("What part did Ines get in the school play?", slices=(NOOR, TOMAS, INES, song), evidence=(tune,)) == DONT_KNOW
    home = turn(2, "Ines lives in Headingley, on the north side of Leeds.", "2024-05-03")
    assert ask("Which part of Leeds does Ines live in?", evidence=(home,)) == "Headingley"


def test_we_in_a_question_is_the_writer_not_another_speaker() -> None:
    """"Which venues did we look at?" asks what the writer did: another chat speaker's
    "Priya and I are looking at a flat" is their doing, not the asker's."""
    theirs = TurnView(1, "Tomas", "Priya and I are looking at a flat in Hove.", datetime(2024, 5, 2), "2024-05-02#1")
    assert ask("Which wedding venues did we look at?", evidence=(theirs,)) == DONT_KNOW
    ours = turn(2, "We looked at the old mill and the tithe barn.", "2024-05-03")
    assert ask("Which wedding venues did we look at?", evidence=(theirs, ours)) == "old mill and the tithe barn"
