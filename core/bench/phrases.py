"""The words the MemHop-style generator writes with: names, relation and attribute
vocabularies and several first-person phrasings of each observation.

Kept apart from the generator so the schema logic stays readable. Placeholders:
{a} {b} (first names), {a_poss} ("Alice's"), {a_sub}/{a_obj}/{a_pos} (pronouns of a),
{noun}, {v} (a value), {a_v} ("an espresso"), {old} and {a_old} (a previous value), {when} (a relative date), {act}.
"""

from __future__ import annotations

from dataclasses import dataclass

FEMALE = (
    "Alice", "Carol", "Priya", "Hannah", "Ines", "Marta", "Yuki", "Zoe", "Leila", "Grace",
    "Nadia", "Olga", "Freya", "Chloe", "Amara", "Beatriz", "Sofia", "Elena", "Wanda", "Ruth",
    "Tamsin", "Keiko", "Lucia", "Maren", "Esther", "Fatima", "Greta", "Isla", "Joanna", "Kira",
)
MALE = (
    "Bob", "Dev", "Tomas", "Felix", "Omar", "Jonas", "Kenji", "Luca", "Arjun", "Hugo",
    "Mateo", "Pavel", "Rafael", "Samir", "Theo", "Victor", "Elliot", "Bruno", "Caleb", "Dmitri",
    "Emil", "Gideon", "Idris", "Jasper", "Kofi", "Lorenzo", "Malik", "Nico", "Oscar", "Quentin",
)
SURNAMES = (
    "Kowalski", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Haddad", "Novak", "Ferreira",
    "Brennan", "Castillo", "Iyer", "Jansen", "Kaur", "Laurent", "Mendes", "Nakamura",
    "Oduya", "Petrov", "Quinn", "Rossi", "Sato", "Torres", "Umarov", "Varga", "Walsh",
)
# Pet and place names are distinctive words: a first token like "Blue" would match any
# "blue" in the diary under the name rule of appendix A.
PET_NAMES = ("Rex", "Mochi", "Ziggy", "Clementine", "Bramble", "Pippin", "Biscotti", "Waldo",
             "Marzipan", "Tinkerbell", "Gizmo", "Fidget", "Bartholomew", "Kumquat", "Noodleman", "Zorro")
BREEDS = {
    "dog": ("beagle", "greyhound", "dachshund", "collie", "poodle", "whippet"),
    "cat": ("tabby", "siamese", "maine coon", "sphynx", "ragdoll"),
    "rabbit": ("lop", "lionhead", "dutch rabbit"),
    "parrot": ("cockatiel", "macaw", "lovebird"),
}
SPECIES = tuple(BREEDS)
PLACE_FIRST = ("Halloran", "Mirabel", "Ostrova", "Kestrel", "Penrose", "Lindenhof", "Carraway",
               "Tamsworth", "Quillon", "Marlowe")
PLACE_TYPES = ("Café", "Bakery", "Bookshop", "Clinic", "Studio", "Garage", "Brewery", "Gallery")


@dataclass(frozen=True)
class RelationType:
    """A functional relation: each entity has at most one partner per side."""

    name: str
    forward: str  # the target seen from the source: "Alice's <forward>" is the target
    inverse: str  # the source seen from the target
    symmetric: bool = False
    gendered: tuple[str, str] | None = None  # (female, male) nouns for the target


PERSON_RELATIONS: tuple[RelationType, ...] = (
    RelationType("roommate", "roommate", "roommate", symmetric=True),
    RelationType("sibling", "sibling", "sibling", symmetric=True, gendered=("sister", "brother")),
    RelationType("cousin", "cousin", "cousin", symmetric=True),
    RelationType("partner", "partner", "partner", symmetric=True),
    RelationType("best_friend", "best friend", "best friend", symmetric=True),
    RelationType("neighbour", "neighbour", "neighbour", symmetric=True),
    RelationType("coworker", "coworker", "coworker", symmetric=True),
    RelationType("climbing_partner", "climbing partner", "climbing partner", symmetric=True),
    RelationType("mentor", "mentor", "mentee"),
    RelationType("boss", "boss", "intern"),
    RelationType("landlord", "landlord", "tenant"),
    RelationType("cooking_teacher", "cooking teacher", "cooking student"),
)
PET_RELATION = RelationType("pet", "pet", "owner")  # forward noun replaced by the species
WORK_RELATION = RelationType("works_at", "workplace", "the person who works there")


@dataclass(frozen=True)
class Slot:
    """An attribute kind: its values, how a diary states it, how a question asks it."""

    name: str
    kind: str  # person | pet | place
    values: tuple[str, ...]
    said: tuple[str, ...]  # about someone else ({a} is the holder)
    said_self: tuple[str, ...]  # about the diarist
    asked: tuple[str, ...]  # {np} is the noun phrase of the holder
    changed: tuple[str, ...] = ()  # a state change from {old} to {v}


