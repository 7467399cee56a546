"""Numbers written in words, as a reader compares them: "forty" is 40, "one hundred" 100,
"a dozen" 12, "a couple of" 2. One home for the number words the answerer, the date reader
and the question reader share; "a few" and "several" are counts of no exact size."""

from __future__ import annotations

import re

UNIT_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen"
).split()
TENS = {w: 10 * i for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if w != "_"}
_SCALES = {"hundred": 100, "thousand": 1000}
# one number word, or a compound of tens and units ("forty-one"): longest forms first
SIMPLE_NUMBER = rf"(?:(?:{'|'.join(TENS)})(?:-(?:{'|'.join(UNIT_WORDS[1:10])}))?|{'|'.join(reversed(UNIT_WORDS))})"
# "one hundred and twenty", "a dozen", "a couple of", "several": a number said in words
WORD_NUMBER = (
    rf"(?:{SIMPLE_NUMBER}|a)\s+(?:hundred|thousand)(?:\s+(?:and\s+)?{SIMPLE_NUMBER})?"
    rf"|{SIMPLE_NUMBER}|hundreds|thousands|a\s+dozen|dozens?|a\s+couple\s+of|couple\s+of|a\s+few|several"
)


def value(words: str) -> int | None:
    """The number a count in words says, or None when it says none exactly ("a few")."""
    total = current = 0
    tokens = [t for t in re.split(r"[\s-]+", words.strip().lower()) if t and t not in ("and", "of")]
    if not tokens:
        return None
    for i, token in enumerate(tokens):
        if token in ("a", "an"):
            current = 1
        elif token in UNIT_WORDS:
            current += UNIT_WORDS.index(token)
        elif token in TENS:
            current += TENS[token]
        elif token == "dozen":
            current = max(current, 1) * 12
        elif token == "couple":
            current = 2
        elif token in _SCALES and i > 0:
            total += max(current, 1) * _SCALES[token]
            current = 0
        else:
            return None
    return total + current


def as_digits(count: str) -> str:
    """"thirty" -> "30", "twenty-two" -> "22", "one hundred" -> "100", "a dozen" -> "12":
    a count written in words, as a reader would compare it; anything else as it was."""
    number = value(count)
    return count if number is None else str(number)


# Money: the words and ISO codes a price is written with ("£3.40" carries a sign instead).
CURRENCY_CODES = frozenset("eur usd gbp chf sek nok dkk pln inr jpy cad aud".split())
CURRENCY_UNITS = frozenset(
    """pound pounds quid penny pence p euro euros cent cents dollar dollars buck bucks yen rupee rupees franc francs
    krona kronor krone kroner zloty peso pesos""".split()
) | CURRENCY_CODES
# What may follow a sum of money only in speech: "400k", "a few grand"
MONEY_SUFFIXES = frozenset({"k", "grand"})
# The units anything else is measured in — weight, volume, length, time, share — singular and
# plural: what "how much water/time" asks for ("2 kg", "three hours"), unlike a count of things
# ("6 Lego sets" answers "how many") or a price (which "how much did it cost?" asks for).
QUANTITY_UNITS = frozenset(
    """kg kgs kilo kilos kilogram kilograms g gram grams lb lbs oz ounce ounces stone tonne tonnes ton tons
    l litre litres liter liters ml millilitre millilitres pint pints gallon gallons
    km kilometre kilometres kilometer kilometers mile miles m metre metres meter meters cm mm foot feet inch inches
    yard yards hour hours hr hrs minute minutes min mins second seconds day days week weeks month months year years
    percent per cent""".split()
)
MEASURE_UNITS = CURRENCY_UNITS | QUANTITY_UNITS
