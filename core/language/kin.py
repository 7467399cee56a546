"""Words for one's parents and grandparents, in the languages diaries are written in.

Each stands for one person, so it works like "Mum" does: as an alias ("Mum (Leena)",
"my oma, Greta") or as the name itself ("Oma is Dad's mum"). A word used in several
languages with different meanings keeps all of them, and no gender when they disagree.

Left out on purpose: words that are common given names or English words as well ("Lola",
"Ama", "Anne", "Nine", "Tía"), and the Hindi "nana" (maternal grandfather), since in
English "Nana" is a grandmother and that reading is kept.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kin:
    meaning: str  # the English word: "grandmother"; "father or grandmother" when usage differs
    gender: str | None  # "f" / "m"; None where the languages disagree or the word is neutral
    languages: str


# (languages, meaning, gender, words)
_TABLE: tuple[tuple[str, str, str | None, str], ...] = (
    ("English", "mother", "f", "mum mom mother mummy mommy momma mama ma mam mammy"),
    ("English", "father", "m", "dad father daddy pa papa pappa"),
    ("English", "grandmother", "f", "grandma grandmother grandmama gran granny nan nana nanna mamaw meemaw"),
    ("English", "grandfather", "m", "grandpa grandfather grandpapa grandad granddad granda grandda gramps grampa grampy papaw"),  # noqa: E501
    ("Welsh", "grandmother", "f", "nain mamgu"),
    ("Welsh", "grandfather", "m", "taid tadcu bampi"),
    ("Irish", "grandmother", "f", "mamó maimeó"),
    ("Irish", "grandfather", "m", "daideó"),
    ("German, Dutch", "grandmother", "f", "oma omi"),
    ("German, Dutch", "grandfather", "m", "opa opi"),
    ("German", "mother", "f", "mutti"),
    ("German", "father", "m", "vati"),
    ("Swedish, Norwegian, Danish", "grandmother", "f", "mormor farmor"),
    ("Swedish, Norwegian, Danish", "grandfather", "m", "morfar farfar"),
    ("Finnish", "grandmother", "f", "mummo mummi"),
    ("Finnish", "grandfather", "m", "vaari ukki"),
    ("Finnish", "mother", "f", "äiti"),
    ("Hungarian", "grandmother", "f", "nagymama"),
    ("Hungarian", "grandfather", "m", "nagypapa"),
    ("Romanian", "grandmother", "f", "bunica"),
    ("Romanian", "grandfather", "m", "bunicul"),
    ("Polish", "grandmother", "f", "babcia babunia"),
    ("Polish", "grandfather", "m", "dziadek dziadzio dziadziu"),
    ("Polish", "father", "m", "tata tatuś"),
    ("Czech, Slovak", "grandmother", "f", "babička"),
    ("Czech, Slovak", "grandfather", "m", "děda dědeček"),
    ("Russian, Ukrainian", "grandmother", "f", "babushka babulya baba"),
    ("Russian, Ukrainian, Serbian", "grandfather", "m", "dedushka deda dedulya"),
    ("Serbian, Croatian, Bosnian", "grandmother", "f", "baka"),
    ("Croatian, Bosnian", "grandfather", "m", "djed"),
    ("Greek", "grandmother", "f", "yiayia giagia yaya"),
    ("Greek", "grandfather", "m", "pappous pappou papou papu"),
    ("Italian", "grandmother", "f", "nonna"),
    ("Italian", "grandfather", "m", "nonno"),
    ("Italian", "mother", "f", "mamma"),
    ("Italian", "father", "m", "babbo papà"),
    ("French", "grandmother", "f", "mamie mamy mémé grand-mère bonne-maman"),
    ("French", "grandfather", "m", "papi papy pépé grand-père bon-papa"),
    ("French, Persian", "mother", "f", "maman"),
    ("Spanish", "grandmother", "f", "abuela abuelita"),
    ("Spanish", "grandfather", "m", "abuelo abuelito"),
    ("Spanish", "mother", "f", "mamá mami"),
    ("Spanish", "father", "m", "papá papi"),
    ("Portuguese", "grandmother", "f", "avó vovó"),
    ("Portuguese", "grandfather", "m", "avô vovô"),
    ("Portuguese", "mother", "f", "mãe mamãe"),
    ("Portuguese", "father", "m", "pai papai"),
    ("Yiddish", "grandmother", "f", "bubbe bubby bubbie"),
    ("Yiddish", "grandfather", "m", "zayde zaidy zeidy"),
    ("Hebrew", "grandmother", "f", "savta"),
    ("Hebrew", "grandfather", "m", "saba"),
    ("Hebrew", "mother", "f", "ima"),
    ("Hebrew, Urdu", "father", "m", "abba"),
    ("Arabic", "grandmother", "f", "teta sitti sitto"),
    ("Arabic", "grandfather", "m", "jiddo jeddo"),
    ("Arabic, Persian, Turkish, Hindi, Swahili, Mandarin, Yoruba", "father", "m", "baba"),
    ("Turkish", "grandmother", "f", "babaanne anneanne"),
    ("Turkish", "grandfather", "m", "dede"),
    ("Hindi, Urdu, Punjabi", "grandmother", "f", "nani dadi naniji dadiji"),
    ("Hindi, Urdu, Punjabi", "grandfather", "m", "dada dadaji nanaji"),
    ("Hindi, Urdu, Punjabi", "mother", "f", "ammi maa"),
    ("Urdu", "father", "m", "abbu"),
    ("Bengali", "grandmother", "f", "thakuma dida"),
    ("Bengali", "grandfather", "m", "dadu thakurda"),
    ("Tamil, Telugu, Kannada, Malayalam", "grandmother", "f", "paati ammamma ajji"),
    ("Tamil, Telugu, Kannada", "grandfather", "m", "thatha thaatha ajja"),
    ("Tamil, Telugu, Malayalam, Kannada", "mother", "f", "amma"),
    ("Tamil, Telugu, Malayalam, Kannada, Korean", "father", "m", "appa"),
    ("Mandarin", "grandmother", "f", "nainai laolao waipo"),
    ("Mandarin", "grandfather", "m", "yeye laoye waigong"),
    ("Cantonese", "grandmother", "f", "popo"),
    ("Japanese", "grandmother", "f", "obaachan obaa-chan obaasan obaa-san baachan baa-chan"),
    ("Japanese", "grandfather", "m", "ojiichan ojii-chan ojiisan ojii-san jiichan jii-chan"),
    ("Japanese", "mother", "f", "okaasan okaa-san kaachan"),
    ("Japanese", "father", "m", "otousan otou-san tousan touchan"),
    ("Korean", "grandmother", "f", "halmeoni halmoni halmi"),
    ("Korean", "grandfather", "m", "harabeoji harabuji halabeoji"),
    ("Korean", "mother", "f", "eomma umma omma eomeoni omoni"),
    ("Korean", "father", "m", "abeoji aboji"),
    ("Filipino", "grandfather", "m", "lolo"),
    ("Filipino", "mother", "f", "nanay inay"),
    ("Filipino", "father", "m", "tatay itay"),
    ("Swahili", "grandmother", "f", "bibi"),
    ("Swahili", "grandfather", "m", "babu"),
    ("Yoruba", "mother", "f", "iya maami"),
    ("Igbo", "mother", "f", "nne"),
    ("Igbo", "father", "m", "nna"),
    ("Hawaiian", "grandparent", None, "tutu"),
)


def _build() -> dict[str, Kin]:
    table: dict[str, Kin] = {}
    for languages, meaning, gender, words in _TABLE:
        for word in words.split():
            seen = table.get(word)
            if seen is None:
                table[word] = Kin(meaning, gender, languages)
            elif seen.meaning != meaning:  # "baba": a father in Arabic, a grandmother in Russian
                table[word] = Kin(f"{seen.meaning} or {meaning}", seen.gender if seen.gender == gender else None,
                                  f"{seen.languages}; {languages}")
    return table


KIN_WORDS: dict[str, Kin] = _build()


def kin_meaning(word: str) -> str | None:
    """"grandmother" for "Oma" or "oma"; None for a word that is not a kin word."""
    kin = KIN_WORDS.get(word.lower())
    return kin.meaning if kin else None