PERSON_SLOTS: tuple[Slot, ...] = (
    Slot("instrument", "person",
         ("piano", "cello", "violin", "guitar", "drums", "saxophone", "flute", "ukulele", "trumpet", "harp"),
         ("{a} played the {v} for us after dinner, and honestly {a_sub} was brilliant.",
          "{a} has been practising the {v} every evening; the whole street can hear it.",
          "Went to a tiny gig to hear {a} play the {v}."),
         ("Practised the {v} for an hour before bed.", "My {v} teacher says I'm finally improving."),
         ("What instrument does {np} play?", "Which instrument does {np} play?")),
    Slot("cuisine", "person",
         ("Italian", "Thai", "Ethiopian", "Mexican", "Japanese", "Lebanese", "Korean", "Peruvian", "Greek", "Vietnamese"),
         ("{a} picked the {v} place again. {v} food is {a_pos} favourite cuisine, no contest.",
          "{a} says nothing beats {v} cooking; it's {a_pos} favourite cuisine.",
          "Cooked {v} for {a} since it's {a_pos} favourite cuisine."),
         ("Made {v} food for myself tonight; still my favourite cuisine.",),
         ("What is the favourite cuisine of {np}?", "Which cuisine does {np} like best?")),
    Slot("hometown", "person",
         ("Lisbon", "Krakow", "Leeds", "Dublin", "Valencia", "Tucson", "Osaka", "Bergen", "Nairobi", "Porto", "Ghent", "Halifax"),
         ("{a} told me stories about growing up in {v}.", "{a} grew up in {v} and still misses the sea air.",
          "{a} is flying back to {v}, where {a_sub} grew up, for a wedding."),
         ("Called Mum; she still lives in {v}, where I grew up.",),
         ("Where did {np} grow up?", "In which city did {np} grow up?")),
    Slot("job", "person",
         ("nurse", "architect", "paramedic", "teacher", "software engineer", "pharmacist", "electrician",
          "librarian", "journalist", "accountant", "physiotherapist", "carpenter"),
         ("{a} had a brutal week at work; being {a_v} is no joke.", "{a} works as {a_v} and loves it."),
         ("Another long day. Being {a_v} pays the bills, I suppose.",),
         ("What does {np} do for a living now?", "What is the current job of {np}?"),
         ("{when} {a} quit {a_pos} job as {a_old} and started as {a_v}.",
          "Big news: {a} is no longer {a_old}. {a_sub_cap} started work as {a_v} {when_lower}.")),
    Slot("city", "person",
         ("Bristol", "Lyon", "Utrecht", "Glasgow", "Seville", "Montreal", "Aarhus", "Bologna", "Tampere", "Cork"),
         ("{a} lives in {v} these days.", "Took the train to {v} to see {a}, who lives there."),
         ("Still can't get used to how grey {v} is in winter, but it's home.",),
         ("Which city does {np} live in now?", "Where does {np} live now?"),
         ("{when} {a} moved from {old} to {v}.", "{a} finally left {old}; {a_sub} moved to {v} {when_lower}.")),
    Slot("sport", "person",
         ("tennis", "badminton", "volleyball", "rugby", "squash", "basketball", "table tennis", "hockey", "cricket"),
         ("{a} plays {v} every Sunday morning.", "{a} won {a_pos} {v} match {when_lower}."),
         ("Played {v} after work; my knees are not happy.",),
         ("What sport does {np} play?", "Which sport does {np} play?")),
    Slot("allergy", "person",
         ("peanuts", "shellfish", "cats", "pollen", "penicillin", "strawberries", "sesame", "kiwi"),
         ("{a} is allergic to {v}, so we changed the plan.", "Had to be careful at lunch: {a} is allergic to {v}."),
         ("My allergy to {v} flared up again.",),
         ("What is {np} allergic to?",)),
    Slot("drink", "person",
         ("espresso", "matcha", "chai", "lemonade", "kombucha", "hot chocolate", "cold brew", "mint tea"),
         ("{a} ordered {a_v}, as always; it's {a_pos} favourite drink.", "{a} can't start the day without {a_v}."),
         ("Treated myself to {a_v}.",),
         ("What is the favourite drink of {np}?", "What does {np} like to drink most?")),
)
PET_SLOTS: tuple[Slot, ...] = (
    Slot("breed", "pet", tuple(b for breeds in BREEDS.values() for b in breeds),  # drawn per species
         ("{a} is {a_v}, which explains a lot.", "The vet confirmed that {a} is a pure {v}."), (),
         ("What breed is {np}?",)),
    Slot("toy", "pet", ("squeaky duck", "tennis ball", "rope knot", "felt mouse", "rubber bone", "feather wand"),
         ("{a}'s favourite toy is a battered {v}.", "{a} would not let go of the {v}, {a_pos} favourite toy."), (),
         ("What is the favourite toy of {np}?",)),
    Slot("age", "pet", ("2", "3", "4", "5", "6", "7", "9", "11"),
         ("{a} turned {v} {when_lower}; we got a tiny cake.", "Hard to believe {a} is already {v} years old."), (),
         ("How old is {np}?",)),
)
PLACE_SLOTS: tuple[Slot, ...] = (
    Slot("street", "place", ("Elm Street", "Harbour Road", "Castle Lane", "Market Square", "Mill Road", "Station Street"),
         ("{a} is on {v}, just past the bridge.", "Walked down {v} to {a}."), (),
         ("What street is {np} on?",)),
    Slot("opened", "place", ("1987", "1994", "2003", "2011", "2016", "2019"),
         ("{a} opened in {v}, according to the sign by the door.", "Learned that {a} has been around since {v}."), (),
         ("In what year did {np} open?",)),
    Slot("specialty", "place", ("cinnamon rolls", "rare maps", "sourdough", "vintage posters", "cold brew", "ceramics"),
         ("{a} is famous for its {v}.", "Everyone goes to {a} for the {v}."), (),
         ("What is {np} famous for?",)),
)


