"""Token estimates and cutting a prompt to a context window, without a tokenizer.

The server's own tokenizer (Llama, Qwen, GPT BPEs) is not available here, so tokens are
counted by pieces: an ASCII word is one token per 8 letters begun (BPE vocabularies hold
the common English words whole), every digit is one (Qwen and Llama 3 split numbers into
digits, and the prompts carry ids, dates and times), every punctuation mark is one (JSON
quotes and braces merge less than prose), and a word in another script one per 3 bytes
of UTF-8 (about a token a character for Chinese, more than enough for Cyrillic). This errs
high, by design: a prompt is cut a little early, never sent over the window. On the
shipped prompts' English instructions it is within 10% of the MiniLM WordPiece counts of
core/embed; that tokenizer was not used because it is not the server's either (an uncased
English vocabulary), its `token_counts` truncates at 256 tokens, and it costs a file load.
`ingest --plan` counts its prompt tokens with `message_tokens` too (core/plan.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

BYTES_PER_TOKEN = 3  # for words in other scripts, and for cutting a text to a token count
LETTERS_PER_TOKEN = 8  # for ASCII words
MESSAGE_OVERHEAD = 4  # role and separators a chat template adds per message
REPLY_PRIMER = 3  # the assistant header the template opens the reply with
SAFETY = 32  # tokens kept free beyond the reply's max_tokens
T = TypeVar("T")
_WORD = re.compile(r"[^\W\d_]{3,}|\d+")
# Words too common to say what a fact is about.
_COMMON = frozenset(
    """the and for with was were that this have has had from about they them their there what when
    which who will would into over after before also just very some then than been are not but his
    her she him its our you your one two all any can did does out off too got get""".split()
)
_PIECE = re.compile(r"[^\W\d_]+|\d|[^\w\s]|_")


def estimate_tokens(text: str) -> int:
    """A high-side estimate of the tokens a model's tokenizer makes of `text`."""
    total = 0
    for piece in _PIECE.findall(text):
        if piece.isascii():
            total += 1 + (len(piece) - 1) // LETTERS_PER_TOKEN if piece.isalpha() else 1
        else:
            total += -(-len(piece.encode("utf-8")) // BYTES_PER_TOKEN)
    return total


def message_tokens(messages: Sequence[Mapping[str, str]]) -> int:
    """The estimated prompt tokens of chat messages, template overhead included."""
    return sum(estimate_tokens(m["content"]) + MESSAGE_OVERHEAD for m in messages) + REPLY_PRIMER


def prompt_budget(context_tokens: int, max_tokens: int) -> int:
    """Tokens a prompt may take so that the reply's max_tokens still fit the window."""
    return context_tokens - max_tokens - SAFETY


def fit(count: int, cost: Callable[[int], int], budget: int) -> int:
    """The largest k <= count with cost(k) <= budget (cost grows with k), or 0.

    Binary search: a prompt is rendered about log2(count) times, not count times."""
    if cost(count) <= budget:
        return count
    low, high = 0, count  # cost(low) is assumed to fit (or nothing can), cost(high) does not
    while high - low > 1:
        middle = (low + high) // 2
        if cost(middle) <= budget:
            low = middle
        else:
            high = middle
    return low


def most_relevant_first(
    items: Sequence[T], text_of: Callable[[T], str], context: str, ignore: Iterable[str] = ()
) -> list[T]:
    """`items` ordered by how many of their words the context uses, most first; ties keep
    the later (newer) item first. Common words and the `ignore` words (the entity's own
    name, which every one of its facts says) do not count. Cutting the tail of this list
    drops the least relevant."""
    skip = _COMMON | {w.casefold() for text in ignore for w in _WORD.findall(text)}
    words = {w.casefold() for w in _WORD.findall(context)} - skip
    scored = [(len({w.casefold() for w in _WORD.findall(text_of(item))} & words), i) for i, item in enumerate(items)]
    return [items[i] for _, i in sorted(scored, key=lambda s: (-s[0], -s[1]))]
