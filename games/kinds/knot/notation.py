"""Flips and spaces as text: ``HTT`` (one letter per coin, in the order flipped), ``c3u``.

A chance draw of 32 bytes gives the flips of a stack of k coins from its first byte: coin j is
tails when bit 7-j is set. Internally flips are an int of k bits, coin j at bit k-1-j.
"""

from __future__ import annotations

from collections.abc import Iterable

from celtictext import quote
from games.kinds.base import KindError
from games.kinds.knot.board import NAMES


def flips_from_draw(draw: bytes, coins: int) -> int:
    """The flips of ``coins`` coins that a chance draw gives (its first byte's top bits)."""
    return draw[0] >> (8 - coins)


def flips_text(bits: int, coins: int) -> str:
    """``HTT`` for the bits of ``coins`` flips."""
    return "".join("T" if bits >> (coins - 1 - j) & 1 else "H" for j in range(coins))


def flips_sum(text: str) -> int:
    """The points the flips give: heads 1, tails 2."""
    return len(text) + text.upper().count("T")


def is_flips(word: str) -> bool:
    """Whether ``word`` reads as flips (only H and T, any case)."""
    return bool(word) and set(word.upper()) <= {"H", "T"}


def parse_flips(text: str, coins: int) -> int:
    """The bits of flips ``text`` for a stack of ``coins`` coins; ``KindError`` says why not."""
    word = text.strip().upper()
    if not is_flips(word):
        raise KindError(
            f"{quote(text)} is not flips: expected one letter per coin, H (heads) or T (tails)."
        )
    if len(word) != coins:
        raise KindError(
            f"Flip: a stack of {coins} coin{'s' if coins != 1 else ''} makes {coins} "
            f"flip{'s' if coins != 1 else ''}, one H or T per coin; {quote(text)} has {len(word)}."
        )
    bits = 0
    for letter in word:
        bits = bits << 1 | (letter == "T")
    return bits


def names(spaces: Iterable[int]) -> str:
    """Space numbers as a comma-separated list of names, for messages."""
    return ", ".join(NAMES[space] for space in spaces)