def slot_named(name: str) -> Slot:
    return next(s for s in PERSON_SLOTS + PET_SLOTS + PLACE_SLOTS if s.name == name)


WHEN = ("Yesterday", "This morning", "Last Saturday", "Two days ago", "On Friday", "Last week", "Tonight")
ACTS = (
    "helped me carry a bookshelf up three flights of stairs", "came over for tea and stayed until midnight",
    "sent me a long voice note about nothing in particular", "lent me an umbrella when the rain started",
    "cooked far too much pasta for everyone", "dragged me to a pub quiz", "fixed the wobbly kitchen table",
    "brought round a box of plums from the market",
)
RELATION_SAID = (
    "{when}, {a_poss} {noun} {b} {act}.",
    "Had coffee with {a} and {a_pos} {noun} {b}.",
    "{b} ({a_poss} {noun}) joined us for dinner.",
    "{a} told me that {b} has been {a_pos} {noun} for years now.",
    "Bumped into {b} at the market; {a_poss} {noun} always seems to be there on Saturdays.",
)
RELATION_SAID_SELF = (
    "{when}, my {noun} {b} {act}.",
    "Spent the evening with my {noun} {b}.",
    "Texted {b}, my {noun}, about the weekend.",
    "{b} has been my {noun} for ages and still laughs at my jokes.",
)
PET_SAID = (
    "{when}, {a_poss} {noun} {b} chewed through my shoelace.",
    "{a} adopted a {noun} called {b} a while back; {b} is a menace.",
    "Looked after {b}, {a_poss} {noun}, while {a_sub} was away.",
)
PET_SAID_SELF = ("{when}, my {noun} {b} knocked a mug off the table.", "Took my {noun} {b} to the park.")
WORK_SAID = (
    "Visited {a} at {b}, where {a_sub} works.",
    "{a} has been working at {b} for a while now.",
    "Met {a} after {a_pos} shift at {b}.",
)
WORK_SAID_SELF = ("Long day at {b}; work has been hectic.", "Locked up at {b} late again; I swear I live at work.")
MENTION_ONLY = (
    "Had a quick lunch with {a}.", "{a} called, but I missed it.", "Saw {a} across the street and waved.",
    "Walked home with {a} after the film.", "{a} recommended a podcast; I'll never get round to it.",
)
FILLER = (
    "Rainy day. Stayed in and finished my book.", "Work was slow; answered emails most of the afternoon.",
    "Went for a long run along the river.", "Tried a new bread recipe. It did not rise.",
    "Cleaned the flat top to bottom and felt like a new person.", "Slept badly; the neighbours had a party.",
    "Watered the plants and repotted the fern.", "Paid bills. Very glamorous evening.",
    "The bus was late again, so I walked.", "Found a great second-hand jacket at the flea market.",
    "Spent the evening planning a trip I probably won't take.", "Quiet evening. Made soup.",
    "Forgot my keys and had to wait for the locksmith.", "Started a jigsaw puzzle of a lighthouse.",
    "Wrote letters for the first time in years.", "Went to the museum's late opening.",
)
ACQUAINTANCE = (
    "Met {a}, a friend of a friend, at a party; {a_sub} seemed nice.",
    "{a} from my evening class stayed behind to chat.",
)
